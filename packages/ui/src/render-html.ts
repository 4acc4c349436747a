import type { Frame } from '@tessera/protocol'
import { type RenderElement, type RenderOptions, describeFrame } from './render-model.js'

export type RenderHtmlOptions = RenderOptions

/**
 * A self-contained HTML fragment of the frame: every node an absolutely positioned
 * element at its layout bounds, actions as buttons carrying their id and risk. All frame
 * content is escaped, so a hostile label or URL stays text.
 */
export function renderHtml(frame: Frame, options: RenderHtmlOptions = {}): string {
  const parts: string[] = []
  serialize(describeFrame(frame, options), parts)
  return parts.join('')
}

function serialize(element: RenderElement, out: string[]): void {
  out.push('<', element.tag)
  for (const [name, value] of element.attributes) out.push(' ', name, '="', escapeAttribute(value), '"')
  if (element.style.length > 0) {
    out.push(' style="', escapeAttribute(element.style.map(([property, value]) => `${property}:${value}`).join(';')), '"')
  }
  out.push('>')
  if (element.tag === 'img') return
  if (element.text !== undefined) out.push(escapeText(element.text))
  for (const child of element.children) serialize(child, out)
  out.push('</', element.tag, '>')
}

export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'))
}

export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ATTRIBUTE_ENTITIES[ch] ?? ch)
}

const ATTRIBUTE_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
