import { Role } from '@tessera/protocol'
import { parseOrThrow } from '@tessera/protocol'
import type { Command } from 'commander'
import { z } from 'zod'
import { TokenStore } from '../../auth/token-store.js'

/** Tokens live in DATA/tokens.json (hashes only); a running hub picks up changes. */
export function registerTokenCommands(program: Command): void {
  const token = program.command('token')

  token
    .command('create')
    .description('create a token and print it (it is shown only once)')
    .requiredOption('--role <role...>', 'agent, approver, admin or viewer (several allowed)')
    .option('--name <principal>', 'principal name (default: the role and a number)')
    .option('--data <dir>', 'data folder', '.tessera')
    .action(async (options: { role: string[]; name?: string; data: string }) => {
      const roles = parseOrThrow(z.array(Role).min(1), options.role, 'roles (agent, approver, admin, viewer)', 'invalid_request')
      const store = await TokenStore.open(options.data)
      const created = await store.create({ role: roles, ...(options.name ? { principal: options.name } : {}) })
      process.stdout.write(`${created.token}\n`)
      process.stderr.write(`created ${created.record.id} for ${created.record.principal} (${created.record.roles.join(', ')})\n`)
    })

  token
    .command('list')
    .description('list tokens (never their secrets)')
    .option('--data <dir>', 'data folder', '.tessera')
    .action(async (options: { data: string }) => {
      const store = await TokenStore.open(options.data)
      for (const record of store.list()) {
        process.stdout.write(`${record.id}  ${record.principal.padEnd(16)}  ${record.roles.join(',').padEnd(20)}  ${record.revokedAt ? `revoked ${record.revokedAt}` : `created ${record.createdAt}`}\n`)
      }
    })

  token
    .command('revoke')
    .description('revoke a token by id or principal name')
    .argument('<id-or-principal>')
    .option('--data <dir>', 'data folder', '.tessera')
    .action(async (which: string, options: { data: string }) => {
      const store = await TokenStore.open(options.data)
      const record = await store.revoke(which)
      process.stdout.write(`revoked ${record.id} (${record.principal})\n`)
    })
}
