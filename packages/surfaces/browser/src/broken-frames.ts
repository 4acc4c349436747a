import { type Frame, type JsonObject, type UiNode, sealFrame } from '@tessera/protocol'
import { BROWSER_ACTIONS } from './browser-actions.js'

export const STUCK = 'the page is not answering (its thread is busy); browser_navigate opens a new tab in its place'
export const CRASHED = 'the page crashed (its renderer ended: out of memory, or killed)'

/** A frame of nothing of the page, what the tile says of it (`state.said`, the hub's words, which an outline prints outside the page's fence) and the actions that lead away. */
function saying(surface: string, route: string, state: JsonObject, said: string, actions: readonly string[]): Frame {
  const tree: UiNode = { id: 'page', kind: 'box', role: 'document' }
  return sealFrame({ surface, route, tree, state: { ...state, said }, contracts: actions.map((id) => BROWSER_ACTIONS.contract(id)) })
}

/** The frame of a page that stopped answering or crashed: only leaving it (or another tab) can be done, and its journal read. */
export function brokenFrame(surface: string, route: string, state: JsonObject, said: string): Frame {
  return saying(surface, route, { ...state, broken: true }, said, ['navigate', 'tabs', 'console', 'requests', 'request'])
}

/** The frame of a tile whose last page went (it closed its own window): only opening one can be done. Its route is where the page was, so going back to that site is no new origin. */
export function pagelessFrame(surface: string, url: string, said: string): Frame {
  return saying(surface, url, { url }, `${said}; browser_navigate opens a new tab, browser_close closes the tile`, ['navigate', 'tabs'])
}
