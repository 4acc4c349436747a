import type { Approval, Principal } from '@tessera/protocol'
import { escapeAttribute, escapeText } from '@tessera/ui'
import type { Tile } from '../tiles/tile.js'

export interface StatusView {
  principal: Principal
  tiles: Tile[]
  approvals: Approval[]
}

/**
 * A plain server-rendered page at `/` until the console (the live map) is served here:
 * it shows the tiles and pending approvals, and how to reach the hub from a client.
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
<h2>Tiles</h2><ul>${view.tiles.map((t) => `<li data-tile="${escapeAttribute(t.id)}">${escapeText(t.title)} — ${escapeText(t.kind)}, ${escapeText(t.state)}${t.focused ? ', focused' : ''}</li>`).join('')}</ul>
<h2>Pending approvals</h2>${
          view.approvals.length === 0
            ? '<p>None.</p>'
            : `<ul>${view.approvals.map((a) => `<li>${escapeText(a.id)}: ${escapeText(a.action)} on ${escapeText(a.surface)} requested by ${escapeText(a.requester)} — ${escapeText(a.reason)} (until ${escapeText(a.expiresAt)}). Resolve with <code>tessera approvals approve ${escapeText(a.id)}</code>.</li>`).join('')}</ul>`
        }`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tessera hub</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem}code{background:#f3f3f3;padding:0 .3em}</style></head>
<body><h1>Tessera hub</h1>${body}</body></html>`
}
