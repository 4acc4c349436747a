export interface ChecklistLine {
  id: string
  title: string
  ok: boolean
  detail: string
}

export interface ConformanceReport {
  subject: string
  ok: boolean
  lines: ChecklistLine[]
}

/** The conformance checklist every surface passes (docs/protocol.md, "Conformance"), in its order. */
export const CHECKLIST = [
  { id: 'stable-ids', title: 'All automation-relevant operations have stable action ids' },
  { id: 'bounds', title: 'Every action target on an element has finite bounds that hit-test to it' },
  { id: 'confirmation', title: 'Destructive and external actions require human confirmation unless a policy override is configured' },
  { id: 'secrets', title: 'Action output is recorded in the trace without leaking secrets' },
  { id: 'replay', title: 'Replay reconstructs the frame/action sequence from the trace' },
  { id: 'no-gateway', title: 'The app still runs with no agent gateway attached' },
] as const

export function formatChecklist(report: ConformanceReport, color = false): string {
  const paint = (code: number, text: string): string => (color ? `\u001b[${code}m${text}\u001b[0m` : text)
  const lines = [`Conformance: ${report.subject}`]
  for (const line of report.lines) {
    const mark = line.ok ? paint(32, 'PASS') : paint(31, 'FAIL')
    lines.push(`  ${mark}  ${line.title}`)
    if (line.detail) lines.push(`        ${line.detail}`)
  }
  const passed = report.lines.filter((line) => line.ok).length
  lines.push(`${passed} passed, ${report.lines.length - passed} failed`)
  return lines.join('\n')
}
