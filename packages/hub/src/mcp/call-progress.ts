import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js'

/** How often an open call reports that it is alive: well inside any client's request timeout. */
export const HEARTBEAT_MS = 5_000

export interface CallProgress {
  /** Reports now, with what the call is doing (shown by clients that show progress). */
  say(message: string): void
  stop(): void
}

/**
 * MCP progress for one tool call: a notification every HEARTBEAT_MS while the call runs,
 * so a client that resets its timeout on progress (the SDK's `resetTimeoutOnProgress`)
 * keeps waiting for a long command or a person's decision instead of giving up at its
 * default 60 s. Only when the client asked, with a progress token; a call that ends within
 * one beat sends nothing.
 */
export function startCallProgress(progressToken: string | number | undefined, send: (notification: ServerNotification) => Promise<void>): CallProgress {
  if (progressToken === undefined) return { say: () => undefined, stop: () => undefined }
  let beats = 0
  let message = 'running'
  let stopped = false
  const report = (): void => {
    if (stopped) return
    beats += 1
    // A client that went away is not this call's failure; its result is in the trace.
    send({ method: 'notifications/progress', params: { progressToken, progress: beats, message } }).catch(() => undefined)
  }
  const timer = setInterval(report, HEARTBEAT_MS)
  timer.unref()
  return {
    say(next) {
      message = next
      report()
    },
    stop() {
      stopped = true
      clearInterval(timer)
    },
  }
}
