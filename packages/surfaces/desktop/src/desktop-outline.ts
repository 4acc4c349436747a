import { type OutlineRequest, outlinePage } from '@tessera/kit'
import { type Frame, outlineFrame, scopeFrame } from '@tessera/protocol'

/**
 * How `surface_snapshot` reads a desktop tile: a Chromium app's page (the Electron specialist,
 * a web build) as a web page reads — the viewport first, the rest folded, an element's line
 * without its list of actions — and anything else as the hub's generic outline does.
 */
export function outlineDesktop(frame: Frame, request: OutlineRequest): string {
  if (frame.state.specialist === 'devtools') return outlinePage(frame, request)
  return outlineFrame(request.expand === undefined ? frame : scopeFrame(frame, { scope: request.expand })).text
}
