import { describe, expect, it } from 'vitest'
import { agentAction } from './agent-action.js'
import { box, image, text } from './elements.js'
import { buildFrame } from './frame.js'
import { renderAnsi } from './render-ansi.js'

// 420px at 8.4px per character is 50 columns; 17.5px per line is one row.
const frame = buildFrame({
  surface: 'claims',
  route: '/claims/17',
  state: {},
  viewport: { width: 420, height: 140 },
  tree: box({}, [
    text('Claim 17'),
    box({ style: { flexDirection: 'row', gap: 16.8 } }, [
      box(
        { style: { width: 168 }, semantic: { agentAction: agentAction({ id: 'approve', kind: 'approve', title: 'Approve payout', risk: 'write' }) } },
        [text('Approve')],
      ),
      box(
        {
          style: { width: 168 },
          name: 'Reject claim',
          states: { disabled: true },
          semantic: { agentAction: agentAction({ id: 'reject', kind: 'reject', title: 'Reject', risk: 'destructive' }) },
        },
        [text('Reject')],
      ),
    ]),
    text('Notes: the claimant sent two receipts, one of them from a pharmacy'),
    box({ style: { flexDirection: 'row', gap: 8.4 } }, [
      text('Card:'),
      text({ text: '4111 1111', sensitive: true }),
      image({ src: 'https://x.test/y.png', alt: 'Logo', style: { width: 100, height: 17.5 } }),
    ]),
    box({ style: { height: 35, width: 84, border: '1px solid #ccc' } }),
  ]),
})

describe('renderAnsi', () => {
  it('draws text, actions, images and masked secrets on a character grid', () => {
    expect(renderAnsi(frame)).toBe(
      [
        'Claim 17',
        '[ Approve payout ]    [ Reject claim ] (disabled)',
        'Notes: the claimant sent two receipts, one of them',
        'from a pharmacy',
        'Card: •••       [image: Logo]',
      ].join('\n'),
    )
  })

  it('draws borders when asked, for boxes that have one', () => {
    expect(renderAnsi(frame, { borders: true }).split('\n').slice(5)).toEqual(['┌────────┐', '└────────┘'])
  })

  it('colours actions by risk when asked', () => {
    const lines = renderAnsi(frame, { color: true }).split('\n')
    expect(lines[1]).toBe('\u001b[36m[ Approve payout ]\u001b[0m    \u001b[31m[ Reject claim ] (disabled)\u001b[0m')
    expect(lines[0]).toBe('Claim 17')
  })

  it('cuts lines at the requested width and is deterministic', () => {
    const narrow = renderAnsi(frame, { columns: 12 })
    expect(narrow.split('\n')[1]).toBe('[ Approve pa')
    expect(renderAnsi(frame, { columns: 12 })).toBe(narrow)
  })

  it('draws terminal control characters from the frame as spaces', () => {
    const sneaky = buildFrame({
      surface: 's',
      route: '/',
      state: {},
      viewport: { width: 200, height: 20 },
      tree: box({}, [text('ok\u001b[2Jgone')]),
    })
    expect(renderAnsi(sneaky)).toBe('ok [2Jgone')
  })

  it('rejects a nonsensical width', () => {
    expect(() => renderAnsi(frame, { columns: 0 })).toThrow(/positive integer/)
  })
})
