import type { Frame } from '@tessera/protocol'
import { type RenderElement, type RenderOptions, describeFrame } from './render-model.js'

export type RenderDomOptions = RenderOptions

/**
 * Draws the frame into `container` (replacing its content) with createElement,
 * setAttribute and textContent only — never innerHTML — so frame content can never become
 * markup. Returns the frame's outer element.
 */
export function renderDom(
  frame: Frame,
  document: Document,
  container: HTMLElement,
  options: RenderDomOptions = {},
): HTMLElement {
  const element = create(document, describeFrame(frame, options))
  while (container.firstChild !== null) container.removeChild(container.firstChild)
  container.appendChild(element)
  return element
}

function create(document: Document, description: RenderElement): HTMLElement {
  const element = document.createElement(description.tag)
  for (const [name, value] of description.attributes) element.setAttribute(name, value)
  for (const [property, value] of description.style) element.style.setProperty(property, value)
  if (description.text !== undefined) element.textContent = description.text
  for (const child of description.children) element.appendChild(create(document, child))
  return element
}
