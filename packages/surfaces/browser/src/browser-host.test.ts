import type { BrowserContext } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { BrowserHost } from './browser-host.js'

describe('the browser host', () => {
  it('hands the next tile the context it made ready, prepared, and drops it with the browser', async () => {
    const host = new BrowserHost()
    const prepared: BrowserContext[] = []
    const prepare = async (context: BrowserContext): Promise<void> => {
      prepared.push(context)
      await context.addInitScript('window.__prepared = true')
    }
    const options = { viewport: { width: 800, height: 600 } }
    const first = await host.readyContext(options, prepare)
    host.prepareNext(options, prepare)
    // Made while the first tile runs, before anyone asks: the second tile takes it.
    await expect.poll(() => prepared.length).toBe(2)
    const second = await host.readyContext(options, prepare)
    expect(second.context).toBe(prepared[1])
    expect(await second.page.evaluate(() => (window as unknown as { __prepared?: boolean }).__prepared)).toBe(true)
    // Other options: a context of their own, not the one made for the defaults.
    host.prepareNext(options, prepare)
    await expect.poll(() => prepared.length).toBe(3)
    const other = await host.readyContext({ viewport: { width: 400, height: 300 } }, prepare)
    expect(other.context).not.toBe(prepared[2])
    expect(other.page.viewportSize()).toEqual({ width: 400, height: 300 })
    const browser = first.context.browser()
    for (const tile of [first, second, other]) {
      await tile.context.close()
      await host.release()
    }
    // The last tile gone, the browser goes, and the context made ready with it.
    expect(browser?.isConnected()).toBe(false)
  }, 60_000)
})
