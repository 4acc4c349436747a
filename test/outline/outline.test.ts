import { claimsReview } from '@tessera/example-claims-review'
import { redactFrame } from '@tessera/gateway'
import { AppRuntime, agentAction, box, buildFrame, text } from '@tessera/ui'
import { describe, expect, it } from 'vitest'
import { type Frame, type UiNode, outlineFrame, refFor, sealFrame } from '@tessera/protocol'

const IBAN = 'DE89370400440532013000'

async function claimsFrames(): Promise<{ list: Frame; detail: Frame }> {
  const runtime = new AppRuntime(claimsReview)
  const list = runtime.frame()
  await runtime.dispatch('open-claim', { claimId: 'c-1001' })
  return { list, detail: runtime.frame() }
}

/** About 500 nodes: wrapped rows of texts, each with an action; some disabled, some hidden, some inputs. */
function generatedFrame(changedText = 'units'): Frame {
  const rows = Array.from({ length: 100 }, (_, i) =>
    box({ key: `r${i}` }, [
      box({ key: 'cells', role: 'row', name: `Item ${i}` }, [text({ key: 'name', text: `Item ${i}` }), text({ key: 'qty', text: `${i * 3} ${i === 5 ? changedText : 'units'}` })]),
      box({
        key: 'act',
        role: i % 10 === 0 ? 'link' : 'button',
        name: `Open ${i}`,
        states: i % 7 === 0 ? { disabled: true } : i % 13 === 0 ? { hidden: true } : {},
        semantic: {
          agentAction: agentAction({
            id: `open-${i}`,
            kind: 'navigate',
            title: `Open item ${i}`,
            risk: i % 3 === 0 ? 'read' : 'write',
            ...(i % 4 === 0 ? { inputSchema: { type: 'object' } } : {}),
          }),
        },
      }),
    ]),
  )
  return buildFrame({
    surface: 'inventory',
    route: '/items',
    viewport: { width: 800, height: 600 },
    state: { count: 100 },
    tree: box({ key: 'root', role: 'main', name: 'Inventory' }, [box({ key: 'grid', role: 'grid', name: 'Items' }, rows)]),
  })
}

function countNodes(node: UiNode): number {
  return 1 + (node.children ?? []).reduce((sum, child) => sum + countNodes(child), 0)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The property every outline keeps: each action once, on a line whose ref names its node. */
function expectEveryActionOnceWithItsRef(frame: Frame): void {
  const { text: outline, refs } = outlineFrame(frame)
  const lines = outline.split('\n')
  for (const target of frame.targets) {
    // As many badges of a contract as it has targets: one on each target's own line.
    const badge = new RegExp(`\\[${escapeRegExp(target.contract)} `, 'g')
    expect(outline.match(badge)?.length, `action ${target.contract}`).toBe(frame.targets.filter((t) => t.contract === target.contract).length)
    const line = lines.find((l) => l.includes(`[${target.contract} `) && l.includes(`@${target.ref}`))
    expect(line, `the line of ${target.contract} @${target.ref}`).toBeDefined()
    expect(refs.resolve(target.ref)).toBe(target.nodeId)
  }
}

describe('outlineFrame', () => {
  it('prints a tiny frame exactly in the documented format', () => {
    const frame = buildFrame({
      surface: 'demo',
      route: '/settings',
      viewport: { width: 400, height: 300 },
      state: { saved: false },
      tree: box({ key: 'app', role: 'form', name: 'Settings' }, [
        box({ key: 'wrap' }, [
          text({ key: 'title', role: 'heading', text: 'Profile "main"' }),
          box({ key: 'email', role: 'textbox', name: 'Email', value: 'ada@example.com', states: { focused: true } }),
          box({ key: 'news', role: 'checkbox', name: 'Newsletter', states: { checked: true } }),
          box({ key: 'pw', role: 'group', name: 'Password' }, [text({ key: 'label', text: 'Password' }), text({ key: 'value', text: 'hunter2', sensitive: true })]),
        ]),
        box({ key: 'actions', role: 'toolbar' }, [
          box(
            {
              key: 'save',
              role: 'button',
              name: 'Save',
              semantic: { agentAction: agentAction({ id: 'save', kind: 'submit', title: 'Save', risk: 'write', inputSchema: { type: 'object' } }) },
            },
            [text({ key: 'label', text: 'Save' })],
          ),
          box({
            key: 'delete',
            role: 'button',
            name: 'Delete account',
            states: { disabled: true },
            semantic: { agentAction: agentAction({ id: 'delete-account', kind: 'delete', title: 'Delete account', risk: 'destructive' }) },
          }),
        ]),
        box({ key: 'advanced', states: { hidden: true } }, [
          text({ key: 'hint', text: 'Advanced' }),
          box({ key: 'reset', role: 'button', name: 'Reset', semantic: { agentAction: agentAction({ id: 'reset', kind: 'reset', title: 'Reset', risk: 'read' }) } }),
        ]),
      ]),
    })
    const { text: outline, refs } = outlineFrame(frame)
    const ref = (id: string): string => {
      expect(refs.refOf(id)).toBe(refFor(id))
      return refFor(id)
    }
    expect(outline).toBe(
      [
        `demo /settings frame ${frame.id.slice(0, 12)}`,
        'form "Settings"',
        '  heading "Profile \\"main\\""',
        `  textbox "Email": "ada@example.com" @${ref('app/wrap/email')} (focused)`,
        `  checkbox "Newsletter" @${ref('app/wrap/news')} (checked)`,
        '  group "Password": [REDACTED]',
        '  toolbar',
        `    button "Save" [save write input] @${ref('app/actions/save')}`,
        `    button "Delete account" [delete-account destructive confirm] @${ref('app/actions/delete')} (disabled)`,
        `  button "Reset" [reset read] @${ref('app/advanced/reset')} (hidden, disabled)`,
        'state: {"saved":false}',
      ].join('\n'),
    )
    expect(outline).not.toContain('hunter2')
    expect(outline).not.toContain('Advanced')
  })

  it('keeps every action of the claims list and detail frames exactly once, with a ref to its node', async () => {
    const { list, detail } = await claimsFrames()
    // The list's open-claim, then one per row, each with its claim id.
    expect(list.targets.map((t) => [t.contract, t.input?.claimId ?? null])).toEqual([
      ['export-claims', null],
      ['open-claim', null],
      ['open-claim', 'c-1001'],
      ['open-claim', 'c-1002'],
      ['open-claim', 'c-1003'],
      ['open-claim', 'c-1004'],
    ])
    expect(detail.targets.length).toBe(5)
    expectEveryActionOnceWithItsRef(list)
    expectEveryActionOnceWithItsRef(detail)
    expectEveryActionOnceWithItsRef(redactFrame(detail))
  })

  it('keeps every action of a generated ~500-node frame, hidden and disabled ones included', () => {
    const frame = generatedFrame()
    expect(countNodes(frame.tree)).toBeGreaterThanOrEqual(500)
    expect(frame.targets.length).toBe(100)
    expectEveryActionOnceWithItsRef(frame)
    const outline = outlineFrame(frame).text
    expect(outline).toContain(`link "Open 0" [open-0 read input] @${refFor('root/grid/r0/act')} (disabled)`)
    expect(outline).toContain(`button "Open 13" [open-13 write] @${refFor('root/grid/r13/act')} (hidden, disabled)`)
    expect(outline).toContain('row "Item 5": "15 units"')
  })

  it('drops wrappers and folds texts, so it has far fewer lines than the tree has nodes', async () => {
    const { list, detail } = await claimsFrames()
    for (const frame of [list, detail, generatedFrame()]) {
      const lines = outlineFrame(frame, { includeState: false }).text.split('\n').length - 1
      expect(lines).toBeLessThan(countNodes(frame.tree) / 2)
    }
    const outline = outlineFrame(detail).text
    expect(outline).toContain('group "Claimant": "Ada Brennan"')
    // The label text "Approve payout" inside the button is not repeated.
    expect(outline.match(/Approve payout/g)?.length).toBe(1)
  })

  it('never prints the sensitive IBAN: redacted frames show the mark, raw trees are masked too', async () => {
    const { detail } = await claimsFrames()
    const redacted = outlineFrame(redactFrame(detail), { bounds: true }).text
    expect(redacted).not.toContain(IBAN)
    expect(redacted).toContain('group "Payout account": [REDACTED]')
    // A second line of defence: the tree of an unredacted frame is masked as well
    // (its state is printed as given, which is why surfaces hand over redacted frames).
    expect(outlineFrame(detail, { includeState: false }).text).not.toContain(IBAN)
  })

  it('appends integer bounds only on request', async () => {
    const { detail } = await claimsFrames()
    expect(outlineFrame(detail).text).not.toMatch(/<-?\d+,-?\d+ \d+x\d+>/)
    const lines = outlineFrame(detail, { bounds: true, includeState: false }).text.split('\n').slice(1)
    for (const line of lines) expect(line).toMatch(/ <-?\d+,-?\d+ \d+x\d+>$/)
    const approve = detail.targets.find((t) => t.contract === 'approve-payout')
    const b = detail.layout[approve?.nodeId as string] as { x: number; y: number; width: number; height: number }
    const expected = `<${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}x${Math.round(b.height)}>`
    expect(lines.find((l) => l.includes('[approve-payout '))).toContain(expected)
  })

  it('is deterministic: the same frame, or the same app state, gives the same text', async () => {
    const first = await claimsFrames()
    const second = await claimsFrames()
    expect(outlineFrame(first.detail).text).toBe(outlineFrame(second.detail).text)
    expect(outlineFrame(structuredClone(first.list), { bounds: true }).text).toBe(outlineFrame(first.list, { bounds: true }).text)
    const frame = generatedFrame()
    expect(outlineFrame(frame).text).toBe(outlineFrame(generatedFrame()).text)
  })

  it('cuts at maxLines and names the actions it left out', async () => {
    const { list } = await claimsFrames()
    const full = outlineFrame(list, { includeState: false }).text.split('\n')
    const cut = outlineFrame(list, { maxLines: 3, includeState: false }).text.split('\n')
    expect(cut.slice(0, 4)).toEqual(full.slice(0, 4))
    expect(cut.length).toBe(5)
    const refOf = (id: string) => list.targets.find((t) => t.contract === id)?.ref as string
    expect(cut[4]).toBe(`… ${full.length - 4} more lines; actions there: export-claims @${refOf('export-claims')}, open-claim @${refOf('open-claim')}`)

    const big = outlineFrame(generatedFrame(), { maxLines: 10 }).text.split('\n')
    expect(big.length).toBe(1 + 10 + 2)
    expect(big[11]).toMatch(/^… \d+ more lines; actions there: (open-\d+ @[n1-9][0-9a-z.]*, ){20}\+\d+ more$/)
    expect(big[12]).toBe('state: {"count":100}')
  })

  it('keeps refs stable across frames when only an unrelated text changed', () => {
    const before = generatedFrame('units')
    const after = generatedFrame('pieces')
    expect(after.id).not.toBe(before.id)
    const a = outlineFrame(before)
    const b = outlineFrame(after)
    expect(b.text).not.toBe(a.text)
    for (const target of before.targets) expect(b.refs.refOf(target.nodeId as string)).toBe(a.refs.refOf(target.nodeId as string))
    const refsIn = (text: string) => text.match(/@[n1-9][0-9a-z.]*/g)
    expect(refsIn(b.text)).toEqual(refsIn(a.text))
  })

  it('escapes, single-lines and truncates long texts, and cuts a large state with a note', () => {
    const long = `${'x'.repeat(300)}`
    const frame = buildFrame({
      surface: 'notes',
      route: '/a note',
      viewport: { width: 400, height: 300 },
      state: { body: 'y'.repeat(5000) },
      tree: box({ key: 'root', role: 'article', name: 'Note' }, [text({ key: 'a', text: 'line one\nline "two"' }), text({ key: 'b', text: long })]),
    })
    const lines = outlineFrame(frame).text.split('\n')
    expect(lines[0]).toBe(`notes "/a note" frame ${frame.id.slice(0, 12)}`)
    expect(lines[1]).toBe(`article "Note": "line one line \\"two\\"" "${'x'.repeat(119)}…"`)
    const size = JSON.stringify({ body: 'y'.repeat(5000) }).length
    expect(lines[2]).toMatch(new RegExp(`^state: \\{"body":"y+… \\(state cut at 2000 of ${size} chars; the full frame is available as JSON\\)$`))
    expect((lines[2] as string).indexOf('…')).toBe('state: '.length + 1999)
  })

  it('lists the actions of the whole surface on one line after the tree, the target raising the risk', () => {
    const contract = (id: string, risk: 'read' | 'write') => ({ id, kind: id, title: id, risk, inputSchema: { type: 'object' } })
    const frame = sealFrame({
      surface: 'files',
      route: '/',
      tree: { id: 'root', kind: 'box', role: 'application', name: 'Files', children: [{ id: 'del', kind: 'box', role: 'button', name: 'Delete' }] },
      state: {},
      contracts: [contract('file_read', 'read'), contract('file_write', 'write'), contract('click', 'read')],
      targets: [{ contract: 'click', nodeId: 'del', risk: 'destructive' }],
    })
    const lines = outlineFrame(frame, { includeState: false }).text.split('\n')
    expect(lines.at(-1)).toBe('actions: [file_read read input] [file_write write input]')
    expect(lines).toContain(`  button "Delete" [click destructive input] @${refFor('del')}`)
    expect(frame.targets.find((t) => t.contract === 'file_read')).toEqual({ contract: 'file_read', ref: 'file_read', enabled: true })
  })
})
