import { describe, expect, it } from 'vitest'
import { wholeText } from './whole-text.js'

describe('wholeText', () => {
  it('mends every half character of a tool result, keys and nested values included', () => {
    const result = {
      content: [{ type: 'text', text: 'body: aaa\ud83d' }],
      structuredContent: { ['k\udc00']: ['\ud800', 1, null, true, { deep: 'x\ud83d\ude00y\ud83d' }] },
      isError: false,
    }
    expect(wholeText(result)).toEqual({
      content: [{ type: 'text', text: 'body: aaa\ufffd' }],
      structuredContent: { ['k\ufffd']: ['\ufffd', 1, null, true, { deep: 'x😀y\ufffd' }] },
      isError: false,
    })
  })

  it('leaves a whole result equal and an image\'s data unwalked', () => {
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }
    const result = { content: [{ type: 'text', text: 'Grüße 😀' }, image] }
    const mended = wholeText(result)
    expect(mended).toEqual(result)
    expect(mended.content[1]).toBe(image)
  })
})
