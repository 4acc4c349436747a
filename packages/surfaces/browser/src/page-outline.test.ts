import { type Frame, type Layout, RefTable, type TargetSpec, type UiNode, sealFrame } from '@tessera/protocol'
import { describe, expect, it } from 'vitest'
import { BROWSER_ACTIONS } from './browser-actions.js'
import { withActedNews } from './acted-news.js'
import { pageDelta, presenceIn } from './page-delta.js'
import { outlinePage } from '@tessera/kit'

/** A page of a heading, a form in view, and a 40-row list below the viewport. */
function page(rows = 40, value = '', rowsFrom = 900) {
  const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 } }
  const targets: TargetSpec[] = []
  const at = (id: string, y: number): void => {
    layout[id] = { x: 10, y, width: 200, height: 20 }
  }
  const button = (id: string, name: string, y: number, risk?: 'destructive'): UiNode => {
    at(id, y)
    targets.push({ contract: 'click', nodeId: id, ...(risk === undefined ? {} : { risk }) })
    return { id, kind: 'box', role: 'button', name }
  }
  at('h', 10)
  at('user', 40)
  targets.push({ contract: 'fill', nodeId: 'user' }, { contract: 'fill', nodeId: 'pw' })
  at('pw', 70)
  const items: UiNode[] = []
  for (let i = 0; i < rows; i++) items.push({ id: `row${i}`, kind: 'box', role: 'listitem', children: [{ id: `t${i}`, kind: 'text', text: `Item ${i}` }, button(`del${i}`, `Delete item ${i}`, rowsFrom + i * 30, 'destructive')] })
  const tree: UiNode = {
    id: 'page',
    kind: 'box',
    role: 'document',
    name: 'Shop',
    children: [
      { id: 'h', kind: 'box', role: 'heading', name: 'Welcome', children: [{ id: 'ht', kind: 'text', text: 'Welcome' }] },
      { id: 'user', kind: 'box', role: 'textbox', name: 'User', ...(value === '' ? {} : { value }) },
      { id: 'pw', kind: 'box', role: 'textbox', name: 'Password', value: null, semantic: { sensitive: true } },
      button('go', 'Sign in', 100),
      { id: 'items', kind: 'box', role: 'list', name: 'Basket', children: items },
    ],
  }
  return sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/shop', tree, layout, state: { url: 'http://127.0.0.1:9/shop' }, contracts: BROWSER_ACTIONS.contracts.filter((c) => ['click', 'fill', 'navigate'].includes(c.id)), targets })
}

describe('a page as the agent reads it', () => {
  it('says where each element to act on is drawn when boxes are asked for, from the corner of the view', () => {
    // Scrolled 300 down: the page's coordinates less the view's corner.
    const layout: Layout = { page: { x: 0, y: 300, width: 800, height: 600 }, go: { x: 10.4, y: 340.6, width: 80, height: 24 }, intro: { x: 0, y: 320, width: 400, height: 20 } }
    const tree: UiNode = { id: 'page', kind: 'box', role: 'document', children: [{ id: 'intro', kind: 'text', text: 'Ready?' }, { id: 'go', kind: 'box', role: 'button', name: 'Go' }] }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets: [{ contract: 'click', nodeId: 'go' }] })
    const go = RefTable.forFrame(frame).refOf('go') as string
    expect(outlinePage(frame, { boxes: true })).toContain(`\n"Ready?"\nbutton "Go" @${go} [box=10,41,80,24]\n`)
    expect(outlinePage(frame)).toContain(`\nbutton "Go" @${go}\n`)
  })

  it('reads a window of a long block of code whole, its first line indented as on the page, and says how to read on', () => {
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, pre: { x: 0, y: 0, width: 800, height: 600 } }
    const code = '    "x": 18180\n  },\n  {'
    const tree: UiNode = { id: 'page', kind: 'box', role: 'document', children: [{ id: 'pre', kind: 'box', role: 'generic', children: [{ id: 't1', kind: 'text', role: 'code', text: code, excerpt: { line: 100_000, lines: 220_002 } }] }] }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/big.json', tree, layout, state: {}, contracts: [], targets: [] })
    const whole = outlinePage(frame, { expand: `@${RefTable.forFrame(frame).refOf('t1')}` }).split('\n').slice(2, -1)
    expect(whole).toHaveLength(1)
    expect(whole[0]?.startsWith(`${JSON.stringify(code)} @`)).toBe(true)
    expect(whole[0]?.endsWith(' (lines 100000–100002 of 220002; offset 100002 reads on)')).toBe(true)
  })

  it('says where an iframe begins, named or not, and from which site when another\'s', () => {
    const text = (id: string, words: string): UiNode => ({ id, kind: 'text', text: words })
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        { id: 'ad', kind: 'box', role: 'iframe', children: [text('ad-text', 'Buy now and save')] },
        { id: 'pay', kind: 'box', role: 'iframe', name: 'Card', src: 'https://pay.example', children: [{ id: 'number', kind: 'box', role: 'textbox', name: 'Number' }] },
        text('after', 'Thanks'),
      ],
    }
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, ad: { x: 0, y: 0, width: 300, height: 100 }, 'ad-text': { x: 0, y: 0, width: 300, height: 20 }, pay: { x: 0, y: 120, width: 300, height: 100 }, number: { x: 0, y: 130, width: 200, height: 20 }, after: { x: 0, y: 240, width: 100, height: 20 } }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/checkout', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'fill'), targets: [{ contract: 'fill', nodeId: 'number' }] })
    const refs = RefTable.forFrame(frame)
    // Before, an iframe with no title printed nothing: its words read as the page's own.
    expect(outlinePage(frame).split('\n').slice(2, -1)).toEqual(['iframe', '  "Buy now and save"', 'iframe "Card" from https://pay.example', `  textbox "Number" @${refs.refOf('number')}`, '"Thanks"'])
  })

  it('says a name once: a logo link\'s image of the same name goes, and a heading holding a link of its name prints bare', () => {
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, logo: { x: 0, y: 0, width: 90, height: 30 }, post: { x: 0, y: 40, width: 300, height: 20 } }
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        { id: 'logo', kind: 'box', role: 'link', name: 'Acme home', children: [{ id: 'logo-img', kind: 'box', role: 'img', name: 'Acme home' }] },
        { id: 'h2', kind: 'box', role: 'heading', name: 'Release notes', children: [{ id: 'post', kind: 'box', role: 'link', name: 'Release notes' }] },
        { id: 'h3', kind: 'box', role: 'heading', name: 'Contact us today', children: [{ id: 'mail', kind: 'box', role: 'link', name: 'Contact us' }] },
      ],
    }
    const targets: TargetSpec[] = ['logo', 'post', 'mail'].map((nodeId) => ({ contract: 'click', nodeId }))
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets })
    const refs = RefTable.forFrame(frame)
    const text = outlinePage(frame)
    expect(text).toContain(`link "Acme home" @${refs.refOf('logo')}\n`)
    expect(text).not.toContain('img "Acme home"')
    expect(text).toContain(`heading: link "Release notes" @${refs.refOf('post')}`)
    // Words of its own besides the link's: the heading keeps its name.
    expect(text).toContain('heading "Contact us today": link "Contact us"')
  })

  it('says a dialog\'s title once, on the dialog\'s line: not again in its title bar or a heading of it', () => {
    const dialog = (id: string, title: UiNode): UiNode => ({ id, kind: 'box', role: 'dialog', name: 'Empty the bin?', children: [
      { id: `${id}-bar`, kind: 'box', children: [title, { id: `${id}-close`, kind: 'box', role: 'button', name: 'Close' }] },
      { id: `${id}-body`, kind: 'text', text: 'Everything in it goes.' },
      { id: `${id}-ok`, kind: 'box', role: 'button', name: 'Empty' },
    ] })
    const tree: UiNode = { id: 'page', kind: 'box', role: 'document', children: [
      dialog('a', { id: 'a-title', kind: 'text', text: 'Empty the  bin?' }),
      dialog('b', { id: 'b-title', kind: 'box', role: 'heading', name: 'Empty the bin?', children: [{ id: 'b-words', kind: 'text', text: 'Empty the bin?' }] }),
    ] }
    const targets: TargetSpec[] = ['a-close', 'a-ok', 'b-close', 'b-ok'].map((nodeId) => ({ contract: 'click', nodeId }))
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout: {}, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets })
    const body = outlinePage(frame).split('\n').slice(2, -1)
    expect(body.filter((line) => line.includes('Empty the bin?'))).toEqual(['dialog "Empty the bin?"', 'dialog "Empty the bin?"'])
    expect(body).toContain('  "Everything in it goes."')
    expect(body.filter((line) => line.includes('button "Close"'))).toHaveLength(2)
  })

  it('drops a label\'s text beside the field it names, also when a widget wraps the field in a box of its own', () => {
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, spin: { x: 60, y: 0, width: 60, height: 20 }, wrap: { x: 60, y: 0, width: 90, height: 20 }, note: { x: 0, y: 40, width: 300, height: 20 } }
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        { id: 'label', kind: 'text', text: '# of cars' },
        { id: 'wrap', kind: 'box', role: 'generic', children: [{ id: 'spin', kind: 'box', role: 'spinbutton', name: '# of cars', value: '0' }, { id: 'up', kind: 'box', role: 'button' }] },
        { id: 'note', kind: 'text', text: 'Book now' },
        { id: 'other', kind: 'box', role: 'generic', children: [{ id: 'x', kind: 'box', role: 'spinbutton', name: 'Days', value: '1' }] },
      ],
    }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => ['fill', 'click'].includes(c.id)), targets: [{ contract: 'click', nodeId: 'wrap' }, { contract: 'fill', nodeId: 'spin' }, { contract: 'fill', nodeId: 'x' }] })
    const text = outlinePage(frame)
    expect(text).toContain(`clickable @${RefTable.forFrame(frame).refOf('wrap')}: spinbutton "# of cars"`)
    expect(text.match(/# of cars/g)).toHaveLength(1)
    expect(text).toContain('spinbutton "# of cars"')
    // A text that names nothing beside it stays.
    expect(text).toContain('"Book now"')
  })

  it('drops a number a range shows after itself when it says the range\'s value again, and keeps one that says something else', () => {
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, volume: { x: 0, y: 0, width: 200, height: 20 }, rating: { x: 0, y: 40, width: 200, height: 20 } }
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        { id: 'volume', kind: 'box', role: 'slider', name: 'Volume', value: '20' },
        { id: 'tip', kind: 'text', text: '20' },
        { id: 'rating', kind: 'box', role: 'slider', name: 'Rating', value: '3' },
        { id: 'max', kind: 'text', text: 'of 5' },
      ],
    }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'fill'), targets: [{ contract: 'fill', nodeId: 'volume' }, { contract: 'fill', nodeId: 'rating' }] })
    const refs = RefTable.forFrame(frame)
    const body = outlinePage(frame).split('\n').slice(2, -1)
    expect(body).toEqual([`slider "Volume": "20" @${refs.refOf('volume')}`, `slider "Rating": "3" @${refs.refOf('rating')}`, '"of 5"'])
  })

  it('cuts a long text with the ref of the element that holds it, which prints it whole; a find searches texts whole and shows where they say the words', () => {
    const long = `Valgrind is designed to be as non-intrusive as possible. ${'It works directly with existing executables. '.repeat(4)}You can set --leak-check=full to see each leak.`
    const runs: UiNode[] = ['The answer affects', 'ERROR SUMMARY', 'and the effect of', '--error-exitcode', 'First, a leak counts', '--leak-check=full', 'is specified. Then', '--errors-for-leak-kinds', 'controls the set of kinds to count', 'definite,possible'].map((text, i) => ({ id: `r${i}`, kind: 'text', text }))
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        { id: 'p1', kind: 'box', role: 'paragraph', children: [{ id: 'long', kind: 'text', text: long }] },
        // Ten runs of text between code spans: one paragraph of prose, not a list of ten rows.
        { id: 'p2', kind: 'box', role: 'paragraph', children: runs },
      ],
    }
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, p1: { x: 0, y: 0, width: 800, height: 60 }, p2: { x: 0, y: 80, width: 800, height: 60 } }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/doc', tree, layout, state: {}, contracts: [], targets: [] })
    const refs = RefTable.forFrame(frame)
    const view = outlinePage(frame)
    expect(view).toContain(`"Valgrind is designed to be as non-intrusive as possible. It works directly with existing executables. It works directly…" @${refs.refOf('p1')}\n`)
    expect(view).not.toContain('paragraph')
    expect(view).toContain(`"The answer affects ERROR SUMMARY and the effect of --error-exitcode First, a leak counts --leak-check=full is specified…" @${refs.refOf('p2')}`)
    // The holder's expansion: the text whole, with no ref after it.
    const whole = outlinePage(frame, { expand: `@${refs.refOf('p1')}` })
    expect(whole).toContain(`\n${JSON.stringify(long.replace(/\s+/g, ' ').trim())}\n`)
    // Words past the cut are found, and shown with what is around them.
    const found = outlinePage(frame, { find: 'leak-check=FULL to see' }).split('\n').slice(2, -1)
    expect(found).toEqual([`"…with existing executables. It works directly with existing executables. You can set --leak-check=full to see each leak." @${refs.refOf('p1')}`])
    expect(outlinePage(frame, { find: 'definite,possible' })).toContain(`"…--leak-check=full is specified. Then --errors-for-leak-kinds controls the set of kinds to count definite,possible" @${refs.refOf('p2')}`)
  })


  it('never cuts a text, a value or a fold\'s label between the halves of an emoji', () => {
    // 118 letters, then an emoji whose halves are the 119th and 120th units: a cut at 119 units before the '…' kept its first half.
    const long = `${'x'.repeat(118)}\u{1F600} and the rest of the words`
    const rows: UiNode[] = Array.from({ length: 40 }, (_, i) => ({ id: `row${i}`, kind: 'box', role: 'listitem', children: [{ id: `t${i}`, kind: 'text', text: `Item ${i}` }] }))
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        { id: 'p1', kind: 'box', role: 'paragraph', children: [{ id: 'long', kind: 'text', text: long }] },
        { id: 'note', kind: 'box', role: 'textbox', name: 'Note', value: long },
        { id: 'list', kind: 'box', role: 'list', name: `${'y'.repeat(46)}\u{1F600} list`, children: rows },
      ],
    }
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, p1: { x: 0, y: 0, width: 800, height: 20 }, note: { x: 0, y: 30, width: 800, height: 20 }, list: { x: 0, y: 900, width: 800, height: 1200 } }
    for (let i = 0; i < 40; i++) layout[`row${i}`] = { x: 0, y: 900 + i * 30, width: 800, height: 30 }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/doc', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'fill'), targets: [{ contract: 'fill', nodeId: 'note' }] })
    const view = outlinePage(frame)
    expect(view).toContain(`"${'x'.repeat(118)}…"`)
    expect(view).not.toMatch(/\\ud83d|\uD83D(?![\uDC00-\uDFFF])/)
    expect(view).toContain(`textbox "Note": "${'x'.repeat(118)}…"`)
    expect(view).toContain(`from "${'y'.repeat(46)}…": expand`)
  })

  it('reads a field\'s text back whole, line breaks and all, when the field is expanded; a cut name is not said again by its own text', () => {
    const held = `First line of a comment.\n\n  - an item   with spaces\n${'word '.repeat(60).trim()}\nlast line zanzibar`
    const option = `Notes ${'long '.repeat(100)}`.trim()
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        // As Chromium gives a textarea: its value, and a text of one of its lines inside it.
        { id: 'area', kind: 'box', role: 'textbox', name: 'Comment', value: held, children: [{ id: 'line', kind: 'text', text: '- an item with spaces' }] },
        { id: 'list', kind: 'box', role: 'listbox', name: 'Notes', children: [{ id: 'opt', kind: 'box', role: 'option', name: `${option.slice(0, 399)}…`, children: [{ id: 'opt-text', kind: 'text', text: option }] }] },
      ],
    }
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, area: { x: 0, y: 0, width: 400, height: 80 }, opt: { x: 0, y: 100, width: 400, height: 20 } }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/form', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => ['click', 'fill'].includes(c.id)), targets: [{ contract: 'fill', nodeId: 'area' }, { contract: 'click', nodeId: 'opt' }] })
    const refs = RefTable.forFrame(frame)
    const view = outlinePage(frame).split('\n').slice(2, -1)
    // In the view, cut to its first words as any text, its lines still lines (blank ones dropped), and the line of it inside is not said again.
    const lined = held.split('\n').map((line) => line.replace(/\s+/g, ' ').trim()).filter((line) => line !== '').join('\n')
    expect(view[0]).toBe(`textbox "Comment": ${JSON.stringify(`${lined.slice(0, 119)}…`)} @${refs.refOf('area')}`)
    expect(view.slice(1)).toEqual([`listbox "Notes"`, `  option "${option.slice(0, 119)}…" @${refs.refOf('opt')}`])
    const whole = outlinePage(frame, { expand: `@${refs.refOf('area')}` }).split('\n').slice(2, -1)
    expect(whole).toEqual([`textbox "Comment": ${JSON.stringify(held)} @${refs.refOf('area')}`])
    expect(outlinePage(frame, { expand: `@${refs.refOf('opt')}` }).split('\n').slice(2, -1)).toEqual([`option "${option.slice(0, 399)}…" @${refs.refOf('opt')}`])
  })

  it('sums a closed combobox up by its value, yet keeps what else it holds to act on: a tag\'s remove button, its search field', () => {
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        // A native select: its options are its value's to say.
        { id: 'plan', kind: 'box', role: 'combobox', name: 'Plan', value: 'Basic', states: { expanded: false }, children: [{ id: 'popup', kind: 'box', role: 'listbox', children: [{ id: 'o1', kind: 'box', role: 'option', name: 'Basic' }, { id: 'o2', kind: 'box', role: 'option', name: 'Pro' }] }] },
        // Select2's box: a read-only box showing the value, said once.
        { id: 'country', kind: 'box', role: 'combobox', name: 'France', states: { expanded: false }, children: [{ id: 'shown', kind: 'box', role: 'textbox', value: 'France', states: { readonly: true } }] },
        // Select2's box of tags.
        {
          id: 'tags',
          kind: 'box',
          role: 'combobox',
          value: 'Remove item green Search',
          states: { expanded: false },
          children: [
            { id: 'green', kind: 'box', role: 'listitem', name: 'green', children: [{ id: 'x', kind: 'box', role: 'button', name: 'Remove item' }] },
            { id: 'search', kind: 'box', role: 'searchbox', name: 'Search' },
          ],
        },
      ],
    }
    const targets: TargetSpec[] = ['plan', 'o1', 'o2', 'country', 'shown', 'tags', 'x', 'search'].map((nodeId) => ({ contract: 'click', nodeId }))
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/form', tree, layout: { page: { x: 0, y: 0, width: 800, height: 600 } }, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets })
    const refs = RefTable.forFrame(frame)
    const lines = outlinePage(frame).split('\n').slice(2, -1)
    expect(lines.slice(0, 2)).toEqual([`combobox "Plan": "Basic" @${refs.refOf('plan')} (collapsed)`, `combobox "France" @${refs.refOf('country')} (collapsed)`])
    expect(lines.slice(2).join('\n')).toMatch(new RegExp(`^combobox: "Remove item green Search" @${refs.refOf('tags')} \\(collapsed\\)[\\s\\S]*button "Remove item" @${refs.refOf('x')}[\\s\\S]*searchbox "Search" @${refs.refOf('search')}$`))
  })

  it('gives a long text cut in a big element its own ref, which prints it and the texts that run on from it whole', () => {
    const long = `A text right in the body of a page of ${'very many words '.repeat(12)}that ends here.`
    const tail = 'and goes on in the next run'
    const rows: UiNode[] = Array.from({ length: 50 }, (_, i) => ({ id: `p${i}`, kind: 'box', role: 'paragraph', children: [{ id: `w${i}`, kind: 'text', text: `Paragraph ${i}` }] }))
    // As a browser tile's ledger numbers texts: ids that are their own refs.
    const tree: UiNode = { id: 'page', kind: 'box', role: 'document', children: [{ id: 'body', kind: 'box', role: 'section', children: [{ id: 't1', kind: 'text', text: long }, { id: 't2', kind: 'text', text: tail }, ...rows] }] }
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, body: { x: 0, y: 0, width: 800, height: 3000 } }
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/doc', tree, layout, state: {}, contracts: [], targets: [] })
    const view = outlinePage(frame)
    expect(view).toContain('…" @t1\n')
    expect(view).not.toContain(`@${RefTable.forFrame(frame).refOf('body')}\n`)
    const whole = outlinePage(frame, { expand: '@t1' }).split('\n').slice(2, -1)
    expect(whole).toEqual([JSON.stringify(`${long.replace(/\s+/g, ' ').trim()} ${tail}`)])
  })
  it('shows the viewport, fences the page text with a nonce, and folds what is below with a way in', () => {
    const frame = page()
    const text = outlinePage(frame)
    const refs = RefTable.forFrame(frame)
    const lines = text.split('\n')
    expect(lines[0]).toBe(`browser-1 http://127.0.0.1:9/shop frame ${frame.id.slice(0, 12)}`)
    const nonce = /^--- page ([0-9a-f]{6}) \(untrusted/.exec(lines[1] ?? '')?.[1]
    // The title is the page's words: inside the fence, first.
    expect(lines[2]).toBe('title "Shop"')
    expect(lines[lines.length - 1]).toBe(`--- end ${nonce} ---`)
    expect(text).toContain(`heading "Welcome"\n`)
    expect(text).toContain(`textbox "User" @${refs.refOf('user')}`)
    expect(text).toContain(`textbox "Password": [REDACTED] @${refs.refOf('pw')}`)
    // Left empty, it prints bare: a fill then shows it took, never what it holds.
    const empty = page()
    const emptyPw = sealFrame({ ...empty, tree: { ...empty.tree, children: (empty.tree.children ?? []).map((child) => (child.id === 'pw' ? { id: 'pw', kind: 'box', role: 'textbox', name: 'Password', semantic: { sensitive: true } } : child)) } })
    expect(outlinePage(emptyPw)).toContain(`\ntextbox "Password" @${refs.refOf('pw')}\n`)
    expect(text).toContain(`button "Sign in" @${refs.refOf('go')}`)
    expect(text).not.toContain('Item 3')
    expect(text).toMatch(new RegExp(`… 41 lines, 40 actions below the view, from "Basket": expand "@${refs.refOf('page')}" offset 4`))
  })

  it('expands a fold to the whole subtree, samples nothing there, and pages long lists by offset', () => {
    const frame = page()
    const refs = RefTable.forFrame(frame)
    const list = outlinePage(frame, { expand: `@${refs.refOf('items')}` })
    expect(list).toContain('list "Basket"')
    expect(list).toContain(`listitem: "Item 0" button "Delete item 0" @${refs.refOf('del0')} !destructive`)
    expect(list).toContain('"Item 39"')
    expect(list).not.toContain('Item 40')
    const far = outlinePage(page(120), { expand: `@${RefTable.forFrame(page(120)).refOf('items')}`, offset: 100 })
    expect(far).toContain('"Item 100"')
    expect(far).not.toContain('"Item 99"')
    expect(() => outlinePage(frame, { expand: '@nzzzz' })).toThrow(/no element @nzzzz/)
  })

  it('folds a long page into parts that one expansion each shows whole, so every element is one expansion away', () => {
    const frame = page(2000)
    const refs = RefTable.forFrame(frame)
    const text = outlinePage(frame)
    const folds = [...text.matchAll(/^\s*… .*expand "(@[n1-9][0-9a-z]*)"(?: offset (\d+))?$/gm)]
    // The list is too big for one expansion: it keeps its line, its rows fold in parts.
    expect(text).toContain(`list "Basket"`)
    expect(folds.length).toBeGreaterThan(5)
    expect(folds.length).toBeLessThan(20)
    expect(text).toMatch(/from "Item 0"/)
    const shown = new Set<string>()
    for (const [, ref, offset] of folds) {
      const expansion = outlinePage(frame, { expand: ref, offset: offset === undefined ? undefined : Number(offset) })
      expect(expansion.split('\n').length).toBeLessThan(260)
      for (const match of expansion.matchAll(/@([n1-9][0-9a-z]*)/g)) shown.add(match[1] as string)
    }
    const unseen = Array.from({ length: 2000 }, (_, i) => `del${i}`).filter((id) => !shown.has(refs.refOf(id) ?? ''))
    expect(unseen).toEqual([])
  })

  it('keeps the folds below the view as they were when the page scrolls, so a delta lists only the one next to it', () => {
    // A manual: 2,000 sections one after another, each a heading and a paragraph, 100 px tall.
    const layout: Layout = {}
    const sections: UiNode[] = []
    for (let i = 0; i < 2000; i++) {
      layout[`s${i}`] = { x: 0, y: i * 100, width: 800, height: 100 }
      sections.push({ id: `s${i}`, kind: 'box', role: 'section', children: [{ id: `h${i}`, kind: 'box', role: 'heading', name: `Section ${i}` }, { id: `p${i}`, kind: 'box', role: 'paragraph', children: [{ id: `w${i}`, kind: 'text', text: `Words of section ${i}` }] }] })
    }
    const at = (y: number) => outlinePage(sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/manual', layout: { ...layout, page: { x: 0, y, width: 800, height: 600 } }, state: {}, contracts: [], targets: [], tree: { id: 'page', kind: 'box', role: 'document', children: [{ id: 'main', kind: 'box', role: 'main', children: sections }] } }))
    const foldsBelow = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('… ') && line.includes('below the view'))
    const top = foldsBelow(at(0))
    const scrolled = foldsBelow(at(1000))
    expect(scrolled.length).toBeGreaterThan(3)
    // Past the one fold next to the view, every fold reads as it did, offsets and all.
    expect(scrolled.slice(1).every((line) => top.includes(line))).toBe(true)
    expect(top.includes(scrolled[0] as string)).toBe(false)
    const delta = pageDelta(at(0), at(1000))
    expect(delta.split('\n').filter((line) => /^\+ … .*below the view/.test(line))).toHaveLength(1)
  })

  it('samples a long list in the view and names an offset for every page of the rest', () => {
    const frame = page(1000, '', 130)
    const refs = RefTable.forFrame(frame)
    const text = outlinePage({ ...frame, layout: { ...frame.layout, page: { x: 0, y: 0, width: 800, height: 40000 } } })
    expect(text).toContain('"Item 3"')
    expect(text).not.toContain('"Item 4"')
    const note = new RegExp(`… 996 more listitems: expand "@${refs.refOf('items')}" offset ([\\d, ]+)$`, 'm').exec(text)
    const offsets = (note?.[1] ?? '').split(', ').map(Number)
    expect(offsets[0]).toBe(4)
    expect(offsets).toEqual([4, 253, 502, 751])
    const last = outlinePage(frame, { expand: `@${refs.refOf('items')}`, offset: offsets[3] })
    expect(last).toContain('"Item 999"')
    expect(last).not.toContain('more')
  })


  it('runs a text glued to the one before it on with no space, and others with one', () => {
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, p: { x: 0, y: 0, width: 400, height: 20 }, f: { x: 0, y: 30, width: 100, height: 20 } }
    const texts = (nodes: UiNode[]): Frame => sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree: { id: 'page', kind: 'box', role: 'document', children: [{ id: 'p', kind: 'box', role: 'paragraph', children: nodes }] }, layout, state: {}, contracts: [], targets: [] })
    expect(outlinePage(texts([{ id: 'a', kind: 'text', text: 'Use the closure API' }, { id: 'b', kind: 'text', text: '.', glued: true }, { id: 'c', kind: 'text', text: 'It returns' }]))).toContain('\n"Use the closure API. It returns"\n')
  })

  it('keeps texts stacked one over another as lines of their own, and runs a sentence on, wherever it is in view', () => {
    // A feed of div rows: the accessibility tree hangs their texts side by side under one parent.
    const layout: Layout = { page: { x: 0, y: 2000, width: 800, height: 600 }, clock: { x: 8, y: 100, width: 200, height: 18 } }
    const rows: UiNode[] = [{ id: 'clock', kind: 'text', text: '12:00:01' }]
    for (let i = 1; i <= 150; i++) {
      layout[`r${i}`] = { x: 8, y: 100 + i * 18, width: 60, height: 18 }
      rows.push({ id: `r${i}`, kind: 'text', text: `Item ${i}` })
    }
    const feed = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/feed', tree: { id: 'page', kind: 'box', role: 'document', children: [{ id: 'list', kind: 'box', role: 'generic', children: rows }] }, layout, state: {}, contracts: [], targets: [] })
    const lines = outlinePage(feed).split('\n')
    // Scrolled to rows 106–138: they show, one a line (before, one text "12:00:01 Item 1 Item 2 …" cut, and folded above the view).
    expect(lines).toContain('"Item 110"')
    expect(lines).toContain('"Item 111"')
    expect(lines.join('\n')).not.toContain('"12:00:01 Item 1')
    // A sentence whose second text goes on at the line's left edge, under the first: one text still.
    const sentence = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree: { id: 'page', kind: 'box', role: 'document', children: [{ id: 'p', kind: 'box', role: 'paragraph', children: [{ id: 'a', kind: 'text', text: 'Read the' }, { id: 'b', kind: 'text', text: 'whole manual' }] }] }, layout: { page: { x: 0, y: 0, width: 800, height: 600 }, a: { x: 700, y: 10, width: 90, height: 18 }, b: { x: 8, y: 28, width: 120, height: 18 } }, state: {}, contracts: [], targets: [] })
    expect(outlinePage(sentence)).toContain('\n"Read the whole manual"\n')
  })

  it('expands each fold line to that fold alone: following every line of the view reads each element once', () => {
    // 16 rows in view (sampled, the rest paged from offset 4), 24 below it (folded).
    const frame = page(40, '', 130)
    const refs = RefTable.forFrame(frame)
    const list = `@${refs.refOf('items')}`
    const view = outlinePage(frame)
    expect(view).toContain(`… 12 more listitems: expand "${list}" offset 4`)
    const inView = outlinePage(frame, { expand: list, offset: 4 })
    expect(inView).toContain('"Item 15"')
    expect(inView).not.toContain('"Item 16"')
    expect(inView).toMatch(new RegExp(`… 24 lines, 24 actions more: expand "${list}" offset 16\\n`))
    const offsets = [...view.matchAll(new RegExp(`expand "${list}" offset (\\d+)`, 'g'))].map((match) => Number(match[1]))
    expect(offsets).toEqual([4, 16])
    const read = offsets.flatMap((offset) => [...outlinePage(frame, { expand: list, offset }).matchAll(/button "Delete item (\d+)"/g)].map((match) => Number(match[1])))
    const sampled = [...view.matchAll(/button "Delete item (\d+)"/g)].map((match) => Number(match[1]))
    expect([...sampled, ...read]).toEqual(Array.from({ length: 40 }, (_, i) => i))
    // An offset no line of the view names (an expansion's own "more") pages on as far as an expansion prints.
    expect(outlinePage(frame, { expand: list, offset: 5 })).toContain('"Item 39"')
  })
  it('says a heading\'s name once when it is made of the buttons it holds', () => {
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 } }
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        { id: 'h', kind: 'box', role: 'heading', name: 'People Collapse Add Person', children: [{ id: 'ht', kind: 'text', text: 'People' }, { id: 'fold', kind: 'box', role: 'button', name: 'Collapse' }, { id: 'add', kind: 'box', role: 'button', name: 'Add Person' }] },
        { id: 'h2', kind: 'box', role: 'heading', name: 'Pets and more', children: [{ id: 'more', kind: 'box', role: 'button', name: 'Collapse' }] },
      ],
    }
    for (const id of ['page', 'h', 'fold', 'add', 'h2', 'more']) layout[id] = { x: 0, y: 0, width: 800, height: 20 }
    const targets: TargetSpec[] = ['fold', 'add', 'more'].map((nodeId) => ({ contract: 'click', nodeId }))
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets })
    const refs = RefTable.forFrame(frame)
    const text = outlinePage(frame)
    expect(text).toContain(`heading "People": button "Collapse" @${refs.refOf('fold')} button "Add Person" @${refs.refOf('add')}\n`)
    // A name that does not end with what its elements say is kept whole.
    expect(text).toContain(`heading "Pets and more": button "Collapse" @${refs.refOf('more')}`)
  })

  it('prints a sentence with links in it as one line, as a person reads it', () => {
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 } }
    const link = (id: string, name: string): UiNode => ({ id, kind: 'box', role: 'link', name })
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        { id: 'p1', kind: 'box', role: 'paragraph', children: [{ id: 't1', kind: 'text', text: 'Created by' }, link('a1', 'Tom Dale'), { id: 't2', kind: 'text', text: ',' }, link('a2', 'Addy Osmani')] },
        // Links alone stay a line each; so does a paragraph holding more than texts and links.
        { id: 'p2', kind: 'box', role: 'paragraph', children: [link('a3', 'Guides'), link('a4', 'Blog')] },
        { id: 'p3', kind: 'box', role: 'paragraph', children: [{ id: 't3', kind: 'text', text: 'Save it' }, { id: 'b1', kind: 'box', role: 'button', name: 'Save' }] },
        // A list item of texts and links, more than a row packs (Node's docs: a parameter and its types).
        { id: 'list', kind: 'box', role: 'list', children: [{ id: 'li', kind: 'box', role: 'listitem', children: [
          { id: 't4', kind: 'text', text: 'path' }, link('s', '<string>'), { id: 't5', kind: 'text', text: '|' }, link('b', '<Buffer>'), { id: 't6', kind: 'text', text: '|' }, link('u', '<URL>'), { id: 't7', kind: 'text', text: '|' }, link('i', '<integer>'), { id: 't8', kind: 'text', text: 'filename or file descriptor' },
        ] }] },
      ],
    }
    for (const id of ['page', 'p1', 'a1', 'a2', 'p2', 'a3', 'a4', 'p3', 'b1', 'list', 'li', 's', 'b', 'u', 'i']) layout[id] = { x: 0, y: 0, width: 800, height: 20 }
    const targets: TargetSpec[] = ['a1', 'a2', 'a3', 'a4', 'b1', 's', 'b', 'u', 'i'].map((nodeId) => ({ contract: 'click', nodeId }))
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets })
    const refs = RefTable.forFrame(frame)
    const text = outlinePage(frame)
    expect(text).toContain(`\n"Created by" link "Tom Dale" @${refs.refOf('a1')} "," link "Addy Osmani" @${refs.refOf('a2')}\n`)
    expect(text).toContain(`\nlink "Guides" @${refs.refOf('a3')}\nlink "Blog" @${refs.refOf('a4')}\n`)
    expect(text).toContain(`\nbutton "Save" @${refs.refOf('b1')}`)
    expect(text).toContain(`listitem: "path" link "<string>" @${refs.refOf('s')} "|" link "<Buffer>" @${refs.refOf('b')} "|" link "<URL>" @${refs.refOf('u')} "|" link "<integer>" @${refs.refOf('i')} "filename or file descriptor"\n`)
    // A find still names each link by itself.
    expect(outlinePage(frame, { find: 'Addy' })).toContain(`link "Addy Osmani" @${refs.refOf('a2')}`)
  })

  it('prints a data table row of many cells on one line, but not a row of controls', () => {
    const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 } }
    const cells = (row: number, texts: string[]): UiNode[] => texts.map((text, i) => ({ id: `c${row}-${i}`, kind: 'box', role: 'cell', children: [{ id: `c${row}-${i}t`, kind: 'text', text }] }))
    const long = 'a long cell text that goes on and on '.repeat(3)
    const tree: UiNode = {
      id: 'page',
      kind: 'box',
      role: 'document',
      children: [
        {
          id: 'table',
          kind: 'box',
          role: 'table',
          children: [
            { id: 'r1', kind: 'box', role: 'row', children: cells(1, ['3', 'Bert', '10/11/1969', 'Broccoli', '$0.79', '18.0', '134 B', 'A']) },
            { id: 'r2', kind: 'box', role: 'row', children: cells(2, [long, long, long, long, long, long, long]) },
            { id: 'r3', kind: 'box', role: 'row', children: Array.from({ length: 8 }, (_, i) => ({ id: `b${i}`, kind: 'box' as const, role: 'button', name: `B${i}` })) },
            { id: 'r4', kind: 'box', role: 'row', children: Array.from({ length: 8 }, (_, i) => ({ id: `w${i}`, kind: 'box' as const, role: 'button', name: `Wide button ${i}` })) },
          ],
        },
      ],
    }
    for (const node of [tree, ...(tree.children ?? [])]) layout[node.id] = { x: 0, y: 0, width: 800, height: 20 }
    const targets: TargetSpec[] = Array.from({ length: 8 }, (_, i): TargetSpec[] => [{ contract: 'click', nodeId: `b${i}` }, { contract: 'click', nodeId: `w${i}` }]).flat()
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets })
    const text = outlinePage(frame)
    expect(text).toContain('row: "3" "Bert" "10/11/1969" "Broccoli" "$0.79" "18.0" "134 B" "A"\n')
    // A row of controls is one record too (a calendar's week) …
    expect(text).toMatch(/^row: button "B0" @\w+( button "B\d" @\w+){7}$/m)
    // … but past a line's length each cell keeps a line of its own.
    expect(text).not.toMatch(/row: "a long/)
    expect(text).not.toMatch(/row: button "Wide/)
    expect(text).toMatch(/^ +button "Wide button 7" @/m)
  })

  it('shows a settings page\'s checkboxes each by name, and sums up only a very long run of them, named in English', () => {
    const settings = (count: number): Frame => {
      const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 2000 } }
      const boxes: UiNode[] = Array.from({ length: count }, (_, i) => {
        layout[`c${i}`] = { x: 0, y: 20 * i, width: 100, height: 18 }
        return { id: `c${i}`, kind: 'box', role: 'checkbox', name: `Setting ${i}` }
      })
      const tree: UiNode = { id: 'page', kind: 'box', role: 'document', children: [{ id: 'main', kind: 'box', role: 'main', children: boxes }] }
      return sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/settings', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'check'), targets: boxes.map((box) => ({ contract: 'check', nodeId: box.id })) })
    }
    const few = outlinePage(settings(12))
    expect(few).toContain('checkbox "Setting 11" @')
    expect(few).not.toContain(' more ')
    const many = outlinePage(settings(40))
    expect(many).toMatch(/… 36 more checkboxes: expand "@\w+" offset/)
  })

  it('finds elements anywhere on the page by their words, folded or not, in one call', () => {
    const frame = page(120)
    const refs = RefTable.forFrame(frame)
    const found = outlinePage(frame, { find: 'item 117' })
    // Each match names the piece around it that holds more than itself (the row of its text and its button): its expansion reads the match in context.
    expect(found).toContain(`button "Delete item 117" @${refs.refOf('del117')} !destructive in @${refs.refOf('row117')}\n`)
    // A text's own ref reads its element already: no piece is named after it.
    expect(found).toContain(`"Item 117" @${refs.refOf('row117')}\n`)
    expect(found).not.toContain('Item 116')
    expect(outlinePage(frame, { find: 'delete item' })).toContain('… 70 more matches')
    // Nothing found is the hub's word, after the header: no fence around nothing of the page.
    expect(outlinePage(frame, { find: 'nowhere' }).split('\n').slice(1)).toEqual(['nothing on the page says "nowhere"'])
  })

  it('finds elements by a regular expression, in the page\'s case unless its flags say otherwise', () => {
    const frame = page(120)
    const refs = RefTable.forFrame(frame)
    const found = outlinePage(frame, { findPattern: 'item 11[78]$' })
    expect(found).toContain(`button "Delete item 117" @${refs.refOf('del117')} !destructive`)
    expect(found).toContain(`button "Delete item 118" @${refs.refOf('del118')} !destructive`)
    expect(found).not.toContain('item 119')
    expect(outlinePage(frame, { findPattern: 'DELETE item 117' })).toContain('nothing on the page matches "DELETE item 117"')
    expect(outlinePage(frame, { findPattern: '/DELETE item 117/i' })).toContain('"Delete item 117"')
    expect(() => outlinePage(frame, { findPattern: 'item(?= 117)' })).toThrow(/expected "regex" to be a regular expression that runs in time linear/)
    expect(() => outlinePage(frame, { findPattern: '[' })).toThrow(/expected "regex" to be a regular expression/)
    // Nothing to look for is a typed error, not a list of everything.
    expect(() => outlinePage(frame, { find: ' \t ' })).toThrow(/expected "find" to hold some words/)
    // A heading named by the link it holds prints bare: the link is what is found, the heading shows nothing of it.
    const linked = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', layout: { page: { x: 0, y: 0, width: 800, height: 600 }, h: { x: 0, y: 0, width: 300, height: 30 }, a: { x: 0, y: 0, width: 300, height: 30 } }, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets: [{ contract: 'click', nodeId: 'a' }], tree: {
      id: 'page', kind: 'box', role: 'document', children: [{ id: 'h', kind: 'box', role: 'heading', name: 'Editor sample', children: [{ id: 'a', kind: 'box', role: 'link', name: 'Editor sample' }] }] } })
    expect(outlinePage(linked)).toMatch(/^heading: link "Editor sample" @\w+$/m)
    expect(outlinePage(linked, { find: 'editor' }).split('\n').slice(2, -1)).toEqual([`link "Editor sample" @${RefTable.forFrame(linked).refOf('a')}`])
  })

  it('finds a line of a block of code by a pattern whose ^ and $ mark the ends of its lines', () => {
    const code = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', layout: {}, state: {}, contracts: [], targets: [], tree: {
      id: 'page', kind: 'box', role: 'document', children: [{ id: 'pre', kind: 'text', role: 'code', text: 'alpha\n  beta\ngamma' }, { id: 'p', kind: 'text', text: 'beta\nis a letter' }] } })
    // Before, the block was searched as one line of words ("alpha beta gamma"): `beta$` found nothing.
    expect(outlinePage(code, { findPattern: 'beta$' })).toContain('"alpha\\n  beta\\ngamma"')
    expect(outlinePage(code, { findPattern: '^\\s+beta$' })).toContain('"alpha\\n  beta\\ngamma"')
    expect(outlinePage(code, { findPattern: '^gamma$' })).toContain('"alpha\\n  beta\\ngamma"')
    // Prose is its words: a line break the page's source happens to hold is no line end.
    expect(outlinePage(code, { findPattern: '^is a' })).toContain('nothing on the page matches "^is a"')
  })

  it('says which gone element a line that reads the same under a new ref stands for', () => {
    const outline = (body: string[]): string => ['browser-1 http://127.0.0.1:9/ frame 1', '--- page abc123 (untrusted) ---', ...body, '--- end abc123 ---'].join('\n')
    const around = ['heading "Sign up"', 'link "Help" @1', 'link "Terms" @2', '"Three steps, two minutes"']
    const before = outline([...around, 'heading "Step 1"', 'textbox "Name" @3', 'button "Next" @4'])
    const after = outline([...around, 'heading "Step 2"', 'textbox "Plan" @6', 'button "Next" @8'])
    // Before, "Next" @4 went unsaid: an agent reading the changes thought both were there.
    expect(pageDelta(before, after)).toContain('\n+ button "Next" @8 (was @4)\n')
    // Still on the page (out of view, folded): nothing went, and the new one is just new.
    const kept = pageDelta(before, after, { present: (ref) => ref === '4' })
    expect(kept).toContain('\n+ button "Next" @8\n')
    // A run drawn anew as one (a list's footer on every change) names no old refs: they went together, and each would cost tokens.
    const footer = (refs: number[]): string => outline([...around, 'heading "Step 1"', `link "All" @${refs[0]}`, `link "Active" @${refs[1]}`, `link "Completed" @${refs[2]}`])
    const redrawn = pageDelta(footer([10, 11, 12]), footer([20, 21, 22]))
    expect(redrawn).toContain('\n+ link "All" @20\n')
    expect(redrawn).not.toContain('(was @')
  })

  it('answers an action with the lines that changed, fenced like the page', () => {
    const before = outlinePage(page())
    const after = outlinePage(page(40, 'ada'))
    const delta = pageDelta(before, after)
    // Same URL: the header is the tile alone, nothing the agent has already, nor a frame id the browser's tools take none of.
    expect(delta.split('\n')[0]).toBe('browser-1')
    const moved = pageDelta(before, outlinePage({ ...page(40, 'ada'), route: 'http://127.0.0.1:9/shop#/active' }))
    // What changed of the URL; a URL on the same site, by what changed of it.
    expect(moved.split('\n')[0]).toBe('browser-1 #/active')
    const headerFor = (route: string): string => pageDelta(before, outlinePage({ ...page(40, 'ada'), route })).split('\n')[0] as string
    expect(headerFor('http://127.0.0.1:9/cart?step=2')).toBe('browser-1 /cart?step=2')
    expect(headerFor('http://localhost:9/shop')).toBe('browser-1 http://localhost:9/shop')
    // A data: URL is a page of its own words, blanks and all: one word of the header, cut, and said once.
    const data = `data:text/html,<p>hello there</p>${'<p>more</p>'.repeat(300)}`
    const opened = outlinePage({ ...page(40, 'ada'), route: data })
    expect(opened.split('\n')[0]).toBe(`browser-1 data:text/html,<p>hello%20there</p>${'<p>more</p>'.repeat(300)}`.slice(0, 'browser-1 '.length + 199) + '… frame ' + (/frame ([0-9a-f]{12})$/m.exec(opened)?.[1] ?? ''))
    expect(pageDelta(opened, outlinePage({ ...page(40, 'bob'), route: data })).split('\n')[0]).toBe('browser-1')
    const renamed = page(40, 'ada')
    const retitled = pageDelta(before, outlinePage({ ...renamed, tree: { ...renamed.tree, name: 'Cart' } }))
    // A new title is a line that changed, under the tile alone.
    expect(retitled.split('\n')[0]).toBe('browser-1')
    expect(retitled).toMatch(/^~ title "Cart"$/m)
    expect(delta).toMatch(/--- changes [0-9a-f]{6} \(untrusted/)
    // The field is still there under its ref: one line says how it reads now.
    expect(delta).toMatch(/^~ textbox "User": "ada" @[n1-9]/m)
    expect(delta).not.toMatch(/^- textbox "User"/m)
    expect(pageDelta(before, outlinePage(page()))).toContain('page unchanged')
  })

  it('pairs a changed line by the ref it shows, never by a handle a page text quotes', () => {
    const same = ['heading "Team"', '"Who is who"', 'link "Home" @1', 'link "Help" @2', 'button "Menu" @3']
    const outline = (lines: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', ...same, ...lines, '--- end abcdef ---'].join('\n')
    const delta = pageDelta(outline(['"ask @nicolas" link "Profile" @4', 'button "Save" @5']), outline(['"ask @nicolas again" link "Profile" @9', 'button "Save" @5 (focused)']))
    expect(delta).toContain('- "ask @nicolas" link "Profile" @4')
    expect(delta).toContain('+ "ask @nicolas again" link "Profile" @9')
    expect(delta).toContain('~ button "Save" @5 (focused)')
  })

  it('shows a vanished element by its outermost line, with a count of what went with it', () => {
    const outline = (lines: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', 'heading "Speed"', ...lines, '"Pick one"', '--- end abcdef ---'].join('\n')
    const open = outline(['combobox "Medium" @3 (expanded)', 'listbox "Medium" @9', '  option "Slow" @10', '  option "Medium" @11', '  group "More" @12', '    option "Fast" @13', 'dialog "Help" @20', '  "Read this"'])
    const closed = pageDelta(open, outline(['combobox "Fast" @3 (collapsed)', 'dialog "Help" @20', '  "Read this"']))
    expect(closed).toContain('- listbox "Medium" @9 (+4 inside)')
    expect(closed).not.toMatch(/^- option/m)
    expect(closed).toContain('~ combobox "Fast" @3 (collapsed)')
    // An element still on the page that only left what the outline shows (a scroll, a jump) did not vanish.
    const scrolled = pageDelta(open, outline(['combobox "Fast" @3 (collapsed)']), { present: (ref) => ref === '9', says: (text) => text === 'Read this' })
    expect(scrolled).not.toContain('listbox')
    expect(scrolled).toContain('- option "Slow" @10')
    expect(scrolled).not.toContain('Read this')
    expect(scrolled).toContain('- dialog "Help" @20')
    // A bare structure line that took nothing with it says nothing: it may only have scrolled away.
    const list = outline(['list', '  link "Home" @1', 'button "Go" @2'])
    const away = pageDelta(list, outline(['button "Go" @2']), { present: (ref) => ref === '1' })
    expect(away).not.toContain('- list')
    expect(pageDelta(list, outline(['button "Go" @2']))).toContain('- list (+1 inside)')
    // Nor does one that took only other bare lines with it: a list item's nesting scrolled into a fold.
    const nested = outline(['listitem', '  link "Class: FileHandle" @1', '  list', '    link "Event: close" @3', 'button "Go" @2'])
    expect(pageDelta(nested, outline(['button "Go" @2']), { present: () => true })).toBe(pageDelta(list, list))
    // A fold line that went is the outline's own; one that came says where the rest is.
    const folded = pageDelta(outline(['button "Top" @1', '… 40 lines, 9 actions below the view, from "Later": expand "@2"']), outline(['… 3 lines, 1 action above the view, from "Speed": expand "@0"', 'button "End" @30']))
    expect(folded).not.toContain('- … 40 lines')
    expect(folded).toContain('+ … 3 lines, 1 action above the view')
    // What stays under an element that changed is not counted on anything; what went from it is listed.
    const emptied = pageDelta(open, outline(['combobox "Medium" @3 (expanded)', 'listbox "Medium" @9', '  option "Slow" @10', 'dialog "Help" @20', '  "Read this"']))
    expect(emptied).toContain('- option "Medium" @11')
    expect(emptied).toContain('- group "More" @12 (+1 inside)')
    expect(emptied).not.toContain('listbox')
  })

  it('adds what changed on an acted element neither outline shows (folded out of view), or says the page is unchanged', () => {
    const frameWith = (checked: boolean, goFocused = false): Frame => {
      const layout: Layout = { page: { x: 0, y: 0, width: 800, height: 600 }, go: { x: 0, y: 10, width: 80, height: 20 } }
      const rows: UiNode[] = Array.from({ length: 40 }, (_, i) => {
        layout[`c${i}`] = { x: 0, y: 900 + i * 30, width: 20, height: 20 }
        return { id: `c${i}`, kind: 'box', role: 'checkbox', name: `Option ${i}`, ...(checked && i === 39 ? { states: { checked: true } } : {}) }
      })
      const tree: UiNode = { id: 'page', kind: 'box', role: 'document', children: [{ id: 'go', kind: 'box', role: 'button', name: 'Go', ...(goFocused ? { states: { focused: true } } : {}) }, { id: 'opts', kind: 'box', role: 'group', name: 'Options', children: rows }] }
      const targets: TargetSpec[] = [{ contract: 'click', nodeId: 'go' }, ...rows.map((row): TargetSpec => ({ contract: 'click', nodeId: row.id }))]
      return sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/', tree, layout, state: {}, contracts: BROWSER_ACTIONS.contracts.filter((c) => c.id === 'click'), targets })
    }
    const [was, now] = [frameWith(false), frameWith(true)]
    const ref = RefTable.forFrame(now).refOf('c39') as string
    const [before, after] = [outlinePage(was), outlinePage(now)]
    expect(after).not.toContain(`@${ref}`)
    const news = withActedNews(pageDelta(before, after), [ref], { frame: was, outline: before }, { frame: now, outline: after })
    expect(news.split('\n').slice(1, 4)).toEqual([expect.stringMatching(/^--- changes \w+ \(untrusted\) ---$/), `~ checkbox "Option 39" @${ref} (checked)`, expect.stringMatching(/^--- end \w+ ---$/)])
    // Nothing changed on it: the answer stays as it was.
    expect(withActedNews(pageDelta(before, before), [ref], { frame: was, outline: before }, { frame: was, outline: before })).toBe(pageDelta(before, before))
    // Nothing its tree says changed, but its classes did: its line says so, shown or folded.
    const go = RefTable.forFrame(was).refOf('go') as string
    const classes = new Map([[go, { added: ['ui-selected'], removed: ['idle'] }]])
    const looked = withActedNews(pageDelta(before, before), [go], { frame: was, outline: before }, { frame: was, outline: before }, { elements: classes })
    expect(looked.split('\n').slice(1, 4)).toEqual([expect.stringMatching(/^--- changes \w+ \(untrusted\) ---$/), `~ button "Go" @${go} class +ui-selected -idle`, expect.stringMatching(/^--- end \w+ ---$/)])
    // The focus the click gave it is no news there either.
    const focusedGo = frameWith(false, true)
    const focusedOutline = outlinePage(focusedGo)
    expect(focusedOutline).toContain(`button "Go" @${go} (focused)`)
    expect(withActedNews(pageDelta(before, focusedOutline, { acted: [go] }), [go], { frame: was, outline: before }, { frame: focusedGo, outline: focusedOutline }, { elements: classes })).toContain(`~ button "Go" @${go} class +ui-selected -idle`)
    // A class its siblings hold too: a choice added to, not moved.
    const added = new Map([[go, { added: ['ui-selected'], removed: [], alsoOn: 2 }]])
    expect(withActedNews(pageDelta(before, before), [go], { frame: was, outline: before }, { frame: was, outline: before }, { elements: added })).toContain(`~ button "Go" @${go} class +ui-selected (also on 2 siblings)`)
    // Where the delta already shows it changing, its classes are not said.
    expect(withActedNews(pageDelta(before, after), [ref], { frame: was, outline: before }, { frame: now, outline: after }, { elements: new Map([[ref, { added: ['on'], removed: [] }]]) })).not.toContain('class +on')
    // The page's own classes (a theme toggled on html) are said where nothing else changed, and only there.
    const themed = withActedNews(pageDelta(before, before), [], { frame: was, outline: before }, { frame: was, outline: before }, { elements: new Map(), page: { added: ['dark-mode'], removed: [] } })
    expect(themed.split('\n')[2]).toBe('~ page class +dark-mode')
    const checked = withActedNews(pageDelta(before, after), [ref], { frame: was, outline: before }, { frame: now, outline: after }, { elements: new Map(), page: { added: ['dark-mode'], removed: [] } })
    expect(checked).toContain('(checked)')
    expect(checked).not.toContain('dark-mode')
  })

  it('reads the elements of a line that unpacked (a fourth button came) as still there, not as new, and as no news where they say the same', () => {
    const outline = (lines: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', ...lines, '--- end abcdef ---'].join('\n')
    const packed = outline(['heading "People": button "Collapse" @13 (pressed) button "Add Person" @14 button "Delete Last Person" @15 !destructive', '"0 - John"'])
    const unpacked = outline(['heading "People"', '  button "Collapse" @13', '  button "Add Person" @14 (focused)', '  button "Delete Last Person" @15 (disabled) !destructive', '  button "Delete All" @91', '"0 - John"', '"1 -"'])
    expect(pageDelta(packed, unpacked, { acted: ['14'] }).split('\n').filter((line) => /^[~+-] /.test(line))).toEqual([
      // It lost a state on the way: news.
      '~ button "Collapse" @13',
      // Clicked, it took focus, and says what it said packed: no news.
      '~ button "Delete Last Person" @15 (disabled) !destructive',
      '+ button "Delete All" @91',
      '+ "1 -"',
    ])
    // Unpacked, each word for word as before: only what came is news; so is focus that came to an element not acted on.
    const same = outline(['heading "People"', '  button "Collapse" @13 (pressed)', '  button "Add Person" @14', '  button "Delete Last Person" @15 !destructive (focused)', '  button "Delete All" @91', '"0 - John"'])
    expect(pageDelta(packed, same, { acted: ['14'] }).split('\n').filter((line) => /^[~+-] /.test(line))).toEqual(['~ button "Delete Last Person" @15 !destructive (focused)', '+ button "Delete All" @91'])
  })

  it('reads a line of text alone that came back word for word elsewhere as moved, not as new (a sorted table\'s row)', () => {
    const outline = (rows: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', 'row', '  columnheader "Name" @5', ...rows, '--- end abcdef ---'].join('\n')
    const [ernie, bert, gonzo] = ['row: "1" "Ernie"', 'row: "3" "Bert"', 'row: "2" "Gonzo"']
    const sorted = pageDelta(outline([ernie, bert, gonzo]), outline([bert, ernie, gonzo]))
    expect(sorted.split('\n').filter((line) => /^[~+-] /.test(line))).toEqual([expect.stringMatching(/^~ row: "(1" "Ernie" moved after "3"|3" "Bert" moved to the top)$/)])
    // A bare structure line is no text that moved: a list that came where another went is a new one.
    const lists = pageDelta(outline(['list', '  link "A" @1', 'button "Go" @2']), outline(['button "Go" @2', 'list', '  link "B" @3']))
    expect(lists).not.toContain('moved')
    // Nor news of its own: what it holds says a list came.
    expect(lists.split('\n').filter((line) => line.startsWith('+ '))).toEqual(['+ link "B" @3'])
  })

  it('lists lines that went side by side while they are short together, and counts the rest on the last one listed', () => {
    const outline = (lines: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', 'textbox "Date" @1', ...lines, '--- end abcdef ---'].join('\n')
    const week = (from: number): string => `row: ${Array.from({ length: 7 }, (_, i) => `link "${from + i}" @e${100 + from + i}`).join(' ')}`
    const calendar = ['link "Prev" @2', 'link "Next" @3', '"November 2026"', 'row: "Su" "Mo" "Tu" "We" "Th" "Fr" "Sa"', week(1), week(8), week(15), 'list', '  link "Today" @8']
    const gone = (delta: string): string[] => delta.split('\n').filter((line) => /^[~+-] /.test(line))
    // Nine lines went, one more inside the last: the first four fit, the rest is counted on the fourth.
    expect(gone(pageDelta(outline(calendar), outline([])))).toEqual(['- link "Prev" @2', '- link "Next" @3', '- "November 2026"', '- row: "Su" "Mo" "Tu" "We" "Th" "Fr" "Sa" (+5 lines after it)'])
    // A deleted todo and the footer it took along are short together: every line is listed.
    const footer = ['checkbox @41', 'listitem: checkbox @44 clickable "Walk dog" @52 button "✖" @53', '"1 item left"', 'link "All" @47', 'link "Active" @49', 'link "Completed" @51']
    expect(gone(pageDelta(outline(footer), outline([])))).toEqual(footer.map((line) => `- ${line}`))
    // Lines that went apart from one another are runs of their own.
    const apart = pageDelta(outline([...calendar.slice(0, 3), 'button "Keep" @9', ...calendar.slice(3)]), outline(['button "Keep" @9']))
    expect(gone(apart)).toEqual(['- link "Prev" @2', '- link "Next" @3', '- "November 2026"', '- row: "Su" "Mo" "Tu" "We" "Th" "Fr" "Sa"', `- ${week(1)} (+4 lines after it)`])
    // One line left over is listed, not counted.
    expect(gone(pageDelta(outline([week(1), week(8)]), outline([])))).toEqual([`- ${week(1)}`, `- ${week(8)}`])
  })

  it('leaves out a line whose only change is that focus left it, but not one a page text could fake', () => {
    const outline = (lines: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', 'heading "Todos"', 'link "All" @1', ...lines, '--- end abcdef ---'].join('\n')
    const before = outline(['textbox "New" @2 (focused)', 'checkbox @3 (checked, focused) "Milk" button "x" @4', 'button "Save" @5'])
    const moved = pageDelta(before, outline(['textbox "New" @2', 'checkbox @3 (checked) "Milk" button "x" @4', 'button "Save" @5 (focused)']))
    expect(moved).toContain('~ button "Save" @5 (focused)')
    expect(moved).not.toContain('@2')
    expect(moved).not.toContain('@3')
    // Focus went nowhere the outline shows: nothing visible changed.
    expect(pageDelta(before, outline(['textbox "New" @2', 'checkbox @3 (checked, focused) "Milk" button "x" @4', 'button "Save" @5']))).toContain('page unchanged')
    // A state lost with focus is a change; so is a page text that only looked like a state.
    expect(pageDelta(before, outline(['textbox "New" @2', 'checkbox @3 "Milk" button "x" @4', 'button "Save" @5']))).toContain('~ checkbox @3 "Milk" button "x" @4')
    // Focus that came to the element acted on is no news either; focus that came elsewhere is.
    expect(pageDelta(before, outline(['textbox "New" @2', 'checkbox @3 (checked) "Milk" button "x" @4', 'button "Save" @5 (focused)']), { acted: ['@5'] })).toContain('page unchanged')
    expect(pageDelta(before, outline(['textbox "New" @2', 'checkbox @3 (checked) "Milk" button "x" @4', 'button "Save" @5 (focused)']), { acted: ['@4'] })).toContain('~ button "Save" @5 (focused)')
    const quoted = outline(['textbox "New (focused)" @2', 'button "Save" @5'])
    expect(pageDelta(quoted, outline(['textbox "New ()" @2', 'button "Save" @5']))).toContain('~ textbox "New ()" @2')
    // Typed into a field that took focus on the way (a modal form's Email): its new value is news, the focus it took is not.
    const form = outline(['textbox "Name": "Jane" @2 (focused)', 'textbox "Email": "jane@example.com" @3'])
    const typed = pageDelta(form, outline(['textbox "Name": "Jane" @2', 'textbox "Email": "not an email" @3 (focused)']), { acted: ['3'] })
    expect(typed.split('\n').filter((line) => /^[~+-] /.test(line))).toEqual(['~ textbox "Email": "not an email" @3'])
    // A line that went says what went, not where focus was.
    expect(pageDelta(form, outline(['textbox "Email": "jane@example.com" @3']))).toContain('- textbox "Name": "Jane" @2\n')
  })

  it('says where an element that moved went, once for it and what it holds', () => {
    const outline = (lines: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', 'heading "Board"', 'list @1', ...lines, '--- end abcdef ---'].join('\n')
    const items = ['  listitem "Item 1" @2', '  listitem "Item 2" @3', '  listitem "Item 3" @4']
    const dragged = pageDelta(outline(items), outline([items[1] as string, items[0] as string, items[2] as string]), { present: () => true, says: () => true })
    expect(dragged).toMatch(/^~ listitem "Item (1" @2 moved after @3|2" @3 moved first in @1)$/m)
    expect(dragged.split('\n').filter((line) => /^[~+-] /.test(line))).toHaveLength(1)
    // A card moved to the end of another column, with its text and button: one line says it.
    const board = ['list "To do" @1', '  listitem @2', '    "Write the docs"', '    button "Edit" @3', '  listitem "Review" @4', 'list "Done" @5', '  listitem "Ship" @6']
    const after = ['list "To do" @1', '  listitem "Review" @4', 'list "Done" @5', '  listitem "Ship" @6', '  listitem @2', '    "Write the docs"', '    button "Edit" @3']
    const across = pageDelta(outline(board), outline(after), { present: () => true, says: () => true })
    expect(across).toContain('~ listitem @2 moved after @6')
    expect(across).not.toContain('Write the docs')
    expect(across).not.toContain('@3')
    // What changed inside it on the way is still said: its button now reads "Reopen".
    const changedOnTheWay = pageDelta(outline(board), outline([...after.slice(0, -1), '    button "Reopen" @3']), { present: () => true, says: () => true })
    expect(changedOnTheWay).toContain('~ listitem @2 moved after @6')
    expect(changedOnTheWay).toContain('~ button "Reopen" @3')
    expect(changedOnTheWay).not.toContain('Write the docs')
    // A line that changed where it is stays a change, not a move.
    expect(pageDelta(outline(items), outline(['  listitem "Item 1" @2 (selected)', items[1] as string, items[2] as string]))).toContain('~ listitem "Item 1" @2 (selected)\n')
  })

  it('reads a text that took another\'s place as one changed line', () => {
    const outline = (lines: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', 'heading "todos"', ...lines, 'link "All" @9', '--- end abcdef ---'].join('\n')
    const counted = pageDelta(outline(['listitem: checkbox @1 "Milk"', '"1 item left"']), outline(['listitem: checkbox @2 "Milk"', 'listitem: checkbox @3 "Dog"', '"2 items left"']))
    expect(counted).toContain('~ "2 items left"')
    expect(counted).not.toContain('1 item left')
    expect(counted).toContain('+ listitem: checkbox @3 "Dog"')
    // Only lines of the same shape pair: a heading that came is news of its own, and a text the page still says did not go.
    const other = pageDelta(outline(['"Saving…"']), outline(['heading "Saved"']))
    expect(other).toContain('- "Saving…"')
    expect(other).toContain('+ heading "Saved"')
    expect(pageDelta(outline(['"Draft"']), outline(['"Final"']), { says: (text) => text === 'Draft' })).toContain('+ "Final"')
  })

  it('says a named panel went though its name is still its tab\'s', () => {
    const outline = (lines: string[]): string => ['browser-1 frame 000000000000', '--- page abcdef (untrusted) ---', 'tablist @1', '  tab "One" @2 (selected)', '  tab "Two" @3', ...lines, '--- end abcdef ---'].join('\n')
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/tabs', layout: {}, state: {}, contracts: [], targets: [], tree: {
      id: 'page', kind: 'box', role: 'document', children: [
        { id: 'one', kind: 'box', role: 'tab', name: 'One' },
        { id: 'panel', kind: 'box', role: 'tabpanel', name: 'Two', children: [{ id: 't', kind: 'text', text: 'Second' }] },
      ] } })
    const shown = presenceIn(frame)
    expect(shown.named('tab', 'One')).toBe(true)
    expect(shown.named('tabpanel', 'One')).toBe(false)
    expect(shown.named('tabpanel', 'T…')).toBe(true)
    const swapped = pageDelta(outline(['tabpanel "One"', '  "First…" @8']), outline(['tabpanel "Two"', '  "Second…" @9']), shown)
    expect(swapped).toContain('- tabpanel "One" (+1 inside)')
    expect(swapped).toContain('+ tabpanel "Two"')
    // Without a way to ask for role and name, its text stands for it, as before.
    expect(pageDelta(outline(['tabpanel "One"', '  "First…" @8']), outline(['tabpanel "Two"', '  "Second…" @9']), { says: shown.says })).not.toContain('- tabpanel "One"')
  })

  it('knows a paragraph the outline joined from several texts is still on the page', () => {
    const frame = sealFrame({ surface: 'browser-1', route: 'http://127.0.0.1:9/manual', layout: {}, state: {}, contracts: [], targets: [], tree: {
      id: 'page', kind: 'box', role: 'document', children: [{ id: 'p', kind: 'box', role: 'paragraph', children: [
        { id: 't1', kind: 'text', text: 'This is Edition 5.2, last updated 19 September 2022, of' },
        { id: 't2', kind: 'text', text: 'The GNU Bash Reference Manual' },
        { id: 't3', kind: 'text', text: ', for Bash.' },
      ] }] } })
    const { says } = presenceIn(frame)
    expect(says('This is Edition 5.2, last updated 19 September 2022, of The GNU Bash Reference Manual , for Bash.')).toBe(true)
    expect(says('This is Edition 5.2, last updated 19 Sept…')).toBe(true)
    expect(says('The GNU Bash Reference Manual')).toBe(true)
    // A short text begins too many lines to stand for one.
    expect(says(', for Bash. And more words that went')).toBe(false)
    expect(says('Edition 6 is out')).toBe(false)
  })
})
