export interface CapturedText {
  text: string
  /** True when bytes were left out of `text`; never silent. */
  truncated: boolean
  /** UTF-8 bytes of the whole stream. */
  bytes: number
  /** UTF-8 bytes left out of `text` (between its head and its tail). */
  omittedBytes: number
}

/**
 * Collects one output stream up to a byte limit, keeping its beginning and its end: the
 * first lines say what a command did, the last ones how it ended. What falls between is
 * replaced by a line that says how many bytes were left out.
 */
export class CaptureBuffer {
  readonly limit: number
  #head = ''
  #headBytes = 0
  #tail: string[] = []
  #tailBytes = 0
  #bytes = 0
  #omitted = 0

  constructor(limitBytes: number) {
    if (!Number.isInteger(limitBytes) || limitBytes < 2) throw new RangeError(`expected a byte limit of at least 2, found ${limitBytes}`)
    this.limit = limitBytes
  }

  append(text: string): void {
    if (text.length === 0) return
    let bytes = Buffer.byteLength(text)
    this.#bytes += bytes
    const half = Math.floor(this.limit / 2)
    if (this.#tail.length === 0 && this.#headBytes + bytes <= half) {
      this.#head += text
      this.#headBytes += bytes
      return
    }
    if (this.#tail.length === 0 && this.#headBytes < half) {
      const buffer = Buffer.from(text)
      const room = half - this.#headBytes
      const cut = utf8Boundary(buffer, room)
      this.#head += buffer.subarray(0, cut).toString()
      this.#headBytes += cut
      text = buffer.subarray(cut).toString()
      bytes -= cut
    }
    this.#tail.push(text)
    this.#tailBytes += bytes
    const tailLimit = this.limit - half
    while (this.#tailBytes > tailLimit) {
      const first = this.#tail[0] as string
      const firstBytes = Buffer.byteLength(first)
      const excess = this.#tailBytes - tailLimit
      if (firstBytes <= excess) {
        this.#tail.shift()
        this.#tailBytes -= firstBytes
        this.#omitted += firstBytes
      } else {
        const buffer = Buffer.from(first)
        const cut = utf8Boundary(buffer, excess, true)
        this.#tail[0] = buffer.subarray(cut).toString()
        this.#tailBytes -= cut
        this.#omitted += cut
      }
    }
  }

  result(): CapturedText {
    const tail = this.#tail.join('')
    if (this.#omitted === 0) return { text: this.#head + tail, truncated: false, bytes: this.#bytes, omittedBytes: 0 }
    const note = `${this.#head.endsWith('\n') || this.#head === '' ? '' : '\n'}[… ${this.#omitted} bytes omitted …]\n`
    return { text: this.#head + note + tail, truncated: true, bytes: this.#bytes, omittedBytes: this.#omitted }
  }
}

/** A cut position at or before `at` (at or after it, with `up`) that does not split a UTF-8 sequence. */
function utf8Boundary(buffer: Buffer, at: number, up = false): number {
  let cut = Math.min(Math.max(0, at), buffer.length)
  if (up) {
    while (cut < buffer.length && ((buffer[cut] as number) & 0xc0) === 0x80) cut++
  } else {
    while (cut > 0 && ((buffer[cut] as number) & 0xc0) === 0x80) cut--
  }
  return cut
}
