import { spawnSync } from 'node:child_process'
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { Socket } from 'node:net'
import { join } from 'node:path'
import { StringDecoder } from 'node:string_decoder'

/** One FIFO the shell's stderr can be pointed at for the duration of one command. */
export interface StderrPipe {
  readonly path: string
  /** The command whose stderr this pipe carries now; null between commands. */
  owner: object | null
  /**
   * Output arrived while no command owned the pipe: a background process started by an
   * earlier command still holds it, so it is never handed to another command.
   */
  dirty: boolean
}

interface PipeState extends StderrPipe {
  fd: number
  socket: Socket
  decoder: StringDecoder
}

/** Beyond this many pipes held by background processes, the least recently used one is shared. */
const MAX_PIPES = 32

/**
 * The FIFOs that carry `execute` stderr to the surface. The surface holds every FIFO open
 * for reading and writing, so the shell's open for writing never blocks and the reader
 * never sees end-of-file. A pipe that a background process keeps writing to is set aside
 * (its output still reaches the screen), so one command's stray writer never lands in
 * another command's stderr.
 */
export class StderrPipes {
  readonly #dir: string
  readonly #onData: (pipe: StderrPipe, text: string) => void
  #pipes: PipeState[] = []
  #next = 0
  #closed = false

  constructor(dir: string, onData: (pipe: StderrPipe, text: string) => void, initial = 2) {
    this.#dir = dir
    this.#onData = onData
    this.#create(initial)
  }

  /** A pipe no command and no background process writes to, created on demand. */
  acquire(owner: object): { pipe: StderrPipe; shared: boolean } {
    let pipe = this.#pipes.find((candidate) => candidate.owner === null && !candidate.dirty)
    let shared = false
    if (pipe === undefined && this.#pipes.length < MAX_PIPES) {
      this.#create(1)
      pipe = this.#pipes[this.#pipes.length - 1] as PipeState
    }
    if (pipe === undefined) {
      const free = this.#pipes.filter((candidate) => candidate.owner === null)
      pipe = free[this.#next++ % Math.max(1, free.length)] ?? (this.#pipes[0] as PipeState)
      shared = true
    }
    pipe.owner = owner
    return { pipe, shared }
  }

  release(pipe: StderrPipe): void {
    pipe.owner = null
  }

  /** Reads whatever the kernel holds for `pipe` right now; everything written before this call arrives through onData first. */
  drain(pipe: StderrPipe): void {
    const state = this.#pipes.find((candidate) => candidate === pipe)
    if (state === undefined || this.#closed) return
    const buffer = Buffer.allocUnsafe(64 * 1024)
    for (;;) {
      let n: number
      try {
        n = readSync(state.fd, buffer, 0, buffer.length, null)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return
        throw error
      }
      if (n <= 0) return
      this.#deliver(state, buffer.subarray(0, n))
    }
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    for (const pipe of this.#pipes) pipe.socket.destroy()
    this.#pipes = []
  }

  #create(count: number): void {
    const paths: string[] = []
    for (let i = 0; i < count; i++) paths.push(join(this.#dir, `stderr-${this.#pipes.length + i}`))
    const made = spawnSync('mkfifo', ['-m', '600', ...paths], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5000 })
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr?.toString().trim() || made.error?.message || `status ${made.status}`}`)
    for (const path of paths) {
      // O_NOFOLLOW: a sandboxed shell can write this directory, so never follow a link planted in it.
      const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK | constants.O_NOFOLLOW)
      if (!fstatSync(fd).isFIFO()) {
        closeSync(fd)
        throw new Error(`expected ${path} to be a FIFO`)
      }
      const socket = new Socket({ fd, readable: true, writable: false })
      const state: PipeState = { path, owner: null, dirty: false, fd, socket, decoder: new StringDecoder('utf8') }
      socket.on('data', (chunk: Buffer) => this.#deliver(state, chunk))
      socket.on('error', () => {})
      this.#pipes.push(state)
    }
  }

  #deliver(state: PipeState, chunk: Buffer): void {
    const text = state.decoder.write(chunk)
    if (text.length === 0) return
    if (state.owner === null) state.dirty = true
    this.#onData(state, text)
  }
}
