import { setTimeout as sleep } from 'node:timers/promises'
import { actionSet, defineAction } from '@tessera/kit'
import { type ActionCall, type Frame, type JsonValue, type PerformContext, type Surface, TesseraError, sealFrame } from '@tessera/protocol'
import { ClickAtInput, DoneOutput, DragAtInput, KeyInput, ScrollAtInput, TypeTextInput } from './desktop-schemas.js'
import { type ScreenPoint, type WheelButton, dragPath, wheelClicks } from './pointer-gestures.js'
import { parseChords } from './key-chords.js'
import { MODIFIER_KEYSYMS, keysymOf, keysymOfChar } from './keysyms.js'
import { RfbClient } from './rfb-client.js'

const vncAction = defineAction<VncTile>()

/** What a tile attached to a VNC server can do: keys, text and clicks through RFB. No widget tree reaches it, so no widget actions. */
export const VNC_ACTIONS = actionSet<VncTile>([
  vncAction({ id: 'key', title: 'Press key chords on the remote screen', summary: 'Press {input.key}', risk: 'write', input: KeyInput, output: DoneOutput, run: (input, { surface }) => surface.keys(input.key) }),
  vncAction({ id: 'type_text', title: 'Type text as keystrokes on the remote screen', risk: 'write', input: TypeTextInput, output: DoneOutput, run: (input, { surface }) => surface.typeKeys(input.text) }),
  vncAction({ id: 'click_at', title: 'Click at a point of the remote screen', risk: 'write', input: ClickAtInput, output: DoneOutput, run: (input, { surface }) => surface.clickAt(input) }),
  vncAction({ id: 'drag_at', title: 'Drag from a point of the remote screen to another, a button held', risk: 'write', input: DragAtInput, output: DoneOutput, run: (input, { surface }) => surface.dragAt(input) }),
  vncAction({ id: 'scroll_at', title: 'Turn the mouse wheel at a point of the remote screen', risk: 'read', input: ScrollAtInput, output: DoneOutput, run: (input, { surface }) => surface.scrollAt(input) }),
])

const BUTTON_BITS = { left: 1, middle: 2, right: 4 } as const
/** RFB's button mask gives the wheel's buttons (X's 4–7) bits 3–6. */
const wheelBit = (button: WheelButton): number => 1 << (button - 1)

export interface VncTileOptions {
  id: string
  title: string
  host: string
  port: number
}

/**
 * The `vnc` backend: a tile attached to a VNC server a person configured (a virtual machine's
 * console, another machine's desktop). Pixels and input go over RFB; nothing tells the widgets,
 * so its frame is the screen alone and an agent works from screenshots and points.
 */
export class VncTile implements Surface {
  readonly id: string
  readonly kind = 'desktop' as const
  readonly title: string
  readonly #options: VncTileOptions
  #rfb: RfbClient | null = null

  constructor(options: VncTileOptions) {
    this.id = options.id
    this.title = options.title
    this.#options = options
  }

  async open(): Promise<this> {
    this.#rfb = await RfbClient.connect(this.#options.host, this.#options.port)
    return this
  }

  async snapshot(): Promise<Frame> {
    const rfb = this.#live()
    return sealFrame({
      surface: this.id,
      route: `vnc://${this.#options.host}:${this.#options.port}`,
      tree: {
        id: 'screen',
        kind: 'box',
        role: 'desktop',
        name: this.title,
        children: [{ id: 'about', kind: 'text', text: `A VNC server's screen (${rfb.name || 'unnamed'}): no widget tree reaches Tessera; a screenshot shows it, keys and clicks at points act on it.` }],
      },
      layout: { screen: { x: 0, y: 0, width: rfb.width, height: rfb.height } },
      state: { backend: 'vnc', server: `${this.#options.host}:${this.#options.port}`, width: rfb.width, height: rfb.height },
      contracts: VNC_ACTIONS.contracts,
      targets: [{ contract: 'key' }, { contract: 'type_text' }, { contract: 'click_at' }, { contract: 'drag_at' }, { contract: 'scroll_at' }],
      capabilities: { screenshot: true },
    })
  }

  perform(call: ActionCall, ctx: PerformContext): Promise<JsonValue | undefined> {
    return VNC_ACTIONS.perform(this, call, ctx)
  }

  capture(): Promise<Uint8Array> {
    return this.#live().screenshot()
  }

  async close(): Promise<void> {
    this.#rfb?.close()
    this.#rfb = null
  }

  async keys(key: string): Promise<{ done: string }> {
    const rfb = this.#live()
    const chords = parseChords(key)
    for (const chord of chords) {
      const parts = chord.split('+')
      const name = parts.pop() as string
      const keysym = keysymOf(name)
      if (keysym === undefined) throw new TesseraError('invalid_input', `expected a key X knows, found "${name}"`, { expected: 'an X key name', found: name })
      const modifiers = parts.map((part) => MODIFIER_KEYSYMS[part] as number)
      for (const modifier of modifiers) rfb.key(modifier, true)
      rfb.key(keysym, true)
      rfb.key(keysym, false)
      for (const modifier of modifiers.reverse()) rfb.key(modifier, false)
    }
    await sleep(50)
    return { done: `pressed ${chords.join(' ')}` }
  }

  async typeKeys(text: string): Promise<{ done: string }> {
    const rfb = this.#live()
    for (const char of text) {
      const keysym = keysymOfChar(char)
      rfb.key(keysym, true)
      rfb.key(keysym, false)
    }
    await sleep(50)
    return { done: `typed ${[...text].length} characters as keys` }
  }

  async clickAt(input: { x: number; y: number; button?: 'left' | 'middle' | 'right' | undefined; double?: boolean | undefined }): Promise<{ done: string }> {
    const rfb = this.#live()
    this.#inside(rfb, input)
    const bit = BUTTON_BITS[input.button ?? 'left']
    rfb.pointer(input.x, input.y, 0)
    for (let n = 0; n < (input.double === true ? 2 : 1); n++) {
      rfb.pointer(input.x, input.y, bit)
      rfb.pointer(input.x, input.y, 0)
    }
    await sleep(50)
    return { done: `clicked at ${input.x},${input.y}` }
  }

  async dragAt(input: { from: ScreenPoint; to: ScreenPoint; button?: 'left' | 'middle' | 'right' | undefined }): Promise<{ done: string }> {
    const rfb = this.#live()
    for (const point of [input.from, input.to]) this.#inside(rfb, point)
    const bit = BUTTON_BITS[input.button ?? 'left']
    rfb.pointer(input.from.x, input.from.y, 0)
    rfb.pointer(input.from.x, input.from.y, bit)
    for (const point of dragPath(input.from, input.to)) {
      rfb.pointer(point.x, point.y, bit)
      await sleep(10)
    }
    rfb.pointer(input.to.x, input.to.y, 0)
    await sleep(50)
    return { done: `dragged from ${input.from.x},${input.from.y} to ${input.to.x},${input.to.y}` }
  }

  async scrollAt(input: { x: number; y: number; dx?: number | undefined; dy?: number | undefined }): Promise<{ done: string }> {
    const rfb = this.#live()
    this.#inside(rfb, input)
    const clicks = wheelClicks(input.dx ?? 0, input.dy ?? 0)
    if (clicks.length === 0) throw new TesseraError('invalid_input', 'expected dx or dy: how many wheel clicks to scroll, found neither', { expected: ['dx', 'dy'], found: { dx: input.dx ?? null, dy: input.dy ?? null } })
    for (const button of clicks) {
      rfb.pointer(input.x, input.y, wheelBit(button))
      rfb.pointer(input.x, input.y, 0)
    }
    await sleep(50)
    return { done: `scrolled at ${input.x},${input.y}` }
  }

  #inside(rfb: RfbClient, point: ScreenPoint): void {
    if (point.x >= rfb.width || point.y >= rfb.height) throw new TesseraError('invalid_input', `expected a point inside the screen (${rfb.width}×${rfb.height}), found ${point.x},${point.y}`, { expected: { width: rfb.width, height: rfb.height }, found: { x: point.x, y: point.y } })
  }

  #live(): RfbClient {
    if (this.#rfb === null) throw new TesseraError('conflict', `desktop tile ${this.id} is closed`, { found: this.id })
    return this.#rfb
  }
}
