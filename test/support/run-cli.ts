import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
const cliPath = fileURLToPath(new URL('../../packages/hub/dist/cli/main.js', import.meta.url))

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the built `tessera` CLI as a user would; `npm test` builds before it runs tests. */
export function runCli(args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  if (!existsSync(cliPath)) throw new Error(`expected the built CLI at ${cliPath}; run \`npm run build\` first`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: options.cwd ?? repoRoot, env: { ...process.env, NO_COLOR: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
