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
      '{"action":' + nullableField(draft.action, recentActions) + ',"actor":' + field(draft.actor, recentActors) +
      ',"data":' + dataJson + ',"frameId":' + nullableString(draft.frameId) + ',"prevHash":"',
    beforeSeq: '","requestId":' + nullableString(draft.requestId) + ',"seq":',
    afterSeq:
      ',"session":' + field(draft.session, recentSessions) + ',"surface":' + nullableField(draft.surface, recentSurfaces) +
      ',"time":' + jsonString(draft.time) + ',"type":' + field(draft.type, recentTypes) + '}',
  }
}

/**
 * The JSON text of the last value seen in one field. Consecutive events mostly share their
 * session, actor, surface, action and type, so quoting each once per run of equal values saves
 * most of the work of building an envelope.
 */
interface RecentText {
  value: string | null
  text: string
}

const recentActions: RecentText = { value: null, text: 'null' }
const recentActors: RecentText = { value: null, text: 'null' }
const recentSessions: RecentText = { value: null, text: 'null' }
const recentSurfaces: RecentText = { value: null, text: 'null' }
const recentTypes: RecentText = { value: null, text: 'null' }

function field(value: string, recent: RecentText): string {
  if (value !== recent.value) {
    recent.text = jsonString(value)
    recent.value = value
  }
  return recent.text
}

function nullableField(value: string | null, recent: RecentText): string {
  return value === null ? 'null' : field(value, recent)
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
 * Each property is read exactly once, so a getter cannot show one value here and another to
 * the text.
 */
export function plainCanonicalJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return jsonString(value)
    case 'number':
      // ECMAScript's Number-to-string is RFC 8785's number form (and -0 prints as 0).
      return Number.isFinite(value) ? String(value) : undefined
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
  const length = array.length
  if (length === 0) return '[]'
  let text = plainCanonicalJson(array[0])
  if (text === undefined) return undefined
  text = '[' + text
  for (let index = 1; index < length; index += 1) {
    const item = plainCanonicalJson(array[index])
    if (item === undefined) return undefined
    text += ',' + item
  }
  return text + ']'
}

function objectJson(object: object): string | undefined {
  const prototype: unknown = Object.getPrototypeOf(object)
  if (prototype !== Object.prototype && prototype !== null) return undefined
  if (Object.getOwnPropertySymbols(object).length > 0) return undefined
  const keys = Object.keys(object)
  if (keys.length === 0) return '{}'
  sortKeys(keys)
  let text = '{'
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string
    if (key === '__proto__') return undefined
    const item = plainCanonicalJson((object as Record<string, unknown>)[key])
    if (item === undefined) return undefined
    const member = memberText(key)
    text = text + (index === 0 ? member.first : member.next) + item
  }
  return text + '}'
}

/**
 * Sorts in place by UTF-16 code units, RFC 8785's key order and the default sort's. Objects in
 * events have a handful of keys; an insertion sort of those allocates nothing, where the
 * built-in sort copies the array first.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort()
    return
  }
  for (let index = 1; index < keys.length; index += 1) {
    const key = keys[index] as string
    let at = index - 1
    while (at >= 0 && (keys[at] as string) > key) {
      keys[at + 1] = keys[at] as string
      at -= 1
    }
    keys[at + 1] = key
  }
}

/** Characters JSON.stringify would escape: quote, backslash, controls, and any surrogate. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/

/**
 * JSON.stringify(text) for a string. Most strings need no escaping, and wrapping those in
 * quotes costs half as much as JSON.stringify, which copies every one.
 */
function jsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : '"' + text + '"'
}

/** `"key":` and `,"key":`, the text before a member's value. */
interface MemberText {
  first: string
  next: string
}

/** Objects in a trace share a small vocabulary of keys; each is quoted once, not per event. */
const memberTexts = new Map<string, MemberText>()
const MEMBER_TEXTS_MAX = 4096
const MEMBER_KEY_LENGTH_MAX = 64

function memberText(key: string): MemberText {
  let member = memberTexts.get(key)
  if (member === undefined) {
    const first = jsonString(key) + ':'
    member = { first, next: ',' + first }
    if (key.length <= MEMBER_KEY_LENGTH_MAX && memberTexts.size < MEMBER_TEXTS_MAX) memberTexts.set(key, member)
  }
  return member
}

function nullableString(value: string | null): string {
  return value === null ? 'null' : jsonString(value)
}
