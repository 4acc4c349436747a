import type { ActionResult, Approval, Frame, Principal, TraceEvent } from '@tessera/protocol'
import type { OpenSchema, ReplayStep, Tile, TraceSession, VerifyResult } from './hub-types'

/** An error the hub answered with: its code, message and details, as every hub error carries them. */
export class HubError extends Error {
  readonly code: string
  readonly status: number
  readonly details: unknown

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message)
    this.status = status
    this.code = code
    this.details = details
  }
}

async function call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: init.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    credentials: 'same-origin',
  })
  const text = await response.text()
  let json: unknown = null
  try {
    json = text.length === 0 ? null : JSON.parse(text)
  } catch {
    throw new HubError(response.status, 'invalid_response', `expected JSON from ${path}, found ${text.slice(0, 80)}`)
  }
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error
    throw new HubError(response.status, error?.code ?? 'http_error', error?.message ?? `${path} answered ${response.status}`, error?.details)
  }
  return json as T
}

/** The hub's HTTP API as the console uses it; every call carries the session cookie, never a token. */
export const hubApi = {
  login: (code: string) => call<{ principal: Principal }>('/api/login', { body: { code } }),
  me: () => call<{ principal: Principal }>('/api/me'),
  kinds: () => call<{ kinds: Array<{ kind: string; open: OpenSchema | null; presetOnly: boolean }> }>('/api/kinds'),
  tiles: () => call<{ tiles: Tile[] }>('/api/tiles'),
  frame: (surface: string) => call<{ frame: Frame }>(`/api/surfaces/${encodeURIComponent(surface)}/frame`),
  recallFrame: (surface: string, frameId: string) => call<{ frame: Frame }>(`/api/surfaces/${encodeURIComponent(surface)}/frames/${encodeURIComponent(frameId)}`),
  act: (request: { surface: string; action: string; target?: string; input?: unknown; frameId?: string }) => call<{ result: ActionResult }>('/api/actions', { body: request }),
  approvals: (status?: string) => call<{ approvals: Approval[] }>(`/api/approvals${status === undefined ? '' : `?status=${status}`}`),
  approve: (approval: Approval) =>
    call<{ approval: Approval; result: ActionResult }>(`/api/approvals/${encodeURIComponent(approval.id)}/approve`, {
      // What the person was shown: the hub runs nothing else under this approval.
      body: { frameId: approval.frameId, action: approval.action, inputHash: approval.inputHash, note: 'approved in the console' },
    }),
  deny: (approval: Approval) => call<{ approval: Approval }>(`/api/approvals/${encodeURIComponent(approval.id)}/deny`, { body: { note: 'denied in the console' } }),
  sessions: () => call<{ sessions: TraceSession[] }>('/api/sessions'),
  trace: (session: string, limit = 200) => call<{ session: string; events: TraceEvent[] }>(`/api/trace/${encodeURIComponent(session)}?limit=${limit}`),
  verify: (session: string) => call<{ results: VerifyResult[] }>(`/api/trace/${encodeURIComponent(session)}/verify`),
  replay: (session: string) => call<{ session: string; steps: ReplayStep[]; truncated: boolean }>(`/api/replay/${encodeURIComponent(session)}`),
}
