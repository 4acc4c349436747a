import { claimsReview } from '@tessera/example-claims-review'
import { frameDelta, redactFrame } from '@tessera/gateway'
import { AppRuntime } from '@tessera/ui'
import { describe, expect, it } from 'vitest'
import { type Frame, type FrameDelta, outlineDelta, refFor } from '@tessera/protocol'

/** The claims flow as the gateway sees it: redacted frames before and after each action. */
async function claimsFlow(): Promise<{ list: Frame; detail: Frame; approved: Frame }> {
  const runtime = new AppRuntime(claimsReview)
  const list = redactFrame(runtime.frame())
  await runtime.dispatch('open-claim', { claimId: 'c-1001' })
  const detail = redactFrame(runtime.frame())
  await runtime.dispatch('approve-payout', {})
  return { list, detail, approved: redactFrame(runtime.frame()) }
}

describe('outlineDelta', () => {
  it('pins the format of a hand-made delta', () => {
    const delta: FrameDelta = {
      from: 'a'.repeat(64),
      to: 'b'.repeat(64),
      route: { from: '/claims', to: '/claims/c-1001' },
      added: [
        { nodeId: 'app/detail', role: 'main', name: 'Claim c-1001' },
        { nodeId: 'app/detail/header', role: 'banner' },
        { nodeId: 'app/detail/claimant', role: 'group', name: 'Claimant' },
        { nodeId: 'app/detail/claimant/label', role: 'text', name: 'Claimant' },
        { nodeId: 'app/detail/claimant/value', role: 'text', name: 'Ada "A" Brennan' },
        { nodeId: 'app/detail/iban', role: 'group', name: 'Payout account' },
        { nodeId: 'app/detail/iban/value', role: 'text', name: '[REDACTED]' },
        { nodeId: 'app/detail/approve', role: 'button', name: 'Approve payout' },
        { nodeId: 'app/detail/approve/label', role: 'text', name: 'Approve payout' },
      ],
      removed: [
        { nodeId: 'app/list', role: 'main' },
        { nodeId: 'app/list/claims', role: 'list', name: 'Open claims' },
        { nodeId: 'app/list/claims/c-1', role: 'row', name: 'c-1 Ada', value: 'ready' },
        { nodeId: 'app/list/wrapper' },
      ],
      changed: [{ nodeId: 'app/status', role: 'text', name: 'Approved', fields: ['name', 'text'] }],
      actionsAdded: ['approve-payout'],
      actionsRemoved: ['open-claim'],
      actionsEnabledChanged: [
        { id: 'delete-claim', enabled: true },
        { id: 'export-claims', enabled: false },
      ],
    }
    expect(outlineDelta(delta)).toBe(
      [
        'route /claims → /claims/c-1001',
        'actions added: approve-payout',
        'actions removed: open-claim',
        'now enabled: delete-claim',
        'now disabled: export-claims',
        '+ main "Claim c-1001"',
        '+ group "Claimant": "Ada \\"A\\" Brennan"',
        '+ group "Payout account": [REDACTED]',
        `+ button "Approve payout" @${refFor('app/detail/approve')}`,
        '- main (+2 inside)',
        '~ "Approved" (changed: text)',
      ].join('\n'),
    )
  })

  it('says so when nothing visible changed', async () => {
    const { list } = await claimsFlow()
    expect(outlineDelta(frameDelta(list, list))).toBe('no visible change')
  })

  it('opening a claim: the route changes, the detail actions arrive, the list goes', async () => {
    const { list, detail } = await claimsFlow()
    const delta = frameDelta(list, detail)
    const text = outlineDelta(delta, { after: detail })
    const lines = text.split('\n')
    expect(lines[0]).toBe('route /claims → /claims/c-1001')
    expect(lines[1]).toBe('actions added: close-claim, approve-payout, reject-claim, request-info, delete-claim')
    expect(lines[2]).toBe('actions removed: export-claims, open-claim')
    const approve = detail.targets.find((t) => t.contract === 'approve-payout')?.nodeId as string
    expect(lines).toContain(`+ button "Approve payout" [approve-payout write confirm] @${refFor(approve)}`)
    expect(lines).toContain('+ group "Payout account": [REDACTED]')
    expect(lines.filter((l) => l.startsWith('- '))).toEqual([expect.stringMatching(/^- main \(\+\d+ inside\)$/)])
    expect(text).not.toContain('DE89370400440532013000')
    // Far smaller than the frame it describes.
    expect(text.length * 5).toBeLessThan(JSON.stringify(detail).length)
    // Without the frame the lines are plainer but say the same things.
    const plain = outlineDelta(delta)
    expect(plain).toContain(`+ button "Approve payout" @${refFor(approve)}`)
    expect(plain.split('\n').length).toBe(lines.length)
  })

  it('approving: disabled actions and the new status, read in context when the frame is given', async () => {
    const { detail, approved } = await claimsFlow()
    const delta = frameDelta(detail, approved)
    expect(outlineDelta(delta, { after: approved })).toBe(
      [
        'now disabled: approve-payout, reject-claim, request-info',
        '+ status "Payout for c-1001 approved"',
        '~ group "Status": "Approved" (changed: text)',
      ].join('\n'),
    )
    const plain = outlineDelta(delta)
    expect(plain).toContain('~ "Approved" (changed: text)')
    expect(plain).toMatch(/~ button "Approve payout" @[n1-9][0-9a-z.]* \(changed: states\)/)
  })

  it('caps the node lines and points to a snapshot', async () => {
    const { list, detail } = await claimsFlow()
    const text = outlineDelta(frameDelta(list, detail), { maxLines: 3 })
    const lines = text.split('\n')
    expect(lines.filter((l) => /^[+~-] /.test(l)).length).toBe(3)
    expect(lines.at(-1)).toMatch(/^… \d+ more changes; take a snapshot for the full view$/)
  })
})
