import type { Risk } from '@tessera/protocol'
import { agentAction } from '../agent-action.js'
import { type ElementNode, box, image, text } from '../elements.js'

/** A small deterministic PRNG (mulberry32), so generated trees are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface GeneratedTree {
  root: ElementNode
  nodeCount: number
  actionCount: number
  /** Actions inside a disabled or hidden subtree, or disabled/hidden themselves. */
  blockedActionCount: number
}

const RISKS: Risk[] = ['read', 'write', 'external', 'destructive']
const WORDS = ['claim', 'payout', 'review', 'status', 'ready', 'fraud', 'score', 'approve', 'notes', 'amount']

/**
 * A realistic-looking UI of about `targetNodes` nodes: nested columns holding wrapping
 * rows of labels, buttons (action boxes with a text label) and images. Nothing overflows
 * its parent, so every visible action's centre is its own hit target.
 */
export function generateTree(targetNodes: number, seed = 1): GeneratedTree {
  const random = seededRandom(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
  const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ')
  let nodeCount = 1
  let actionCount = 0
  let blockedActionCount = 0

  const leaf = (blocked: boolean): ElementNode => {
    const roll = random()
    if (roll < 0.3) {
      const disabled = random() < 0.15
      const id = `action-${actionCount++}`
      if (blocked || disabled) blockedActionCount++
      nodeCount += 2
      return box(
        {
          style: { paddingX: 4, paddingY: 2 },
          states: disabled ? { disabled: true } : undefined,
          semantic: { agentAction: agentAction({ id, kind: 'click', title: `Do ${id}`, risk: pick(RISKS) }) },
        },
        [text(words(1 + Math.floor(random() * 2)))],
      )
    }
    nodeCount += 1
    if (roll < 0.35) return image({ src: 'https://example.test/a.png', alt: words(1), style: { width: 16, height: 16 } })
    return text(words(1 + Math.floor(random() * 5)))
  }

  const row = (blocked: boolean): ElementNode => {
    nodeCount += 1
    const count = 1 + Math.floor(random() * 6)
    return box({ style: { flexDirection: 'row', flexWrap: 'wrap', gap: 4, padding: 2 } }, Array.from({ length: count }, () => leaf(blocked)))
  }

  const column = (depth: number, blocked: boolean): ElementNode => {
    nodeCount += 1
    const hidden = random() < 0.03
    const children: ElementNode[] = []
    const wanted = 2 + Math.floor(random() * 5)
    for (let i = 0; i < wanted && nodeCount < targetNodes; i++) {
      children.push(depth < 6 && random() < 0.35 ? column(depth + 1, blocked || hidden) : row(blocked || hidden))
    }
    return box({ style: { padding: 4, gap: 2 }, states: hidden ? { hidden: true } : undefined }, children)
  }

  const sections: ElementNode[] = []
  while (nodeCount < targetNodes) sections.push(column(1, false))
  const root = box({ style: { width: 1280, padding: 8 } }, sections)
  return { root, nodeCount, actionCount, blockedActionCount }
}
