import { type Frame, TesseraError, type UiNode, resolvedTargets } from '@tessera/protocol'

/** One widget of a frame in order, with its actions and whether it sits in a modal window (a dialog waiting for an answer). */
export interface FrameWidget {
  node: UiNode
  actions: string[]
  inModal: boolean
}

export function widgetsOf(frame: Frame): FrameWidget[] {
  const actions = new Map<string, string[]>()
  for (const target of resolvedTargets(frame)) if (target.target.nodeId !== undefined) actions.set(target.target.nodeId, [...(actions.get(target.target.nodeId) ?? []), target.contract.id])
  const out: FrameWidget[] = []
  const visit = (node: UiNode, inModal: boolean): void => {
    const modal = inModal || node.states?.modal === true
    out.push({ node, actions: actions.get(node.id) ?? [], inModal: modal })
    for (const child of node.children ?? []) visit(child, modal)
  }
  visit(frame.tree, false)
  return out
}

/** Words compared as a person reads them: no accents, any case, one space. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()
}

/**
 * The text field the keyboard is in: in a modal dialog its focused field, else its first;
 * else the newest window's focused field; else the only field there is. Undefined when that
 * cannot be told.
 */
export function typingField(frame: Frame): FrameWidget | undefined {
  const fields = widgetsOf(frame).filter((widget) => widget.actions.includes('type') && widget.node.states?.disabled !== true)
  const modal = fields.filter((widget) => widget.inModal)
  if (modal.length > 0) return modal.find((widget) => widget.node.states?.focused === true) ?? modal[0]
  return fields.filter((widget) => widget.node.states?.focused === true).at(-1) ?? (fields.length === 1 ? fields[0] : undefined)
}

/**
 * The widget of this role and name (whole, any case; a trailing "…" or "..." as the menus
 * write it is optional), preferring one in a modal dialog and one that is enabled.
 */
export function widgetByQuery(frame: Frame, query: { role: string; name?: string | undefined }): FrameWidget {
  const bare = (words: string): string => fold(words).replace(/(\.\.\.|…)$/, '')
  const found = widgetsOf(frame).filter(({ node }) => node.role === query.role && (query.name === undefined || bare(node.name ?? '') === bare(query.name)))
  const best = found.find((w) => w.inModal && w.node.states?.disabled !== true) ?? found.find((w) => w.node.states?.disabled !== true) ?? found[0]
  if (best === undefined) throw new TesseraError('not_found', `no ${query.role}${query.name === undefined ? '' : ` "${query.name}"`} is on the screen`, { expected: query, found: null })
  return best
}
