import { type FacadeTool, type ToolAnswer, type ToolContext, actionFacade, defineKind, jsonSchemaOf } from '@tessera/kit'
import { type ActionResult, type JsonObject, type JsonValue, type TerminalInfo } from '@tessera/protocol'
import { quote } from 'shell-quote'
import { z } from 'zod'
import { LeanCommandResult, LeanTerminalList, commandAnswer, killAnswer, leanCommandResult, leanTerminalList, readAnswer, startAnswer, waitAnswer } from './lean-answers.js'
import { commandText, killText, readText, startText, waitText } from './result-texts.js'
import { TERMINAL_ACTIONS } from './terminal-actions.js'
import { TerminalSurface } from './terminal-surface.js'

const SandboxConfig = z.strictObject({
  writableRoots: z.array(z.string()),
  network: z.boolean(),
  hiddenPaths: z.array(z.string()).optional(),
  bwrap: z.string().optional(),
})

/** A terminal tile's configuration: the hub's defaults (sandbox, cwd) with what an open asked for. */
export const TerminalConfig = z.strictObject({
  title: z.string().max(200).optional(),
  cwd: z.string().optional().describe('Directory the shell starts in; default: the hub\'s demo folder.'),
  shell: z.string().optional(),
  cols: z.number().int().min(20).max(500).optional(),
  rows: z.number().int().min(5).max(200).optional(),
  sandbox: SandboxConfig.optional(),
})
export type TerminalConfig = z.infer<typeof TerminalConfig>

/** What an agent may choose when it opens a terminal: where it starts, never its sandbox. */
const TerminalOpen = z.strictObject({ cwd: z.string().optional(), shell: z.string().optional(), title: z.string().max(200).optional() })

const TERMINAL_ARG = 'terminal_id'
const TerminalArg = { type: 'string' }

function stepFailed(result: ActionResult): ToolAnswer | null {
  return result.status === 'completed' ? null : { result }
}

const Created = z.object({ terminal_id: z.string(), x: z.number(), y: z.number() })
const RanInNew = LeanCommandResult.extend({ terminal_id: z.string() })
const FoundAndOpened = z.object({ files_found: z.array(z.string()), terminal_id: z.string().nullable() })

async function openTerminal(ctx: ToolContext, args: JsonObject): Promise<{ answer: ToolAnswer } | { id: string; x: number; y: number; result: ActionResult }> {
  const input: JsonObject = { kind: 'terminal' }
  if (typeof args.x === 'number') input.x = args.x
  if (typeof args.y === 'number') input.y = args.y
  const config: JsonObject = {}
  if (typeof args.cwd === 'string') config.cwd = args.cwd
  if (typeof args.shell === 'string') config.shell = args.shell
  if (Object.keys(config).length > 0) input.config = config
  const opened = await ctx.request({ surface: 'map', action: 'open', input })
  const failed = stepFailed(opened)
  if (failed !== null) return { answer: failed }
  const tile = opened.output as { tile: string; x: number; y: number }
  return { id: tile.tile, x: tile.x, y: tile.y, result: opened }
}

/** A terminal as seed 004 describes it: the map's tile (place, size, focus) with the shell's own state. */
async function terminalInfos(ctx: ToolContext): Promise<{ answer: ToolAnswer } | { terminals: TerminalInfo[]; result: ActionResult }> {
  const listed = await ctx.request({ surface: 'map', action: 'list', input: { kind: 'terminal' } })
  const failed = stepFailed(listed)
  if (failed !== null) return { answer: failed }
  const terminals: TerminalInfo[] = []
  for (const tile of (listed.output as { tiles: Array<{ id: string; focused: boolean; x: number; y: number; width: number; height: number }> }).tiles) {
    const described = await ctx.request({ surface: tile.id, action: 'describe', input: {} })
    const failedTile = stepFailed(described)
    if (failedTile !== null) return { answer: failedTile }
    const shell = described.output as { working_dir: string; busy: boolean; status: string; command_history: string[]; lines: string[] }
    terminals.push({
      id: tile.id,
      working_dir: shell.working_dir,
      focused: tile.focused,
      busy: shell.busy,
      status: shell.status,
      x: tile.x,
      y: tile.y,
      width: tile.width,
      height: tile.height,
      command_history: shell.command_history,
      lines: shell.lines,
    })
  }
  return { terminals, result: listed }
}

const tileArg = { type: 'object', properties: { [TERMINAL_ARG]: TerminalArg }, required: [TERMINAL_ARG], additionalProperties: false }

const terminalTools: FacadeTool[] = [
  {
    name: 'terminal_create',
    description: 'Open a new terminal tile (a real bash) at x, y.',
    risk: 'write',
    inputSchema: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' }, cwd: { type: 'string' }, shell: { type: 'string' } }, additionalProperties: false },
    outputSchema: jsonSchemaOf(Created, 'output'),
    async run(args, ctx) {
      const opened = await openTerminal(ctx, args)
      if ('answer' in opened) return opened.answer
      // The map's result, its output in the terminal tools' own words.
      return { result: { ...opened.result, output: { terminal_id: opened.id, x: opened.x, y: opened.y } } }
    },
  },
  {
    name: 'terminal_list',
    description: 'The terminals: id, directory, status and last command.',
    risk: 'read',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: jsonSchemaOf(LeanTerminalList, 'output'),
    lean: (output) => leanTerminalList((output as { terminals: TerminalInfo[] }).terminals),
    async run(_args, ctx) {
      const found = await terminalInfos(ctx)
      if ('answer' in found) return found.answer
      return { result: { ...found.result, output: { terminals: found.terminals as unknown as JsonValue[] } } }
    },
  },
  {
    name: 'terminal_focus',
    description: 'Focus a terminal tile.',
    risk: 'read',
    inputSchema: tileArg,
    text: () => 'focused',
    run: async (args, ctx) => ({ result: await ctx.request({ surface: 'map', action: 'focus', input: { tile: ctx.tile('terminal', String(args[TERMINAL_ARG])) } }) }),
  },
  {
    name: 'terminal_close',
    description: 'Close a terminal tile and end everything its shell started.',
    risk: 'write',
    inputSchema: tileArg,
    text: () => 'closed',
    run: async (args, ctx) => ({ result: await ctx.request({ surface: 'map', action: 'close', input: { tile: ctx.tile('terminal', String(args[TERMINAL_ARG])) } }) }),
  },
  ...(
    [
      ['terminal_execute', 'execute', 'Run a command line in the terminal\'s persistent bash and wait for it: stdout, stderr, exit code. A risky command waits for a human.', commandText, commandAnswer],
      ['terminal_start', 'start', 'Start a long-running or interactive command without waiting.', startText, startAnswer],
      ['terminal_read', 'read', 'Output since the last read (or an offset, a line, the tail).', readText, readAnswer],
      ['terminal_input', 'input', 'Type text or keys into the running program.', () => 'sent', undefined],
      ['terminal_wait_for', 'wait_for', 'Wait until output matches a text or /regex/, or the prompt is back.', waitText, waitAnswer],
      ['terminal_interrupt', 'interrupt', 'Send Ctrl-C.', () => 'sent Ctrl-C', undefined],
      ['terminal_kill', 'kill', 'Kill the running program, all of this terminal\'s programs, or restart the shell.', killText, killAnswer],
    ] as const
  ).map(([name, action, description, text, lean]) =>
    actionFacade({ name, kind: 'terminal', contract: TERMINAL_ACTIONS.contract(action), maxRisk: TERMINAL_ACTIONS.maxRisk(action), description, tileArg: TERMINAL_ARG, text, lean }),
  ),
  {
    name: 'run_in_new_terminal',
    description: 'Open a terminal tile and run one command in it.',
    risk: 'destructive',
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string', minLength: 1 }, x: { type: 'number' }, y: { type: 'number' }, timeout_ms: { type: 'integer', minimum: 1 } },
      required: ['command'],
      additionalProperties: false,
    },
    outputSchema: jsonSchemaOf(RanInNew, 'output'),
    async run(args, ctx) {
      const opened = await openTerminal(ctx, { ...(typeof args.x === 'number' ? { x: args.x } : {}), ...(typeof args.y === 'number' ? { y: args.y } : {}) })
      if ('answer' in opened) return opened.answer
      const input: JsonObject = { command: String(args.command) }
      if (typeof args.timeout_ms === 'number') input.timeout_ms = args.timeout_ms
      const ran = await ctx.request({ surface: opened.id, action: 'execute', input })
      const output = ran.output ?? null
      return stepFailed(ran) ?? { json: { terminal_id: opened.id, ...leanCommandResult(output) }, text: `${opened.id}\n${commandText(output)}`, full: { terminal_id: opened.id, output } }
    },
  },
  {
    name: 'find_and_edit',
    description: 'Find files by glob in the file tile and open them in nano or vim in a new terminal.',
    risk: 'write',
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string', minLength: 1 }, path: { type: 'string' }, editor: { type: 'string', enum: ['nano', 'vim'] } },
      required: ['pattern'],
      additionalProperties: false,
    },
    outputSchema: jsonSchemaOf(FoundAndOpened, 'output'),
    async run(args, ctx) {
      const files = ctx.tile('files')
      const query: JsonObject = { pattern: String(args.pattern) }
      if (typeof args.path === 'string') query.path = args.path
      const found = await ctx.request({ surface: files, action: 'find', input: query })
      const failed = stepFailed(found)
      if (failed !== null) return failed
      const matches = ((found.output as { matches?: Array<{ path: string; type: string }> }).matches ?? []).filter((m) => m.type === 'file')
      if (matches.length === 0) return { json: { files_found: [], terminal_id: null }, text: `no files match ${String(args.pattern)}` }
      const opened = await openTerminal(ctx, {})
      if ('answer' in opened) return opened.answer
      // Terminals start in the file tile's root, so root-relative paths open as ./path; the
      // argv is quoted word by word (shell-quote), never spliced into a command string.
      const argv = [args.editor === 'vim' ? 'vim' : 'nano', '--', ...matches.slice(0, 50).map((m) => `.${m.path}`)]
      const started = await ctx.request({ surface: opened.id, action: 'start', input: { command: quote(argv) } })
      const paths = matches.map((m) => m.path)
      return stepFailed(started) ?? { json: { files_found: paths, terminal_id: opened.id }, text: `${opened.id}: ${argv[0]} ${paths.join(' ')}` }
    },
  },
]

/** The terminal kind: real shells in PTYs, one tile each. */
export const terminalKind = defineKind<TerminalConfig>({
  kind: 'terminal',
  title: 'Terminal',
  idPrefix: 'term',
  configSchema: TerminalConfig,
  openSchema: TerminalOpen,
  contracts: TERMINAL_ACTIONS.contracts,
  facadeTools: terminalTools,
  guide: 'terminal_*: tile argument terminal_id; answers are the output alone.',
  async open(config, env) {
    return TerminalSurface.create({
      id: env.id,
      ...(config.title === undefined ? {} : { title: config.title }),
      cwd: env.resolvePath(config.cwd ?? 'data:demo-files'),
      ...(config.shell === undefined ? {} : { shell: config.shell }),
      ...(config.cols === undefined ? {} : { cols: config.cols }),
      ...(config.rows === undefined ? {} : { rows: config.rows }),
      ...(config.sandbox === undefined ? {} : { sandbox: config.sandbox }),
    })
  },
})
