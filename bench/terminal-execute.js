// terminal_execute overhead, in one run, on the same commands:
//   - Tessera in process: TerminalSurface.session.execute (a persistent bash in a PTY);
//   - Tessera over MCP: the `terminal_execute` tool over Streamable HTTP on loopback against
//     a real hub (`tessera up` as its own process: gateway, policy, SQLite trace, frame diff;
//     the hub's term-1, which runs inside bubblewrap when bwrap is installed), and over stdio
//     against `tessera mcp` (a hub in the stdio server's process, as Claude Desktop runs it);
//   - peer: a bare child_process.spawn('bash', ['-c', cmd]) awaited to 'close', stdout and
//     stderr collected (and `bash -l -c`, the invocation DesktopCommander uses, for context);
//   - peer: DesktopCommander (@wonderwhy-er/desktop-commander) as an MCP server over stdio,
//     its `start_process` tool.
// Budget (DESIGN): terminal_execute overhead over a bare child process ≤ 5 ms — in process,
// p50 minus p50, for every command. Tessera over MCP is compared with DesktopCommander over
// MCP (both pay a transport and JSON-RPC framing).
// Not like for like, by design: a bare spawn and DesktopCommander start a new bash for every
// command, a Tessera terminal runs it in a bash that is already running (state persists;
// builtins such as `true` and `echo` fork nothing) — so the in-process "overhead" can be
// negative.
//
// DesktopCommander is installed at run time, once, into a scratch folder outside the repo
// (never into the repo's package.json), with --ignore-scripts: its postinstall only sends
// install telemetry and checks ripgrep, neither needed by start_process. It runs with an
// isolated HOME (its config, logs and usage stats go there), telemetry off through its
// DESKTOP_COMMANDER_DISABLE_TELEMETRY kill switch, feature flags read from a data: URL and a stub Chrome path in its
// private puppeteer cache so it does not download Chrome in the background at start (PDF
// tools only) — no traffic leaves the machine. Its PATH drops version-manager shim folders
// (see PATH_WITHOUT_SHIMS). If it cannot be installed or started, the rows say so and ok
// depends on the in-process budget only.
//
// How a DesktopCommander call is measured: start_process spawns `$SHELL -l -c cmd` and
// answers when the process exits (or on a prompt-like output / its timeout, then saying
// "Process is running"). One call is start_process until its answer; when the answer says
// the process is still running or waiting, read_process_output is called until it reports
// "Process completed"; when the answer lacks the command's output (exit seen before the
// pipe was drained), one read_process_output follows. Those follow-ups are counted in the
// rows and their time is part of the call.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sessionFetch } from '@tessera/protocol'
import { sandboxAvailable, TerminalSurface } from '@tessera/surface-terminal'
import { run } from './peers.js'
import { fmt, percentile } from './stats.js'

const COMMANDS = ['true', 'echo hello', 'ls /usr/bin | wc -l']
const BUDGET_MS = 5
const MAX_RATIO_TO_DC = 0.8
const CLI = fileURLToPath(new URL('../packages/hub/dist/cli/main.js', import.meta.url))
const DC_PACKAGE = '@wonderwhy-er/desktop-commander'
const DC_VERSION = '0.2.52'
const DC_DIR = process.env.TESSERA_BENCH_DC_DIR ?? join(tmpdir(), 'tessera-bench-dc')

// ---------------------------------------------------------------- DesktopCommander

async function ensureDesktopCommander() {
  const entry = join(DC_DIR, 'node_modules', DC_PACKAGE, 'package.json')
  if (!existsSync(entry)) {
    process.stderr.write(`  installing ${DC_PACKAGE}@${DC_VERSION} into ${DC_DIR} (peer for this benchmark only, not a repo dependency; once)…\n`)
    mkdirSync(DC_DIR, { recursive: true })
    const installed = await run('npm', ['install', '--prefix', DC_DIR, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${DC_PACKAGE}@${DC_VERSION}`], {
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
      timeout: 300_000,
    })
    if (installed.code !== 0 || !existsSync(entry)) {
      throw new Error(`npm install failed (exit ${installed.code ?? installed.signal}): ${(installed.stderr || installed.stdout).trim().split('\n').slice(-3).join(' | ')}`)
    }
  }
  const pkg = JSON.parse(readFileSync(entry, 'utf8'))
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.['desktop-commander'] ?? pkg.main)
  return { version: pkg.version, bin: join(DC_DIR, 'node_modules', DC_PACKAGE, bin) }
}

/**
 * DesktopCommander runs `python3 --version` synchronously (execSync) each time it builds a
 * telemetry event's properties — several times per tool call, even with telemetry off. Through
 * a version-manager shim (pyenv, asdf: a script that starts the manager) that probe costs tens
 * of milliseconds and would dominate its numbers, which says more about the machine than about
 * DesktopCommander: so its main measurement gets PATH without …/shims entries (python3 then
 * resolves to the system one). A short sample with the inherited PATH is reported beside it.
 */
const PATH_WITHOUT_SHIMS = (process.env.PATH ?? '/usr/bin:/bin')
  .split(':')
  .filter((entry) => !/\/shims\/?$/.test(entry))
  .join(':')

export async function startDesktopCommander({ path = PATH_WITHOUT_SHIMS } = {}) {
  const { version, bin } = await ensureDesktopCommander()
  const home = join(DC_DIR, 'home')
  // A stub "Chrome for Testing" in its private puppeteer cache: found at start, so the
  // background Chrome download (for PDF tools) never starts. Never executed here.
  const stubChrome = join(home, '.claude-server-commander', 'puppeteer-cache', 'chrome', 'bench-stub', 'chrome-linux64')
  mkdirSync(stubChrome, { recursive: true })
  if (!existsSync(join(stubChrome, 'chrome'))) writeFileSync(join(stubChrome, 'chrome'), '')
  const env = {
    PATH: path,
    HOME: home,
    SHELL: '/bin/bash',
    LANG: process.env.LANG ?? 'C.UTF-8',
    DESKTOP_COMMANDER_DISABLE_TELEMETRY: '1',
    DC_FLAG_URL: 'data:application/json,{}',
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, '--no-onboarding'], env, cwd: home, stderr: 'pipe' })
  let stderrTail = ''
  transport.stderr?.on('data', (chunk) => (stderrTail = (stderrTail + chunk).slice(-2000)))
  const client = new Client({ name: 'tessera-bench', version: '1' })
  try {
    await client.connect(transport)
  } catch (error) {
    throw new Error(`could not start it as an MCP server: ${error.message}${stderrTail ? ` — ${stderrTail.trim().split('\n').pop()}` : ''}`)
  }
  let start
  let read
  try {
    const { tools } = await client.listTools()
    start = tools.find((tool) => tool.name === 'start_process') ?? tools.find((tool) => /start.*process/i.test(tool.name))
    read = tools.find((tool) => tool.name === 'read_process_output') ?? tools.find((tool) => /read.*output/i.test(tool.name))
    if (!start) throw new Error(`no start-process tool among ${tools.map((t) => t.name).join(', ')}`)
  } catch (error) {
    await client.close().catch(() => undefined)
    throw error
  }
  const required = start.inputSchema?.required ?? []
  const stats = { followUps: 0, missingOutput: 0, errors: 0, lostOutput: 0 }
  const readOutput = async (pid) => {
    const result = await client.callTool({ name: read.name, arguments: { pid, timeout_ms: 5000 } })
    return result.content?.map((part) => part.text ?? '').join('') ?? ''
  }
  /** One DesktopCommander "execute": start_process, then read-output until complete. */
  const execute = async (command, expected) => {
    const args = { command }
    if (required.includes('timeout_ms') || start.inputSchema?.properties?.timeout_ms) args.timeout_ms = 30_000
    const result = await client.callTool({ name: start.name, arguments: args })
    const text = result.content?.map((part) => part.text ?? '').join('') ?? ''
    if (result.isError) {
      stats.errors += 1
      return
    }
    const pid = Number(/PID (-?\d+)/.exec(text)?.[1])
    let output = text.split('Initial output:\n')[1] ?? text
    let guard = 0
    while (read && /Process is running|waiting for input/.test(text + output) && !/Process completed/.test(output) && guard++ < 100) {
      stats.followUps += 1
      output += await readOutput(pid)
    }
    if (expected.trim() !== '' && !output.includes(expected.trim()) && read) {
      stats.followUps += 1
      stats.missingOutput += 1
      output += await readOutput(pid)
    }
    if (!output.includes(expected.trim())) stats.lostOutput += 1
  }
  const close = async () => {
    const pid = transport.pid
    await client.close().catch(() => undefined)
    if (pid) {
      try {
        process.kill(pid, 0)
        process.kill(pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
  }
  return { version, client, execute, close, stats, startTool: start.name, readTool: read?.name }
}

// ---------------------------------------------------------------- Tessera

/** `tessera up` as its own process, as a user runs it (DesktopCommander is a process of its own too). */
async function startHubProcess(dataDir) {
  writeFileSync(join(dataDir, 'tessera.config.json'), JSON.stringify({ limits: { requestsPerMinute: 10_000_000 } }))
  const child = spawn(process.execPath, [CLI, 'up', '--data', dataDir, '--port', '0', '--config', join(dataDir, 'tessera.config.json')], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)))
  const hubFile = join(dataDir, 'hub.json')
  for (let waited = 0; !existsSync(hubFile); waited += 50) {
    if (waited > 30_000 || child.exitCode !== null) throw new Error(`tessera up did not start: ${stderr.trim().split('\n').pop()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const { mcpUrl } = JSON.parse(readFileSync(hubFile, 'utf8'))
  const stop = () =>
    new Promise((resolve) => {
      child.once('close', resolve)
      child.kill('SIGINT')
    })
  return { mcpUrl, stop }
}

async function startTessera() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-hub-'))
  const hub = await startHubProcess(dataDir)
  const token = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
  const http = new Client({ name: 'bench', version: '1' })
  await http.connect(new StreamableHTTPClientTransport(new URL(hub.mcpUrl), { fetch: sessionFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  // Over stdio: `tessera mcp` with a data folder of its own starts a hub in its process and
  // serves MCP on stdin/stdout, as Claude Desktop runs it.
  const stdioDir = mkdtempSync(join(tmpdir(), 'tessera-bench-stdio-'))
  const stdio = new Client({ name: 'bench', version: '1' })
  await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--data', stdioDir], stderr: 'ignore' }))
  const surface = await TerminalSurface.create({ id: 'bench' })
  const stats = { mcpErrors: 0, stdioErrors: 0, inProcessErrors: 0 }
  // A completed call answers with the CommandResult's lean form: stdout without its final
  // newline, left out when empty.
  const check = (result, expected) =>
    result.isError || result.structuredContent?.exit_code !== 0 || (result.structuredContent?.stdout ?? '') !== expected.replace(/\n$/, '')
  const viaMcp = async (command, expected) => {
    if (check(await http.callTool({ name: 'terminal_execute', arguments: { terminal_id: 'term-1', command } }), expected)) stats.mcpErrors += 1
  }
  const viaStdio = async (command, expected) => {
    if (check(await stdio.callTool({ name: 'terminal_execute', arguments: { terminal_id: 'term-1', command } }), expected)) stats.stdioErrors += 1
  }
  const inProcess = async (command, expected) => {
    const result = await surface.session.execute(command)
    if (result.exit_code !== 0 || result.stdout !== expected) stats.inProcessErrors += 1
  }
  const close = async () => {
    await surface.close().catch(() => undefined)
    await http.close().catch(() => undefined)
    await stdio.close().catch(() => undefined)
    await hub.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(stdioDir, { recursive: true, force: true })
  }
  return { viaMcp, viaStdio, inProcess, close, stats }
}

// ---------------------------------------------------------------- the run

/**
 * Times every method on one command, interleaved (each iteration runs each method once,
 * in a rotating order) so background load on the machine hits all of them alike.
 */
async function measure(methods, command, expected, { iterations, warmup }) {
  const times = new Map(methods.map((method) => [method.key, []]))
  for (let i = 0; i < warmup; i += 1) for (const method of methods) await method.run(command, expected)
  for (let i = 0; i < iterations; i += 1) {
    for (let j = 0; j < methods.length; j += 1) {
      const method = methods[(i + j) % methods.length]
      const started = performance.now()
      await method.run(command, expected)
      times.get(method.key).push(performance.now() - started)
    }
  }
  for (const list of times.values()) list.sort((a, b) => a - b)
  return times
}

export async function benchTerminalExecute({ iterations = 200, warmup = 20 } = {}) {
  const tessera = await startTessera()
  // An empty HOME for the `bash -l -c` peer, like DesktopCommander's isolated one.
  const loginHome = mkdtempSync(join(tmpdir(), 'tessera-bench-home-'))
  let dc
  let dcProblem
  try {
    dc = await startDesktopCommander()
  } catch (error) {
    dcProblem = error instanceof Error ? error.message : String(error)
    process.stderr.write(`  DesktopCommander not measured: ${dcProblem}\n`)
  }
  const spawnStats = { errors: 0 }
  const bare = (args, options) => async (command, expected) => {
    const result = await run('bash', [...args, command], options)
    if (result.code !== 0 || result.stdout !== expected) spawnStats.errors += 1
  }
  const methods = [
    { key: 'spawn', run: bare(['-c']) },
    { key: 'spawnLogin', run: bare(['-l', '-c'], { env: { PATH: PATH_WITHOUT_SHIMS, HOME: loginHome, SHELL: '/bin/bash', LANG: process.env.LANG ?? 'C.UTF-8' } }) },
    { key: 'inProcess', run: tessera.inProcess },
    { key: 'mcp', run: tessera.viaMcp },
    { key: 'stdio', run: tessera.viaStdio },
    ...(dc ? [{ key: 'dc', run: dc.execute }] : []),
  ]
  const rows = []
  let worstOverhead = -Infinity
  let worstRatio = -Infinity
  try {
    for (const command of COMMANDS) {
      const expected = (await run('bash', ['-c', command])).stdout
      const times = await measure(methods, command, expected, { iterations, warmup })
      const p = (key, q) => percentile(times.get(key), q)
      const pair = (key) => `${fmt(p(key, 50))} / ${fmt(p(key, 99))}`
      const overhead = p('inProcess', 50) - p('spawn', 50)
      worstOverhead = Math.max(worstOverhead, overhead)
      const label = `\`${command}\``
      rows.push(
        [`${label} peer: bare spawn bash -c, p50 / p99 (ms)`, pair('spawn')],
        [`${label} Tessera in process (session.execute), p50 / p99 (ms)`, pair('inProcess')],
        [`${label} **overhead in process − bare spawn, p50 (ms)**`, fmt(overhead)],
        [`${label} Tessera terminal_execute over MCP (HTTP), p50 / p99 (ms)`, pair('mcp')],
        [`${label} Tessera terminal_execute over MCP (stdio, \`tessera mcp\`), p50 / p99 (ms)`, pair('stdio')],
        [`${label} overhead over MCP − bare spawn, p50 (ms)`, fmt(p('mcp', 50) - p('spawn', 50))],
        [`${label} peer: bare spawn bash -l -c (DesktopCommander's invocation), p50 / p99 (ms)`, pair('spawnLogin')],
      )
      if (dc) {
        rows.push(
          [`${label} peer: DesktopCommander ${dc.startTool} over MCP (stdio), p50 / p99 (ms)`, pair('dc')],
          [`${label} **ratio Tessera / DesktopCommander, HTTP / stdio (p50)**`, `${fmt(p('mcp', 50) / p('dc', 50), 2)} / ${fmt(p('stdio', 50) / p('dc', 50), 2)}`],
        )
        worstRatio = Math.max(worstRatio, p('mcp', 50) / p('dc', 50), p('stdio', 50) / p('dc', 50))
      }
    }
    // For context: DesktopCommander with the inherited PATH, shims and all (see above).
    if (dc && PATH_WITHOUT_SHIMS !== (process.env.PATH ?? '/usr/bin:/bin')) {
      await dc.close()
      dc.closed = true
      const inherited = await startDesktopCommander({ path: process.env.PATH })
      try {
        const times = await measure([{ key: 'dc', run: inherited.execute }], 'echo hello', 'hello\n', { iterations: 30, warmup: 5 })
        rows.push(['`echo hello` DesktopCommander with the inherited PATH (python3 = a …/shims script), 30 calls, p50 / p99 (ms)', `${fmt(percentile(times.get('dc'), 50))} / ${fmt(percentile(times.get('dc'), 99))}`])
      } finally {
        await inherited.close()
      }
    }
  } finally {
    await tessera.close()
    if (dc && !dc.closed) await dc.close()
    rmSync(loginHome, { recursive: true, force: true })
  }
  const correct = tessera.stats.inProcessErrors === 0 && tessera.stats.mcpErrors === 0 && tessera.stats.stdioErrors === 0 && spawnStats.errors === 0
  rows.push(
    ['iterations per command per method (after warm-up)', `${iterations} (${warmup})`],
    ['hub term-1 sandboxed (bubblewrap); in-process terminal not', sandboxAvailable() ? 'yes' : 'no (bwrap not available)'],
    ['wrong results (exit ≠ 0 or stdout ≠ bash -c): in process / HTTP / stdio / spawns', `${tessera.stats.inProcessErrors} / ${tessera.stats.mcpErrors} / ${tessera.stats.stdioErrors} / ${spawnStats.errors}`],
  )
  if (dc) {
    rows.push(
      ['DesktopCommander version (scratch install)', `${dc.version} in ${DC_DIR}`],
      ['DesktopCommander PATH', PATH_WITHOUT_SHIMS === (process.env.PATH ?? '/usr/bin:/bin') ? 'inherited' : 'inherited minus …/shims entries (see the note in terminal-execute.js)'],
      [`DesktopCommander follow-up ${dc.readTool ?? 'read'} calls (still running / output missing)`, `${dc.stats.followUps} (${dc.stats.missingOutput} for missing output)`],
      ['DesktopCommander calls answered with an error', String(dc.stats.errors)],
      // It resolves start_process on the child's 'exit' and copies the finished session's
      // lines then; stdout that arrives after 'exit' is lost, for read_process_output too.
      ['DesktopCommander calls whose output was lost (exit code 0, stdout empty, also after read_process_output)', `${dc.stats.lostOutput} of ${COMMANDS.filter((c) => c !== 'true').length * (iterations + warmup)} with output`],
    )
  } else {
    rows.push(['peer: DesktopCommander', `not measured — ${dcProblem}`])
  }
  return {
    name: 'terminal_execute against a bare child process and DesktopCommander',
    budget: `overhead in process over bare spawn ≤ ${BUDGET_MS} ms (p50 − p50, every command); over MCP, HTTP and stdio, ≤ ${MAX_RATIO_TO_DC} × DesktopCommander's start_process (p50, every command)`,
    ok: worstOverhead <= BUDGET_MS && correct && (dc === undefined || worstRatio <= MAX_RATIO_TO_DC),
    rows,
  }
}
