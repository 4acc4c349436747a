const enum State {
  Text,
  Escape,
  EscapeIntermediate,
  Csi,
  Osc,
  OscEscape,
  String,
  StringEscape,
}

/**
 * Turns terminal output into plain text, one chunk at a time (an escape sequence may be
 * split across chunks): escape sequences (CSI, OSC, DCS and the rest) are removed, CR LF
 * becomes LF, and other control characters are dropped. A lone carriage return is
 * dropped too: the cleaned stream is a transcript, and overwriting (progress bars) is
 * something only the screen model renders faithfully.
 */
export class TextCleaner {
  #state = State.Text
  #pendingCr = false

  push(chunk: string): string {
    let out = ''
    let runStart = -1
    const flush = (end: number): void => {
      if (runStart !== -1) {
        out += chunk.slice(runStart, end)
        runStart = -1
      }
    }
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i)
      switch (this.#state) {
        case State.Text: {
          if (this.#pendingCr) {
            this.#pendingCr = false
            if (c === 0x0a) {
              out += '\n'
              continue
            }
          }
          if (c >= 0x20 && c !== 0x7f && (c < 0x80 || c >= 0xa0)) {
            if (runStart === -1) runStart = i
            continue
          }
          if (c === 0x0a || c === 0x09) {
            if (runStart === -1) runStart = i
            continue
          }
          flush(i)
          if (c === 0x0d) this.#pendingCr = true
          else if (c === 0x1b) this.#state = State.Escape
          else if (c === 0x9b) this.#state = State.Csi
          else if (c === 0x9d) this.#state = State.Osc
          else if (c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) this.#state = State.String
          break
        }
        case State.Escape:
          if (c === 0x5b) this.#state = State.Csi
          else if (c === 0x5d) this.#state = State.Osc
          else if (c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f) this.#state = State.String
          else if (c >= 0x20 && c <= 0x2f) this.#state = State.EscapeIntermediate
          else this.#state = State.Text
          break
        case State.EscapeIntermediate:
          if (c < 0x20 || c > 0x2f) this.#state = State.Text
          break
        case State.Csi:
          if (c >= 0x40 && c <= 0x7e) this.#state = State.Text
          else if (c === 0x1b) this.#state = State.Escape
          break
        case State.Osc:
          if (c === 0x07 || c === 0x9c) this.#state = State.Text
          else if (c === 0x1b) this.#state = State.OscEscape
          break
        case State.OscEscape:
          this.#state = c === 0x5c ? State.Text : State.Osc
          break
        case State.String:
          if (c === 0x9c) this.#state = State.Text
          else if (c === 0x1b) this.#state = State.StringEscape
          break
        case State.StringEscape:
          this.#state = c === 0x5c ? State.Text : State.String
          break
      }
    }
    flush(chunk.length)
    return out
  }
}

/** Cleans one complete piece of terminal output. */
export function cleanTerminalText(text: string): string {
  return new TextCleaner().push(text)
}
