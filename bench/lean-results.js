// Tokens an agent reads, in one run, against the peers doing the same work:
//   - `tools/list` of the demo hub against Playwright MCP (@playwright/mcp) and
//     DesktopCommander (@wonderwhy-er/desktop-commander), each as its own MCP server;
//   - each seed tool's answer (its text, and its structuredContent) against
//     DesktopCommander's tool for the same call on the same files: start_process,
//     read_file, list_directory, start_search (+ get_more_search_results), write_file,
//     edit_block;
//   - how long `tessera --help` and `tessera approvals list` take to start, against a bare
//     `node -e 0`.
// Tokens are counted with gpt-tokenizer's o200k_base encoding on exactly what the client
// received: the text parts joined, the structuredContent as JSON, the tools as JSON. Claude
// Code and VS Code hand a model the JSON of structuredContent alone when a result has one, so
// the structured column is what their agents read; it is set against the peer's text too.
//
// The peers are installed at run time, once, into scratch folders outside the repo (never
// into package.json), with --ignore-scripts and no browser download: only their tool lists
// and answers are measured here, no browser is started.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sessionFetch } from '@tessera/protocol'
import { loadHubConfig, startHub } from '@tessera/hub'
import { fmt, percentile } from './stats.js'
import { startDesktopCommander } from './terminal-execute.js'
import { run, startPlaywrightMcp, textOf, tokens } from './peers.js'

const CLI = fileURLToPath(new URL('../packages/hub/dist/cli/main.js', import.meta.url))
/** The goals of the lean-results work: text ≤ the peer's; structured ≤ 1.5 × text; tool list ≤ Playwright MCP's. */
const MAX_STRUCTURED_TO_TEXT = 1.5

/** Playwright MCP's tool list, from the peer bench/peers.js starts (tools/list starts no browser). */
async function playwrightMcpTools() {
  const pw = await startPlaywrightMcp()
  try {
    const { tools } = await pw.client.listTools()
    return { version: pw.version, tools, instructions: pw.client.getInstructions() ?? '' }
  } finally {
    await pw.close()
  }
}

/** A DesktopCommander client beside the one terminal-execute.js times: the same start, its answers kept whole. */
async function desktopCommander() {
  const dc = await startDesktopCommander()
  const client = dc.client
  const call = async (name, args) => client.callTool({ name, arguments: args })
  return { ...dc, call }
}

async function cliStartup(dataDir) {
  const time = async (args) => {
    const times = []
    for (let i = 0; i < 12; i += 1) {
      const started = performance.now()
      const result = await run(process.execPath, args)
      times.push(performance.now() - started)
      if (result.code !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr.trim()}`)
    }
    return times.sort((a, b) => a - b).slice(2)
  }
  return {
    bare: await time(['-e', '0']),
    help: await time([CLI, '--help']),
    approvals: await time([CLI, 'approvals', 'list', '--data', dataDir]),
  }
}

export async function benchLeanResults() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-lean-'))
  const hub = await startHub(loadHubConfig({ overrides: { dataDir, port: 0 }, env: {} }))
  const demo = join(dataDir, 'demo-files')
  const token = readFileSync(join(dataDir, 'agent.token'), 'utf8').trim()
  const connect = async (url) => {
    const client = new Client({ name: 'tessera-bench', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: sessionFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
    return client
  }
  const tessera = await connect(hub.mcpUrl)
  const rows = []
  let ok = true
  let dc
  try {
    const ours = (await tessera.listTools()).tools
    const oursTokens = tokens(JSON.stringify(ours))
    rows.push(['`tools/list`, demo hub (every kind registered: app, files, terminal, browser, desktop): tools / tokens', `${ours.length} / ${oursTokens.toLocaleString('en')}`])
    let pw
    try {
      pw = await playwrightMcpTools()
      const pwTokens = tokens(JSON.stringify(pw.tools))
      rows.push([`peer: Playwright MCP ${pw.version} \`tools/list\`: tools / tokens`, `${pw.tools.length} / ${pwTokens.toLocaleString('en')}`])
      rows.push(['**ratio Tessera / Playwright MCP, `tools/list` tokens**', fmt(oursTokens / pwTokens, 2)])
      ok &&= oursTokens <= pwTokens
      // What an agent that only browses reads: a session opened on /mcp?tools=browser.
      const browsing = await connect(`${hub.mcpUrl}?tools=browser`)
      const browserTools = (await browsing.listTools()).tools
      const browserInstructions = tokens(browsing.getInstructions() ?? '')
      await browsing.close()
      const browserTokens = tokens(JSON.stringify(browserTools))
      rows.push(['`tools/list` of a session on `/mcp?tools=browser` (the generic tools and the browser\'s): tools / tokens; ratio to Playwright MCP', `${browserTools.length} / ${browserTokens.toLocaleString('en')}; ${fmt(browserTokens / pwTokens, 2)}`])
      // Read once per session, like the tool list: the instructions follow the session's choice of kinds.
      const allInstructions = tokens(tessera.getInstructions() ?? '')
      rows.push(['server instructions read at `initialize`, tokens: Tessera, all kinds / a `?tools=browser` session; Playwright MCP', `${allInstructions} / ${browserInstructions}; ${tokens(pw.instructions)}`])
      rows.push(['a browsing session\'s `tools/list` and instructions together, tokens: Tessera `?tools=browser` / Playwright MCP (ratio)', `${(browserTokens + browserInstructions).toLocaleString('en')} / ${(pwTokens + tokens(pw.instructions)).toLocaleString('en')} (${fmt((browserTokens + browserInstructions) / (pwTokens + tokens(pw.instructions)), 2)})`])
    } catch (error) {
      rows.push(['peer: Playwright MCP', `not measured — ${error instanceof Error ? error.message : String(error)}`])
    }
    try {
      dc = await desktopCommander()
      const dcTools = (await dc.client.listTools()).tools
      const dcTokens = tokens(JSON.stringify(dcTools))
      rows.push([`peer: DesktopCommander ${dc.version} \`tools/list\`: tools / tokens`, `${dcTools.length} / ${dcTokens.toLocaleString('en')}`])
      rows.push(['ratio Tessera / DesktopCommander, `tools/list` tokens', fmt(oursTokens / dcTokens, 2)])
    } catch (error) {
      rows.push(['peer: DesktopCommander', `not measured — ${error instanceof Error ? error.message : String(error)}`])
      dc = undefined
    }
    // Opening more terminals adds no tool.
    for (let i = 0; i < 3; i += 1) await tessera.callTool({ name: 'terminal_create', arguments: {} })
    const grown = (await tessera.listTools()).tools
    rows.push(['`tools/list` after opening 3 more terminals: tools / tokens', `${grown.length} / ${tokens(JSON.stringify(grown)).toLocaleString('en')}`])
    ok &&= grown.length === ours.length

    // The same work, on the same files (the demo folder the hub's file tile serves).
    const work = [
      ['`echo hello`', ['terminal_execute', { command: 'echo hello' }], ['start_process', { command: 'echo hello', timeout_ms: 30_000 }]],
      ['`cat /etc/os-release`', ['terminal_execute', { command: 'cat /etc/os-release' }], ['start_process', { command: 'cat /etc/os-release', timeout_ms: 30_000 }]],
      ['read README.md', ['file_read', { path: '/README.md' }], ['read_file', { path: join(demo, 'README.md') }]],
      ['list the folder', ['file_list', { path: '/' }], ['list_directory', { path: demo }]],
      ['find *.md', ['file_find', { pattern: '*.md' }], ['start_search', { path: demo, pattern: '*.md', searchType: 'files' }]],
      ['write a file', ['file_write', { path: '/bench-lean.txt', content: 'one two three\n' }], ['write_file', { path: join(demo, 'bench-lean-dc.txt'), content: 'one two three\n' }]],
      ['edit a file', ['file_edit', { path: '/bench-lean.txt', old_text: 'two', new_text: '2' }], ['edit_block', { file_path: join(demo, 'bench-lean-dc.txt'), old_string: 'two', new_string: '2' }]],
    ]
    for (const [label, [ourTool, ourArgs], [peerTool, peerArgs]] of work) {
      const answer = await tessera.callTool({ name: ourTool, arguments: ourArgs })
      if (answer.isError) throw new Error(`${ourTool} failed: ${textOf(answer)}`)
      const text = tokens(textOf(answer))
      const structured = answer.structuredContent === undefined ? 0 : tokens(JSON.stringify(answer.structuredContent))
      const within = structured <= MAX_STRUCTURED_TO_TEXT * text
      ok &&= within
      let peer = 'not measured'
      if (dc) {
        const first = await dc.call(peerTool, peerArgs)
        let peerText = textOf(first)
        // A search answers with a session id; its results come from get_more_search_results.
        const session = /session(?:\s*id)?:?\s*([\w-]+)/i.exec(peerText)?.[1]
        if (peerTool === 'start_search' && session) {
          await new Promise((resolve) => setTimeout(resolve, 300))
          peerText += `\n${textOf(await dc.call('get_more_search_results', { sessionId: session }))}`
        }
        const peerTokens = tokens(peerText)
        peer = `${peerTokens}${first.isError ? ' (answered with an error)' : ''}`
        ok &&= text <= peerTokens
      }
      rows.push([`${label}: Tessera \`${ourTool}\` text / structured tokens; peer DesktopCommander \`${peerTool}\` text tokens; structured / peer`, `${text} / ${structured}${within ? '' : ' (structured > 1.5 × text)'}; ${peer}; ${dc ? fmt(structured / Number.parseInt(peer, 10), 2) : '-'}`])
    }
    const startup = await cliStartup(dataDir)
    rows.push(
      ['peer: bare `node -e 0`, p50 (ms)', fmt(percentile(startup.bare, 50), 1)],
      ['`tessera --help`, p50 (ms)', fmt(percentile(startup.help, 50), 1)],
      ['`tessera approvals list` against the running hub, p50 (ms)', fmt(percentile(startup.approvals, 50), 1)],
    )
    ok &&= percentile(startup.help, 50) <= 150 && percentile(startup.approvals, 50) <= 150
  } finally {
    await tessera.close().catch(() => undefined)
    if (dc) await dc.close()
    await hub.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  return {
    name: 'Tokens an agent reads: tool list and seed tool answers against Playwright MCP and DesktopCommander; CLI start',
    budget: '`tools/list` ≤ Playwright MCP; each seed tool\'s text ≤ DesktopCommander\'s for the same call, its structured content ≤ 1.5 × its text; opening terminals adds no tool; `tessera --help` and `approvals list` ≤ 150 ms',
    ok,
    rows,
  }
}
