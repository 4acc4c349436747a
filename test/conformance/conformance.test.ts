import { fileURLToPath } from 'node:url'
import { claimsReview, conformance } from '@tessera/example-claims-review'
import { checkConformance, formatChecklist } from '@tessera/gateway'
import type { Frame } from '@tessera/protocol'
import { AppSurface } from '@tessera/surface-app'
import { type AgentApp, AppRuntime } from '@tessera/ui'
import { describe, expect, it } from 'vitest'

function subjectFor(app: AgentApp, script?: readonly { action: string; input?: unknown }[]) {
  return {
    name: app.title,
    createSurface: async () => new AppSurface(app),
    runWithoutGateway: async (steps: readonly { action: string; input?: unknown }[]) => {
      const runtime = new AppRuntime(app)
      const frames: Frame[] = [runtime.frame()]
      for (const step of steps) {
        await runtime.dispatch(step.action, (step.input ?? {}) as never)
        frames.push(runtime.frame())
      }
      return frames
    },
    ...(script ? { script: script as never } : {}),
  }
}

describe('conformance checker', () => {
  it('passes every line on claims-review', async () => {
    const report = await checkConformance(subjectFor(claimsReview as unknown as AgentApp, conformance.script))
    const text = formatChecklist(report)
    expect(report.lines.map((l) => [l.id, l.ok])).toEqual([
      ['stable-ids', true],
      ['bounds', true],
      ['confirmation', true],
      ['secrets', true],
      ['replay', true],
      ['no-gateway', true],
    ])
    expect(text).toContain('6 passed, 0 failed')
  })

  it('fails the lines a deliberately broken app breaks, naming why', async () => {
    const broken = (await import(fileURLToPath(new URL('../fixtures/broken-app.mjs', import.meta.url)))) as { default: AgentApp; conformance: { script: { action: string }[] } }
    const report = await checkConformance(subjectFor(broken.default, broken.conformance.script))
    const byId = Object.fromEntries(report.lines.map((l) => [l.id, l]))
    expect(report.ok).toBe(false)
    expect(byId['stable-ids']?.ok).toBe(false)
    expect(byId['bounds']?.ok).toBe(false)
    expect(byId['bounds']?.detail).toContain('ghost')
    expect(byId['confirmation']?.ok).toBe(false)
    expect(byId['confirmation']?.detail).toContain('wipe')
    expect(byId['secrets']?.ok).toBe(false)
    expect(byId['replay']?.ok).toBe(false)
    expect(byId['no-gateway']?.ok).toBe(true)
  })
})
