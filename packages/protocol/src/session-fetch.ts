import { setMaxListeners } from 'node:events'

/**
 * `fetch` for an MCP client transport that lives long (a stdio bridge, a script, a bench).
 * The SDK hands every request the transport's one AbortSignal, and each request keeps a
 * listener on it until the request is garbage collected; past 1,500 Node prints a
 * MaxListenersExceededWarning per request although nothing leaks. The signal is marked
 * unbounded before the request adds its listener.
 */
export const sessionFetch: typeof fetch = (input, init) => {
  if (init?.signal) setMaxListeners(0, init.signal)
  return fetch(input, init)
}
