import { actionSet, defineAction, targetNodeOf } from '@tessera/kit'
import { ClickAtInput, DiscoverInput, DiscoverOutput, DoneOutput, DragAtInput, EmptyInput, KeyInput, ScrollAtInput, ShortcutsInput, ShortcutsOutput, TypeInput, TypeTextInput, WaitInput, WaitOutput } from './desktop-schemas.js'
import type { DesktopTile } from './desktop-tile.js'

const desktopAction = defineAction<DesktopTile>()

/**
 * The desktop's actions. A click runs the widget's own AT-SPI action (a button's press) — no
 * pointer aimed at a position that may have moved — and its risk is the widget's: a button
 * whose words say delete, pay or send is destructive. Keys and pointer clicks at a point act
 * on the tile as a whole. An app's schema adds its custom actions (`app.<name>`) beside these.
 */
export const DESKTOP_ACTIONS = actionSet<DesktopTile>([
  desktopAction({ id: 'click', title: 'Press a widget (its own action)', risk: 'write', input: EmptyInput, output: DoneOutput, run: (_input, { surface, call }) => surface.press(targetNodeOf(call, 'a widget')) }),
  desktopAction({ id: 'type', title: 'Type text into a text field', risk: 'write', input: TypeInput, output: DoneOutput, run: (input, { surface, call }) => surface.typeInto(targetNodeOf(call, 'a widget'), input.text, input.submit === true) }),
  desktopAction({ id: 'key', title: 'Press key chords in the focused app', summary: 'Press {input.key}', risk: 'write', input: KeyInput, output: DoneOutput, run: (input, { surface }) => surface.keys(input.key) }),
  desktopAction({ id: 'type_text', title: 'Type text as keystrokes where the keyboard is (a spreadsheet cell)', risk: 'write', input: TypeTextInput, output: DoneOutput, run: (input, { surface }) => surface.typeKeys(input.text) }),
  desktopAction({ id: 'wait_for', title: 'Wait for a widget to appear or go', risk: 'read', input: WaitInput, output: WaitOutput, exclusive: false, timeout: (input) => (input.time ?? 10) * 1000 + 5000, run: (input, { surface, signal }) => surface.waitFor(input, signal) }),
  desktopAction({ id: 'click_at', title: 'Click at a point of the tile', risk: 'write', input: ClickAtInput, output: DoneOutput, run: (input, { surface }) => surface.clickAt(input) }),
  desktopAction({ id: 'drag_at', title: 'Drag from a point of the tile to another, a button held', risk: 'write', input: DragAtInput, output: DoneOutput, run: (input, { surface }) => surface.dragAt(input) }),
  desktopAction({ id: 'scroll_at', title: 'Turn the mouse wheel at a point of the tile', risk: 'read', input: ScrollAtInput, output: DoneOutput, run: (input, { surface }) => surface.scrollAt(input) }),
  desktopAction({ id: 'shortcuts', title: 'The app\'s shortcuts: schema, menus, toolkit, overlay', risk: 'read', input: ShortcutsInput, output: ShortcutsOutput, exclusive: false, run: (input, { surface }) => surface.shortcuts(input.category) }),
  desktopAction({ id: 'discover', title: 'Discover what the app can do (deep: open menus and popups, then close them)', risk: 'read', input: DiscoverInput, output: DiscoverOutput, timeout: () => 120_000, run: (input, { surface }) => surface.discover(input.deep === true) }),
])
