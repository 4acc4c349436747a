import { describe, expect, it } from 'vitest'
import { agentAction } from './agent-action.js'
import { box, image, text } from './elements.js'
import { buildFrame } from './frame.js'
import { renderDom } from './render-dom.js'
import { escapeAttribute, escapeText, renderHtml } from './render-html.js'

const hostile = buildFrame({
  surface: 'evil"surface',
  route: '/x?a=<b>',
  state: {},
  viewport: { width: 400, height: 200 },
  tree: box({ style: { padding: 4, background: 'red;background:url(http://evil.test/x)' } }, [
    text({ key: 'script', text: '<script>alert(1)</script> & "quoted" \'single\'' }),
    text({ key: 'named', text: 'x', name: '" onmouseover="alert(1)' }),
    image({ key: 'js', src: 'javascript:alert(1)', alt: 'bad "alt"', style: { width: 10, height: 10 } }),
    image({ key: 'ok', src: 'https://cdn.test/logo.png', alt: 'Logo', style: { width: 10, height: 10 } }),
    image({ key: 'data', src: 'data:image/png;base64,AAAA', alt: 'Inline', style: { width: 10, height: 10 } }),
    box({ key: 'pw', role: 'textbox', name: 'Password', value: 'hunter2', sensitive: true, style: { height: 20, color: '#333' } }),
    text({ key: 'secret', text: 'card 4111', sensitive: true }),
    box({ key: 'buttons', style: { flexDirection: 'row' }, states: { disabled: true } }, [
      box({ semantic: { agentAction: agentAction({ id: 'delete-all', kind: 'delete', title: 'Delete <all>', risk: 'destructive' }) } }, [
        text('Delete'),
      ]),
    ]),
  ]),
})

describe('renderHtml', () => {
  const html = renderHtml(hostile)

  it('never wraps a text the layout kept on one line, even in a row that stretches it taller', () => {
    const row = buildFrame({
      surface: 's',
      route: '/',
      state: {},
      viewport: { width: 400, height: 100 },
      tree: box({ key: 'row', style: { flexDirection: 'row', height: 28 } }, [text({ key: 'v', text: 'Ada Brennan' }), text({ key: 'long', text: 'one two three four five six seven eight nine ten eleven twelve thirteen', style: { width: 120 } })]),
    })
    const markup = renderHtml(row)
    expect(markup).toMatch(/data-node-id="row\/v"[^>]*white-space:nowrap/)
    expect(markup).toMatch(/data-node-id="row\/long"[^>]*white-space:pre-line/)
  })

  it('escapes text so markup in it stays text', () => {
    expect(html).not.toContain('<script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; "quoted" \'single\'')
  })

  it('escapes attributes so a label cannot open a new attribute', () => {
    expect(html).not.toContain('" onmouseover')
    expect(html).toContain('aria-label="&quot; onmouseover=&quot;alert(1)"')
    expect(html).toContain('data-surface="evil&quot;surface"')
    expect(html).toContain('data-route="/x?a=&lt;b&gt;"')
  })

  it('keeps only http(s) and inline image URLs', () => {
    expect(html).not.toContain('javascript:')
    expect(html).toContain('<img data-node-id="root/js" data-kind="image" data-role="img" role="img" aria-label="bad &quot;alt&quot;" alt="bad &quot;alt&quot;" style=')
    expect(html).toContain('src="https://cdn.test/logo.png"')
    expect(html).toContain('src="data:image/png;base64,AAAA"')
  })

  it('drops CSS values that could load or inject anything', () => {
    expect(html).not.toContain('url(')
    expect(html).not.toContain('evil.test')
    expect(html).toContain('color:#333')
  })

  it('masks sensitive values and does not repeat them in labels', () => {
    expect(html).not.toContain('hunter2')
    expect(html).not.toContain('4111')
    expect(html).toContain('aria-label="Password"')
    expect(html).toContain('•••')
  })

  it('renders actions as buttons carrying id, risk and disabled state', () => {
    expect(html).toContain(
      '<button data-node-id="root/buttons/delete-all" aria-label="Delete &lt;all&gt;" type="button" data-action="delete-all" data-risk="destructive" disabled="" aria-disabled="true"',
    )
  })

  it('places each node absolutely at its bounds relative to its parent', () => {
    const frame = buildFrame({
      surface: 's',
      route: '/',
      state: {},
      viewport: { width: 100, height: 50 },
      tree: box({ style: { padding: 10 } }, [box({ key: 'inner', style: { height: 20, padding: 5 } }, [text('hi')])]),
    })
    expect(renderHtml(frame, { className: 'shot' })).toBe(
      `<div class="shot" data-frame-id="${frame.id}" data-surface="s" data-route="/" style="position:relative;width:100px;height:50px;overflow:hidden;font-family:monospace;font-size:14px;line-height:17.5px">` +
        '<div data-node-id="root" style="position:absolute;left:0px;top:0px;width:100px;height:50px;box-sizing:border-box;margin:0">' +
        '<div data-node-id="root/inner" style="position:absolute;left:10px;top:10px;width:80px;height:20px;box-sizing:border-box;margin:0">' +
        '<span data-node-id="root/inner/text0" data-kind="text" data-role="text" aria-label="hi" style="position:absolute;left:5px;top:5px;width:70px;height:17.5px;box-sizing:border-box;margin:0;font-size:14px;line-height:17.5px;white-space:nowrap;overflow-wrap:anywhere">hi</span>' +
        '</div></div></div>',
    )
  })
})

/** Just enough of the DOM for renderDom, serialized the way renderHtml writes HTML. */
class FakeElement {
  readonly attributes: Array<[string, string]> = []
  readonly styles: Array<[string, string]> = []
  readonly children: FakeElement[] = []
  textContent: string | null = null
  readonly style = { setProperty: (name: string, value: string) => void this.styles.push([name, value]) }
  constructor(readonly tagName: string) {}
  set innerHTML(_value: string) {
    throw new Error('renderDom must never use innerHTML')
  }
  get firstChild(): FakeElement | null {
    return this.children[0] ?? null
  }
  setAttribute(name: string, value: string): void {
    this.attributes.push([name, value])
  }
  appendChild(child: FakeElement): FakeElement {
    this.children.push(child)
    return child
  }
  removeChild(child: FakeElement): FakeElement {
    this.children.splice(this.children.indexOf(child), 1)
    return child
  }
  toHtml(): string {
    const attributes = this.attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('')
    const style = this.styles.length ? ` style="${escapeAttribute(this.styles.map(([name, value]) => `${name}:${value}`).join(';'))}"` : ''
    const open = `<${this.tagName}${attributes}${style}>`
    if (this.tagName === 'img') return open
    return `${open}${this.textContent === null ? '' : escapeText(this.textContent)}${this.children.map((child) => child.toHtml()).join('')}</${this.tagName}>`
  }
}

describe('renderDom', () => {
  it('builds the same structure as renderHtml through the DOM API, replacing the container content', () => {
    const document = { createElement: (tag: string) => new FakeElement(tag) }
    const container = new FakeElement('section')
    container.appendChild(new FakeElement('p'))
    const root = renderDom(hostile, document as unknown as Document, container as unknown as HTMLElement)
    expect(container.children).toEqual([root])
    expect((root as unknown as FakeElement).toHtml()).toBe(renderHtml(hostile))
  })
})
