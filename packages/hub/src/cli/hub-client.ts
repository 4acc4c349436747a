import { readLocalToken } from '../auth/local-token.js'
import { requireRunningHub } from '../startup/hub-file.js'
import { TesseraError } from '@tessera/protocol/errors'

/**
 * How CLI commands talk to a running hub: find it through DATA/hub.json, authenticate
 * with a token from --token, TESSERA_TOKEN or the local admin token file.
 */
export async function hubRequest<T>(dataDir: string, path: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const hub = requireRunningHub(dataDir)
  const token = options.token ?? process.env.TESSERA_TOKEN ?? (await readLocalToken(dataDir, 'admin'))
  if (!token) throw new TesseraError('unauthorized', `no token: pass --token, set TESSERA_TOKEN, or run where ${dataDir}/admin.token is readable`)
  const response = await fetch(`${hub.url}${path}`, {
    method: options.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new TesseraError('internal', `the hub answered ${response.status} with something that is not JSON`, { found: text.slice(0, 200) })
  }
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string; details?: Record<string, unknown> } }).error
    throw new TesseraError((error?.code as never) ?? 'internal', error?.message ?? `HTTP ${response.status}`, error?.details)
  }
  return json as T
}
