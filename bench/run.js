// `npm run bench`: runs every benchmark once, prints a table, writes bench/RESULTS.md.
// `npm run bench -- browser files`: runs those, and replaces only their sections of RESULTS.md.
// Never part of `npm test`: numbers depend on the machine; tests check behaviour.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchGatewayRoundTrip } from './gateway-round-trip.js'
import { benchLayoutExtraction } from './layout-extraction.js'
import { benchHubMemory } from './hub-memory.js'
import { benchMcpLatency } from './mcp-latency.js'
import { benchTraceRates } from './trace-rates.js'
import { benchTerminalExecute } from './terminal-execute.js'
import { benchFileFind } from './file-find.js'
import { benchSurfaceKit } from './surface-kit.js'
import { benchLeanResults } from './lean-results.js'
import { benchBrowserSnapshot } from './browser-snapshot.js'
import { benchDesktopSession } from './desktop-session.js'
import { benchConsole } from './console.js'

const benches = [
  ['gateway', benchGatewayRoundTrip],
  ['trace', benchTraceRates],
  ['layout', benchLayoutExtraction],
  ['mcp', benchMcpLatency],
  ['memory', benchHubMemory],
  ['terminal', benchTerminalExecute],
  ['files', benchFileFind],
  ['kit', benchSurfaceKit],
  ['lean', benchLeanResults],
  ['browser', benchBrowserSnapshot],
  ['desktop', benchDesktopSession],
  ['console', benchConsole],
]

/**
 * Two fixed workloads timed before the benches: absolute budgets (ms, events/s) move with the
 * machine's speed on the day, and these say how fast it was, so two runs can be compared.
 */
function machineReference() {
  const data = Buffer.alloc(64 * 2 ** 20, 1)
  const hashStart = performance.now()
  createHash('sha256').update(data).digest()
  const hashMs = performance.now() - hashStart
  const spawns = []
  for (let i = 0; i < 21; i += 1) {
    const start = performance.now()
    spawnSync('/bin/true')
    spawns.push(performance.now() - start)
  }
  spawns.sort((a, b) => a - b)
  return `sha256 of 64 MiB ${hashMs.toFixed(0)} ms; spawning /bin/true p50 ${spawns[10].toFixed(2)} ms`
}

const reference = machineReference()
const only = process.argv.slice(2)
const results = []
for (const [key, run] of benches) {
  if (only.length > 0 && !only.includes(key)) continue
  process.stderr.write(`bench: ${key}…\n`)
  const result = await run()
  results.push(result)
  process.stderr.write(`  ${result.ok ? 'within budget' : 'OVER BUDGET'}: ${result.name}\n`)
  for (const [label, ...values] of result.rows) process.stderr.write(`    ${label}: ${values.join(' / ')}\n`)
}

/** One benchmark's section of RESULTS.md; `alone` says it was run by itself, on this day, on this machine. */
function section(result, alone) {
  const out = [`## ${result.name}`, '']
  if (alone) out.push(`Run alone on ${new Date().toISOString().slice(0, 10)} (machine reference: ${reference}).`, '')
  // A result may measure several subjects side by side: its header names the columns.
  const header = result.header ?? ['measure', 'value']
  out.push(`Budget: ${result.budget} — **${result.ok ? 'met' : 'not met'}**`, '', `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`)
  for (const row of result.rows) out.push(`| ${row.join(' | ')} |`)
  out.push('')
  return out
}

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md')

/** RESULTS.md with the sections of `fresh` put in place of their old ones (or added at the end). */
function replaceSections(text, fresh) {
  const lines = text.replace(/\n$/, '').split('\n')
  for (const result of fresh) {
    const start = lines.indexOf(`## ${result.name}`)
    const next = start < 0 ? -1 : lines.findIndex((line, i) => i > start && line.startsWith('## '))
    const end = next < 0 ? lines.length : next
    if (start < 0) lines.push('', ...section(result, true))
    else lines.splice(start, end - start, ...section(result, true))
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`
}

const lines = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
  'Each peer is measured in the same run, on the same machine, with the same inputs: ratios compare across runs, absolute budgets only on a machine as fast.',
  `Machine reference for this run: ${reference}.`,
  '',
]
for (const result of results) lines.push(...section(result, false))
if (only.length === 0) writeFileSync(RESULTS, `${lines.join('\n')}\n`)
else if (existsSync(RESULTS)) writeFileSync(RESULTS, replaceSections(readFileSync(RESULTS, 'utf8'), results))
process.exitCode = results.every((r) => r.ok) ? 0 : 1
