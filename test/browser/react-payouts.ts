/**
 * A React app that says what its buttons do with @tessera/sdk's hook, bundled by the fixture
 * site for the browser tile to read: the page's word names the action and raises its risk.
 */
import { useAgentAction } from '@tessera/sdk'
import { createElement as h, useState } from 'react'
import { createRoot } from 'react-dom/client'
import Select from 'react-select'

function Payout({ to, amount }: { to: string; amount: number }) {
  const [state, setState] = useState('pending')
  // "Go" says nothing to a risk heuristic; the app says it pays money out.
  const approve = useAgentAction({ action: 'approve-payout', title: `Approve the payout to ${to}`, risk: 'destructive' })
  return h('li', null, `${to}: ${amount} € — ${state} `, h('button', { ...approve, onClick: () => setState('approved') }, 'Go'))
}

/** Controlled fields of each kind browser_type and browser_fill_form set: React hears of a change only when the value differs from its own copy. */
function Receipt() {
  const [email, setEmail] = useState('ada@example.com')
  const [copies, setCopies] = useState('2')
  const [day, setDay] = useState('')
  const [urgency, setUrgency] = useState('1')
  const [courier, setCourier] = useState('post')
  return h(
    'section',
    null,
    h('label', null, 'Receipt to ', h('input', { type: 'email', value: email, onChange: (event: { target: HTMLInputElement }) => setEmail(event.target.value) })),
    h('label', null, 'Copies ', h('input', { type: 'number', value: copies, onChange: (event: { target: HTMLInputElement }) => setCopies(event.target.value) })),
    h('label', null, 'Send on ', h('input', { type: 'date', value: day, onChange: (event: { target: HTMLInputElement }) => setDay(event.target.value) })),
    h('label', null, 'Urgency ', h('input', { type: 'range', min: 1, max: 5, value: urgency, onChange: (event: { target: HTMLInputElement }) => setUrgency(event.target.value) })),
    h('label', null, 'Courier ', h('input', { list: 'couriers', value: courier, onChange: (event: { target: HTMLInputElement }) => setCourier(event.target.value) })),
    h('datalist', { id: 'couriers' }, h('option', { value: 'post' }), h('option', { value: 'DHL' }), h('option', { value: 'bike' })),
    h('p', null, `Receipt: ${copies === '' ? 'no' : copies} copies to ${email === '' ? 'nobody' : email}${day === '' ? '' : ` on ${day}`}, urgency ${urgency}, by ${courier}`),
  )
}

const CURRENCIES = [
  { value: 'EUR', label: 'Euro' },
  { value: 'GBP', label: 'Pound sterling' },
  { value: 'CHF', label: 'Swiss franc' },
  { value: 'SEK', label: 'Swedish krona' },
  { value: 'USD', label: 'US dollar' },
]

/** react-select's box: an input one types into (role combobox), whose menu of options follows the text. */
function Currency() {
  const [currency, setCurrency] = useState('none')
  const [also, setAlso] = useState('none')
  return h(
    'section',
    null,
    h('label', { htmlFor: 'currency' }, 'Currency'),
    h(Select, { inputId: 'currency', options: CURRENCIES, onChange: (option: unknown) => setCurrency((option as { value: string } | null)?.value ?? 'none') }),
    h('p', null, `currency: ${currency}`),
    h('label', { htmlFor: 'also' }, 'Also pay in'),
    h(Select, { inputId: 'also', isMulti: true, options: CURRENCIES, onChange: (options: unknown) => setAlso((options as Array<{ value: string }>).map((o) => o.value).join(', ') || 'none') }),
    h('p', null, `also: ${also}`),
  )
}

function App() {
  const secret = useAgentAction({ sensitive: true })
  return h(
    'main',
    null,
    h('h1', null, 'Payouts'),
    h('ul', null, h(Payout, { to: 'Ada', amount: 120 }), h(Payout, { to: 'Grace', amount: 80 })),
    h('label', null, 'Bank token ', h('input', { ...secret, defaultValue: 'tok-7731' })),
    h(Receipt),
    h(Currency),
  )
}

const root = document.getElementById('root')
if (root === null) throw new Error('the page has no #root')
createRoot(root).render(h(App))
