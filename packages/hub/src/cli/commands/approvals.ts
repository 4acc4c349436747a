import type { Approval, ActionResult } from '@tessera/protocol'
import type { Command } from 'commander'
import { approvalView } from '../../approval-view.js'
import { hubRequest } from '../hub-client.js'
import { EXIT_CHECK_FAILED, paint } from '../output.js'
import { printable } from '@tessera/protocol/printable'

/** An approval as a person reads it before deciding (approval-view.ts), coloured by status. */
function describe(a: Approval): string {
  const color = a.status === 'pending' ? 33 : a.status === 'denied' || a.status === 'expired' ? 31 : 32
  const indent = ' '.repeat(a.id.length + 2)
  const { headline, facts } = approvalView(a)
  return [`${printable(a.id)}  ${paint(color, a.status.padEnd(8))}  ${paint(1, headline)}`, ...facts.map((fact) => `${indent}${fact}`)].join('\n')
}

/** The human channel for approvals from a terminal: a model cannot type here. */
export function registerApprovalsCommands(program: Command): void {
  const approvals = program.command('approvals')
  const common = (cmd: Command) => cmd.option('--data <dir>', 'data folder of the hub', '.tessera').option('--token <token>', 'an approver token (default: the local admin token)')

  common(approvals.command('list').description('list approvals').option('--status <status>', 'pending, approved, denied, expired or consumed'))
    .action(async (options: { data: string; token?: string; status?: string }) => {
      const { approvals: list } = await hubRequest<{ approvals: Approval[] }>(options.data, `/api/approvals${options.status ? `?status=${encodeURIComponent(options.status)}` : ''}`, options.token ? { token: options.token } : {})
      process.stdout.write(list.length === 0 ? 'no approvals\n' : `${list.map(describe).join('\n\n')}\n`)
    })

  common(approvals.command('approve').description('approve a pending action; it runs at once').argument('<id>').option('--note <text>'))
    .action(async (id: string, options: { data: string; token?: string; note?: string }) => {
      const { result } = await hubRequest<{ approval: Approval; result: ActionResult }>(options.data, `/api/approvals/${encodeURIComponent(id)}/approve`, {
        method: 'POST',
        body: options.note ? { note: options.note } : {},
        ...(options.token ? { token: options.token } : {}),
      })
      const completed = result.status === 'completed'
      process.stdout.write(`approved ${printable(id)}: the action ended ${completed ? paint(32, result.status) : paint(31, result.status)}${result.error ? ` (${printable(result.error.message)})` : ''}\n`)
      // Approved but not done (stale frame, a failed condition): a script must not read success.
      if (!completed) process.exitCode = EXIT_CHECK_FAILED
    })

  common(approvals.command('deny').description('deny a pending action').argument('<id>').option('--note <text>'))
    .action(async (id: string, options: { data: string; token?: string; note?: string }) => {
      await hubRequest(options.data, `/api/approvals/${encodeURIComponent(id)}/deny`, { method: 'POST', body: options.note ? { note: options.note } : {}, ...(options.token ? { token: options.token } : {}) })
      process.stdout.write(`denied ${printable(id)}\n`)
    })
}
