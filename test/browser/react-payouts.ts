/**
 * A React app that says what its buttons do with @tessera/sdk's hook, bundled by the fixture
 * site for the browser tile to read: the page's word names the action and raises its risk.
 */
import { useAgentAction } from '@tessera/sdk'
import { createElement as h, useState } from 'react'
import { createRoot } from 'react-dom/client'

function Payout({ to, amount }: { to: string; amount: number }) {
  const [state, setState] = useState('pending')
  // "Go" says nothing to a risk heuristic; the app says it pays money out.
  const approve = useAgentAction({ action: 'approve-payout', title: `Approve the payout to ${to}`, risk: 'destructive' })
  return h('li', null, `${to}: ${amount} € — ${state} `, h('button', { ...approve, onClick: () => setState('approved') }, 'Go'))
}

function App() {
  const secret = useAgentAction({ sensitive: true })
  return h(
    'main',
    null,
    h('h1', null, 'Payouts'),
    h('ul', null, h(Payout, { to: 'Ada', amount: 120 }), h(Payout, { to: 'Grace', amount: 80 })),
    h('label', null, 'Bank token ', h('input', { ...secret, defaultValue: 'tok-7731' })),
  )
}

const root = document.getElementById('root')
if (root === null) throw new Error('the page has no #root')
createRoot(root).render(h(App))
