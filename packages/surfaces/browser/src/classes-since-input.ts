import type { CDPSession } from 'playwright-core'
import type { ClassChange } from './browser-schemas.js'
import { classChangeOf } from './class-change.js'

/** An element of the page whose classes differ from what they were when the agent last acted, by its DOM node. */
export interface ClassesChanged {
  backendNodeId: number
  change: ClassChange
}

/** A class the pointer's place gives (jQuery UI's `ui-state-hover`): a key that moves what was under the pointer changes it, and it says nothing of the key. */
const POINTER_CLASS = /hover/i

const LISTED = 'typeof window.__tesseraClassChanges === "function" ? window.__tesseraClassChanges() : []'

/**
 * The drawn elements of a document whose classes an action changed (change-watch.ts hears
 * them, the first value of each since the input): a key that moves a highlight through a list
 * (mdbook's search results, a menu that marks its item `.focus`) changes nothing the tree says,
 * and its answer read `page unchanged`. Nothing where the page runs no script now.
 */
export async function classesSinceInput(session: CDPSession): Promise<ClassesChanged[]> {
  const listed = await session.send('Runtime.evaluate', { expression: LISTED }).catch(() => null)
  const handle = listed?.result.objectId
  if (handle === undefined) return []
  try {
    const said = await session.send('Runtime.callFunctionOn', { objectId: handle, functionDeclaration: 'function () { return this.map((seen) => [seen.was, seen.now]) }', returnByValue: true })
    const pairs = Array.isArray(said.result.value) ? (said.result.value as Array<[string, string]>) : []
    const found: ClassesChanged[] = []
    for (const [index, [was, now]] of pairs.entries()) {
      const change = withoutPointer(classChangeOf(was, now))
      if (change === undefined) continue
      const element = await session.send('Runtime.callFunctionOn', { objectId: handle, functionDeclaration: 'function (index) { return this[index].element }', arguments: [{ value: index }] })
      const objectId = element.result.objectId
      if (objectId === undefined) continue
      try {
        const { node } = await session.send('DOM.describeNode', { objectId })
        found.push({ backendNodeId: node.backendNodeId, change })
      } finally {
        await session.send('Runtime.releaseObject', { objectId }).catch(() => undefined)
      }
    }
    return found
  } finally {
    await session.send('Runtime.releaseObject', { objectId: handle }).catch(() => undefined)
  }
}

function withoutPointer(change: ClassChange | undefined): ClassChange | undefined {
  if (change === undefined) return undefined
  const added = change.added.filter((name) => !POINTER_CLASS.test(name))
  const removed = change.removed.filter((name) => !POINTER_CLASS.test(name))
  return added.length === 0 && removed.length === 0 ? undefined : { added, removed }
}
