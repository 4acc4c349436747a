import { createHash, randomBytes } from 'node:crypto'
import { closeSync, constants, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { basename, join } from 'node:path'
import { type IPty, spawn as spawnPty } from 'node-pty'
import { TesseraError } from '@tessera/protocol'
import { CaptureBuffer } from './capture-buffer.js'
import { MarkerParser } from './marker-parser.js'
import { OutputLog } from './output-log.js'
import { type ProcStat, readStat, sessionMembers, signalQuietly } from './processes.js'
import { findInLog, findOnScreen, resolveSince } from './output-reading.js'
import { findShellPid, settledForeground, shellAncestry, terminateSession } from './shell-processes.js'
import { type SandboxOptions, sandboxCommand } from './sandbox.js'
import { Screen } from './screen.js'
import { EXECUTE_KEYS, LOAD_KEYS, NONCE_REQUEST, markerIntro, shellRc } from './shell-integration.js'
import { type StderrPipe, StderrPipes } from './stderr-pipes.js'
import { TextCleaner, cleanTerminalText } from './text-cleaner.js'
import { compilePattern } from './pattern.js'
import { longTimeout } from './long-timeout.js'
import { commandResult, timedOutResult } from './command-result.js'
import { checkCommand, checkCount, checkTimeout } from './input-checks.js'
import { shellEnvironment } from './shell-environment.js'
import { lineEditedAfter } from './input-risk.js'
import { makeSessionDir } from './session-dirs.js'
import {
  type CommandResult,
  DEFAULT_CAPTURE_BYTES,
  DEFAULT_COLS,
  DEFAULT_LOG_CHARS,
  DEFAULT_READ_CHARS,
  DEFAULT_ROWS,
  DEFAULT_SCROLLBACK,
  DEFAULT_TIMEOUT_MS,
  type ExecuteOptions,
  type Execution,
  type Job,
  KEYS,
  type KillOptions,
  type KillResult,
  type ReadOptions,
  type ReadResult,
  type SessionStatus,
  type ShellSessionOptions,
  type StartResult,
  type WaitForOptions,
  type WaitForResult,
} from './shell-types.js'

export * from './shell-types.js'

/** Longest a stderr chunk waits for the PTY stream to reach a line start before it is shown anyway. */
const STDERR_HOLD_MS = 30
/** How long a kill waits for the shell's prompt to come back before it answers anyway. */
const KILL_SETTLE_MS = 2000
const HISTORY_LENGTH = 100

/**
 * One bash in a real PTY, mirrored into a screen model, with the shell integration that
 * tells where each command starts and ends and how it exited. See docs/terminal.md.
 */
export class ShellSession {
  readonly screen: Screen
  readonly log: OutputLog
  readonly #options: ShellSessionOptions
  readonly #dir: string
  readonly #nonce: string
  readonly #captureBytes: number
  readonly #pipes: StderrPipes
  #pty: IPty | null = null
  #parser: MarkerParser
  #lineEdited = false
  #definitions = 'unread'
  /** Whether this shell generation has been given its nonce (see #answerNonceRequest). */
  #nonceAsked = false
  /** The tail of the stream that may be the start of a nonce request split across reads. */
  #beforeNonce = ''
  #cleaner = new TextCleaner()
  #pipeCleaners = new Map<StderrPipe, { cleaner: TextCleaner; parser: MarkerParser }>()
  #waiters = new Set<() => void>()
  #ready = false
  #promptReady = false
  #continuation = false
  #busy = false
  #inPrompt = false
  #pendingPrompt = ''
  #cwd: string
  #lastExitCode: number | null = null
  #exec: Execution | null = null
  #job: Job | null = null
  #current: string | null = null
  #readCursor = 0
  #atLineStart = true
  #heldStderr: Array<{ screen: string; log: string }> = []
  #stderrTimer: NodeJS.Timeout | undefined
  #exited: { exitCode: number; signal: number | undefined } | null = null
  #closed = false
  #shellPid: number | null = null
  #generation = 0
  #history: string[] = []

  private constructor(options: ShellSessionOptions) {
    this.#options = options
    const shell = options.shell ?? 'bash'
    if (basename(shell) !== 'bash') {
      throw new TesseraError('invalid_input', `expected a bash shell, found ${JSON.stringify(shell)}: the integration needs bash's PS0, bind -x and DEBUG trap`, {
        expected: 'bash',
        found: shell,
      })
    }
    const cwd = options.cwd ?? process.cwd()
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
      throw new TesseraError('invalid_input', `expected the working directory ${cwd} to be an existing directory`, { expected: 'directory', found: cwd })
    }
    this.#cwd = cwd
    this.#captureBytes = options.captureBytes ?? DEFAULT_CAPTURE_BYTES
    this.#nonce = randomBytes(16).toString('hex')
    this.#parser = new MarkerParser(markerIntro(this.#nonce))
    this.log = new OutputLog(options.logChars ?? DEFAULT_LOG_CHARS)
    this.screen = new Screen({
      cols: options.cols ?? DEFAULT_COLS,
      rows: options.rows ?? DEFAULT_ROWS,
      scrollback: options.scrollback ?? DEFAULT_SCROLLBACK,
      reply: (data) => this.#pty?.write(data),
    })
    this.screen.onParsed(() => this.#changed())
    this.#dir = makeSessionDir()
    try {
      writeFileSync(join(this.#dir, 'rc'), shellRc(this.#dir), { mode: 0o600 })
      this.#pipes = new StderrPipes(this.#dir, (pipe, text) => this.#onStderr(pipe, text))
    } catch (error) {
      rmSync(this.#dir, { recursive: true, force: true })
      this.screen.dispose()
      throw error
    }
  }

  /** Starts bash and resolves once its first prompt is up. */
  static async start(options: ShellSessionOptions = {}): Promise<ShellSession> {
    const session = new ShellSession(options)
    try {
      await session.#spawn()
    } catch (error) {
      await session.close()
      throw error
    }
    return session
  }

  get pid(): number | null {
    return this.#pty?.pid ?? null
  }

  get cwd(): string {
    return this.#cwd
  }

  get busy(): boolean {
    return this.#busy || this.#exec !== null
  }

  get promptReady(): boolean {
    return this.#promptReady && !this.busy && !this.#continuation && this.#exited === null
  }

  get lastExitCode(): number | null {
    return this.#lastExitCode
  }

  /** The command line running now, if any. */
  get current(): string | null {
    return this.busy ? this.#current : null
  }

  /** Command lines run or started here, oldest first (the last HISTORY_LENGTH). */
  get history(): readonly string[] {
    return this.#history
  }

  get exited(): { exitCode: number; signal: number | undefined } | null {
    return this.#exited
  }

  get closed(): boolean {
    return this.#closed
  }

  get sandboxed(): boolean {
    return this.#options.sandbox !== undefined
  }

  get status(): SessionStatus {
    if (this.#closed) return 'closed'
    if (this.#exited !== null) return 'exited'
    if (!this.#ready) return 'starting'
    if (this.busy) return 'running'
    if (this.#continuation) return 'waiting-input'
    return 'ready'
  }

  /** Called whenever output arrives or the state changes; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#waiters.add(listener)
    return () => this.#waiters.delete(listener)
  }

  /**
   * Runs one command line in this shell (so `cd` and `export` persist) and waits for it to
   * end. stdout comes from the PTY between the shell's start and end markers; stderr comes
   * from a FIFO the shell points fd 2 at for this command only, and is copied to the screen.
   */
  async execute(command: string, options: ExecuteOptions = {}): Promise<CommandResult> {
    const timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
    const line = checkCommand(command)
    await this.#reviveExitedShell()
    this.#assertIdle()
    this.#remember(line)
    const cwdBefore = this.#cwd
    const exec: Execution = {
      command: line,
      pipe: null as unknown as StderrPipe,
      shared: false,
      startedAt: performance.now(),
      offset: this.log.end,
      sawStart: false,
      beforeStart: '',
      stdout: new CaptureBuffer(this.#captureBytes),
      stderr: new CaptureBuffer(this.#captureBytes),
      finished: null,
      incomplete: false,
      detached: false,
    }
    const { pipe, shared } = this.#pipes.acquire(exec)
    exec.pipe = pipe
    exec.shared = shared
    try {
      this.#writeCommandFile(pipe.path, line)
    } catch (error) {
      this.#pipes.release(pipe)
      throw error
    }
    this.#exec = exec
    this.#current = line
    this.#promptReady = false
    this.#readCursor = exec.offset
    ;(this.#pty as IPty).write(`${EXECUTE_KEYS}\r`)
    const finished = await this.#waitUntil(() => exec.finished !== null && (this.#promptReady || this.#exited !== null), timeoutMs, options.signal)
    if (!finished) {
      this.#pipes.drain(pipe)
      exec.detached = true
      if (options.signal?.aborted) throw options.signal.reason
      return timedOutResult(exec, timeoutMs)
    }
    await this.screen.settle()
    if (exec.incomplete && !exec.sawStart) {
      this.#exec = null
      throw new TesseraError('invalid_input', 'incomplete command: bash asked for more input (an unterminated quote, here-document or block), so the line was cancelled and nothing ran', {
        expected: 'a complete command line',
        found: line,
      })
    }
    this.#exec = null
    // `exit 4` (or a sourced script that exits) ends this shell: its code is the command's,
    // and the terminal goes on with a fresh shell in the same directory.
    let restarted: boolean | Error = false
    if (exec.finished?.shellExited === true) restarted = await this.#reviveExitedShell().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))
    const result = commandResult(exec, { captureBytes: this.#captureBytes, cwd: this.#cwd, cwdBefore, restarted: restarted === true })
    // The command's result stands; why no new shell came up is said with it, not lost.
    if (restarted instanceof Error) result.hint = `the shell exited and a new one failed to start (${restarted.message}); kill with restart: true tries again`
    return result
  }

  /** Starts a command line without waiting for it to end: for long-running and interactive programs. stderr stays on the terminal. */
  async start(command: string, options: { signal?: AbortSignal | undefined } = {}): Promise<StartResult> {
    const line = checkCommand(command)
    await this.#reviveExitedShell()
    this.#assertIdle()
    this.#remember(line)
    const job: Job = { command: line, offset: this.log.end, started: false, finished: false, incomplete: false }
    this.#writeCommandFile('', line)
    this.#job = job
    this.#current = line
    this.#promptReady = false
    this.#readCursor = job.offset
    ;(this.#pty as IPty).write(`${LOAD_KEYS}\r`)
    await this.#waitUntil(() => job.started || job.finished || job.incomplete || this.#exited !== null, 10_000, options.signal)
    if (job.incomplete && !job.started) {
      await this.#waitUntil(() => this.promptReady || this.#exited !== null, 5000)
      throw new TesseraError('invalid_input', 'incomplete command: bash asked for more input (an unterminated quote, here-document or block), so the line was cancelled and nothing ran', {
        expected: 'a complete command line',
        found: line,
      })
    }
    return { offset: job.offset, running: this.busy, exit_code: job.finished ? this.#lastExitCode : null }
  }

  /** Types into the terminal: text as given, then named keys (enter, tab, up, ctrl-c…), then Enter if asked. */
  input(text: string, options: { enter?: boolean | undefined; keys?: readonly string[] | undefined } = {}): { offset: number } {
    this.#assertAlive()
    if (typeof text !== 'string') throw new TesseraError('invalid_input', `expected text to be a string, found ${typeof text}`, { expected: 'string', found: typeof text })
    let data = text
    for (const key of options.keys ?? []) {
      const bytes = KEYS[key.toLowerCase()]
      if (bytes === undefined) {
        throw new TesseraError('invalid_input', `unknown key ${JSON.stringify(key)}; expected one of ${Object.keys(KEYS).join(', ')}`, { expected: Object.keys(KEYS), found: key })
      }
      data += bytes
    }
    if (options.enter === true) data += '\r'
    const offset = this.log.end
    if (data.length > 0) (this.#pty as IPty).write(data)
    // At the prompt, remember whether the line now being edited came from keys as well as
    // text, so a later Enter alone is judged by what it submits (input-risk.ts).
    if (this.current === null) this.#lineEdited = lineEditedAfter(this.#lineEdited, data)
    return { offset }
  }

  /**
   * A hash of the shell's functions and aliases as the prompt last wrote them (a fresh `unread-…` if
   * it could not be read): what command names mean here. Approvals bind to it, so a
   * redefined `rm` makes an approval given before it stale.
   */
  get definitions(): string {
    return this.#definitions
  }

  /** Read when a command ends, right after the prompt wrote them, and kept: a later write by a program changes nothing. */
  #readDefinitions(): void {
    try {
      this.#definitions = createHash('sha256').update(readFileSync(join(this.#dir, 'defs'))).digest('hex').slice(0, 16)
    } catch {
      // Unreadable (removed by a program?): a value no earlier reading had, so an approval given before does not hold.
      this.#definitions = `unread-${randomBytes(4).toString('hex')}`
    }
  }

  /** Whether the line at the prompt holds what editing or history keys made of it, not only typed text. */
  get lineEdited(): boolean {
    return this.#lineEdited
  }

  read(options: ReadOptions = {}): ReadResult {
    const max = options.maxChars ?? DEFAULT_READ_CHARS
    if (!Number.isInteger(max) || max < 1) throw new TesseraError('invalid_input', `expected max_chars to be a positive integer, found ${max}`, { expected: 'positive integer', found: max })
    let from: number
    if (options.tail !== undefined) from = this.log.offsetOfTail(checkCount(options.tail, 'tail'))
    else if (options.line !== undefined) from = this.log.offsetOfLine(checkCount(options.line, 'line'))
    else from = resolveSince(options.since, this.#readCursor)
    const slice = this.log.read(from, max)
    this.#readCursor = slice.next
    return {
      text: slice.text,
      offset: slice.offset,
      next_offset: slice.next,
      dropped: slice.dropped,
      line: slice.line,
      more: slice.more,
      busy: this.busy,
      prompt_ready: this.promptReady,
      exit_code: this.#lastExitCode,
    }
  }

  /** Waits for output matching a pattern (or for the prompt) from `since` on; no polling, no hidden cap on the timeout. */
  async waitFor(options: WaitForOptions): Promise<WaitForResult> {
    const timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
    const from = resolveSince(options.since, this.#readCursor)
    if (options.pattern === undefined && options.prompt !== true) {
      throw new TesseraError('invalid_input', 'expected a pattern or prompt: true', { expected: 'pattern or prompt', found: options })
    }
    const pattern = options.pattern === undefined ? null : compilePattern(options.pattern)
    const onScreen = options.screen === true
    let hit: { match: string; end: number } | null = null
    let scanned = from
    const satisfied = (): boolean => {
      if (pattern !== null && hit === null) {
        hit = onScreen ? findOnScreen(this.screen, this.log, pattern) : findInLog(this.log, pattern, from, scanned)
        scanned = this.log.end
        if (hit === null) return false
      }
      return options.prompt !== true || this.promptReady
    }
    const ok = await this.#waitUntil(() => satisfied() || this.#exited !== null || this.#closed, timeoutMs, options.signal)
    const matched = ok && satisfied()
    const found = hit as { match: string; end: number } | null
    const end = matched && found !== null && !onScreen ? found.end : this.log.end
    if (matched) this.#readCursor = end
    const start = Math.max(from, end - DEFAULT_READ_CHARS)
    return {
      matched,
      timed_out: !ok,
      match: matched && found !== null ? found.match : null,
      text: matched ? this.log.read(start, end - start).text : '',
      next_offset: matched ? end : this.#readCursor,
      busy: this.busy,
      prompt_ready: this.promptReady,
      exit_code: this.#lastExitCode,
    }
  }

  /**
   * Ctrl-C: the terminal sends SIGINT to the foreground process group. Right after a line
   * starts, bash may not have put its program in the foreground yet, and a Ctrl-C then
   * would reach only bash; so this first waits (at most FOREGROUND_WAIT_MS) for that.
   */
  async interrupt(): Promise<{ offset: number }> {
    this.#assertAlive()
    await settledForeground(this.#pty?.pid ?? null, () => this.#shellStat(), () => this.busy)
    this.#assertAlive()
    const offset = this.log.end
    ;(this.#pty as IPty).write('\x03')
    return { offset }
  }

  /** Kills the foreground program (default), every process the shell started (`all`), or the shell itself (`restart`). */
  async kill(options: KillOptions = {}): Promise<KillResult> {
    const signal = options.signal ?? 'SIGKILL'
    if (options.restart === true) {
      if (this.#closed) throw new TesseraError('conflict', 'the terminal is closed', { expected: 'an open terminal', found: 'closed' })
      const killed = await this.#terminate()
      await this.#spawn()
      return { killed, restarted: true, signal: 'SIGKILL' }
    }
    this.#assertAlive()
    const { shell, foreground } = await settledForeground(this.#pty?.pid ?? null, () => this.#shellStat(), () => this.busy)
    const pty = this.#pty as IPty
    const killed: number[] = []
    if (options.all === true) {
      const keep = new Set(shellAncestry(this.#pty?.pid, shell))
      for (const member of sessionMembers(pty.pid)) {
        if (!keep.has(member.pid) && signalQuietly(member.pid, signal)) killed.push(member.pid)
      }
    } else if (shell !== null && foreground > 0 && foreground !== shell.pgrp) {
      for (const member of sessionMembers(pty.pid)) if (member.pgrp === foreground) killed.push(member.pid)
      signalQuietly(-foreground, signal)
    }
    const result: KillResult = { killed, restarted: false, signal }
    if (killed.length > 0) {
      // bash reaps the group and shows its prompt a moment later: answer then, so a command
      // sent right after the kill finds the terminal idle instead of busy with the dead one.
      const back = await this.#waitUntil(() => this.promptReady || this.#exited !== null || this.#closed, KILL_SETTLE_MS)
      if (!back) result.note = `the shell had not shown its prompt ${KILL_SETTLE_MS} ms after the kill; wait_for the prompt`
    }
    if (killed.length === 0) {
      result.note = this.busy
        ? 'only the shell itself is in the foreground (a builtin or a shell loop runs); interrupt it, or kill with restart: true'
        : 'nothing was running'
    }
    return result
  }

  resize(cols: number, rows: number): void {
    this.#assertAlive()
    ;(this.#pty as IPty).resize(cols, rows)
    this.screen.resize(cols, rows)
  }

  /** Ends the shell and everything it started in its session, reaps them, and removes the integration files. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#terminate()
    this.#flushStderr()
    this.#changed()
    this.#pipes?.close()
    this.screen.dispose()
    rmSync(this.#dir, { recursive: true, force: true })
  }

  async #spawn(): Promise<void> {
    const generation = ++this.#generation
    const shell = this.#options.shell ?? 'bash'
    const bashArgs = ['--noprofile', '--rcfile', join(this.#dir, 'rc'), '-i']
    const cwd = existsSync(this.#cwd) ? this.#cwd : (this.#options.cwd ?? process.cwd())
    const command = this.#options.sandbox
      ? sandboxCommand(this.#options.sandbox, { cwd, integrationDir: this.#dir, command: [shell, ...bashArgs] })
      : { file: shell, args: bashArgs }
    this.#ready = false
    this.#exited = null
    this.#promptReady = false
    this.#busy = false
    this.#continuation = false
    this.#shellPid = null
    this.#parser = new MarkerParser(markerIntro(this.#nonce))
    this.#nonceAsked = false
    this.#beforeNonce = ''
    const pty = spawnPty(command.file, command.args, {
      name: 'xterm-256color',
      cols: this.screen.cols,
      rows: this.screen.rows,
      cwd,
      env: shellEnvironment(shell, this.#options.env),
    })
    this.#pty = pty
    pty.onData((data) => {
      if (generation === this.#generation) this.#onPtyData(data)
    })
    pty.onExit(({ exitCode, signal }) => {
      if (generation === this.#generation) this.#onExit(exitCode, signal)
    })
    const timeout = this.#options.startTimeoutMs ?? 10_000
    const ok = await this.#waitUntil(() => this.#ready || this.#exited !== null, timeout)
    const exited = this.exited
    if (!ok || exited !== null) {
      const said = cleanTerminalText(this.log.read(Math.max(0, this.log.end - 2000)).text).trim()
      throw new TesseraError('internal', `the shell did not start${ok ? ` (it exited with ${exited?.exitCode})` : ` within ${timeout} ms`}${said ? `: ${said}` : ''}`, {
        command: [command.file, ...command.args],
      })
    }
  }

  #onPtyData(data: string): void {
    const text = this.#nonceAsked ? data : this.#answerNonceRequest(data)
    for (const segment of this.#parser.push(text)) {
      if ('text' in segment) this.#onPtyText(segment.text)
      else this.#onMarker(segment.marker)
    }
    this.#changed()
  }

  /**
   * The new shell's rc asks for the nonce (NONCE_REQUEST) before it does anything else; the
   * answer goes on the PTY's input, echo off, once per shell: a request printed later by a
   * program is not answered, it is shown as the text it is. Until then the stream is
   * watched for the request (which may arrive split) and passed on without it.
   */
  #answerNonceRequest(data: string): string {
    const seen = this.#beforeNonce + data
    const at = seen.indexOf(NONCE_REQUEST)
    if (at === -1) {
      let keep = Math.min(NONCE_REQUEST.length - 1, seen.length)
      while (keep > 0 && !NONCE_REQUEST.startsWith(seen.slice(seen.length - keep))) keep -= 1
      this.#beforeNonce = seen.slice(seen.length - keep)
      return seen.slice(0, seen.length - keep)
    }
    this.#nonceAsked = true
    this.#beforeNonce = ''
    ;(this.#pty as IPty).write(`${this.#nonce}\r`)
    return seen.slice(0, at) + seen.slice(at + NONCE_REQUEST.length)
  }

  #onPtyText(raw: string): void {
    this.screen.write(raw)
    const text = this.#cleaner.push(raw)
    const exec = this.#exec
    if (exec !== null && !exec.detached && exec.finished === null) {
      if (exec.sawStart) exec.stdout.append(text)
      else exec.beforeStart += raw
    }
    if (text.length > 0) this.#atLineStart = text.endsWith('\n')
    if (this.#inPrompt) this.#pendingPrompt += text
    else this.#appendLog(text)
    if (this.#atLineStart && this.#heldStderr.length > 0) this.#flushStderr()
  }

  #onStderr(pipe: StderrPipe, raw: string): void {
    let state = this.#pipeCleaners.get(pipe)
    if (state === undefined) {
      state = { cleaner: new TextCleaner(), parser: new MarkerParser(markerIntro(this.#nonce)) }
      this.#pipeCleaners.set(pipe, state)
    }
    // Multi-line command lines make bash print PS0 once per command, to fd 2: drop those markers.
    let visible = ''
    for (const segment of state.parser.push(raw)) if ('text' in segment) visible += segment.text
    if (visible.length === 0) return
    const text = state.cleaner.push(visible)
    const exec = this.#exec
    if (exec !== null && pipe.owner === exec && !exec.detached) exec.stderr.append(text)
    // The FIFO bypasses the PTY's output processing, so LF needs its CR here.
    this.#heldStderr.push({ screen: visible.replace(/\r?\n/g, '\r\n'), log: text })
    if (this.#atLineStart) this.#flushStderr()
    else this.#stderrTimer ??= setTimeout(() => {
      this.#flushStderr()
      this.#changed()
    }, STDERR_HOLD_MS)
    this.#changed()
  }

  /**
   * stderr arrives on its own descriptor and can overtake stdout written just before it,
   * so it is shown at a line start of the PTY stream: held until the current line ends,
   * the command ends, or STDERR_HOLD_MS pass.
   */
  #flushStderr(): void {
    if (this.#stderrTimer !== undefined) {
      clearTimeout(this.#stderrTimer)
      this.#stderrTimer = undefined
    }
    const held = this.#heldStderr
    if (held.length === 0) return
    this.#heldStderr = []
    for (const part of held) {
      this.screen.write(part.screen)
      this.#appendLog(part.log)
    }
  }

  #appendLog(text: string): void {
    if (text.length === 0) return
    if (this.#pendingPrompt.length > 0) {
      this.log.append(this.#pendingPrompt)
      this.#pendingPrompt = ''
    }
    this.log.append(text)
  }

  #onMarker(marker: string): void {
    const kind = marker[0]
    switch (kind) {
      case 'A':
        // A prompt redrawn before anything else was printed replaces the previous one.
        this.#inPrompt = true
        this.#pendingPrompt = ''
        break
      case 'B':
        this.#inPrompt = false
        this.#promptReady = true
        this.#continuation = false
        this.#ready = true
        if (this.#exec !== null && this.#exec.finished === null) this.#exec.beforeStart = ''
        break
      case '2':
        this.#promptReady = false
        this.#continuation = true
        if (this.#exec !== null && this.#exec.finished === null && !this.#exec.incomplete) {
          this.#exec.incomplete = true
          this.#pty?.write('\x03')
        }
        if (this.#job !== null && !this.#job.started && !this.#job.incomplete) {
          this.#job.incomplete = true
          this.#pty?.write('\x03')
        }
        break
      case 'C':
        this.#busy = true
        this.#promptReady = false
        if (this.#exec !== null) this.#exec.sawStart = true
        if (this.#job !== null) this.#job.started = true
        break
      case 'D':
        this.#onCommandEnd(marker.slice(2))
        break
      default:
        break
    }
  }

  #onCommandEnd(payload: string): void {
    this.#readDefinitions()
    if (this.#exec !== null && this.#exec.finished === null) this.#pipes.drain(this.#exec.pipe)
    this.#flushStderr()
    const [code, , ...rest] = payload.split(';')
    const exitCode = Number(code)
    this.#cwd = rest.join(';') || this.#cwd
    this.#busy = false
    this.#continuation = false
    if (this.#ready) this.#lastExitCode = Number.isInteger(exitCode) ? exitCode : null
    const exec = this.#exec
    if (exec !== null && exec.finished === null) {
      exec.finished = { exitCode: Number.isInteger(exitCode) ? exitCode : null, at: performance.now(), shellExited: false }
      this.#pipes.release(exec.pipe)
      if (exec.detached) this.#exec = null
    }
    const job = this.#job
    if (job !== null) {
      job.finished = true
      this.#job = null
    }
  }

  #onExit(exitCode: number, signal: number | undefined): void {
    this.#exited = { exitCode, signal: signal || undefined }
    this.#busy = false
    this.#promptReady = false
    const exec = this.#exec
    if (exec !== null && exec.finished === null) {
      this.#pipes.drain(exec.pipe)
      // The shell's own exit status is the command's: `exit 4` ran as this command.
      exec.finished = { exitCode: signal ? 128 + signal : exitCode, at: performance.now(), shellExited: true }
      this.#pipes.release(exec.pipe)
      if (exec.detached) this.#exec = null
    }
    if (this.#job !== null) {
      this.#job.finished = true
      this.#job = null
    }
    this.#changed()
  }

  #remember(line: string): void {
    this.#history.push(line)
    if (this.#history.length > HISTORY_LENGTH) this.#history.splice(0, this.#history.length - HISTORY_LENGTH)
  }

  /** A shell that exited (`exit`, a sourced script) is replaced by a new one in the same directory; false if none was needed. */
  async #reviveExitedShell(): Promise<boolean> {
    if (this.#exited === null || this.#closed) return false
    await this.#spawn()
    return true
  }

  #writeCommandFile(pipePath: string, command: string): void {
    // O_NOFOLLOW: a sandboxed shell can write this directory, so never follow a link planted in it.
    const fd = openSync(join(this.#dir, 'cmd'), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600)
    try {
      writeSync(fd, `${pipePath}\n${command}`)
    } finally {
      closeSync(fd)
    }
  }

  #assertAlive(): void {
    if (this.#closed) throw new TesseraError('conflict', 'the terminal is closed', { expected: 'an open terminal', found: 'closed' })
    if (this.#exited !== null || this.#pty === null) {
      throw new TesseraError('conflict', `the shell exited (code ${this.#exited?.exitCode}); kill with restart: true starts a new one`, {
        expected: 'a running shell',
        found: 'exited',
      })
    }
  }

  #assertIdle(): void {
    this.#assertAlive()
    if (this.busy) {
      throw new TesseraError('conflict', `the terminal is busy running ${JSON.stringify(this.#current)}; read its output, wait_for the prompt, interrupt or kill it, or use another terminal`, {
        expected: 'an idle terminal',
        found: this.#current,
      })
    }
    if (!this.#promptReady || this.#continuation) {
      throw new TesseraError('conflict', 'the shell is not at its prompt (a line is half entered or a program is reading input); interrupt first', {
        expected: 'the shell prompt',
        found: this.status,
      })
    }
  }

  #shellStat(): ProcStat | null {
    const pty = this.#pty
    if (pty === null) return null
    this.#shellPid ??= findShellPid(pty.pid, this.#options.sandbox !== undefined)
    return readStat(this.#shellPid)
  }

  /** Ends the shell and everything its session started (shell-processes.ts says how). */
  async #terminate(): Promise<number[]> {
    const pty = this.#pty
    if (pty === null || this.#exited !== null) return []
    return terminateSession(pty.pid, (withinMs) => this.#waitUntil(() => this.#exited !== null, withinMs))
  }

  #changed(): void {
    for (const waiter of [...this.#waiters]) waiter()
  }

  #waitUntil(predicate: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (predicate()) return Promise.resolve(true)
    if (signal?.aborted) return Promise.resolve(false)
    return new Promise((resolve) => {
      let cancelTimer = (): void => {}
      const finish = (value: boolean): void => {
        this.#waiters.delete(check)
        cancelTimer()
        signal?.removeEventListener('abort', onAbort)
        resolve(value)
      }
      const check = (): void => {
        if (predicate()) finish(true)
      }
      const onAbort = (): void => finish(false)
      this.#waiters.add(check)
      cancelTimer = longTimeout(timeoutMs, () => finish(false))
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }
}
