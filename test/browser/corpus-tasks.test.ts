import { describe, expect, it } from 'vitest'
import { useCorpusClient } from './corpus-client.js'
import { refNear, refOf } from '../support/outline-refs.js'

/** Tasks on real pages of the corpus, over MCP with the official SDK client, as an agent does them. */
describe('tasks on real pages, through the gateway', () => {
  const at = useCorpusClient()
  const call = (name: string, args: Record<string, unknown>): Promise<string> => at.call(name, args)

  it('TodoMVC (React, client routing): add three, complete one, filter Active, clear completed', async () => {
    let page = await call('browser_navigate', { url: at.corpus.url('todomvc-react') })
    const input = refOf(page, 'textbox', 'What needs to be done?')
    for (const todo of ['buy milk', 'walk the dog', 'write docs']) await call('browser_type', { element: 'new todo', target: input, text: todo, submit: true })
    page = await call('browser_snapshot', {})
    expect(page).toContain('"walk the dog"')
    await call('browser_click', { element: 'toggle buy milk', target: refNear(page, '"buy milk"', 'checkbox') })
    page = await call('browser_click', { element: 'Active filter', target: refOf(page, 'link', 'Active') })
    expect(page).toMatch(/#\/active/)
    page = await call('browser_snapshot', {})
    expect(page).not.toContain('"buy milk"')
    await call('browser_click', { element: 'Clear completed', target: refNear(page, 'button "Clear completed', 'button') })
    page = await call('browser_click', { element: 'All filter', target: refOf(page, 'link', 'All') })
    page = await call('browser_snapshot', {})
    expect(page).toContain('"walk the dog"')
    expect(page).toContain('"write docs"')
    expect(page).not.toContain('"buy milk"')
    await call('browser_navigate_back', {})
    expect(await call('browser_snapshot', {})).toMatch(/#\/active/)
  })

  it('TodoMVC (React): edits a todo by double-clicking its label, named as Playwright MCP names it, though React leaves no sign of its handler on it', async () => {
    const page = await call('browser_navigate', { url: at.corpus.url('todomvc-react') })
    await call('browser_type', { element: 'new todo', target: refOf(page, 'textbox', 'What needs to be done?'), text: 'proofread the guide', submit: true })
    // The label reads as a text: React listens at its root. Named by a locator, it becomes a target.
    expect(await call('browser_snapshot', {})).toMatch(/^listitem: checkbox @\d+ "proofread the guide"$/m)
    const editing = await call('browser_click', { element: 'proofread the guide', target: "getByText('proofread the guide')", doubleClick: true })
    const field = /^\+ textbox: "proofread the guide" @(\d+) \(focused\)$/m.exec(editing)?.[1]
    expect(field, editing).toBeDefined()
    const renamed = await call('browser_type', { element: 'edit field', target: field as string, text: 'proofread the whole guide', submit: true })
    expect(renamed).toMatch(/^\+ listitem: checkbox @\d+ clickable "proofread the whole guide" @\d+/m)
    // The pointer moved off the list (onto a heading, no target of its own), the delete button hides; a list item that
    // holds a target of its own is pointed at all the same, and hovering it shows the button again.
    expect(await call('browser_hover', { element: 'title', target: "getByRole('heading', { name: 'todos' })" })).not.toMatch(/^\+.*button "✖"/m)
    expect(await call('browser_snapshot', {})).not.toContain('button "✖"')
    const hovered = await call('browser_hover', { element: 'the todo', target: "getByRole('listitem').filter({ hasText: 'proofread the whole guide' })" })
    expect(hovered).toMatch(/button "✖" @\d+/)
    // Typing still needs an element that takes it: a text named by a locator is none.
    await expect(call('browser_type', { element: 'footer', target: "getByText('Double-click to edit a todo')", text: 'x' })).rejects.toThrow(/not_found.*takes no action/)
    // A todo's label names a thing, not what a click on it does: before, "buy milk" waited for a person ("its name says buy").
    await call('browser_type', { element: 'new todo', target: refOf(page, 'textbox', 'What needs to be done?'), text: 'buy milk', submit: true })
    expect(await call('browser_click', { element: 'buy milk', target: "getByText('buy milk')", doubleClick: true })).toMatch(/^\+ textbox: "buy milk" @\d+ \(focused\)$/m)
  })

  it('jQuery UI selectmenu (a custom dropdown): opens it and picks an option', async () => {
    let page = await call('browser_navigate', { url: at.corpus.url('jqui-selectmenu') })
    const speed = refNear(page, '"Select a speed"', 'combobox')
    expect(page).toMatch(/"Select a speed"\ncombobox:? "Medium"/)
    page = await call('browser_click', { element: 'speed', target: speed })
    expect(page).toMatch(/option "Fast" @\d/)
    await call('browser_click', { element: 'Fast', target: refOf(page, 'option', 'Fast') })
    page = await call('browser_snapshot', {})
    expect(page).toMatch(/"Select a speed"\ncombobox:? "Fast"/)
    // The same in one call, as on a select element: the list opened, the option clicked.
    await call('browser_select_option', { element: 'speed', target: speed, values: ['Slower'] })
    // A long list scrolls to its option; a form's combobox may be such a list too.
    await call('browser_fill_form', { fields: [{ name: 'number', type: 'combobox', target: refNear(page, '"Select a number"', 'combobox'), value: '19' }] })
    page = await call('browser_snapshot', {})
    expect(page).toMatch(/"Select a speed"\ncombobox:? "Slower"/)
    expect(page).toMatch(/"Select a number"\ncombobox:? "19"/)
    expect(page).not.toContain('option "Faster"')
  })

  it('jQuery UI menu and autocomplete: a hover and a keystroke answer with what their timers show a moment later, and a suggestion is picked by its ref', async () => {
    let page = await call('browser_navigate', { url: at.corpus.url('jqui-menu') })
    // The submenu opens 300 ms after the pointer arrives, on a timer the hover started.
    const opened = await call('browser_hover', { element: 'Electronics', target: refOf(page, 'menuitem', 'Electronics') })
    expect(opened).toMatch(/\+ menuitem "Car Hifi" @\d/)
    await call('browser_click', { element: 'Car Hifi', target: refOf(opened, 'menuitem', 'Car Hifi') })
    // The demos folder is served whole; the autocomplete searches 300 ms after the last key.
    page = await call('browser_navigate', { url: at.corpus.url('jqui-menu').replace('menu/default.html', 'autocomplete/default.html') })
    const typed = await call('browser_type', { element: 'Tags', target: refOf(page, 'textbox', 'Tags:'), text: 'ja' })
    expect(typed).toContain('"JavaScript"')
    expect(typed).toContain('2 results are available')
    // The suggestions' one handler is on their list; each item is a target all the same.
    const picked = await call('browser_click', { element: 'JavaScript', target: refOf(typed, 'listitem', 'JavaScript') })
    expect(picked).toContain('~ textbox "Tags:": "JavaScript"')
    // Its field has no role for its suggestions, yet they are chosen as a combobox's are: the value typed, its item clicked.
    const tags = refOf(picked, 'textbox', 'Tags:')
    const chosen = await call('browser_select_option', { element: 'Tags', target: tags, values: ['cobol'] })
    expect(chosen).toContain('~ textbox "Tags:": "COBOL"')
    // A value it does not suggest fails with what it did, and the field holds its text again.
    const refused = await at.client.callTool({ name: 'browser_select_option', arguments: { element: 'Tags', target: tags, values: ['Scal'] } })
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused.content)).toContain('no option \\"Scal\\"; what the textbox offered when \\"Scal\\" was typed: its option is below')
    expect(await call('browser_snapshot', {})).toContain(`textbox "Tags:": "COBOL" @${tags}`)
  })

  it('jQuery UI sortable and datepicker: items one handler on their list answers are targets, and a drag answers with where the item went', async () => {
    const demo = (path: string): string => at.corpus.url('jqui-menu').replace('menu/default.html', path)
    let page = await call('browser_navigate', { url: demo('sortable/default.html') })
    // The list listens for the pointer; its items say nothing of it, yet each is a target.
    const dragged = await call('browser_drag', { startElement: 'Item 1', startTarget: refOf(page, 'listitem', 'Item 1'), endElement: 'Item 3', endTarget: refOf(page, 'listitem', 'Item 3') })
    expect(dragged).toMatch(/^~ listitem "Item \d" @\d+ moved (after|first in) @\d+$/m)
    page = await call('browser_snapshot', {})
    expect(page.indexOf('"Item 1"')).toBeGreaterThan(page.indexOf('"Item 2"'))
    // Dragged down onto another, an item takes its place, as a hand that crosses its middle does (dropped on the middle, it stayed).
    const second = await call('browser_drag', { startElement: 'Item 2', startTarget: refOf(page, 'listitem', 'Item 2'), endElement: 'Item 6', endTarget: refOf(page, 'listitem', 'Item 6') })
    expect(second).toMatch(new RegExp(`^~ listitem "Item 2" @\\d+ moved after @${refOf(page, 'listitem', 'Item 6')}$`, 'm'))
    // And up.
    page = await call('browser_snapshot', {})
    await call('browser_drag', { startElement: 'Item 7', startTarget: refOf(page, 'listitem', 'Item 7'), endElement: 'Item 3', endTarget: refOf(page, 'listitem', 'Item 3') })
    page = await call('browser_snapshot', {})
    expect(page.indexOf('"Item 7"')).toBeLessThan(page.indexOf('"Item 3"'))
    // Each day's cell listens around its link: the link alone is the target, once.
    page = await call('browser_navigate', { url: demo('datepicker/default.html') })
    const calendar = await call('browser_click', { element: 'Date', target: refOf(page, 'textbox') })
    // A week is one line, whatever number of its days take a click.
    expect(calendar).toMatch(/^\+ row: link "\d+" @\d+( link "\d+" @\d+){6}$/m)
    expect(calendar).toMatch(/ link "15" @\d+/)
    expect(calendar).not.toContain('cell "15"')
    const chosen = await call('browser_click', { element: '15', target: refOf(calendar, 'link', '15') })
    expect(chosen).toMatch(/~ textbox: "\d\d\/15\/\d{4}"/)
    // The calendar's lines went side by side: its first few are listed, the weeks counted.
    expect(chosen).toMatch(/^- link "Prev" @\d+\n- link "Next" @\d+\n- "[A-Z][a-z]+ \d{4}"\n- row: "Su" "Mo" "Tu" "We" "Th" "Fr" "Sa" \(\+[56] lines after it\)$/m)
    expect(chosen).not.toContain('link "15"')
  })

  it('jQuery UI modal form: a value typed into a field that takes focus on the way is in the answer, and so is the form\'s complaint', async () => {
    const page = await call('browser_navigate', { url: at.corpus.url('jqui-modal-form') })
    const dialog = await call('browser_click', { element: 'Create new user', target: refOf(page, 'button', 'Create new user') })
    expect(dialog).toMatch(/^\+ textbox "Name": "Jane Smith" @\d+ \(focused\)$/m)
    const typed = await call('browser_type', { element: 'Email', target: refOf(dialog, 'textbox', 'Email'), text: 'not-an-email' })
    expect(typed).toMatch(/^~ textbox "Email": "not-an-email" @\d+$/m)
    await call('browser_fill_form', { fields: [{ name: 'Name', type: 'textbox', target: '#name', value: 'Al' }] })
    const refused = await call('browser_click', { element: 'Create an account', target: "getByRole('button', { name: 'Create an account' })" })
    expect(refused).toContain('"Length of username must be between 3 and 16."')
  })

  it('jQuery UI checkboxradio and menu: controls their labels draw (their inputs hidden) are clicked and checked through the label; a menu says which item is active', async () => {
    const demo = (path: string): string => at.corpus.url('jqui-menu').replace('menu/default.html', path)
    const page = await call('browser_navigate', { url: demo('checkboxradio/default.html') })
    expect(await call('browser_click', { element: 'Paris', target: refOf(page, 'radio', 'Paris') })).toMatch(/^~ radio "Paris" @\d+ \(checked\)$/m)
    const checked = await call('browser_fill_form', { fields: [{ name: '3 Star', type: 'checkbox', target: refOf(page, 'checkbox', '3 Star'), value: 'true' }, { name: '1 King', type: 'checkbox', target: "getByLabel('1 King')", value: 'true' }] })
    expect(checked).toMatch(/^~ checkbox "3 Star" @\d+ \(checked\)$/m)
    expect(checked).toMatch(/^~ checkbox "1 King" @\d+ \(checked\)$/m)
    // The menu keeps focus and names its active item (aria-activedescendant): the answer says which.
    const menu = await call('browser_navigate', { url: at.corpus.url('jqui-menu') })
    expect(await call('browser_click', { element: 'Books', target: refOf(menu, 'menuitem', 'Books') })).toMatch(/^~ menuitem "Books" @\d+ \(active\)$/m)
  })

  it('tablesort: a column header clicked says how the table is sorted, and the rows that moved say where they went', async () => {
    const page = await call('browser_navigate', { url: at.corpus.url('tablesort') })
    // The page's own tests sort its first table as it loads, by a column that varies from load
    // to load: a click on Name sorts it ascending, or turns it the other way where it already was.
    const first = /^ {2}columnheader "Name" @\d+ \(sorted ascending\)$/m.test(page) ? 'descending' : 'ascending'
    const name = refOf(page, 'columnheader', 'Name')
    expect(await call('browser_click', { element: 'Name', target: name })).toMatch(new RegExp(`^~ columnheader "Name" @${name} \\(sorted ${first}\\)$`, 'm'))
    // Turned the other way, the rows go in the opposite order: each that moved says where to.
    const turned = await call('browser_click', { element: 'Name', target: name })
    expect(turned).toMatch(new RegExp(`^~ columnheader "Name" @${name} \\(sorted ${first === 'ascending' ? 'descending' : 'ascending'}\\)$`, 'm'))
    expect(turned).toMatch(/^~ row: "\d" "[A-Z][^"]*" .* moved (after "\d"|to the top)$/m)
    expect(turned).not.toMatch(/^\+ row/m)
  })

  it('CKEditor: writes into the rich text editor, selects it all and makes it bold with a toolbar button out of view, whose new state the answer shows', async () => {
    const page = await call('browser_navigate', { url: at.corpus.url('ckeditor') })
    const editor = refOf(page, 'textbox', 'Editor, editor')
    expect(await call('browser_type', { element: 'editor', target: editor, text: 'Release notes for 2.0' })).toMatch(/^~ textbox "Editor, editor": "Release notes for 2\.0" @\d+(:|$)/m)
    // The Basic Styles toolbar sits in a fold: the outline does not print its Bold button.
    expect(page).not.toContain('button "Bold"')
    await call('browser_press_key', { key: 'Control+a' })
    const bold = await call('browser_click', { element: 'Bold', target: "getByRole('button', { name: 'Bold' })" })
    expect(bold).toMatch(/^\+ strong @\d+: "Release notes for 2\.0"$/m)
    expect(bold).toMatch(/^~ button "Bold" @\d+ \(pressed\)$/m)
  })

  it('jQuery UI droppable and slider: a box dragged onto a drop zone named as Playwright names it, a handle known by its markup dragged along its track', async () => {
    const demo = (path: string): string => at.corpus.url('jqui-menu').replace('menu/default.html', path)
    let page = await call('browser_navigate', { url: demo('droppable/default.html') })
    // The box listens for the pointer without a role: its id says what it is.
    const box = refOf(page, 'clickable #draggable')
    // The drop zone takes no action of its own: a locator as Playwright MCP reads it names it.
    expect(await call('browser_drag', { startElement: 'box', startTarget: box, endElement: 'drop zone', endTarget: "getByText('Drop here')" })).toContain('~ "Dropped!"')
    page = await call('browser_navigate', { url: demo('droppable/default.html') })
    expect(await call('browser_drag', { startElement: 'box', startTarget: refOf(page, 'clickable #draggable'), endElement: 'drop zone', endTarget: 'text=Drop here' })).toContain('"Dropped!"')
    await expect(call('browser_type', { element: 'drop zone', target: '#droppable', text: 'x' })).rejects.toThrow(/not_found.*#droppable names an element that takes no action/)
    page = await call('browser_navigate', { url: demo('slider/range.html') })
    expect(page).toMatch(/^textbox "Price range:": "\$75 - \$300" @\d+/m)
    expect(page).toMatch(/^clickable #slider-range @\d+: clickable \.ui-slider-handle @\d+ clickable \.ui-slider-handle @\d+$/m)
    const [low, high] = [...page.matchAll(/clickable \.ui-slider-handle @(\d+)/g)].map((match) => match[1] as string)
    // The upper handle dragged onto the lower one: the range closes to one price.
    const moved = await call('browser_drag', { startElement: 'upper handle', startTarget: high as string, endElement: 'lower handle', endTarget: low as string })
    expect(moved).toMatch(/textbox "Price range:": "\$75 - \$75" @\d+/)
    // A slider that says no value: a key moves its handle, which the answer says, not that the page is unchanged.
    page = await call('browser_navigate', { url: demo('slider/default.html') })
    const handle = (/clickable \.ui-slider-handle @(\d+)/.exec(page) as RegExpExecArray)[1] as string
    await call('browser_click', { element: 'handle', target: handle })
    expect(await call('browser_press_key', { key: 'PageUp' })).toMatch(new RegExp(`^~ clickable \\.ui-slider-handle @${handle} \\(moved \\d+ px right\\)$`, 'm'))
  })

  it('jQuery UI spinner and selectable: arrows hidden from readers are known by their own classes and clicked by them; a choice shown by a class alone is said, and whether it was added to or moved', async () => {
    const demo = (path: string): string => at.corpus.url('jqui-menu').replace('menu/default.html', path)
    let page = await call('browser_navigate', { url: demo('spinner/default.html') })
    // Both arrows are .ui-button: each is named by the class that is its alone. Its field is empty, and so is its value (Chromium's tree said 0).
    expect(page).toMatch(/spinbutton "Select a value:" @\d+ button \.ui-spinner-up @\d+ \(aria-hidden\) button \.ui-spinner-down @\d+ \(aria-hidden\)/)
    const field = refOf(page, 'spinbutton', 'Select a value:')
    // Typed into before the page said any value, it says what it holds (it said 0).
    expect(await call('browser_type', { element: 'value', target: field, text: '7' })).toMatch(/spinbutton "Select a value:": "7"/)
    expect(await call('browser_click', { element: 'up arrow', target: '.ui-spinner-up' })).toMatch(/spinbutton "Select a value:": "8"/)
    // Typed into, it says what it holds: the page's aria-valuenow still says 8 until the next spin.
    expect(await call('browser_type', { element: 'value', target: field, text: '5' })).toMatch(/spinbutton "Select a value:": "5"/)
    page = await call('browser_navigate', { url: demo('selectable/default.html') })
    const item = refOf(page, 'listitem', 'Item 3')
    // Nothing the page's tree says of the item changes: its class does, and the answer says the click took.
    const clicked = await call('browser_click', { element: 'Item 3', target: item })
    expect(clicked).not.toContain('page unchanged')
    expect(clicked).toContain(`~ listitem "Item 3" @${item} class +ui-selected\n`)
    // Control-clicked, a second item joins the choice, which the answer says; a plain click moves it.
    const fifth = refOf(page, 'listitem', 'Item 5')
    expect(await call('browser_click', { element: 'Item 5', target: fifth, modifiers: ['Control'] })).toContain(`~ listitem "Item 5" @${fifth} class +ui-selected (also on 1 sibling)`)
    const first = refOf(page, 'listitem', 'Item 1')
    // The plain click took the choice from the two chosen before, which the answer names.
    expect(await call('browser_click', { element: 'Item 1', target: first })).toContain(`~ listitem "Item 1" @${first} class +ui-selected (taken from "Item 3", "Item 5")\n`)
  })

  it('jQuery UI tabs: a tab clicked says the panel it hid, though that panel\'s name is still its tab\'s', async () => {
    const demo = (path: string): string => at.corpus.url('jqui-menu').replace('menu/default.html', path)
    const page = await call('browser_navigate', { url: demo('tabs/default.html') })
    expect(page).toMatch(/^tabpanel "Nunc tincidunt"$/m)
    const swapped = await call('browser_click', { element: 'Proin dolor', target: refOf(page, 'tab', 'Proin dolor') })
    expect(swapped).toMatch(/^- tabpanel "Nunc tincidunt" \(\+1 inside\)$/m)
    expect(swapped).toMatch(/^\+ tabpanel "Proin dolor"$/m)
    expect(swapped).toMatch(/^~ tab "Proin dolor" @\d+ \(selected, expanded\)/m)
  })
})

describe('the browser_navigate that opens the first browser tile', () => {
  const at = useCorpusClient()

  it('says what the server answered, once, as a later navigate does', async () => {
    const missing = at.corpus.url('jqui-menu').replace('menu/default.html', 'no-such-demo.html')
    const opened = await at.call('browser_navigate', { url: missing })
    // Before, the answer that opened the tile showed the server's error page and never said it was one.
    expect(opened).toMatch(/^note: the server answered 404 Not Found\n/)
    const next = await at.call('browser_navigate', { url: at.corpus.url('jqui-menu') })
    expect(next).not.toContain('the server answered')
    expect(await at.call('browser_navigate', { url: missing })).toMatch(/^note: the server answered 404 Not Found\n/)
  })
})
