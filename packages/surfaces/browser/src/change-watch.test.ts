import { type Browser, type Page, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumPath } from './browser-host.js'
import { CHANGE_WATCH_SCRIPT, NAVIGATION_GRACE_MS } from './change-watch.js'

/** A long page of linked rows, a box that scrolls on its own, and a field. */
const PAGE = `<!doctype html><html><body>
<input id="field" aria-label="Note"><div id="box" style="height: 60px; overflow: auto"><div style="height: 600px">Box</div></div>
${Array.from({ length: 300 }, (_, i) => `<p><a href="#r${i}">Row ${i}</a> and its words</p>`).join('')}
</body></html>`

describe('the change watch', () => {
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    // As the browser tile runs it: a scroll moves at once.
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--disable-smooth-scrolling'] })
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.addInitScript(CHANGE_WATCH_SCRIPT)
    await context.route('http://tessera.test/**', (route) => route.fulfill({ body: PAGE, contentType: 'text/html' }))
    page = await context.newPage()
    await page.goto('http://tessera.test/long')
  })
  afterAll(async () => {
    await browser.close()
  })

  const version = (): Promise<number> => page.evaluate(() => (window as unknown as { __tesseraLayoutVersion: () => number }).__tesseraLayoutVersion())
  /** Two frames: what a step dispatches has run. */
  const frames = (): Promise<void> => page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))))

  it('does not count the document scrolling, nor the hovers a scroll under a resting pointer causes', async () => {
    // A click leaves the pointer on the page: every scroll then hovers another row.
    await page.mouse.click(300, 300)
    await frames()
    const before = await version()
    await page.keyboard.press('PageDown')
    await page.mouse.wheel(0, 900)
    await frames()
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000)
    expect(await version()).toBe(before)
  })

  it('counts a DOM change, typing, focus and an element scrolling on its own', async () => {
    let seen = await version()
    const counted = async (what: string, step: () => Promise<unknown>): Promise<void> => {
      await step()
      await frames()
      const now = await version()
      expect(now, what).toBeGreaterThan(seen)
      seen = now
    }
    await counted('a DOM change', () => page.evaluate(() => document.body.append('More words')))
    await counted('focus', () => page.focus('#field'))
    await counted('typing', () => page.keyboard.type('x'))
    await counted('a box scrolling', () => page.evaluate(() => ((document.getElementById('box') as HTMLElement).scrollTop = 100)))
  })

  it('waits for a timer an input event set, and the short timers it sets in turn, but not for a page\'s endless loop', async () => {
    // As an autocomplete does: searches a moment after the click, then announces its results a moment after that.
    await page.evaluate(() => {
      const field = document.getElementById('field') as HTMLInputElement
      field.addEventListener('click', () => {
        setTimeout(() => {
          document.body.append('Results shown')
          setTimeout(() => document.body.append('2 results are available'), 100)
        }, 150)
        // A loop that never ends: only its first steps are waited for.
        const tick = (): void => void setTimeout(tick, 120)
        tick()
      }, { once: true })
    })
    await page.click('#field')
    const waited = await page.evaluate(() => (window as unknown as { __tesseraQuiet: (q: number, m: number) => Promise<number> }).__tesseraQuiet(30, 5000))
    expect(await page.evaluate(() => document.body.textContent)).toContain('2 results are available')
    expect(waited).toBeLessThan(2000)
  })

  it('waits for the first beat of an interval an input event started, not for its every beat', async () => {
    // A counter a click starts: its first step is the click's answer; the page's own interval of a second is none.
    await page.evaluate(() => {
      const field = document.getElementById('field') as HTMLInputElement
      field.addEventListener('click', () => {
        let beats = 0
        const counter = setInterval(() => {
          document.body.dataset.beats = String(++beats)
          if (beats >= 50) clearInterval(counter)
        }, 200)
        setInterval(() => undefined, 1000)
      }, { once: true })
    })
    await page.click('#field')
    const waited = await page.evaluate(() => (window as unknown as { __tesseraQuiet: (q: number, m: number) => Promise<number> }).__tesseraQuiet(30, 5000))
    expect(Number(await page.evaluate(() => document.body.dataset.beats))).toBeGreaterThanOrEqual(1)
    // Its later beats change the page again and again, 200 ms apart: no wait for them.
    expect(waited).toBeLessThan(1000)
  })

  it('waits out a short animation, but not the steps of a long one past their grace', async () => {
    const quietAfterClick = (): Promise<number> =>
      page.evaluate(() => (window as unknown as { __tesseraQuiet: (q: number, m: number) => Promise<number> }).__tesseraQuiet(60, 5000))
    // As jQuery animates: a style whose numbers change every 13 ms, then a last change that ends it.
    await page.evaluate(() => {
      const field = document.getElementById('field') as HTMLInputElement
      const animate = (ms: number, done: () => void): void => {
        const started = performance.now()
        const step = (): void => {
          const t = Math.min(1, (performance.now() - started) / ms)
          field.style.backgroundColor = `rgb(255, ${Math.round(255 * t)}, 0)`
          if (t < 1) setTimeout(step, 13)
          else done()
        }
        step()
      }
      field.addEventListener('click', () => animate(250, () => field.setAttribute('aria-label', 'Faded in')), { once: true })
    })
    await page.click('#field')
    await quietAfterClick()
    expect(await page.getAttribute('#field', 'aria-label')).toBe('Faded in')
    await page.evaluate(() => {
      const field = document.getElementById('field') as HTMLInputElement
      field.addEventListener('click', () => {
        const started = performance.now()
        const step = (): void => {
          const t = Math.min(1, (performance.now() - started) / 2500)
          // Property by property, as jQuery UI animates a class: in between, the style has another shape.
          field.style.removeProperty('opacity')
          field.style.opacity = String(t)
          if (t < 1) setTimeout(step, 13)
        }
        step()
      }, { once: true })
    })
    await page.click('#field')
    // Well short of the animation's 2.5 s, on a loaded machine too.
    expect(await quietAfterClick()).toBeLessThan(1500)
    expect(Number(await page.evaluate(() => (document.getElementById('field') as HTMLInputElement).style.opacity))).toBeLessThan(1)
  })

  it("does not wait on the page's own motion (a stopwatch's digits), but waits for a change the action started, streaming or not", async () => {
    const quietAfterClick = (): Promise<number> =>
      page.evaluate(() => (window as unknown as { __tesseraQuiet: (q: number, m: number) => Promise<number> }).__tesseraQuiet(60, 5000))
    // Digits changing every 40 ms, from well before the click: quiet never comes if they count.
    await page.evaluate(() => {
      const digits = document.createElement('span')
      digits.id = 'digits'
      document.body.prepend(digits)
      const started = performance.now()
      setInterval(() => (digits.textContent = String(Math.round(performance.now() - started))), 40)
      const field = document.getElementById('field') as HTMLInputElement
      field.addEventListener('click', () => void setTimeout(() => document.body.append('Saved'), 100), { once: true })
    })
    await new Promise((done) => setTimeout(done, 600))
    await page.click('#field')
    expect(await quietAfterClick()).toBeLessThan(1500)
    expect(await page.evaluate(() => document.body.textContent)).toContain('Saved')
    // A reply the click starts, streaming in for 800 ms: waited for to its end.
    await page.evaluate(() => {
      const field = document.getElementById('field') as HTMLInputElement
      field.addEventListener('click', () => {
        const reply = document.createElement('p')
        document.body.append(reply)
        const started = performance.now()
        const more = (): void => {
          reply.append('word ')
          if (performance.now() - started < 800) setTimeout(more, 40)
          else reply.append('THE END')
        }
        more()
      }, { once: true })
    })
    await page.click('#field')
    expect(await quietAfterClick()).toBeGreaterThan(700)
    expect(await page.evaluate(() => document.body.textContent)).toContain('THE END')
  })

  it('holds the quiet while a navigation the page asked for is on its way, until its document goes', async () => {
    const sending = await page.context().newPage()
    await sending.route('http://tessera.test/send', async (route) => {
      // A server that takes its time (well past the 30 ms quiet, well within the 1 s grace, also on a loaded machine): the old document stays while it thinks.
      await new Promise((done) => setTimeout(done, 200))
      await route.fulfill({ status: 303, headers: { location: 'http://tessera.test/sent' } })
    })
    await sending.goto('http://tessera.test/form')
    await sending.evaluate(() => {
      document.body.innerHTML = '<form method="post" action="/send"><button id="send">Send</button></form>'
    })
    // Once its request is out, the page has said it is leaving (a loaded machine may run the next script before the form's navigation starts).
    const sent = sending.waitForRequest('http://tessera.test/send')
    await sending.click('#send', { noWaitAfter: true })
    await sent
    const quiet = sending.evaluate(() => (window as unknown as { __tesseraQuiet: (q: number, m: number) => Promise<number> }).__tesseraQuiet(30, 5000))
    // Not settled on the old page: the wait ends with its document.
    await expect(quiet).rejects.toThrow(/destroyed|navigat/i)
    await sending.close()
  })

  it('holds the quiet from the moment a form is sent, before its navigation starts; a form a script handles holds nothing', async () => {
    const sending = await page.context().newPage()
    await sending.route('http://tessera.test/send', (route) => route.fulfill({ status: 303, headers: { location: 'http://tessera.test/sent' } }))
    await sending.goto('http://tessera.test/form')
    await sending.evaluate(() => {
      document.body.innerHTML = '<form id="kept" method="post" action="/send"><button id="handled">Save here</button></form><form method="post" action="/send"><button id="send">Send</button></form>'
      document.getElementById('kept')?.addEventListener('submit', (event) => event.preventDefault())
    })
    // The quiet is asked in the task that clicks, as a wait asked at once may be: the form's navigation is only queued then.
    const clickThenQuiet = (id: string): Promise<number> =>
      sending.evaluate(async (button) => {
        await new Promise((done) => setTimeout(done, 100))
        document.getElementById(button)?.click()
        return (window as unknown as { __tesseraQuiet: (q: number, m: number) => Promise<number> }).__tesseraQuiet(30, 5000)
      }, id)
    expect(await clickThenQuiet('handled')).toBeLessThan(NAVIGATION_GRACE_MS)
    // The wait ends with the document; or, where a loaded machine starts the navigation later than the grace, not before the grace is out.
    const sent = await clickThenQuiet('send').then(
      (quietAt) => quietAt,
      (error: Error) => error.message,
    )
    if (typeof sent === 'string') expect(sent).toMatch(/destroyed|navigat/i)
    else expect(sent).toBeGreaterThanOrEqual(NAVIGATION_GRACE_MS)
    await sending.close()
  })
})
