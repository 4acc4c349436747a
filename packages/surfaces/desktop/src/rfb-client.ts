import { type Socket, connect } from 'node:net'
import { TesseraError } from '@tessera/protocol'
import { pngOfBgrx } from './png-encode.js'

/**
 * A client of the RFB protocol (VNC, RFC 6143): attaches to a VNC server — a virtual machine's
 * console, a remote desktop — for its pixels and to send it keys and pointer events. Security
 * type None only; the pixel format asked for is 32-bit B G R x, the one an X screen has, so a
 * screenshot is encoded the same way.
 */

const ANSWER_MS = 10_000

/** Buffers what the server sends; `read(n)` waits for n bytes. */
class Reader {
  #chunks: Buffer[] = []
  #size = 0
  #waiting: { n: number; resolve: (data: Buffer) => void; reject: (error: Error) => void } | undefined
  #ended: Error | undefined

  push(chunk: Buffer): void {
    this.#chunks.push(chunk)
    this.#size += chunk.length
    this.#serve()
  }

  end(error: Error): void {
    this.#ended = error
    this.#waiting?.reject(error)
    this.#waiting = undefined
  }

  read(n: number): Promise<Buffer> {
    if (this.#ended !== undefined) return Promise.reject(this.#ended)
    return new Promise((resolve, reject) => {
      this.#waiting = { n, resolve, reject }
      this.#serve()
    })
  }

  #serve(): void {
    const wanted = this.#waiting
    if (wanted === undefined || this.#size < wanted.n) return
    const all = Buffer.concat(this.#chunks)
    this.#chunks = [all.subarray(wanted.n)]
    this.#size = all.length - wanted.n
    this.#waiting = undefined
    wanted.resolve(all.subarray(0, wanted.n))
  }
}

export class RfbClient {
  readonly width: number
  readonly height: number
  readonly name: string
  readonly #socket: Socket
  readonly #reader: Reader
  readonly #framebuffer: Buffer
  #updated: Array<() => void> = []
  #failed: Error | undefined

  private constructor(socket: Socket, reader: Reader, width: number, height: number, name: string) {
    this.#socket = socket
    this.#reader = reader
    this.width = width
    this.height = height
    this.name = name
    this.#framebuffer = Buffer.alloc(width * height * 4)
    void this.#listen()
  }

  /** Connects and completes the handshake (version 3.8, security None, a shared session). */
  static async connect(host: string, port: number): Promise<RfbClient> {
    const socket = connect({ host, port })
    const reader = new Reader()
    socket.on('data', (chunk: Buffer) => reader.push(chunk))
    socket.on('error', (error) => reader.end(error))
    socket.on('close', () => reader.end(new TesseraError('conflict', `the VNC server at ${host}:${port} closed the connection`, { found: `${host}:${port}` })))
    const timer = setTimeout(() => socket.destroy(new TesseraError('timed_out', `the VNC server at ${host}:${port} did not answer in ${ANSWER_MS / 1000} s`, { found: `${host}:${port}` })), ANSWER_MS)
    try {
      const version = (await reader.read(12)).toString('latin1')
      if (!/^RFB \d{3}\.\d{3}\n$/.test(version)) throw new TesseraError('invalid_input', `expected a VNC server (RFB 003.00x), found ${JSON.stringify(version)}`, { expected: 'RFB 003.008', found: version })
      socket.write('RFB 003.008\n')
      const count = (await reader.read(1))[0] as number
      if (count === 0) {
        const length = (await reader.read(4)).readUInt32BE(0)
        throw new TesseraError('conflict', `the VNC server refused: ${(await reader.read(length)).toString('utf8')}`, { found: 'no security types' })
      }
      const types = [...(await reader.read(count))]
      if (!types.includes(1)) throw new TesseraError('conflict', `expected a VNC server that takes no password (security type 1), found types ${types.join(', ')}`, { expected: [1], found: types })
      socket.write(Buffer.from([1]))
      if ((await reader.read(4)).readUInt32BE(0) !== 0) throw new TesseraError('conflict', 'the VNC server refused the connection', { found: 'security result failed' })
      // ClientInit: shared, so a person's viewer stays connected.
      socket.write(Buffer.from([1]))
      const init = await reader.read(24)
      const name = (await reader.read(init.readUInt32BE(20))).toString('utf8')
      const client = new RfbClient(socket, reader, init.readUInt16BE(0), init.readUInt16BE(2), name)
      client.#setUp()
      return client
    } catch (error) {
      socket.destroy()
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  #setUp(): void {
    // SetPixelFormat: 32 bits, depth 24, little-endian, true colour, R at 16, G at 8, B at 0.
    const format = Buffer.alloc(20)
    format[0] = 0
    format.set([32, 24, 0, 1], 4)
    format.writeUInt16BE(255, 8)
    format.writeUInt16BE(255, 10)
    format.writeUInt16BE(255, 12)
    format.set([16, 8, 0], 14)
    // SetEncodings: Raw only.
    const encodings = Buffer.alloc(8)
    encodings[0] = 2
    encodings.writeUInt16BE(1, 2)
    encodings.writeInt32BE(0, 4)
    this.#socket.write(Buffer.concat([format, encodings]))
  }

  /** Reads the server's messages for as long as the connection lives. */
  async #listen(): Promise<void> {
    try {
      for (;;) {
        const type = (await this.#reader.read(1))[0]
        if (type === 0) await this.#update()
        else if (type === 1) {
          const header = await this.#reader.read(5)
          await this.#reader.read(header.readUInt16BE(3) * 6)
        } else if (type === 2) continue
        else if (type === 3) {
          const header = await this.#reader.read(7)
          await this.#reader.read(header.readUInt32BE(3))
        } else throw new TesseraError('conflict', `the VNC server sent a message of unknown type ${String(type)}`, { found: type ?? null })
      }
    } catch (error) {
      this.#failed = error instanceof Error ? error : new Error(String(error))
      for (const done of this.#updated.splice(0)) done()
    }
  }

  /** One FramebufferUpdate: raw rectangles copied into the framebuffer. */
  async #update(): Promise<void> {
    const header = await this.#reader.read(3)
    const rectangles = header.readUInt16BE(1)
    for (let r = 0; r < rectangles; r++) {
      const rect = await this.#reader.read(12)
      const [x, y, w, h] = [rect.readUInt16BE(0), rect.readUInt16BE(2), rect.readUInt16BE(4), rect.readUInt16BE(6)]
      const encoding = rect.readInt32BE(8)
      if (encoding !== 0) throw new TesseraError('conflict', `the VNC server sent encoding ${encoding}; only Raw was asked for`, { expected: 0, found: encoding })
      const pixels = await this.#reader.read(w * h * 4)
      for (let row = 0; row < h; row++) pixels.copy(this.#framebuffer, ((y + row) * this.width + x) * 4, row * w * 4, (row + 1) * w * 4)
    }
    for (const done of this.#updated.splice(0)) done()
  }

  /** The whole screen now, as PNG: a full update asked for and waited on. */
  async screenshot(): Promise<Buffer> {
    if (this.#failed !== undefined) throw this.#failed
    const updated = new Promise<void>((resolve) => this.#updated.push(resolve))
    const request = Buffer.alloc(10)
    request[0] = 3
    request[1] = 0
    request.writeUInt16BE(this.width, 6)
    request.writeUInt16BE(this.height, 8)
    this.#socket.write(request)
    let timer: NodeJS.Timeout | undefined
    await Promise.race([updated, new Promise((_, reject) => (timer = setTimeout(() => reject(new TesseraError('timed_out', `the VNC server sent no picture in ${ANSWER_MS / 1000} s`, { found: null })), ANSWER_MS)))]).finally(() => clearTimeout(timer))
    if (this.#failed !== undefined) throw this.#failed
    return pngOfBgrx(this.#framebuffer, this.width, this.height)
  }

  /** A key down or up, by X keysym. */
  key(keysym: number, down: boolean): void {
    const message = Buffer.alloc(8)
    message[0] = 4
    message[1] = down ? 1 : 0
    message.writeUInt32BE(keysym >>> 0, 4)
    this.#socket.write(message)
  }

  /** The pointer at x, y with these buttons held (bit 0 left, 1 middle, 2 right). */
  pointer(x: number, y: number, buttons: number): void {
    const message = Buffer.alloc(6)
    message[0] = 5
    message[1] = buttons
    message.writeUInt16BE(x, 2)
    message.writeUInt16BE(y, 4)
    this.#socket.write(message)
  }

  close(): void {
    this.#socket.destroy()
  }
}
