import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))
const depcruise = fileURLToPath(new URL('../node_modules/.bin/depcruise', import.meta.url))
const config = fileURLToPath(new URL('../.dependency-cruiser.cjs', import.meta.url))

interface Violation {
  from: string
  to: string
  rule: { name: string }
}

/** Cruises `paths` from `cwd` with the project's rules and returns every violation. */
async function violations(cwd: string, paths: string[]): Promise<string[]> {
  const { stdout } = await run(depcruise, ['--config', config, '--output-type', 'json', ...paths], { cwd, maxBuffer: 64 * 1024 * 1024 }).catch((error: { stdout?: string }) => {
    // depcruise exits non-zero when it finds violations; the report is still on stdout.
    if (typeof error.stdout === 'string' && error.stdout.startsWith('{')) return { stdout: error.stdout }
    throw error
  })
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } }
  return report.summary.violations.map((v) => `${v.from} → ${v.to} (${v.rule.name})`)
}

describe('package arrows point one way', () => {
  it('no package or example imports upwards or sideways, tests included', async () => {
    expect(await violations(root, ['packages', 'examples'])).toEqual([])
  }, 60_000)

  it('the rules catch an upward import and a surface importing another surface', async () => {
    const found = await violations(fileURLToPath(new URL('./fixtures/arrows/', import.meta.url)), ['packages'])
    expect(found).toEqual([
      'packages/protocol/src/upward.js → packages/gateway/src/thing.js (protocol-imports-only-itself)',
      'packages/surfaces/alpha/src/sideways.js → packages/surfaces/beta/src/beta.js (surface-imports-no-other-surface)',
    ])
  }, 60_000)
})
