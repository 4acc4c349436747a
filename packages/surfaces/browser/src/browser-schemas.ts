import { JsonValue } from '@tessera/protocol'
import { z } from 'zod'
import { WebAddress } from './web-address.js'
import { CONSOLE_LEVELS, MESSAGE_CHARS, URL_CHARS } from './page-journal.js'
import { BODY_CHARS, DETAIL_PARTS } from './request-detail.js'

/** An element of the page, by the @ref a snapshot showed. */
const Ref = z.string().min(1).max(128).describe('@ref from the snapshot')

export const ClickInput = z.strictObject({
  double: z.boolean().optional(),
  button: z.enum(['left', 'right', 'middle']).optional(),
  modifiers: z.array(z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'])).max(4).optional(),
})
/** A point of the view in CSS pixels from its top left corner, as a screenshot of the view shows it. */
export const ClickAtInput = z.strictObject({
  x: z.number().min(0).max(7680),
  y: z.number().min(0).max(4320),
  double: z.boolean().optional(),
  button: z.enum(['left', 'right', 'middle']).optional(),
})
export const FillInput = z.strictObject({
  text: z.string().max(100_000),
  /** Press Enter after the text (submits most forms). */
  submit: z.boolean().optional(),
  /** Type key by key, for pages that listen to each key. */
  slowly: z.boolean().optional(),
})
export const SelectInput = z.strictObject({ values: z.array(z.string().max(1000)).min(1).max(100) })
export const CheckInput = z.strictObject({ checked: z.boolean().optional() })
export const PressInput = z.strictObject({ key: z.string().min(1).max(64).describe('a key name (Enter, ArrowLeft, Control+a) or one character') })
export const UploadInput = z.strictObject({ paths: z.array(z.string().min(1).max(4096)).max(20).describe('files inside the tile\'s upload folder; empty cancels') })
export const DragInput = z.strictObject({ to: Ref })
export const ScrollInput = z.strictObject({
  direction: z.enum(['down', 'up', 'left', 'right']).optional(),
  /** In pixels; default most of a viewport. */
  amount: z.number().int().min(1).max(100_000).optional(),
  to: z.enum(['top', 'bottom']).optional(),
  /** Any element the outline gave a ref (a text's holder, a row far below): brought into view, with every box it is in; with a direction, the box under it scrolls. */
  element: Ref.optional(),
})
export const NavigateInput = z.strictObject({ url: WebAddress })
/** States an element wait can ask for, as the outline prints them. */
export const WAIT_STATES = ['checked', 'unchecked', 'selected', 'pressed', 'expanded', 'collapsed', 'disabled', 'enabled'] as const
export const WaitInput = z.strictObject({
  text: z.string().min(1).max(1000).optional(),
  textGone: z.string().min(1).max(1000).optional(),
  /** An element of this ARIA role (`button`, `dialog`, `checkbox`…) to appear, or with `gone`, to go. */
  role: z.string().regex(/^[a-z]{2,40}$/, 'expected an ARIA role such as button, dialog or checkbox').optional(),
  /** With `role`: its accessible name, whole and exact. */
  name: z.string().min(1).max(1000).optional(),
  /** With `role`: the state it must be in. */
  state: z.enum(WAIT_STATES).optional(),
  /** With `role`: wait for the element to go instead. */
  gone: z.boolean().optional(),
  /** Seconds, at most 30: only for a page that gives nothing to wait on. */
  time: z.number().min(0).max(30).optional(),
})
export const DialogInput = z.strictObject({ accept: z.boolean(), promptText: z.string().max(10_000).optional() })
export const TabsInput = z.strictObject({
  action: z.enum(['list', 'new', 'close', 'select']),
  index: z.number().int().min(0).max(1000).optional(),
  url: WebAddress.optional(),
})
export const EmptyInput = z.strictObject({})
export const LocateInput = z.strictObject({
  selector: z.string().min(1).max(2000).describe('one element of the page: a CSS or Playwright selector, or a locator (getByRole(…))'),
  /**
   * What the element must be: one that takes an action (`target`, the default); any element
   * (`any`: where a drag ends); or one to click, hover or drag, made a target when the page
   * gave no sign it is one (`pointer`: React's todo label, double-clicked to edit).
   */
  reach: z.enum(['target', 'any', 'pointer']).optional(),
})
export const LocateOutput = z.object({ target: z.string() })


/** What every page action answers: where the page is now. */
export const PageOutput = z.object({
  url: z.string(),
  title: z.string().optional(),
  /** Said when the action did more than it was asked: opened a dialog, a tab, a download. */
  note: z.string().optional(),
  /**
   * The kind of dialog the action made the page open, which it waits on. Not a note: a snapshot already says which
   * dialog is open and how to answer it, and said three times it cost as much as the page's change.
   */
  dialogOpened: z.string().optional(),
  /** The fields that kept the form the action tried to send from being sent, with what the browser says of each. */
  held: z.array(z.object({ node: z.string(), message: z.string() })).max(5).optional(),
  /** The action brought the tab another document (a link followed, a form sent, a step back): what it shows is read whole, not as a change. */
  newDocument: z.literal(true).optional(),
})
/** The tallest image a screenshot gives, in CSS pixels: models take images up to about 8,000 px a side. */
export const SHOT_MAX_HEIGHT = 8000
/** Most classes said on each side: a page that swaps its whole styling has changed more than a class. */
export const MOST_CLASSES = 4
/** Most peers said by their words where a class left them: a choice moves from one, a reset clears a few. */
export const MOST_TAKEN_FROM = 3
/** Most characters of a peer's words said: enough to tell "Item 1" from "Item 2". */
export const PEER_WORDS = 40
/**
 * Classes the click gave its element and took from it (`ui-selected`): a page that shows a
 * choice by its look alone changes nothing its tree says, and the agent should not read that
 * as a click that did nothing. CSS names only, a few of each.
 */
export const ClassChange = z.object({
  added: z.array(z.string()).max(MOST_CLASSES),
  removed: z.array(z.string()).max(MOST_CLASSES),
  /** How many of a clicked element's peers (its like in its siblings) hold a class it gained: none said where the choice moved to it. */
  alsoOn: z.number().int().positive().optional(),
  /** The words of the peers that lost a class it gained (the choice moved from "Item 1"); empty words where a peer has none. */
  takenFrom: z.array(z.string().max(PEER_WORDS)).min(1).max(MOST_TAKEN_FROM).optional(),
})
export type ClassChange = z.infer<typeof ClassChange>
export const ClickOutput = PageOutput.extend({
  classes: ClassChange.optional(),
  /** The same of the document's `html` and `body` (a theme toggled: `dark-mode`). */
  pageClasses: ClassChange.optional(),
})
/** Most elements whose classes a key press changed that its answer names (change-watch.ts keeps as many). */
export const MOST_CLASSES_CHANGED = 5
export const PressOutput = PageOutput.extend({
  /** The drawn elements of the frame whose classes the key changed (a highlight moved through a list that says nothing of it otherwise), by node. */
  classesChanged: z.array(ClassChange.extend({ node: z.string() })).max(MOST_CLASSES_CHANGED).optional(),
})
export const SelectOutput = PageOutput.extend({ selected: z.array(z.string()) })
export const WaitOutput = PageOutput.extend({ waitedMs: z.number() })
export const TabsOutput = z.object({ tabs: z.array(z.object({ index: z.number(), url: z.string(), title: z.string(), current: z.boolean() })) })
export const DialogOutput = PageOutput.extend({ dialog: z.string() })
export const WebToolOutput = z.object({ result: z.unknown() })

/** Console messages at this level and more severe (error, warning, info, debug); of every document kept with `all`. */
export const ConsoleInput = z.strictObject({ level: z.enum(CONSOLE_LEVELS).optional(), all: z.boolean().optional() })
export const ConsoleOutput = z.object({
  messages: z.array(z.object({ level: z.enum(CONSOLE_LEVELS), text: z.string().max(MESSAGE_CHARS), where: z.string().optional() })),
})
/** Requests the page made since its document loaded: with `static`, its images, fonts, styles and scripts that came too; `filter`, a regular expression their URL matches. */
export const RequestsInput = z.strictObject({ static: z.boolean().optional(), filter: z.string().min(1).max(500).optional() })
export const RequestsOutput = z.object({
  requests: z.array(
    z.object({ index: z.number().int().positive(), method: z.string(), url: z.string().max(URL_CHARS), type: z.string(), status: z.number().int().optional(), statusText: z.string().optional(), failure: z.string().optional(), download: z.string().optional() }),
  ),
})
/** One request of the list above by its index: its headers and bodies, or the one `part`. */
export const RequestInput = z.strictObject({ index: z.number().int().positive(), part: z.enum(DETAIL_PARTS).optional() })
const Headers = z.record(z.string(), z.string())
const BodyLeft = z.object({ bytes: z.number().int().nonnegative(), type: z.string(), reason: z.enum(['not text', 'long']) })
export const RequestOutput = z.object({
  index: z.number().int().positive(),
  method: z.string(),
  url: z.string().max(URL_CHARS),
  type: z.string(),
  status: z.number().int().optional(),
  statusText: z.string().optional(),
  failure: z.string().optional(),
  download: z.string().optional(),
  requestHeaders: Headers.optional(),
  browserHeaders: z.number().int().positive().optional(),
  requestBody: z.string().max(BODY_CHARS).optional(),
  requestBodyLeft: BodyLeft.optional(),
  responseHeaders: Headers.optional(),
  responseBody: z.string().max(BODY_CHARS).optional(),
  responseBodyLeft: BodyLeft.optional(),
  notes: z.array(z.string()),
})
/** The page's view in CSS pixels: the layout a site gives a phone, a laptop, a wide screen. */
export const ResizeInput = z.strictObject({ width: z.number().int().min(200).max(7680), height: z.number().int().min(200).max(4320) })
/** Files (in the tile's upload folder) and typed data (MIME type → text) dropped onto an element as if dragged from outside the page. */
export const DropInput = z
  .strictObject({
    element: Ref,
    paths: z.array(z.string().min(1).max(4096)).max(20).optional(),
    data: z.record(z.string().min(1).max(200), z.string().max(1_000_000)).optional(),
  })
  .refine((input) => (input.paths?.length ?? 0) + Object.keys(input.data ?? {}).length > 0, { message: 'expected "paths" or "data" to drop, found neither' })
/** CSS media features the page is drawn with, for this tile (Playwright MCP's emulate_media): a value sets one, null clears it, one left out stays. */
export const MediaInput = z
  .strictObject({
    colorScheme: z.enum(['light', 'dark']).nullable().optional(),
    reducedMotion: z.enum(['reduce', 'no-preference']).nullable().optional(),
    forcedColors: z.enum(['active', 'none']).nullable().optional(),
    contrast: z.enum(['more', 'no-preference']).nullable().optional(),
    media: z.enum(['screen', 'print']).nullable().optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: 'expected at least one of colorScheme, reducedMotion, forcedColors, contrast, media' })
export type MediaInput = z.infer<typeof MediaInput>
/** The agent's own script, run in the page: `() => …`, or `(element) => …` with an element's ref; an expression too. */
export const EvaluateInput = z.strictObject({ function: z.string().min(1).max(100_000), element: Ref.optional() })
/** What the script returned, as JSON (a value that has none, a DOM node, a function, reads as nothing). */
export const EvaluateOutput = PageOutput.extend({ result: JsonValue.optional() })
