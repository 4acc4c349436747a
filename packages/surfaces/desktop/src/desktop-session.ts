import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TesseraError } from '@tessera/protocol'
import dbus from 'dbus-next'

/** What a desktop session runs on: Debian's packages, found where they install. */
export const SESSION_PROGRAMS = {
  xvfb: { file: 'Xvfb', pkg: 'xvfb' },
  dbus: { file: 'dbus-daemon', pkg: 'dbus-daemon' },
  atspi: { file: '/usr/libexec/at-spi-bus-launcher', pkg: 'at-spi2-core' },
  xdotool: { file: 'xdotool', pkg: 'xdotool' },
  import: { file: 'import', pkg: 'imagemagick' },
  xclip: { file: 'xclip', pkg: 'xclip' },
} as const

/** Started only when a person watches a tile's pixels live; a tile works without it. */
export const VNC_PROGRAM = { file: 'x11vnc', pkg: 'x11vnc' } as const

/** Every process of a session carries its folder in this variable: what belongs to a tile can be told from outside. */
export const SESSION_MARK = 'TESSERA_DESKTOP'

const START_TIMEOUT_MS = 10_000
const END_TIMEOUT_MS = 3_000

/** A program started in a session, and what it last said (why it did not start). */
export interface LaunchedApp {
  child: ChildProcess
  lastWords(): string
  /** Where a Chromium app started with `--remote-debugging-port=0` said its DevTools listen (`ws://127.0.0.1:…`), once it has. */
  devtools(): string | undefined
}

export interface SessionOptions {
  width?: number
  height?: number
  /** Where the session keeps its sockets and the apps their settings; a private folder is made when absent. */
  dir?: string
}

/**
 * One tile's desktop: its own X display (Xvfb), session bus and accessibility bus, so that its
 * apps see nothing of another tile's and no agent reads another tile's widgets. Every process
 * it starts is its own child, in a process group of its own, and ends with `close`.
 */
export class DesktopSession {
  readonly #children: ChildProcess[] = []
  readonly #ownDir: boolean
  #closed = false
  #vnc: Promise<{ host: string; port: number }> | undefined

  private constructor(
    readonly dir: string,
    readonly display: string,
    readonly width: number,
    readonly height: number,
    readonly sessionBusAddress: string,
    readonly a11yBusAddress: string,
    children: ChildProcess[],
    ownDir: boolean,
  ) {
    this.#children.push(...children)
    this.#ownDir = ownDir
  }

  /** Starts Xvfb on a display number it picks itself (no collisions), a session bus, the accessibility bus, and turns accessibility on. */
  static async start(options: SessionOptions = {}): Promise<DesktopSession> {
    const width = options.width ?? 1280
    const height = options.height ?? 800
    const ownDir = options.dir === undefined
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'tessera-desktop-'))
    mkdirSync(dir, { recursive: true })
    // XDG_RUNTIME_DIR must be private to its user, or D-Bus and GTK refuse it.
    chmodSync(dir, 0o700)
    const children: ChildProcess[] = []
    try {
      const xvfb = spawnOwn(dir, SESSION_PROGRAMS.xvfb.file, ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'], {}, ['ignore', 'ignore', 'pipe', 'pipe'])
      children.push(xvfb)
      const displayNumber = await firstLine(xvfb, 3, 'Xvfb')
      const display = `:${displayNumber.trim()}`
      const busSocket = join(dir, 'bus')
      const daemon = spawnOwn(dir, SESSION_PROGRAMS.dbus.file, ['--session', '--nofork', '--nopidfile', '--print-address=1', `--address=unix:path=${busSocket}`], { XDG_RUNTIME_DIR: dir })
      children.push(daemon)
      const sessionBusAddress = (await firstLine(daemon, 1, 'dbus-daemon')).trim()
      const env = { DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: sessionBusAddress, XDG_RUNTIME_DIR: dir }
      children.push(spawnOwn(dir, SESSION_PROGRAMS.atspi.file, ['--launch-immediately'], env))
      const a11yBusAddress = await enableAccessibility(sessionBusAddress)
      return new DesktopSession(dir, display, width, height, sessionBusAddress, a11yBusAddress, children, ownDir)
    } catch (error) {
      await Promise.all(children.map(endGroup))
      if (ownDir) rmSync(dir, { recursive: true, force: true })
      throw error
    }
  }

  /** The environment an app of this session runs in: its display, its buses, accessibility on for every toolkit, settings kept in the session's folder. */
  appEnv(): NodeJS.ProcessEnv {
    const home = join(this.dir, 'home')
    mkdirSync(home, { recursive: true })
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: process.env.LANG ?? 'C.UTF-8',
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_RUNTIME_DIR: this.dir,
      [SESSION_MARK]: this.dir,
      DISPLAY: this.display,
      DBUS_SESSION_BUS_ADDRESS: this.sessionBusAddress,
      NO_AT_BRIDGE: '0',
      GTK_MODULES: 'gail:atk-bridge',
      ACCESSIBILITY_ENABLED: '1',
      GNOME_ACCESSIBILITY: '1',
      QT_ACCESSIBILITY: '1',
      QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
      // No settings daemon runs here: GSettings keeps what apps change in memory.
      GSETTINGS_BACKEND: 'memory',
      // LibreOffice reaches AT-SPI only through its GTK 3 plugin.
      SAL_USE_VCLPLUGIN: 'gtk3',
      // No GPU under Xvfb: GTK 4's GL renderer takes seconds to start on software GL (GNOME
      // Calculator shows its window in ~0.9 s with cairo, ~2.7 s without).
      GSK_RENDERER: 'cairo',
    }
  }

  /**
   * Starts a program in this session, as a child of this process in a group of its own, ended
   * with the session. `leftover`: a file the program leaves behind when it is ended by signal
   * (LibreOffice's socket in /tmp), removed once it has ended — even when this process died.
   */
  launch(command: readonly string[], env: Readonly<Record<string, string>> = {}, leftover?: string): LaunchedApp {
    const [file, ...args] = command
    if (file === undefined) throw new TesseraError('invalid_input', 'expected a command to start, found an empty list', { found: [] })
    const child = spawnWatched(file, args, { env: { ...this.appEnv(), ...env }, cwd: join(this.dir, 'home'), stdio: ['ignore', 'ignore', 'pipe'], ...(leftover === undefined ? {} : { leftover }) })
    // What an app says on stderr is kept short: its last lines explain a failed start.
    let said = ''
    let devtools: string | undefined
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      said = (said + chunk).slice(-2000)
      devtools ??= /DevTools listening on (ws:\/\/\S+)/.exec(said)?.[1]
    })
    child.on('error', (error) => {
      said += `\n${error.message}`
    })
    this.#children.push(child)
    return { child, lastWords: () => said.trim().split('\n').slice(-3).join(' | ').slice(0, 500), devtools: () => devtools }
  }

  /**
   * A view-only VNC server of this display on loopback (x11vnc picks a free port from 5900):
   * what the console's live tile shows. View-only, so that every input still goes through the
   * gateway's actions. Started once, on first use; ended with the session.
   */
  vnc(): Promise<{ host: string; port: number }> {
    this.#vnc ??= (async () => {
      if (!installed(VNC_PROGRAM.file)) throw new TesseraError('not_found', `live pixels need the Debian package ${VNC_PROGRAM.pkg}: apt-get install ${VNC_PROGRAM.pkg}`, { expected: VNC_PROGRAM.pkg, found: null })
      const server = spawnOwn(this.dir, VNC_PROGRAM.file, ['-display', this.display, '-localhost', '-viewonly', '-shared', '-forever', '-nopw', '-noxdamage', '-autoport', '5900', '-nolookup'], { XDG_RUNTIME_DIR: this.dir })
      this.#children.push(server)
      const line = await firstLine(server, 1, 'x11vnc')
      const port = Number(/PORT=(\d+)/.exec(line)?.[1])
      if (!Number.isInteger(port)) throw new TesseraError('conflict', `x11vnc said "${line.slice(0, 200)}" where it says its port`, { expected: 'PORT=<n>', found: line.slice(0, 200) })
      return { host: '127.0.0.1', port }
    })()
    return this.#vnc
  }

  /** Runs a short helper program (xdotool, import) against this display and answers its output. */
  run(file: string, args: readonly string[], timeoutMs = 5_000): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn(file, args, { env: this.appEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
      const out: Buffer[] = []
      let err = ''
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
      child.once('error', (error) => {
        clearTimeout(timer)
        reject(new TesseraError('not_found', `${file} could not start: ${error.message}`, { found: file }))
      })
      child.once('close', (code) => {
        clearTimeout(timer)
        if (code === 0) resolve(Buffer.concat(out))
        else reject(new TesseraError('conflict', `${file} ${args.join(' ').slice(0, 200)} failed (${code ?? 'killed'}): ${err.trim().slice(0, 300)}`, { found: err.slice(0, 1000) }))
      })
    })
  }

  /** Ends every app and the session's own programs, and waits until they have; removes the folder it made. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    // Apps first (they talk to the buses on their way out), then the buses and the display.
    await Promise.all(this.#children.slice(3).map(endGroup))
    for (const child of this.#children.slice(0, 3).reverse()) await endGroup(child)
    if (this.#ownDir) rmSync(this.dir, { recursive: true, force: true })
  }
}

/** Whether a program is installed: an absolute path that exists, or a name found on PATH. */
export function installed(file: string): boolean {
  return installedPath(file) !== undefined
}

/** Where a program is: an absolute path that exists, or the first match on PATH. */
export function installedPath(file: string): string | undefined {
  if (file.startsWith('/')) return existsSync(file) ? file : undefined
  return (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, file))
    .find((path) => existsSync(path))
}

/** The Debian packages a desktop session needs that are missing here, by package name. */
export function missingSessionPackages(): string[] {
  return Object.values(SESSION_PROGRAMS)
    .filter((program) => !installed(program.file))
    .map((program) => program.pkg)
}

/**
 * Runs a program in a process group of its own under a small shell that ends the group when
 * the hub's end of its stdin closes: a hub that dies without closing its tiles (SIGKILL, a
 * crash) takes its displays, buses and apps with it instead of leaving them running. The
 * shell exits with the program's status, so the child's exit is the program's. The program's
 * stdin is /dev/null; fd 9 carries the watch and is closed for the program. The first
 * argument names a file to remove once the program has ended (empty: none).
 */
const WATCHED = [
  'left=$1; shift',
  'exec 9<&0',
  '"$@" </dev/null 9<&- & p=$!',
  // The watch outlives the TERM it sends (it ignores TERM, as its sleep does): a program that
  // ignores TERM (LibreOffice's oosplash) is killed 3 s later, its leftover removed first, as
  // nothing of the group is left to do it after.
  `(trap '' TERM; read _ <&9; kill -TERM 0; sleep 3; [ -z "$left" ] || rm -f "$left"; kill -KILL 0) & w=$!`,
  'exec 9<&-',
  // Ended with its group, the shell still reaps the program and the watch: no zombies are
  // left for an init that does not reap (a container's PID 1). The watch is left to follow
  // up with KILL when the program ignores TERM; once the program is gone it goes too.
  `trap 'kill -TERM $p 2>/dev/null; wait $p' TERM`,
  'wait $p; s=$?',
  '[ -z "$left" ] || rm -f "$left"',
  'kill -KILL $w 2>/dev/null; wait $w 2>/dev/null',
  'exit $s',
].join('\n')

function spawnWatched(file: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; stdio: Array<'ignore' | 'pipe'>; leftover?: string }): ChildProcess {
  const [, ...rest] = options.stdio
  return spawn('/bin/sh', ['-c', WATCHED, 'tessera-watch', options.leftover ?? '', file, ...args], { env: options.env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }), stdio: ['pipe', ...rest], detached: true })
}

function spawnOwn(dir: string, file: string, args: readonly string[], env: NodeJS.ProcessEnv, stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe']): ChildProcess {
  return spawnWatched(file, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [SESSION_MARK]: dir, ...env }, stdio })
}

/** The first line a child writes on one of its pipes; a typed error when it fails to start, exits or stays silent. */
function firstLine(child: ChildProcess, fd: number, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = child.stdio[fd] as NodeJS.ReadableStream | null
    let text = ''
    let said = ''
    const fail = (why: string): void => {
      clearTimeout(timer)
      reject(new TesseraError('not_found', `${name} did not start: ${why}${said.trim() === '' ? '' : ` (it said: ${said.trim().split('\n').pop()?.slice(0, 300)})`}`, { expected: `${name} running`, found: said.slice(-500) }))
    }
    const timer = setTimeout(() => fail(`nothing after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS)
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (said = (said + chunk).slice(-2000)))
    child.once('error', (error) => fail(error.message))
    child.once('exit', (code) => fail(`it exited with ${code}`))
    stream?.setEncoding('utf8')
    stream?.on('data', (chunk: string) => {
      text += chunk
      const end = text.indexOf('\n')
      if (end < 0) return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      child.removeAllListeners('error')
      resolve(text.slice(0, end))
    })
  })
}

/** Turns AT-SPI on for the session (`org.a11y.Status.IsEnabled`, false by default) and answers the accessibility bus's address. */
async function enableAccessibility(sessionBusAddress: string): Promise<string> {
  const bus = dbus.sessionBus({ busAddress: sessionBusAddress })
  try {
    const deadline = Date.now() + START_TIMEOUT_MS
    // The launcher takes its name on the session bus a moment after it starts.
    for (;;) {
      const owned = await bus.call(new dbus.Message({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'NameHasOwner', signature: 's', body: ['org.a11y.Bus'] }))
      if (owned?.body[0] === true) break
      if (Date.now() > deadline) throw new TesseraError('not_found', 'the accessibility bus launcher did not take org.a11y.Bus', { expected: 'org.a11y.Bus on the session bus', found: null })
      await new Promise((done) => setTimeout(done, 20))
    }
    await bus.call(new dbus.Message({ destination: 'org.a11y.Bus', path: '/org/a11y/bus', interface: 'org.freedesktop.DBus.Properties', member: 'Set', signature: 'ssv', body: ['org.a11y.Status', 'IsEnabled', new dbus.Variant('b', true)] }))
    const reply = await bus.call(new dbus.Message({ destination: 'org.a11y.Bus', path: '/org/a11y/bus', interface: 'org.a11y.Bus', member: 'GetAddress' }))
    const address = reply?.body[0]
    if (typeof address !== 'string' || address === '') throw new TesseraError('not_found', 'the accessibility bus has no address', { found: address ?? null })
    return address
  } finally {
    bus.disconnect()
  }
}

/** Ends a child's process group (the program and whatever it started), SIGKILL after a grace, and waits for the child itself. */
async function endGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-(child.pid as number), name)
    } catch {
      // The group is gone already.
    }
  }
  signal('SIGTERM')
  const timer = setTimeout(() => signal('SIGKILL'), END_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}
