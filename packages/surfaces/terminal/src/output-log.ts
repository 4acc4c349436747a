interface Block {
  text: string
  /** Newlines in `text`. */
  newlines: number
}

const BLOCK_CHARS = 64 * 1024

export interface LogSlice {
  text: string
  /** Where `text` starts; later than the requested offset when older output was dropped. */
  offset: number
  /** Where the next read continues. */
  next: number
  /** Characters between the requested offset and `offset` that the bounded log no longer holds. */
  dropped: number
  /** Line number (0-based) of the line `offset` falls in. */
  line: number
  /** True when `max` cut the slice short of the end of the log. */
  more: boolean
}

/**
 * The cleaned output of one terminal, with absolute offsets (characters since the terminal
 * started) and line numbers. Bounded: the oldest blocks go first, and a read that asks for
 * them is told how much was dropped instead of silently starting later.
 */
export class OutputLog {
  readonly capacity: number
  #blocks: Block[] = []
  #start = 0
  #end = 0
  #startLine = 0
  #lines = 0

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < BLOCK_CHARS) {
      throw new RangeError(`expected an output log capacity of at least ${BLOCK_CHARS} characters, found ${capacity}`)
    }
    this.capacity = capacity
  }

  /** Offset of the first character still held. */
  get start(): number {
    return this.#start
  }

  /** Offset just past the last character written. */
  get end(): number {
    return this.#end
  }

  /** Newlines written so far: the line number of the line being written now. */
  get lineCount(): number {
    return this.#lines
  }

  append(text: string): void {
    if (text.length === 0) return
    const newlines = countNewlines(text)
    const last = this.#blocks[this.#blocks.length - 1]
    if (last !== undefined && last.text.length + text.length <= BLOCK_CHARS) {
      last.text += text
      last.newlines += newlines
    } else {
      this.#blocks.push({ text, newlines })
    }
    this.#end += text.length
    this.#lines += newlines
    while (this.#end - this.#start > this.capacity && this.#blocks.length > 1) {
      const dropped = this.#blocks.shift() as Block
      this.#start += dropped.text.length
      this.#startLine += dropped.newlines
    }
  }

  /** Text from `from` (clamped to what is held) up to `max` characters. */
  read(from: number, max = Number.POSITIVE_INFINITY): LogSlice {
    const requested = Math.min(Math.max(0, Math.floor(from)), this.#end)
    const offset = Math.max(requested, this.#start)
    const to = Math.min(this.#end, offset + max)
    return {
      text: this.#text(offset, to),
      offset,
      next: to,
      dropped: offset - requested,
      line: this.#lineAt(offset),
      more: to < this.#end,
    }
  }

  /**
   * Offset where line `line` (0-based) starts. A line older than the log holds maps to the
   * first held offset; a line past the end maps to the end.
   */
  offsetOfLine(line: number): number {
    if (line <= this.#startLine) return this.#start
    if (line > this.#lines) return this.#end
    let seen = this.#startLine
    let offset = this.#start
    for (const block of this.#blocks) {
      if (seen + block.newlines >= line) {
        let index = -1
        for (let n = seen; n < line; n++) index = block.text.indexOf('\n', index + 1)
        return offset + index + 1
      }
      seen += block.newlines
      offset += block.text.length
    }
    return this.#end
  }

  /** Offset where the last `count` lines start; the unfinished last line counts when it has text. */
  offsetOfTail(count: number): number {
    const unfinished = this.#end > this.offsetOfLine(this.#lines) ? 1 : 0
    return this.offsetOfLine(Math.max(0, this.#lines + unfinished - Math.max(0, Math.floor(count))))
  }

  #text(from: number, to: number): string {
    if (to <= from) return ''
    let out = ''
    let offset = this.#start
    for (const block of this.#blocks) {
      const blockEnd = offset + block.text.length
      if (blockEnd > from && offset < to) out += block.text.slice(Math.max(0, from - offset), Math.min(block.text.length, to - offset))
      if (blockEnd >= to) break
      offset = blockEnd
    }
    return out
  }

  #lineAt(offset: number): number {
    let line = this.#startLine
    let pos = this.#start
    for (const block of this.#blocks) {
      const blockEnd = pos + block.text.length
      if (offset >= blockEnd) {
        line += block.newlines
        pos = blockEnd
        continue
      }
      line += countNewlines(block.text.slice(0, offset - pos))
      break
    }
    return line
  }
}

function countNewlines(text: string): number {
  let n = 0
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++
  return n
}
