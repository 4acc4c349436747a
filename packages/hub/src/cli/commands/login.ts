import type { Command } from 'commander'
import { hubRequest } from '../hub-client.js'

export function registerLoginCommand(program: Command): void {
  program
    .command('login')
    .option('--data <dir>', 'data folder of the hub', '.tessera')
    .option('--token <token>', 'an admin token (default: the local admin token)')
    .action(async (options: { data: string; token?: string }) => {
      const { url } = await hubRequest<{ url: string }>(options.data, '/api/login-links', { method: 'POST', ...(options.token ? { token: options.token } : {}) })
      process.stdout.write(`${url}\n`)
    })
}
