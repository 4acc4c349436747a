import { maxRisk } from '@tessera/protocol'
import { parse, type ParseEntry } from 'shell-quote'
import {
  ASSIGNMENT,
  BLOCK_DEVICE,
  DELETERS,
  EVERYTHING,
  GIT_READ,
  HARMLESS_TARGETS,
  INTERPRETERS,
  NOT_COMMANDS,
  READ_ONLY,
  RESERVED_PREFIX,
  SHELLS,
  SYSTEM_PATHS,
} from './command-tables.js'
import { SUBSTITUTION_PLACEHOLDER, scanShell } from './shell-scan.js'
import { expandWords, type Word } from './word-expansion.js'

export type CommandRisk = 'read' | 'write' | 'destructive'

export interface CommandClassification {
  risk: CommandRisk
  /** Why the risk is above read, one entry per finding. */
  reasons: string[]
  /** Every simple command found, nested ones (substitutions, `sh -c`, `find -exec`…) included. */
  argvs: string[][]
}

/**
 * Classifies a shell command line from its parsed words — never a regex over the raw
 * string. This is advice for the approval gate, not a security boundary: a shell can run
 * anything through means no classifier sees (aliases and functions defined earlier, a
 * script written by a harmless-looking command, variables holding command names). The
 * boundary is the sandbox (sandbox.ts). See docs/terminal.md for what is recognised.
 */
export function classifyCommand(command: string): CommandClassification {
  const result = new Findings()
  try {
    classifySource(command, result, 0)
  } catch (error) {
    result.add('destructive', `could not parse the command (${(error as Error).message}); treated as destructive`)
  }
  return { risk: result.risk, reasons: [...new Set(result.reasons)], argvs: result.argvs }
}

const MAX_DEPTH = 8

class Findings {
  risk: CommandRisk = 'read'
  reasons: string[] = []
  argvs: string[][] = []

  add(risk: CommandRisk, reason?: string): void {
    this.risk = maxRisk(this.risk, risk) as CommandRisk
    if (reason !== undefined && risk !== 'read') this.reasons.push(reason)
  }
}

type Token = Word | { op: string }

function classifySource(source: string, out: Findings, depth: number): void {
  if (depth > MAX_DEPTH) {
    out.add('destructive', `commands nested more than ${MAX_DEPTH} levels deep cannot be classified`)
    return
  }
  const scanned = scanShell(source)
  for (const problem of scanned.problems) out.add('write', problem)
  for (const inner of scanned.substitutions) {
    out.add('write', `command substitution runs code: ${abbreviate(inner)}`)
    classifySource(inner, out, depth + 1)
  }
  for (const expression of scanned.arithmetic) {
    // Read as commands only to catch the destructive ones bash would run if this is not valid arithmetic.
    const asCommand = new Findings()
    classifySource(expression, asCommand, depth + 1)
    if (asCommand.risk === 'destructive') {
      for (const reason of asCommand.reasons) out.add('destructive', `$((…)) that is not arithmetic runs as a command: ${reason}`)
    }
  }
  for (const line of scanned.lines) classifyLine(line, out, depth)
}

function classifyLine(line: string, out: Findings, depth: number): void {
  const tokens = toTokens(parse(line, (name) => `$${name}`))
  detectForkBomb(tokens, out)
  let words: Word[] = []
  const redirects: Array<{ op: string; target: string | undefined }> = []
  const flush = (): void => {
    if (words.length > 0 || redirects.length > 0) classifySimple(words, redirects.splice(0), out, depth)
    words = []
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token
    if ('op' in token) {
      if (isRedirect(token.op)) {
        const next = tokens[i + 1]
        const target = next !== undefined && 'text' in next ? next.text : undefined
        if (target !== undefined) i++
        // "2>file": shell-quote leaves the fd number as a word of its own.
        const last = words[words.length - 1]
        if (last !== undefined && /^\d+$/.test(last.text) && words.length > 1) words.pop()
        redirects.push({ op: token.op, target })
        continue
      }
      flush()
      continue
    }
    words.push(token)
  }
  flush()
}

function toTokens(entries: ParseEntry[]): Token[] {
  const out: Token[] = []
  for (const entry of entries) {
    if (typeof entry === 'string') out.push({ text: entry, glob: false })
    else if ('comment' in entry) continue
    else if (entry.op === 'glob') out.push({ text: (entry as { pattern: string }).pattern, glob: true })
    else out.push({ op: entry.op })
  }
  return out
}

function isRedirect(op: string): boolean {
  return op === '>' || op === '>>' || op === '>&' || op === '&>' || op === '>|' || op === '<' || op === '<>' || op === '<<' || op === '<<<'
}

function classifyRedirect(op: string, target: string | undefined, out: Findings): void {
  if (op === '<' || op === '<<' || op === '<<<') return
  if (target === undefined) return
  if (op === '>&' && /^(\d+|-)$/.test(target)) return
  if (HARMLESS_TARGETS.test(target)) return
  if (BLOCK_DEVICE.test(target)) {
    out.add('destructive', `writes raw data to the block device ${target}`)
    return
  }
  out.add('write', `redirects output into ${target}`)
}

function classifySimple(rawWords: Word[], redirects: Array<{ op: string; target: string | undefined }>, out: Findings, depth: number): void {
  for (const redirect of redirects) classifyRedirect(redirect.op, redirect.target, out)
  const expanded = expandWords(rawWords)
  if (expanded === null) {
    out.add('destructive', `${abbreviate(rawWords.map((w) => w.text).join(' '))} expands to too many words to classify; treated as destructive`)
    return
  }
  let words = expanded
  while (words.length > 0 && RESERVED_PREFIX.has((words[0] as Word).text)) words = words.slice(1)
  if (words[0]?.text === 'function') {
    // `function name { body; }`: the body's first command is in these words; later ones follow as their own.
    out.add('write', `defines the shell function ${words[1]?.text ?? ''}: later commands may not do what their names say`)
    words = words.slice(2)
    while (words.length > 0 && RESERVED_PREFIX.has((words[0] as Word).text)) words = words.slice(1)
  }
  if (words.length === 0) return
  if (NOT_COMMANDS.has((words[0] as Word).text)) return
  const assignments: string[] = []
  while (words.length > 0 && ASSIGNMENT.test((words[0] as Word).text)) {
    assignments.push((words[0] as Word).text)
    words = words.slice(1)
  }
  if (words.length === 0) {
    out.argvs.push(assignments)
    out.add('write', `sets shell variables (${assignments.map((a) => a.split('=')[0]).join(', ')})`)
    return
  }
  classifyArgv(words, out, depth)
}

function classifyArgv(words: Word[], out: Findings, depth: number): void {
  const argv = words.map((word) => word.text)
  out.argvs.push(argv)
  const first = argv[0] as string
  const args = argv.slice(1)
  const shown = abbreviate(argv.join(' '))
  if (first.includes(SUBSTITUTION_PLACEHOLDER) || first.startsWith('$')) {
    out.add('write', `the command name is computed when it runs (${first.replace(SUBSTITUTION_PLACEHOLDER, '$(…)')}); it cannot be classified`)
    return
  }
  const name = first.includes('/') ? (first.split('/').pop() as string) : first
  if (name === '') {
    out.add('write', `${first} is not a command name`)
    return
  }

  const inner = (rest: string[], why?: string): void => {
    if (why !== undefined) out.add('write', why)
    if (rest.length > 0) classifyArgv(rest.map((text) => ({ text, glob: false })), out, depth + 1)
  }
  const code = (source: string, why: string): void => {
    out.add('write', `${why}: ${abbreviate(source)}`)
    classifySource(source, out, depth + 1)
  }

  switch (name) {
    case 'sudo':
    case 'doas':
      return inner(skipOptions(args, ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group']), `${name} runs a command as another user (root)`)
    case 'env': {
      let i = 0
      while (i < args.length) {
        const arg = args[i] as string
        if (arg === '-S' || arg === '--split-string') {
          code(args.slice(i + 1).join(' '), 'env -S runs a command line')
          return
        }
        if (arg.startsWith('--split-string=')) {
          code(arg.slice('--split-string='.length), 'env -S runs a command line')
          return
        }
        if (arg === '-u' || arg === '--unset' || arg === '-C' || arg === '--chdir') i += 2
        else if (arg === '--') {
          i++
          break
        } else if (arg.startsWith('-') || ASSIGNMENT.test(arg)) i++
        else break
      }
      return inner(args.slice(i))
    }
    case 'nice':
      return inner(skipOptions(args, ['-n', '--adjustment']))
    case 'nohup':
    case 'time':
    case 'builtin':
    case 'setsid':
    case 'unbuffer':
    case 'eatmydata':
    case 'catchsegv':
    case 'busybox':
      return inner(skipOptions(args, []))
    case 'command':
      if (args.some((arg) => arg === '-v' || arg === '-V')) return
      return inner(skipOptions(args, []))
    case 'exec':
      return inner(skipOptions(args, ['-a']))
    case 'coproc': {
      // `coproc cmd…`, `coproc { cmd; }`, `coproc NAME { cmd; }`: the command runs beside the shell.
      let rest = args
      if (rest.length > 1 && rest[1] === '{' && /^[A-Za-z_]\w*$/.test(rest[0] as string)) rest = rest.slice(1)
      while (rest.length > 0 && RESERVED_PREFIX.has(rest[0] as string)) rest = rest.slice(1)
      return inner(rest, 'coproc runs a command alongside the shell')
    }
    case 'stdbuf':
      return inner(skipOptions(args, ['-i', '-o', '-e']))
    case 'ionice':
      return inner(skipOptions(args, ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata']))
    case 'chrt':
      return inner(skipOptions(args, ['-T', '-P', '-D']).slice(1))
    case 'taskset':
      return inner(skipOptions(args, []).slice(1))
    case 'timeout':
      return inner(skipOptions(args, ['-s', '-k', '--signal', '--kill-after']).slice(1))
    case 'chroot':
      return inner(skipOptions(args, ['--userspec', '--groups']).slice(1), 'chroot runs a command in another root')
    case 'flock': {
      const rest = skipOptions(args, ['-w', '--timeout', '-E', '--conflict-exit-code'])
      const c = args.indexOf('-c')
      if (c !== -1 && args[c + 1] !== undefined) return code(args[c + 1] as string, 'flock -c runs a command line')
      return inner(rest.slice(1))
    }
    case 'watch': {
      const rest = skipOptions(args, ['-n', '--interval', '-d', '--differences', '-q', '--equexit'])
      if (args.includes('-x') || args.includes('--exec')) return inner(rest)
      return code(rest.join(' '), 'watch runs a command line repeatedly')
    }
    case 'su':
    case 'runuser': {
      const c = args.findIndex((arg) => arg === '-c' || arg === '--command')
      if (c !== -1 && args[c + 1] !== undefined) return code(args[c + 1] as string, `${name} -c runs a command line as another user`)
      const sep = args.indexOf('--')
      if (sep !== -1) return inner(args.slice(sep + 1), `${name} runs a command as another user`)
      out.add('write', `${name} starts a shell as another user`)
      return
    }
    case 'eval':
      return code(args.join(' '), 'eval runs its arguments as a command line')
    case 'source':
    case '.':
      out.add('write', `${shown}: runs a script the classifier cannot see`)
      return
    case 'alias':
      for (const arg of args) {
        const eq = arg.indexOf('=')
        if (eq > 0) code(arg.slice(eq + 1), `defines the alias ${arg.slice(0, eq)}`)
      }
      if (args.length > 0) out.add('write', 'defines aliases: later commands may not do what their names say')
      return
    case 'trap':
      if (args[0] !== undefined && !args[0].startsWith('-')) code(args[0], 'trap installs code that runs later')
      else if (args.length > 0) out.add('write', 'changes signal traps')
      return
    case 'xargs': {
      const rest = skipOptions(args, ['-a', '-d', '-E', '-e', '-I', '-i', '-L', '-l', '-n', '-P', '-s', '--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars'])
      const command = rest.length > 0 ? rest : ['echo']
      if (DELETERS.has(basename(command[0] as string))) {
        out.argvs.push(command)
        out.add('destructive', `${shown}: deletes every file named on its input`)
        return
      }
      return inner(command, 'xargs runs a command for each input item')
    }
    case 'find':
      return classifyFind(args, shown, out, depth)
  }

  if (SHELLS.has(name)) return classifyShell(name, args, shown, out, depth)
  const inlineFlags = INTERPRETERS[name.replace(/[\d.]+$/, '')] ?? INTERPRETERS[name]
  if (inlineFlags !== undefined && args.some((arg) => inlineFlags.includes(arg))) {
    out.add('write', `${name} runs inline code the classifier cannot analyse`)
    return
  }
  const destructive = destructiveReason(name, args)
  if (destructive !== null) {
    out.add('destructive', `${shown}: ${destructive}`)
    return
  }
  if (name === 'git') return classifyGit(args, shown, out)
  if (isReadOnly(name, args)) return
  out.add('write', `${name} is not a known read-only command`)
}

function classifyShell(name: string, args: string[], shown: string, out: Findings, depth: number): void {
  let commandMode = false
  let i = 0
  for (; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') {
      i++
      break
    }
    if (arg === '-o' || arg === '+o' || arg === '-O' || arg === '+O' || arg === '--rcfile' || arg === '--init-file') {
      i++
      continue
    }
    if (/^-[a-zA-Z]+$/.test(arg)) {
      if (arg.includes('c')) commandMode = true
      continue
    }
    if (arg.startsWith('--') || arg.startsWith('+')) continue
    break
  }
  if (commandMode) {
    const source = args[i]
    if (source === undefined) {
      out.add('write', `${shown}: ${name} -c without a command`)
      return
    }
    out.add('write', `${name} -c runs a command line: ${abbreviate(source)}`)
    classifySource(source, out, depth + 1)
    return
  }
  if (args[i] !== undefined) out.add('write', `${shown}: runs the script ${args[i]}, which the classifier cannot see`)
  else out.add('write', `${name} starts a shell that reads commands the classifier cannot see`)
}

function classifyFind(args: string[], shown: string, out: Findings, depth: number): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '-delete') {
      out.add('destructive', `${shown}: deletes every match`)
      continue
    }
    if (arg === '-exec' || arg === '-execdir' || arg === '-ok' || arg === '-okdir') {
      let end = i + 1
      while (end < args.length && args[end] !== ';' && args[end] !== '+') end++
      const command = args.slice(i + 1, end)
      i = end
      if (command.length === 0) continue
      if (DELETERS.has(basename(command[0] as string))) {
        out.argvs.push(command)
        out.add('destructive', `${shown}: deletes every match`)
        continue
      }
      classifyArgv(command.map((text) => ({ text, glob: false })), out, depth + 1)
      continue
    }
    if (arg === '-fprint' || arg === '-fprint0' || arg === '-fprintf' || arg === '-fls') out.add('write', `${shown}: writes its results into ${args[i + 1]}`)
  }
}

function classifyGit(args: string[], shown: string, out: Findings): void {
  let i = 0
  while (i < args.length) {
    const arg = args[i] as string
    if (arg === '-C' || arg === '-c' || arg === '--git-dir' || arg === '--work-tree' || arg === '--namespace') i += 2
    else if (arg.startsWith('-')) i++
    else break
  }
  const sub = args[i]
  const rest = args.slice(i + 1)
  const flags = rest.filter((arg) => arg.startsWith('-'))
  const has = (...names: string[]): boolean => flags.some((flag) => names.includes(flag))
  switch (sub) {
    case undefined:
      return
    case 'clean':
      if (has('--force') || flags.some((flag) => /^-[a-zA-Z]*f/.test(flag))) out.add('destructive', `${shown}: deletes untracked files, which git cannot bring back`)
      return
    case 'reset':
      if (has('--hard')) out.add('destructive', `${shown}: discards uncommitted changes, which git cannot bring back`)
      else out.add('write', `${shown}: moves the branch or unstages changes`)
      return
    case 'push':
      if (has('--force', '--force-with-lease', '--mirror', '--delete', '--prune') || flags.some((flag) => /^-[a-zA-Z]*[fd]/.test(flag)) || rest.some((arg) => /^\+/.test(arg) || /^:/.test(arg))) {
        out.add('destructive', `${shown}: rewrites or deletes history on the remote`)
      } else out.add('write', `${shown}: publishes commits to a remote`)
      return
    case 'stash':
      if (rest[0] === 'clear') out.add('destructive', `${shown}: drops every stash`)
      else if (rest[0] === 'list' || rest[0] === 'show') return
      else out.add('write', `${shown}: changes the stash`)
      return
    case 'branch':
      if (rest.every((arg) => ['-a', '-r', '-l', '-v', '-vv', '--list', '--all', '--remotes', '--show-current'].includes(arg))) return
      out.add('write', `${shown}: changes branches`)
      return
    case 'tag':
    case 'remote':
      if (rest.every((arg) => ['-l', '--list', '-v', '--verbose', '-n'].includes(arg))) return
      out.add('write', `${shown}: changes ${sub}s`)
      return
    case 'config':
      if (flags.some((flag) => ['--get', '--get-all', '--list', '-l', '--get-regexp', '--show-origin'].includes(flag))) return
      out.add('write', `${shown}: changes git configuration`)
      return
    case 'reflog':
      if (rest.length === 0 || rest[0] === 'show') return
      out.add('write', `${shown}: changes the reflog`)
      return
  }
  if (GIT_READ.has(sub)) return
  out.add('write', `git ${sub} changes the repository or talks to a remote`)
}

function destructiveReason(name: string, args: string[]): string | null {
  const operands = args.filter((arg) => !arg.startsWith('-') || arg === '-')
  const flags = args.filter((arg) => arg.startsWith('-') && arg !== '-' && arg !== '--')
  const shortFlag = (letter: string): boolean => flags.some((flag) => /^-[a-zA-Z]+$/.test(flag) && flag.includes(letter))
  if (name === 'rm') {
    if (shortFlag('r') || shortFlag('R') || flags.includes('--recursive')) return 'deletes recursively'
    const everything = operands.find((arg) => EVERYTHING.has(arg))
    if (everything !== undefined) return `deletes everything in ${everything}`
    if (flags.includes('--no-preserve-root')) return 'deletes without protecting /'
    return null
  }
  if (name === 'shred' || name === 'srm' || name === 'wipe') return 'overwrites files so they cannot be recovered'
  if (/^mkfs(\.|$)/.test(name) || ['mke2fs', 'mkswap', 'mkdosfs', 'mkntfs', 'mkfs.fat'].includes(name)) return 'formats a file system'
  if (name === 'dd' && args.some((arg) => arg.startsWith('of='))) return 'writes raw data with dd'
  if (['wipefs', 'fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'blkdiscard'].includes(name)) return 'repartitions or wipes a disk'
  if (['shutdown', 'reboot', 'halt', 'poweroff', 'killall5'].includes(name)) return 'stops the machine or every process'
  if ((name === 'init' || name === 'telinit') && ['0', '6', 'S', 's', '1'].includes(operands[0] ?? '')) return 'changes the run level (halt or reboot)'
  if (name === 'systemctl' && ['poweroff', 'reboot', 'halt', 'kexec', 'rescue', 'emergency', 'isolate'].includes(operands[0] ?? '')) return 'stops or reboots the machine'
  if (name === 'kill') {
    const targets = killTargets(args)
    if (targets.some((target) => target === '1' || target === '-1')) return 'signals init or every process'
    return null
  }
  if ((name === 'chmod' || name === 'chown' || name === 'chgrp') && (shortFlag('R') || flags.includes('--recursive'))) {
    const target = operands.find((arg) => SYSTEM_PATHS.has(arg.replace(/\/+$/, '') || '/'))
    if (target !== undefined) return `changes ownership or permissions of everything under ${target}`
    return null
  }
  if (name === 'truncate') return 'truncates files'
  if (name === 'crontab' && shortFlag('r')) return 'removes every cron job'
  if ((name === 'mv' || name === 'cp') && operands.length >= 2 && BLOCK_DEVICE.test(operands[operands.length - 1] as string)) return 'writes onto a block device'
  if (name === 'tee' && operands.some((arg) => BLOCK_DEVICE.test(arg))) return 'writes onto a block device'
  if (name === 'mv' && operands.length >= 2 && operands[operands.length - 1] === '/dev/null') return 'moves files into /dev/null (deletes them)'
  if (name === 'mv' && operands.slice(0, -1).some((arg) => EVERYTHING.has(arg) && arg !== '.')) return 'moves everything away'
  return null
}

/** The process ids a kill command targets (its signal option removed). */
function killTargets(args: string[]): string[] {
  const out: string[] = []
  let signalSeen = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '-s' || arg === '-n' || arg === '--signal') {
      i++
      signalSeen = true
      continue
    }
    if (arg === '-l' || arg === '-L' || arg === '--list') return []
    if (!signalSeen && out.length === 0 && /^-([A-Za-z]+|\d+)$/.test(arg)) {
      signalSeen = true
      continue
    }
    if (arg === '--') continue
    out.push(arg)
  }
  return out
}

function isReadOnly(name: string, args: string[]): boolean {
  if (!READ_ONLY.has(name)) return false
  switch (name) {
    case 'sort':
      return !args.some((arg) => arg === '-o' || arg.startsWith('--output') || /^-[a-zA-Z]*o/.test(arg))
    case 'uniq':
      return args.filter((arg) => !arg.startsWith('-')).length <= 1
    case 'date':
      return !args.some((arg) => arg === '-s' || arg.startsWith('--set'))
    case 'hostname':
      return args.every((arg) => arg.startsWith('-'))
    case 'xxd':
      return !args.includes('-r') || args.filter((arg) => !arg.startsWith('-')).length <= 1
    case 'kill':
      return args.some((arg) => arg === '-l' || arg === '-L' || arg === '--list')
    case 'env':
      return args.every((arg) => arg.startsWith('-') || ASSIGNMENT.test(arg))
    default:
      return true
  }
}

/** Drops leading options (and the values of those in `withValue`) and a `--`. */
function skipOptions(args: string[], withValue: string[]): string[] {
  let i = 0
  while (i < args.length) {
    const arg = args[i] as string
    if (arg === '--') return args.slice(i + 1)
    if (!arg.startsWith('-') || arg === '-') break
    if (withValue.includes(arg)) i += 2
    else if (/^-n\d+$/.test(arg) || /^-\d+$/.test(arg)) i++
    else i++
  }
  return args.slice(i)
}

function basename(path: string): string {
  return path.includes('/') ? (path.split('/').pop() as string) : path
}

function abbreviate(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim().replaceAll(SUBSTITUTION_PLACEHOLDER, '$(…)')
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}…` : oneLine
}

/** `name(){ … name | name & … }`: a function that pipes itself into itself in the background. */
function detectForkBomb(tokens: Token[], out: Findings): void {
  for (let i = 0; i + 2 < tokens.length; i++) {
    const name = tokens[i] as Token
    const open = tokens[i + 1] as Token
    const close = tokens[i + 2] as Token
    if (!('text' in name) || !('op' in open) || open.op !== '(' || !('op' in close) || close.op !== ')') continue
    for (let j = i + 3; j + 2 < tokens.length; j++) {
      const a = tokens[j] as Token
      const pipe = tokens[j + 1] as Token
      const b = tokens[j + 2] as Token
      if ('text' in a && a.text === name.text && 'op' in pipe && pipe.op === '|' && 'text' in b && b.text === name.text) {
        out.add('destructive', `${name.text}() calls itself through a pipe: a fork bomb`)
        return
      }
    }
  }
}
