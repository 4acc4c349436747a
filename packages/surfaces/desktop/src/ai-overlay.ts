import { type Frame, type JsonObject, RefTable, type UiNode, outlineFrame, resolvedTargets } from '@tessera/protocol'
import { PNG } from 'pngjs'
import { widgetsOf } from './frame-widgets.js'

/**
 * The seed's AI-added shortcuts, answered by Tessera from a tile's frame (and its pixels)
 * rather than by the app: the same four on any tile, the app never sees the chord.
 */

function windowsOf(frame: Frame): UiNode[] {
  return (frame.tree.children ?? []).flatMap((app) => app.children ?? [])
}

/** Ctrl+Alt+Shift+? — the window, any dialog waiting, the focused widget, the text fields with their values. */
export function describeState(frame: Frame): JsonObject {
  const refs = RefTable.forFrame(frame)
  const widgets = widgetsOf(frame)
  const ref = (node: UiNode): string => `@${refs.refOf(node.id) ?? ''}`
  const dialog = widgets.find((w) => w.node.states?.modal === true || w.node.role === 'dialog')?.node
  const focused = widgets.filter((w) => w.node.states?.focused === true).at(-1)?.node
  const fields = widgets.filter((w) => w.actions.includes('type')).slice(0, 20).map(({ node }): JsonObject => ({ ref: ref(node), ...(node.name === undefined ? {} : { name: node.name }), value: node.value ?? '' }))
  return {
    windows: windowsOf(frame).map((node) => node.name ?? node.role ?? ''),
    ...(dialog === undefined ? {} : { dialog: dialog.name ?? 'unnamed' }),
    ...(focused === undefined ? {} : { focused: { ref: ref(focused), role: focused.role ?? focused.kind, name: focused.name ?? '', ...(focused.value === undefined ? {} : { value: focused.value }) } }),
    fields,
    widgets: widgets.length,
    actionable: widgets.filter((w) => w.actions.length > 0 && w.node.states?.disabled !== true).length,
  }
}

/** Ctrl+Alt+Shift+D — the widget tree as the outline every snapshot is. */
export function dumpStructure(frame: Frame): string {
  return outlineFrame(frame).text
}

const RISK_COLOURS: Readonly<Record<string, [number, number, number]>> = { read: [40, 170, 60], write: [30, 110, 230], external: [230, 140, 20], destructive: [220, 30, 30] }

/** Ctrl+Alt+Shift+H — the tile's pixels with a box around each widget an action can reach, coloured by risk; and the boxes' refs. */
export function highlightInteractive(frame: Frame, png: Uint8Array): { png: Buffer; legend: string[] } {
  const image = PNG.sync.read(Buffer.from(png))
  const refs = RefTable.forFrame(frame)
  const legend: string[] = []
  const seen = new Set<string>()
  const roles = new Map(widgetsOf(frame).map(({ node }) => [node.id, node.role ?? node.kind]))
  for (const { target, contract } of resolvedTargets(frame)) {
    const id = target.nodeId
    if (id === undefined || seen.has(id) || !target.enabled) continue
    const box = frame.layout?.[id]
    if (box === undefined || box.width <= 0 || box.height <= 0) continue
    seen.add(id)
    const risk = target.risk ?? contract.risk
    drawBox(image, box, RISK_COLOURS[risk] ?? RISK_COLOURS.write as [number, number, number])
    legend.push(`@${refs.refOf(id) ?? ''} ${roles.get(id) ?? ''} <${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)}> ${risk}`)
  }
  return { png: PNG.sync.write(image), legend }
}

function drawBox(image: PNG, box: { x: number; y: number; width: number; height: number }, [r, g, b]: [number, number, number]): void {
  const x0 = Math.max(0, Math.round(box.x))
  const y0 = Math.max(0, Math.round(box.y))
  const x1 = Math.min(image.width - 1, Math.round(box.x + box.width - 1))
  const y1 = Math.min(image.height - 1, Math.round(box.y + box.height - 1))
  const paint = (x: number, y: number): void => {
    const at = (image.width * y + x) << 2
    image.data[at] = r
    image.data[at + 1] = g
    image.data[at + 2] = b
    image.data[at + 3] = 255
  }
  for (let t = 0; t < 2; t++) {
    for (let x = x0; x <= x1; x++) {
      if (y0 + t <= y1) paint(x, y0 + t)
      if (y1 - t >= y0) paint(x, y1 - t)
    }
    for (let y = y0; y <= y1; y++) {
      if (x0 + t <= x1) paint(x0 + t, y)
      if (x1 - t >= x0) paint(x1 - t, y)
    }
  }
}

/**
 * Ctrl+Alt+Shift+S — what can be done now, most likely first: answer a dialog that waits, fill
 * the field that has the keyboard, the app's own custom actions, then its enabled buttons.
 */
export function suggestNext(frame: Frame, surface: string): string[] {
  const refs = RefTable.forFrame(frame)
  const ref = (node: UiNode): string => `@${refs.refOf(node.id) ?? ''}`
  const widgets = widgetsOf(frame).filter((w) => w.node.states?.disabled !== true)
  const out: string[] = []
  const inDialog = widgets.filter((w) => w.inModal)
  const pool = inDialog.length > 0 ? inDialog : widgets
  if (inDialog.length > 0) out.push('a dialog waits for an answer:')
  for (const w of pool.filter((w) => w.actions.includes('type')).slice(0, 3)) out.push(`surface_act {surface: "${surface}", ref: "${ref(w.node)}", op: "type", text: …}  # ${w.node.name ?? 'text field'}${w.node.states?.focused === true ? ' (has the keyboard)' : ''}`)
  if (inDialog.length === 0) {
    for (const contract of frame.contracts.filter((c) => c.id.startsWith('app.'))) out.push(`action_request {surface: "${surface}", action: "${contract.id}", input: {…}}  # ${contract.title}`)
  }
  const buttons = pool.filter((w) => w.actions.includes('click') && (w.node.role === 'button' || w.node.role === 'link') && (w.node.name ?? '') !== '')
  for (const w of buttons.slice(0, 8)) out.push(`surface_act {surface: "${surface}", ref: "${ref(w.node)}", op: "click"}  # ${w.node.name}`)
  if (out.length === 0) out.push(`gui_get_shortcuts {tile_id: "${surface}"}  # nothing waits; the app's shortcuts say what it can do`)
  return out
}
