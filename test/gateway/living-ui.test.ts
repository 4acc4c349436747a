import { Gateway, openMemoryStore } from '@tessera/gateway'
import { type ActionCall, type Frame, type JsonValue, type Surface, type UiNode, type UnreadRequest, sealFrame } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { agent } from '../support/principals.js'

/**
 * A page that lives: a clock ticks in its header and rows come and go, as on a dashboard or
 * a carousel. Each row has its own Remove button; all share one `remove` contract.
 */
class LivingPage implements Surface {
  readonly id = 'page'
  readonly kind = 'browser' as const
  clock = 0
  rows = ['a', 'b', 'c']
  labels = new Map<string, string>()
  snapshots = 0
  #onChange: ((frame?: Frame) => void) | null = null

  async snapshot(): Promise<Frame> {
    this.snapshots++
    const rows: UiNode[] = this.rows.map((row) => ({ id: `row-${row}`, kind: 'box', role: 'row', name: `Row ${row}`, children: [{ id: `row-${row}/remove`, kind: 'box', role: 'button', name: this.labels.get(row) ?? 'Remove' }] }))
    return sealFrame({
      surface: this.id,
      route: '/dashboard',
      tree: { id: 'root', kind: 'box', role: 'main', children: [{ id: 'clock', kind: 'text', role: 'timer', text: `12:00:${String(this.clock).padStart(2, '0')}` }, ...rows] },
      layout: { root: { x: 0, y: 0, width: 400, height: 40 + 40 * rows.length } },
      state: { rows: this.rows },
      contracts: [
        { id: 'remove', kind: 'delete', title: 'Remove row', risk: 'write' },
        { id: 'log', kind: 'read', title: 'Read the page\'s log', risk: 'read', observes: true },
      ],
      targets: this.rows.map((row) => ({ contract: 'remove', nodeId: `row-${row}/remove` })),
    })
  }

  async perform(call: ActionCall): Promise<JsonValue> {
    if (call.contract.id === 'log') return { clock: this.clock }
    const row = call.target.nodeId?.replace(/^row-/, '').replace(/\/remove$/, '') as string
    this.rows = this.rows.filter((candidate) => candidate !== row)
    return { removed: row }
  }

  subscribe(onChange: (frame?: Frame) => void): () => void {
    this.#onChange = onChange
    return () => {
      this.#onChange = null
    }
  }

  /** Something on the page changed by itself. */
  change(edit: () => void): void {
    edit()
    this.#onChange?.()
  }

  async close(): Promise<void> {}
}

function setup(): { gateway: Gateway; page: LivingPage } {
  const gateway = new Gateway({ store: openMemoryStore(), session: 'living' })
  const page = new LivingPage()
  gateway.addSurface(page)
  return { gateway, page }
}

const refOf = (frame: Frame, row: string): string => frame.targets.find((t) => t.nodeId === `row-${row}/remove`)?.ref as string

describe('a request on a living UI is judged per target', () => {
  it('a clock that ticked since the agent looked does not make the request stale', async () => {
    const { gateway, page } = setup()
    const seen = await gateway.observe('page')
    page.change(() => (page.clock += 1))
    page.change(() => (page.clock += 1))
    expect((await gateway.frames.current('page')).id).not.toBe(seen.id)
    const result = await gateway.request({ surface: 'page', action: 'remove', target: refOf(seen, 'a'), frameId: seen.id }, agent)
    expect(result.status).toBe('completed')
    expect(result.output).toEqual({ removed: 'a' })
    expect(page.rows).toEqual(['b', 'c'])
  })

  it('the target gone, relabelled or disabled since the agent looked is stale, and says why', async () => {
    const { gateway, page } = setup()
    const seen = await gateway.observe('page')
    page.change(() => (page.rows = ['a', 'c']))
    const gone = await gateway.request({ surface: 'page', action: 'remove', target: refOf(seen, 'b'), frameId: seen.id }, agent)
    expect(gone).toMatchObject({ status: 'stale_frame', error: { message: expect.stringContaining('is gone since frame') } })
    page.change(() => page.labels.set('c', 'Remove forever'))
    const relabelled = await gateway.request({ surface: 'page', action: 'remove', target: refOf(seen, 'c'), frameId: seen.id }, agent)
    expect(relabelled).toMatchObject({ status: 'stale_frame', error: { message: expect.stringContaining('"Remove forever"') } })
    expect(page.rows).toEqual(['a', 'c'])
    const unknown = await gateway.request({ surface: 'page', action: 'remove', target: refOf(seen, 'a'), frameId: 'f'.repeat(64) }, agent)
    expect(unknown.status).toBe('stale_frame')
  })

  it('an action on several elements needs its target; the error lists the refs to choose from', async () => {
    const { gateway } = setup()
    const frame = await gateway.observe('page')
    const result = await gateway.request({ surface: 'page', action: 'remove' }, agent)
    expect(result).toMatchObject({ status: 'not_found', error: { details: { expected: frame.targets.filter((t) => t.contract === 'remove').map((t) => t.ref) } } })
  })

  it('readers share one snapshot in flight; a change notice drops the cached frame, the next reader takes one', async () => {
    const { gateway, page } = setup()
    const frames = await Promise.all(Array.from({ length: 10 }, () => gateway.frames.current('page')))
    expect(new Set(frames).size).toBe(1)
    expect(page.snapshots).toBe(1)
    await gateway.frames.current('page')
    expect(page.snapshots).toBe(1)
    page.change(() => (page.clock += 1))
    const next = await gateway.frames.current('page')
    expect(page.snapshots).toBe(2)
    expect(next.version).toBe(frames[0]!.version + 1)
    const action = await gateway.request({ surface: 'page', action: 'remove', target: refOf(next, 'a'), frameId: next.id }, agent)
    expect(action.status).toBe('completed')
    expect(page.snapshots).toBe(3)
  })

  it('takes no new snapshot after an action that only reads what the surface keeps, unless the surface changed meanwhile', async () => {
    const { gateway, page } = setup()
    const before = await gateway.frames.current('page')
    expect(page.snapshots).toBe(1)
    const read = await gateway.request({ surface: 'page', action: 'log', frameId: before.id }, agent)
    expect(read).toMatchObject({ status: 'completed', output: { clock: 0 } })
    expect(page.snapshots).toBe(1)
    // The page changed by itself: the frame after the read is new, taken once.
    page.change(() => (page.clock += 1))
    expect(await gateway.request({ surface: 'page', action: 'log' }, agent)).toMatchObject({ status: 'completed', output: { clock: 1 } })
    expect(page.snapshots).toBe(2)
    // An action that changes the page takes its frame anew, as ever.
    expect((await gateway.request({ surface: 'page', action: 'remove', target: refOf(await gateway.frames.current('page'), 'a') }, agent)).status).toBe('completed')
    expect(page.snapshots).toBe(3)
  })
})

/**
 * A long page read in parts: only the rows in view are in the frame; the rest is one unread
 * part. Scrolling changes which rows are read, as a huge web page's frame does.
 */
class LongPage implements Surface {
  readonly id = 'long'
  readonly kind = 'browser' as const
  rows = ['a', 'b', 'c', 'd', 'e', 'f']
  view = ['a', 'b', 'c']
  /** Rows read besides the view, because an agent named them. */
  readonly kept = new Set<string>()
  readonly #refs = new Map<string, string>()
  asked: string[][] = []

  async snapshot(): Promise<Frame> {
    const read = this.rows.filter((row) => this.view.includes(row) || this.kept.has(row))
    const unread = this.rows.filter((row) => !read.includes(row))
    const frame = sealFrame({
      surface: this.id,
      route: '/long',
      tree: {
        id: 'root',
        kind: 'box',
        role: 'main',
        children: [
          ...read.map((row): UiNode => ({ id: `row-${row}`, kind: 'box', role: 'button', name: `Remove ${row}` })),
          ...(unread.length > 0 ? [{ id: 'rest', kind: 'box' as const, role: 'part', unread: { lines: unread.length, actions: unread.length } }] : []),
        ],
      },
      state: { rows: this.rows },
      contracts: [{ id: 'remove', kind: 'delete', title: 'Remove row', risk: 'write' }],
      targets: read.map((row) => ({ contract: 'remove', nodeId: `row-${row}` })),
    })
    for (const target of frame.targets) this.#refs.set(target.ref, (target.nodeId as string).slice('row-'.length))
    return frame
  }

  readUnread(request: UnreadRequest): boolean {
    this.asked.push([...(request.refs ?? [])])
    const rows = (request.refs ?? []).map((ref) => this.#refs.get(ref.replace(/^@/, ''))).filter((row): row is string => row !== undefined && this.rows.includes(row) && !this.kept.has(row))
    for (const row of rows) this.kept.add(row)
    return rows.length > 0
  }

  async perform(call: ActionCall): Promise<JsonValue> {
    const row = (call.target.nodeId as string).slice('row-'.length)
    this.rows = this.rows.filter((candidate) => candidate !== row)
    return { removed: row }
  }

  async close(): Promise<void> {}
}

describe('a ref to an element the frame left unread', () => {
  it('is read again and acted on while the element lives; one that went is stale as ever', async () => {
    const gateway = new Gateway({ store: openMemoryStore(), session: 'long' })
    const page = new LongPage()
    gateway.addSurface(page)
    const seen = await gateway.observe('long')
    const refOfRow = (row: string): string => seen.targets.find((t) => t.nodeId === `row-${row}`)?.ref as string
    // The page scrolls on: rows a–c go unread.
    page.view = ['d', 'e', 'f']
    gateway.frames.invalidate('long')
    const result = await gateway.request({ surface: 'long', action: 'remove', target: refOfRow('a'), frameId: seen.id }, agent)
    expect(result.status).toBe('completed')
    expect(result.output).toEqual({ removed: 'a' })
    expect(page.asked).toEqual([[refOfRow('a')]])
    // b is removed by the page itself: asking to read it finds nothing, and the request is stale.
    page.rows = page.rows.filter((row) => row !== 'b')
    gateway.frames.invalidate('long')
    const gone = await gateway.request({ surface: 'long', action: 'remove', target: refOfRow('b'), frameId: seen.id }, agent)
    expect(gone).toMatchObject({ status: 'stale_frame', error: { message: expect.stringContaining('is gone since frame') } })
    expect(page.asked.at(-1)).toEqual([refOfRow('b')])
    // A ref the frame shows asks for nothing.
    const shown = (await gateway.frames.current('long')).targets.find((t) => t.nodeId === 'row-d')?.ref as string
    const asked = page.asked.length
    expect((await gateway.request({ surface: 'long', action: 'remove', target: shown }, agent)).status).toBe('completed')
    expect(page.asked.length).toBe(asked)
  })
})
