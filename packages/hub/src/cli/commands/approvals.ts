import type { Approval, ActionResult } from '@tessera/protocol'
import type { Command } from 'commander'
import { hubRequest } from '../hub-client.js'
import { paint } from '../output.js'

function line(a: Approval): string {
  const color = a.status === 'pending' ? 33 : a.status === 'denied' || a.status === 'expired' ? 31 : 32
  return `${a.id}  ${paint(color, a.status.padEnd(8))}  ${a.surface}/${a.action} by ${a.requester}  input ${JSON.stringify(a.input)}  — ${a.reason}${a.status === 'pending' ? ` (expires ${a.expiresAt})` : ''}`
}

/** The human channel for approvals from a terminal: a model cannot type here. */
export function registerApprovalsCommands(program: Command): void {
  const approvals = program.command('approvals')
  const common = (cmd: Command) => cmd.option('--data <dir>', 'data folder of the hub', '.tessera').option('--token <token>', 'an approver token (default: the local admin token)')

  common(approvals.command('list').description('list approvals').option('--status <status>', 'pending, approved, denied, expired or consumed'))
    .action(async (options: { data: string; token?: string; status?: string }) => {
      const { approvals: list } = await hubRequest<{ approvals: Approval[] }>(options.data, `/api/approvals${options.status ? `?status=${encodeURIComponent(options.status)}` : ''}`, options.token ? { token: options.token } : {})
      process.stdout.write(list.length === 0 ? 'no approvals\n' : `${list.map(line).join('\n')}\n`)
    })

  common(approvals.command('approve').description('approve a pending action; it runs at once').argument('<id>').option('--note <text>'))
    .action(async (id: string, options: { data: string; token?: string; note?: string }) => {
      const { result } = await hubRequest<{ approval: Approval; result: ActionResult }>(options.data, `/api/approvals/${encodeURIComponent(id)}/approve`, {
        method: 'POST',
        body: options.note ? { note: options.note } : {},
        ...(options.token ? { token: options.token } : {}),
      })
      process.stdout.write(`approved ${id}: the action ended ${result.status === 'completed' ? paint(32, result.status) : paint(31, result.status)}${result.error ? ` (${result.error.message})` : ''}\n`)
    })

  common(approvals.command('deny').description('deny a pending action').argument('<id>').option('--note <text>'))
    .action(async (id: string, options: { data: string; token?: string; note?: string }) => {
      await hubRequest(options.data, `/api/approvals/${encodeURIComponent(id)}/deny`, { method: 'POST', body: options.note ? { note: options.note } : {}, ...(options.token ? { token: options.token } : {}) })
      process.stdout.write(`denied ${id}\n`)
    })
}
