import { TesseraError } from '@tessera/protocol'
import { x11 } from './x11-module.js'
import { MODIFIER_KEYSYMS, keysymOf } from './keysyms.js'
import { pngOfBgrx } from './png-encode.js'
import type { ScreenPoint } from './pointer-gestures.js'

/**
 * A tile's X display spoken to directly (the X protocol, XTEST): key chords and pointer
 * clicks as fake input, the screen read with GetImage, the keyboard given to a window with
 * SetInputFocus — each a message or two on one open connection, where spawning xdotool or
 * ImageMagick for each costs milliseconds to tens of them.
 */


interface XClient {
  require(name: 'xtest', callback: (error: Error | null, ext: XTest) => void): void
  GetKeyboardMapping(start: number, count: number, callback: (error: Error | null, rows: number[][]) => void): void
  GetImage(format: number, drawable: number, x: number, y: number, width: number, height: number, planeMask: number, callback: (error: Error | null, image: { depth: number; data: Buffer }) => void): void
  GetInputFocus(callback: (error: Error | null, focus: unknown) => void): void
  SetInputFocus(window: number, revertTo: number): void
  QueryTree(window: number, callback: (error: Error | null, tree: { children: number[] }) => void): void
  GetWindowAttributes(window: number, callback: (error: Error | null, attributes: { mapState: number }) => void): void
  GetProperty(del: number, window: number, property: number, type: number, offset: number, length: number, callback: (error: Error | null, prop: { data: Buffer }) => void): void
  InternAtom(onlyIfExists: boolean, name: string, callback: (error: Error | null, atom: number) => void): void
  terminate(): void
  on(event: 'error', listener: (error: Error) => void): void
}
interface XTest {
  FakeInput(type: number, detail: number, time: number, window: number, x: number, y: number): void
  KeyPress: number
  KeyRelease: number
  ButtonPress: number
  ButtonRelease: number
  MotionNotify: number
}
interface XDisplayInfo {
  client: XClient
  screen: Array<{ root: number; pixel_width: number; pixel_height: number }>
  min_keycode: number
  max_keycode: number
}


/** An X call's callback as a promise. */
function ask<T>(call: (callback: (error: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))))
}

export class XDisplay {
  readonly #client: XClient
  readonly #test: XTest
  readonly #root: number
  readonly width: number
  readonly height: number
  /** keysym → [keycode, column]: column 1 needs Shift. */
  readonly #keycodes = new Map<number, [number, number]>()
  #atoms: { netWmName: number; utf8: number } | undefined

  private constructor(display: XDisplayInfo, test: XTest, mapping: number[][]) {
    this.#client = display.client
    this.#test = test
    const screen = display.screen[0] as { root: number; pixel_width: number; pixel_height: number }
    this.#root = screen.root
    this.width = screen.pixel_width
    this.height = screen.pixel_height
    mapping.forEach((row, i) => {
      row.slice(0, 2).forEach((keysym, column) => {
        if (keysym !== 0 && !this.#keycodes.has(keysym)) this.#keycodes.set(keysym, [display.min_keycode + i, column])
      })
    })
  }

  static async connect(display: string): Promise<XDisplay> {
    const info = await new Promise<XDisplayInfo>((resolve, reject) => {
      const client = x11.createClient({ display }, (error, opened) => (error ? reject(error) : resolve(opened as XDisplayInfo)))
      // A display that goes away (the tile closing) is not the hub's error.
      client.on('error', () => undefined)
    })
    const test = await ask<XTest>((done) => info.client.require('xtest', done))
    const mapping = await ask<number[][]>((done) => info.client.GetKeyboardMapping(info.min_keycode, info.max_keycode - info.min_keycode + 1, done))
    return new XDisplay(info, test, mapping)
  }

  /** The keycodes for a chord as parseChords writes it (`ctrl+shift+s`, `Return`, `A`); undefined when a key is not on the keyboard map (xdotool remaps one for it). */
  #chordCodes(chord: string): number[] | undefined {
    const parts = chord.split('+')
    const key = parts.pop() as string
    const codes: number[] = []
    let shifted = parts.includes('shift')
    for (const modifier of parts) {
      const code = this.#keycodes.get(MODIFIER_KEYSYMS[modifier] ?? -1)?.[0]
      if (code === undefined) return undefined
      codes.push(code)
    }
    const keysym = keysymOf(key)
    const found = keysym === undefined ? undefined : this.#keycodes.get(keysym)
    if (found === undefined) return undefined
    if (found[1] === 1 && !shifted) {
      const shift = this.#keycodes.get(MODIFIER_KEYSYMS.shift as number)?.[0]
      if (shift === undefined) return undefined
      codes.push(shift)
      shifted = true
    }
    codes.push(found[0])
    return codes
  }

  /** Presses each chord (modifiers down, key down and up, modifiers up); false, with nothing sent, when a key is not on the map. */
  async keys(chords: readonly string[]): Promise<boolean> {
    const all = chords.map((chord) => this.#chordCodes(chord))
    if (all.some((codes) => codes === undefined)) return false
    for (const codes of all as number[][]) {
      for (const code of codes) this.#test.FakeInput(this.#test.KeyPress, code, 0, this.#root, 0, 0)
      for (const code of [...codes].reverse()) this.#test.FakeInput(this.#test.KeyRelease, code, 0, this.#root, 0, 0)
    }
    await this.sync()
    return true
  }

  /** Moves the pointer and clicks (twice for a double click). */
  async click(x: number, y: number, button: number, double: boolean): Promise<void> {
    this.#test.FakeInput(this.#test.MotionNotify, 0, 0, this.#root, x, y)
    for (let n = 0; n < (double ? 2 : 1); n++) {
      this.#test.FakeInput(this.#test.ButtonPress, button, 0, this.#root, x, y)
      this.#test.FakeInput(this.#test.ButtonRelease, button, 0, this.#root, x, y)
    }
    await this.sync()
  }

  /** Presses at `from`, moves through `path` holding the button, releases at its end. */
  async drag(from: ScreenPoint, path: readonly ScreenPoint[], button: number): Promise<void> {
    this.#test.FakeInput(this.#test.MotionNotify, 0, 0, this.#root, from.x, from.y)
    this.#test.FakeInput(this.#test.ButtonPress, button, 0, this.#root, from.x, from.y)
    await this.sync()
    for (const point of path) {
      this.#test.FakeInput(this.#test.MotionNotify, 0, 0, this.#root, point.x, point.y)
      // Each step reaches the app as its own motion, as a hand's would.
      await this.sync()
    }
    const end = path.at(-1) ?? from
    this.#test.FakeInput(this.#test.ButtonRelease, button, 0, this.#root, end.x, end.y)
    await this.sync()
  }

  /** Turns the wheel at a point: one press and release of a wheel button per click. */
  async wheel(at: ScreenPoint, clicks: readonly number[]): Promise<void> {
    this.#test.FakeInput(this.#test.MotionNotify, 0, 0, this.#root, at.x, at.y)
    for (const button of clicks) {
      this.#test.FakeInput(this.#test.ButtonPress, button, 0, this.#root, at.x, at.y)
      this.#test.FakeInput(this.#test.ButtonRelease, button, 0, this.#root, at.x, at.y)
    }
    await this.sync()
  }

  /** A round trip: everything sent before it has been handled by the server. */
  async sync(): Promise<void> {
    await ask((done) => this.#client.GetInputFocus(done))
  }

  /** The screen as PNG: GetImage of the root window, encoded for speed over size. */
  async screenshot(): Promise<Buffer> {
    const image = await ask<{ depth: number; data: Buffer }>((done) => this.#client.GetImage(2, this.#root, 0, 0, this.width, this.height, 0xffffffff, done))
    if (image.data.length < this.width * this.height * 4) throw new TesseraError('conflict', `the display answered ${image.data.length} bytes for a ${this.width}×${this.height} screen`, { expected: this.width * this.height * 4, found: image.data.length })
    return pngOfBgrx(image.data, this.width, this.height)
  }

  /** The viewable top-level windows and their titles. */
  async windows(): Promise<Array<{ id: number; name: string }>> {
    this.#atoms ??= {
      netWmName: await ask<number>((done) => this.#client.InternAtom(false, '_NET_WM_NAME', done)),
      utf8: await ask<number>((done) => this.#client.InternAtom(false, 'UTF8_STRING', done)),
    }
    const atoms = this.#atoms
    const { children } = await ask<{ children: number[] }>((done) => this.#client.QueryTree(this.#root, done))
    const named = await Promise.all(
      children.map(async (id) => {
        const attributes = await ask<{ mapState: number }>((done) => this.#client.GetWindowAttributes(id, done)).catch(() => ({ mapState: 0 }))
        if (attributes.mapState !== 2) return undefined
        const utf8 = await ask<{ data: Buffer }>((done) => this.#client.GetProperty(0, id, atoms.netWmName, atoms.utf8, 0, 256, done)).catch(() => undefined)
        // WM_NAME (atom 39) of type STRING (31) for windows that set no UTF-8 title.
        const plain = utf8?.data?.length ? undefined : await ask<{ data: Buffer }>((done) => this.#client.GetProperty(0, id, 39, 31, 0, 256, done)).catch(() => undefined)
        return { id, name: (utf8?.data?.length ? utf8.data.toString('utf8') : (plain?.data?.toString('latin1') ?? '')) }
      }),
    )
    return named.filter((window): window is { id: number; name: string } => window !== undefined)
  }

  /** Gives the keyboard to a window (no window manager runs to do it). */
  async focus(window: number): Promise<void> {
    // RevertToParent (2): when the window goes, the keyboard goes to its parent, the root.
    this.#client.SetInputFocus(window, 2)
    await this.sync()
  }

  close(): void {
    this.#client.terminate()
  }
}
