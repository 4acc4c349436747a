import { createParser, type EventSourceMessage } from 'eventsource-parser'

/** How long a call's event stream may take to end and still be answered in one piece. */
export const QUICK_ANSWER_MS = 25

const TIMED_OUT = Symbol('timed out')

/**
 * Each MCP call over HTTP answers on an event stream of its own, so progress and elicitation
 * can travel while a command runs or a person decides (mcp-http.ts). Most calls end within
 * milliseconds with their one response and no notification. Such a stream is read whole here
 * and sent as plain JSON — which Streamable HTTP allows for any POST — in one write, read by
 * the client without an event-stream parser; a stream with notifications is sent whole as it
 * was. A stream still open after `waitMs` is passed on as a stream at once, beginning with
 * what was already read, so a long call streams exactly as before.
 */
export async function quickAnswer(response: Response, waitMs = QUICK_ANSWER_MS): Promise<Response> {
  if (response.body === null || response.status !== 200 || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), waitMs)
  })
  try {
    let next = reader.read()
    for (;;) {
      const read = await Promise.race([next, timeout])
      if (read === TIMED_OUT) return streamOn(response, reader, chunks, next)
      if (read.done) return whole(response, chunks)
      chunks.push(read.value)
      next = reader.read()
    }
  } finally {
    clearTimeout(timer)
  }
}

/** The stream ended: one message becomes a JSON answer; anything else goes as the stream it was, in one piece. */
function whole(response: Response, chunks: readonly Uint8Array[]): Response {
  const bytes = Buffer.concat(chunks)
  const events: EventSourceMessage[] = []
  const parser = createParser({ onEvent: (event) => events.push(event) })
  parser.feed(bytes.toString('utf8'))
  const only = events.length === 1 ? events[0] : undefined
  const headers = new Headers(response.headers)
  // A resumable event (one with an id) must stay an event: the client may ask to replay from it.
  if (only !== undefined && (only.event ?? 'message') === 'message' && only.id === undefined) {
    headers.set('content-type', 'application/json')
    return new Response(only.data, { status: response.status, headers })
  }
  return new Response(bytes, { status: response.status, headers })
}

/** Still open: what was read, then the rest as it comes; a client that goes away cancels the source. */
function streamOn(
  response: Response,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  chunks: readonly Uint8Array[],
  pending: Promise<ReadableStreamReadResult<Uint8Array>>,
): Response {
  let next: Promise<ReadableStreamReadResult<Uint8Array>> | null = pending
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
    },
    async pull(controller) {
      const read = await (next ?? reader.read())
      next = null
      if (read.done) controller.close()
      else controller.enqueue(read.value)
    },
    async cancel(reason) {
      await reader.cancel(reason)
    },
  })
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}
