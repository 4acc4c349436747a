import type { CapturedDocument } from './page-capture.js'
import type { ElementPlace } from './page-tree.js'

/**
 * A field that kept its form from being sent: the browser checks a form's fields before it sends
 * it and, when one is not valid (a required field empty, an address without an @), sends
 * nothing and says why in a bubble no page's tree holds. The agent would read only that
 * nothing happened.
 */
export interface HeldField {
  backendNodeId: number
  /** The browser's words (the page may set its own with `setCustomValidity`). */
  message: string
}

/** At most this many fields are said: the first is where a person starts. */
const MOST_FIELDS = 5
const MESSAGE_CHARS = 200

/**
 * The fields of the element's form that are not valid, when the element sends its form (a
 * submit button, or a field Enter was pressed in) and the form is still on the page: its
 * sending was held back. None when the form does not ask the browser to check it.
 */
const HOLDING_FIELDS = `function (entered) {
  const form = this.isConnected ? this.form : null
  if (!form || form.noValidate) return []
  const type = (this.getAttribute('type') || '').toLowerCase()
  // An Enter sends the form of a field one types a line into (a text area takes it as a line break).
  const sends = (this.tagName === 'BUTTON' && (type === '' || type === 'submit')) || (this.tagName === 'INPUT' && (entered || type === 'submit' || type === 'image'))
  // A disabled button sends nothing; one marked formnovalidate sends without the check.
  if (!sends || this.disabled || this.formNoValidate) return []
  return [...form.elements].filter((field) => field.willValidate && !field.validity.valid).slice(0, ${MOST_FIELDS})
}`

/** The element that has the focus in a document, as a place to ask about its form; null where none has it (the body). */
export async function focusedPlace(document: CapturedDocument): Promise<ElementPlace | null> {
  const focused = await document.session.send('Runtime.evaluate', { expression: 'document.activeElement === document.body ? null : document.activeElement' }).catch(() => null)
  const objectId = focused?.result.objectId
  if (objectId === undefined) return null
  const described = await document.session.send('DOM.describeNode', { objectId }).catch(() => null)
  await document.session.send('Runtime.releaseObject', { objectId }).catch(() => undefined)
  return described === null ? null : { document, backendNodeId: described.node.backendNodeId, role: 'field', tag: described.node.nodeName.toLowerCase() }
}

/** The fields that held the element's form back after a click on it or an Enter in it; none if it was sent or has gone. */
export async function fieldsHoldingForm(place: ElementPlace, entered: boolean): Promise<HeldField[]> {
  const session = place.document.session
  // An element gone with its document (the form was sent, the page moved on) holds nothing back: its form is no longer connected.
  const objectId = (await session.send('DOM.resolveNode', { backendNodeId: place.backendNodeId }).catch(() => null))?.object.objectId
  if (objectId === undefined) return []
  try {
    // What fails from here is a field the page took away between two calls: it holds nothing back now.
    const list = await session.send('Runtime.callFunctionOn', { objectId, functionDeclaration: HOLDING_FIELDS, arguments: [{ value: entered }] }).catch(() => null)
    const listId = list?.result.objectId
    if (listId === undefined) return []
    const entries = (await session.send('Runtime.getProperties', { objectId: listId, ownProperties: true }).catch(() => null))?.result ?? []
    const fields = entries.flatMap((entry) => (/^\d+$/.test(entry.name) && entry.value?.objectId !== undefined ? [entry.value.objectId] : []))
    const held = await Promise.all(
      fields.map(async (field): Promise<HeldField | null> => {
        const [described, said] = await Promise.all([
          session.send('DOM.describeNode', { objectId: field }).catch(() => null),
          session.send('Runtime.callFunctionOn', { objectId: field, functionDeclaration: 'function () { return this.validationMessage }', returnByValue: true }).catch(() => null),
        ])
        const message: unknown = said?.result.value
        if (described === null || typeof message !== 'string') return null
        return { backendNodeId: described.node.backendNodeId, message: message.replace(/\s+/g, ' ').trim().slice(0, MESSAGE_CHARS) }
      }),
    )
    await Promise.all([listId, ...fields].map((id) => session.send('Runtime.releaseObject', { objectId: id }).catch(() => undefined)))
    return held.filter((field): field is HeldField => field !== null)
  } finally {
    await session.send('Runtime.releaseObject', { objectId }).catch(() => undefined)
  }
}
