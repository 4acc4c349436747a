import { describe, expect, it } from 'vitest'
import { box, image, scene, text } from './elements.js'

describe('elements', () => {
  it('text from a string names itself and takes the text role', () => {
    expect(text('Hello')).toEqual({ kind: 'text', role: 'text', name: 'Hello', text: 'Hello' })
  })

  it('text from props keeps an explicit name, role and style', () => {
    expect(text({ text: 'Hi', name: 'Greeting', role: 'heading', style: { fontSize: 20 } })).toEqual({
      kind: 'text',
      role: 'heading',
      name: 'Greeting',
      text: 'Hi',
      style: { fontSize: 20 },
    })
  })

  it('sensitive text does not leak its content into its name', () => {
    const secret = text({ text: 'hunter2', sensitive: true })
    expect(secret).toEqual({ kind: 'text', role: 'text', text: 'hunter2', semantic: { sensitive: true } })
    expect(secret.name).toBeUndefined()
  })

  it('image is named by its alt text and has the img role', () => {
    expect(image({ src: 'https://x.test/a.png', alt: 'Logo' })).toEqual({
      kind: 'image',
      role: 'img',
      name: 'Logo',
      src: 'https://x.test/a.png',
    })
  })

  it('box has no default role; scene has the scene role', () => {
    expect(box()).toEqual({ kind: 'box' })
    expect(scene({ key: 's' })).toEqual({ kind: 'scene', key: 's', role: 'scene' })
  })

  it('carries common props and merges the sensitive shorthand into semantic', () => {
    const node = box({
      id: 'pw',
      key: 'k',
      role: 'textbox',
      name: 'Password',
      value: 'x',
      states: { disabled: true },
      semantic: { description: 'login password' },
      sensitive: true,
    })
    expect(node).toEqual({
      id: 'pw',
      key: 'k',
      kind: 'box',
      role: 'textbox',
      name: 'Password',
      value: 'x',
      states: { disabled: true },
      semantic: { description: 'login password', sensitive: true },
    })
  })

  it('never writes undefined fields', () => {
    const node = box({ id: undefined, name: undefined, style: undefined })
    expect(Object.keys(node)).toEqual(['kind'])
  })

  it('flattens nested child arrays and skips null, false and undefined', () => {
    const show = false
    const items = ['a', 'b']
    const node = box({}, [text('first'), show && text('hidden'), null, undefined, items.map((item) => text(item)), [[text('deep')]]])
    expect(node.children?.map((child) => child.text)).toEqual(['first', 'a', 'b', 'deep'])
  })

  it('omits children when every entry was skipped', () => {
    expect(box({}, [null, false]).children).toBeUndefined()
  })
})
