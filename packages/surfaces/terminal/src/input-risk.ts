import type { RiskAssessment } from '@tessera/protocol'
import { classifyCommand } from './command-policy.js'
import { KEYS } from './shell-types.js'

/** Classifies a command line's source: null when there is nothing to judge. */
export function commandRisk(source: string | undefined): RiskAssessment | null {
  if (source === undefined || source.trim().length === 0) return null
  const classification = classifyCommand(source)
  const reason = classification.reasons.length > 0 ? classification.reasons.join('; ') : 'only read-only commands'
  return { risk: classification.risk, reason: `${classification.risk}: ${reason}` }
}

const CTRL_C = '\x03'
/** Bytes that submit the line readline is editing. */
const SUBMITS = /[\r\n]/g
/**
 * Any other control byte: history recall (↑, C-p, C-r), cursor moves, kills and yanks,
 * escape prefixes. Not C-l, which only redraws the screen, nor tab.
 */
const EDITING = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/

/**
 * The risk of typing into a terminal. At the shell's own prompt, what runs is the line
 * readline submits, not the text typed: `↑` + Enter runs the previous command again, and
 * Home, Delete, C-y and the like turn a harmless text into another line. So text with
 * editing or history keys that is submitted there cannot be classified from its words, and
 * is destructive; otherwise the typed text is classified as a command line. Into a running
 * program (an editor, a REPL) the text is classified as before: advice, since only that
 * program knows what its keys mean.
 */
export function inputRisk(
  input: { text?: string | undefined; enter?: boolean | undefined; keys?: readonly string[] | undefined },
  prompt: { atShellPrompt: boolean; lineEdited: boolean },
): RiskAssessment | null {
  const typed = input.text ?? ''
  const bytes = `${typed}${(input.keys ?? []).map((key) => KEYS[key.toLowerCase()] ?? '').join('')}${input.enter === true ? '\r' : ''}`
  const lastSubmit = Math.max(bytes.lastIndexOf('\r'), bytes.lastIndexOf('\n'))
  // The line submitted starts after the last Ctrl-C (which discards the line being edited);
  // without one, keys typed in an earlier call count too: ↑ now, Enter next time, is the same recall.
  const lineStart = lastSubmit === -1 ? 0 : bytes.lastIndexOf(CTRL_C, lastSubmit) + 1
  const edited = (lineStart === 0 && prompt.lineEdited) || EDITING.test(bytes.slice(lineStart, lastSubmit).replace(SUBMITS, ''))
  if (prompt.atShellPrompt && lastSubmit !== -1 && edited) {
    return { risk: 'destructive', reason: 'destructive: keys that recall or edit the line at the shell prompt (history, cursor, kill and yank) submit a command that cannot be classified from the text typed' }
  }
  return commandRisk(typed)
}

/** After `data` is typed at the prompt: whether the line being edited then holds key edits (a submit starts a new line). */
export function lineEditedAfter(edited: boolean, data: string): boolean {
  // A submit or a Ctrl-C starts a new, empty line.
  const lastEnd = Math.max(data.lastIndexOf('\r'), data.lastIndexOf('\n'), data.lastIndexOf(CTRL_C))
  const rest = lastEnd === -1 ? data : data.slice(lastEnd + 1)
  return (lastEnd === -1 && edited) || EDITING.test(rest)
}
