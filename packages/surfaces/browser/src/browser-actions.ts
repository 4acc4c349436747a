import { actionSet, defineAction, targetNodeOf } from '@tessera/kit'
import type { BrowserTile } from './browser-tile.js'
import { riskAtPoint } from './point-risk.js'
import {
  CheckInput,
  ClickAtInput,
  ConsoleInput,
  ConsoleOutput,
  EvaluateInput,
  EvaluateOutput,
  ClickInput,
  ClickOutput,
  DialogInput,
  DialogOutput,
  DragInput,
  DropInput,
  EmptyInput,
  FillInput,
  NavigateInput,
  PageOutput,
  PressOutput,
  PressInput,
  RequestInput,
  RequestOutput,
  RequestsInput,
  RequestsOutput,
  ResizeInput,
  ScrollInput,
  SelectInput,
  SelectOutput,
  TabsInput,
  TabsOutput,
  LocateInput,
  MediaInput,
  LocateOutput,
  UploadInput,
  WaitInput,
  WaitOutput,
} from './browser-schemas.js'

const pageAction = defineAction<BrowserTile>()

/**
 * The browser's actions. Element actions run on the element a ref names — bound to that
 * element, never to a position — and their risk is the element's: a link that leaves the
 * origin is external, a button whose label, form or dialog says delete, pay or send is
 * destructive (page-tree.ts); the tile's assess raises navigation and site rules.
 */
export const BROWSER_ACTIONS = actionSet<BrowserTile>([
  pageAction({ id: 'click', title: 'Click an element', risk: 'read', input: ClickInput, output: ClickOutput, run: (input, { surface, call }) => surface.click(targetNodeOf(call), input) }),
  // A point has no element to weigh: what is drawn there decides, and where nothing the frame knows is (a canvas), it may change anything a click can.
  pageAction({ id: 'click_at', title: 'Click a point of the view', summary: 'Click the view at {input.x}, {input.y}', risk: 'write', input: ClickAtInput, output: PageOutput, assess: (input, call) => riskAtPoint(call.frame, input), run: (input, { surface }) => surface.clickAt(input) }),
  pageAction({ id: 'fill', title: 'Fill a text field', risk: 'write', input: FillInput, output: PageOutput, run: (input, { surface, call, signal }) => surface.fill(targetNodeOf(call), input, signal) }),
  pageAction({ id: 'select', title: 'Choose options of a list', risk: 'write', input: SelectInput, output: SelectOutput, run: (input, { surface, call }) => surface.select(targetNodeOf(call), input.values) }),
  pageAction({ id: 'check', title: 'Check or uncheck', risk: 'write', input: CheckInput, output: PageOutput, run: (input, { surface, call }) => surface.check(targetNodeOf(call), input.checked ?? true) }),
  pageAction({ id: 'hover', title: 'Move the pointer over an element', risk: 'read', input: EmptyInput, output: PageOutput, run: (_input, { surface, call }) => surface.hover(targetNodeOf(call)) }),
  pageAction({ id: 'drag', title: 'Drag an element onto another', risk: 'write', input: DragInput, output: PageOutput, run: (input, { surface, call }) => surface.drag(targetNodeOf(call), input.to, call.frame) }),
  // Sending a file of this machine to a site: a person decides.
  pageAction({ id: 'upload', title: 'Choose files for a file field', risk: 'external', input: UploadInput, output: PageOutput, run: (input, { surface, call }) => surface.upload(call.target.nodeId, input.paths) }),
  // Dropping files of this machine onto the page sends them to the site, as an upload does: external then (the tile's assess).
  pageAction({ id: 'drop', title: 'Drop files or data onto an element', risk: 'write', input: DropInput, output: PageOutput, run: (input, { surface }) => surface.drop(input.element, input.paths ?? [], input.data ?? {}) }),
  pageAction({ id: 'press', title: 'Press a key in the focused element', risk: 'write', input: PressInput, output: PressOutput, run: (input, { surface }) => surface.press(input.key) }),
  pageAction({ id: 'scroll', title: 'Scroll the page', risk: 'read', input: ScrollInput, output: PageOutput, run: (input, { surface, call }) => surface.scroll(input, call.frame) }),
  pageAction({ id: 'navigate', title: 'Open a URL', summary: 'Open {input.url}', risk: 'read', input: NavigateInput, output: PageOutput, run: (input, { surface }) => surface.navigate(input.url) }),
  pageAction({ id: 'back', title: 'Go back in history', risk: 'read', input: EmptyInput, output: PageOutput, run: (_input, { surface }) => surface.history('back') }),
  pageAction({ id: 'forward', title: 'Go forward in history', risk: 'read', input: EmptyInput, output: PageOutput, run: (_input, { surface }) => surface.history('forward') }),
  pageAction({ id: 'reload', title: 'Reload the page', risk: 'read', input: EmptyInput, output: PageOutput, run: (_input, { surface }) => surface.history('reload') }),
  pageAction({ id: 'wait_for', title: 'Wait for text to appear or go', risk: 'read', input: WaitInput, output: WaitOutput, exclusive: false, timeout: (input) => (input.time ?? 30) * 1000 + 5000, run: (input, { surface, signal }) => surface.waitFor(input, signal) }),
  pageAction({ id: 'handle_dialog', title: 'Answer the page\'s dialog', risk: 'write', input: DialogInput, output: DialogOutput, run: (input, { surface }) => surface.answerDialog(input.accept, input.promptText) }),
  // Reads the page only: which element of the frame a selector names, for tools that take selectors.
  pageAction({ id: 'locate', title: 'Find the element a selector names', risk: 'read', input: LocateInput, output: LocateOutput, exclusive: false, run: (input, { surface }) => surface.locate(input.selector, input.reach ?? 'target') }),
  pageAction({ id: 'tabs', title: 'List, open, select or close tabs', risk: 'read', input: TabsInput, output: TabsOutput, run: (input, { surface }) => surface.tabs(input) }),
  // What the page logged and fetched, kept as it happened: read without touching the page, so no new snapshot follows.
  pageAction({ id: 'console', title: 'Read the console messages', risk: 'read', input: ConsoleInput, output: ConsoleOutput, exclusive: false, observes: true, run: (input, { surface }) => surface.consoleMessages(input.level ?? 'info', input.all ?? false) }),
  pageAction({ id: 'requests', title: 'List the network requests', risk: 'read', input: RequestsInput, output: RequestsOutput, exclusive: false, observes: true, run: (input, { surface }) => surface.networkRequests(input.static ?? false, input.filter) }),
  pageAction({ id: 'request', title: 'Read one network request', summary: 'Read request {input.index}', risk: 'read', input: RequestInput, output: RequestOutput, exclusive: false, observes: true, run: (input, { surface }) => surface.networkRequest(input.index, input.part) }),
  pageAction({ id: 'media', title: 'Emulate CSS media features', risk: 'read', input: MediaInput, output: PageOutput, run: (input, { surface }) => surface.emulateMedia(input) }),
  pageAction({ id: 'resize', title: 'Resize the page\'s view', summary: 'Resize the view to {input.width} × {input.height}', risk: 'read', input: ResizeInput, output: PageOutput, run: (input, { surface }) => surface.resize(input.width, input.height) }),
  // The agent's own code in the page can do anything a person there can: a person reads it first.
  pageAction({ id: 'evaluate', title: 'Run a script in the page', summary: 'Run this script in the page: {input.function}', risk: 'destructive', input: EvaluateInput, output: EvaluateOutput, run: (input, { surface, signal }) => surface.evaluate(input.function, input.element, signal) }),
])

/** Actions that run on an element (a target per element); the rest belong to the whole tile. */
export const ELEMENT_ACTIONS = new Set(['click', 'fill', 'select', 'check', 'hover', 'drag', 'upload'])
