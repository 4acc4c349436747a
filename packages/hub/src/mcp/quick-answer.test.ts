import { describe, expect, it } from 'vitest'
import { quickAnswer } from './quick-answer.js'

const encoder = new TextEncoder()

/** An SSE response whose chunks arrive after the given delays (ms, from the previous one). */
function eventStream(chunks: Array<[number, string]>, onCancel?: (reason: unknown) => void): Response {
  let index = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks[index]
      index += 1
      if (next === undefined) return controller.close()
      await new Promise((resolve) => setTimeout(resolve, next[0]))
      controller.enqueue(encoder.encode(next[1]))
    },
    cancel: (reason) => onCancel?.(reason),
  })
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 'abc' } })
}

const message = (data: object, extra = ''): string => `${extra}event: message\ndata: ${JSON.stringify(data)}\n\n`

describe('quickAnswer: a call that ends at once is answered in one piece', () => {
  it('turns a stream of one message into plain JSON, keeping the status and the other headers', async () => {
    const reply = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'multi\nline' }] } }
    const answer = await quickAnswer(eventStream([[0, message(reply).slice(0, 20)], [1, message(reply).slice(20)]]), 200)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(answer.headers.get('mcp-session-id')).toBe('abc')
    expect(await answer.json()).toEqual(reply)
  })

  it('sends a stream with notifications, or with resumable ids, whole and still as a stream', async () => {
    const progress = message({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })
    const reply = message({ jsonrpc: '2.0', id: 1, result: {} })
    const two = await quickAnswer(eventStream([[0, progress], [0, reply]]), 200)
    expect(two.headers.get('content-type')).toBe('text/event-stream')
    expect(await two.text()).toBe(progress + reply)
    const resumable = message({ jsonrpc: '2.0', id: 2, result: {} }, 'id: 42\n')
    const withId = await quickAnswer(eventStream([[0, resumable]]), 200)
    expect(withId.headers.get('content-type')).toBe('text/event-stream')
    expect(await withId.text()).toBe(resumable)
  })

  it('passes a stream still open after the wait on at once, beginning with what was read', async () => {
    const progress = message({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })
    const reply = message({ jsonrpc: '2.0', id: 1, result: {} })
    const started = Date.now()
    const answer = await quickAnswer(eventStream([[0, progress], [150, reply]]), 20)
    expect(Date.now() - started).toBeLessThan(140)
    expect(answer.headers.get('content-type')).toBe('text/event-stream')
    const reader = answer.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe(progress)
    let rest = ''
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += new TextDecoder().decode(read.value)
    expect(rest).toBe(reply)
  })

  it('cancels the call\'s stream when the client goes away while it streams', async () => {
    let cancelled: unknown = null
    const answer = await quickAnswer(eventStream([[200, message({ jsonrpc: '2.0', id: 1, result: {} })]], (reason) => (cancelled = reason ?? 'cancelled')), 10)
    await answer.body!.cancel('gone')
    expect(cancelled).toBe('gone')
  })

  it('leaves anything but a 200 event stream alone', async () => {
    const json = new Response('{"a":1}', { status: 200, headers: { 'content-type': 'application/json' } })
    expect(await quickAnswer(json)).toBe(json)
    const accepted = new Response(null, { status: 202 })
    expect(await quickAnswer(accepted)).toBe(accepted)
    const refused = new Response('no', { status: 400, headers: { 'content-type': 'text/event-stream' } })
    expect(await quickAnswer(refused)).toBe(refused)
  })
})
