import type { Approval, Principal } from '@tessera/protocol'
import { escapeAttribute, escapeText } from '@tessera/ui'
import { approvalView } from '../approval-view.js'
import type { Tile } from '../tiles/tile.js'

export interface StatusView {
  principal: Principal
  tiles: Tile[]
  approvals: Approval[]
}

/** How often the page re-reads itself: pending approvals appear without a reload. */
const REFRESH_MS = 2_000

function approvalItem(a: Approval, canDecide: boolean): string {
  const { headline, facts } = approvalView(a)
  // The buttons send the frame and input hash the person was shown: the hub refuses to run
  // anything else under this approval.
  const decide = canDecide
    ? `<p><button type="button" data-decide="approve" data-id="${escapeAttribute(a.id)}" data-frame-id="${escapeAttribute(a.frameId)}" data-input-hash="${escapeAttribute(a.inputHash)}">Approve</button> <button type="button" data-decide="deny" data-id="${escapeAttribute(a.id)}">Deny</button></p>`
    : `<p>An approver resolves it here, or with <code>tessera approvals approve ${escapeText(a.id)}</code>.</p>`
  return `<li data-approval="${escapeAttribute(a.id)}"><b>${escapeText(headline)}</b><br>${facts.map(escapeText).join('<br>')}<br><small>${escapeText(a.id)}</small>${decide}</li>`
}

function liveSection(view: StatusView): string {
  const canDecide = view.principal.roles.includes('approver')
  return `<h2>Tiles</h2><ul>${view.tiles.map((t) => `<li data-tile="${escapeAttribute(t.id)}">${escapeText(t.title)} — ${escapeText(t.kind)}, ${escapeText(t.state)}${t.focused ? ', focused' : ''}</li>`).join('')}</ul>
<h2>Pending approvals</h2>${view.approvals.length === 0 ? '<p>None.</p>' : `<ul>${view.approvals.map((a) => approvalItem(a, canDecide)).join('')}</ul>`}`
}

/**
 * The page re-reads itself every REFRESH_MS and swaps in the server-rendered (escaped) live
 * section, so there is one rendering of an approval. A decision is a same-origin POST with
 * the console's session cookie (SameSite=Strict; the hub checks the Origin too).
 */
const LIVE_SCRIPT = `<script>
const live = document.getElementById('live')
const said = document.getElementById('said')
async function refresh() {
  const response = await fetch(location.pathname, { headers: { accept: 'text/html' } })
  if (!response.ok) return
  const next = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById('live')
  if (next) live.replaceChildren(...next.childNodes)
}
live.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-decide]')
  if (!button) return
  const { decide, id, frameId, inputHash } = button.dataset
  for (const b of live.querySelectorAll('button[data-id="' + CSS.escape(id) + '"]')) b.disabled = true
  const body = decide === 'approve' ? { frameId, inputHash, note: 'approved on the hub page' } : { note: 'denied on the hub page' }
  const response = await fetch('/api/approvals/' + encodeURIComponent(id) + '/' + decide, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const answer = await response.json().catch(() => ({}))
  said.textContent = !response.ok
    ? 'Not ' + (decide === 'approve' ? 'approved' : 'denied') + ': ' + ((answer.error && answer.error.message) || response.status)
    : decide === 'deny'
      ? 'Denied ' + id + '.'
      : 'Approved ' + id + ': the action ended ' + answer.result.status + (answer.result.error ? ' (' + answer.result.error.message + ')' : '') + '.'
  await refresh()
})
setInterval(() => void refresh().catch(() => undefined), ${REFRESH_MS})
</script>`

/**
 * A plain server-rendered page at `/` until the console (the live map) is served here:
 * the tiles, the pending approvals with what each would do (and Approve / Deny for an
 * approver), and how to reach the hub from a client.
 */
export function statusPage(view: StatusView | null): string {
  const body =
    view === null
      ? `<p id="login">Open the one-time login link the hub printed (or run <code>tessera login</code>), or send a token.</p>
<script>
const code = new URLSearchParams(location.hash.slice(1)).get('code')
if (code) {
  history.replaceState(null, '', location.pathname)
  fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) })
    .then((r) => (r.ok ? location.reload() : r.json().then((b) => { document.getElementById('login').textContent = b.error.message })))
}
</script>`
      : `<p>Signed in as <b>${escapeText(view.principal.id)}</b> (${escapeText(view.principal.roles.join(', '))}).</p>
<p id="said" role="status"></p><div id="live">${liveSection(view)}</div>${LIVE_SCRIPT}`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tessera hub</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem}code{background:#f3f3f3;padding:0 .3em}li{margin-bottom:.8rem}#said:empty{display:none}#said{background:#eef6ee;padding:.4rem .6rem}</style></head>
<body><h1>Tessera hub</h1>${body}</body></html>`
}
