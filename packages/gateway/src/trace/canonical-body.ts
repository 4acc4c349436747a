import { canonicalJson, type JsonValue, type TraceEventDraft } from '@tessera/protocol'

/*
 * The body of an event is canonicalJson(event without hash) (RFC 8785). Building it with the
 * generic canonicalizer costs more than the whole SQLite insert, and the append budget is
 * 100,000 events/s, so this file builds the identical text faster. Its output is checked
 * byte for byte against protocol's canonicalJson by property tests (canonical-body.test.ts).
 *
 * An event's top-level keys are fixed, so their sorted order is too:
 *   action actor data frameId prevHash requestId seq session surface time type
 * Only prevHash and seq depend on the event's place in the chain; everything else is
 * serialized once per draft (DraftText) and the chain splices the two in.
 */

/** The parts of a body that do not depend on where the event lands in its chain. */
export interface DraftText {
  /** `{"action":…,"actor":…,"data":…,"frameId":…,"prevHash":"` */
  readonly beforePrevHash: string
  /** `","requestId":…,"seq":` */
  readonly beforeSeq: string
  /** `,"session":…,"surface":…,"time":…,"type":…}` */
  readonly afterSeq: string
}

export function draftText(draft: TraceEventDraft, dataJson: string): DraftText {
  return {
    beforePrevHash:
      `{"action":${nullableString(draft.action)},"actor":${JSON.stringify(draft.actor)},"data":${dataJson}` +
      `,"frameId":${nullableString(draft.frameId)},"prevHash":"`,
    beforeSeq: `","requestId":${nullableString(draft.requestId)},"seq":`,
    afterSeq:
      `,"session":${JSON.stringify(draft.session)},"surface":${nullableString(draft.surface)}` +
      `,"time":${JSON.stringify(draft.time)},"type":${JSON.stringify(draft.type)}}`,
  }
}

/** prevHash is 64 lowercase hex digits and seq a non-negative integer: neither needs escaping. */
export function bodyText(text: DraftText, seq: number, prevHash: string): string {
  return text.beforePrevHash + prevHash + text.beforeSeq + seq + text.afterSeq
}

/** The canonical text of a draft's data, from whichever path can vouch for it. */
export function canonicalDataJson(data: JsonValue): string {
  return plainCanonicalJson(data) ?? canonicalJson(data)
}

/**
 * RFC 8785 text of `value` when it is plain JSON this function can vouch for; undefined
 * otherwise (the caller then falls back to zod and protocol's canonicalJson). Stricter than
 * the protocol's JsonValue schema on purpose: it declines rather than guesses, e.g. objects
 * with an own `__proto__` key, which zod drops, or symbol keys, which zod rejects.
 */
export function plainCanonicalJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
      // ECMAScript's Number-to-string is RFC 8785's number form (and -0 prints as 0).
      return Number.isFinite(value) ? JSON.stringify(value) : undefined
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      if (value === null) return 'null'
      return Array.isArray(value) ? arrayJson(value) : objectJson(value)
    default:
      return undefined
  }
}

function arrayJson(array: readonly unknown[]): string | undefined {
  let text = '['
  for (let index = 0; index < array.length; index += 1) {
    const item = plainCanonicalJson(array[index])
    if (item === undefined) return undefined
    text += index === 0 ? item : `,${item}`
  }
  return `${text}]`
}

function objectJson(object: object): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(object)
  if (prototype !== Object.prototype && prototype !== null) return undefined
  if (Object.getOwnPropertySymbols(object).length > 0) return undefined
  // Default sort compares UTF-16 code units, which is RFC 8785's key order.
  const keys = Object.keys(object).sort()
  let text = '{'
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string
    if (key === '__proto__') return undefined
    const item = plainCanonicalJson((object as Record<string, unknown>)[key])
    if (item === undefined) return undefined
    text += `${index === 0 ? '' : ','}${JSON.stringify(key)}:${item}`
  }
  return `${text}}`
}

function nullableString(value: string | null): string {
  return value === null ? 'null' : JSON.stringify(value)
}
