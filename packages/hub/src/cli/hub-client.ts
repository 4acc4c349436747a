import { request as httpRequest } from 'node:http'
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
  const response = await send(new URL(path, hub.url), {
    method: options.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  const text = response.text
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new TesseraError('internal', `the hub answered ${response.status} with something that is not JSON`, { found: text.slice(0, 200) })
  }
  if (response.status < 200 || response.status >= 300) {
    const error = (json as { error?: { code?: string; message?: string; details?: Record<string, unknown> } }).error
    throw new TesseraError((error?.code as never) ?? 'internal', error?.message ?? `HTTP ${response.status}`, error?.details)
  }
  return json as T
}

/**
 * One HTTP exchange with node:http: a short command should not pay for loading fetch's
 * client (tens of milliseconds at start) to talk to a hub on loopback.
 */
function send(url: URL, options: { method: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method, headers: options.headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      res.on('error', reject)
    })
    req.on('error', (error) => reject(new TesseraError('not_found', `cannot reach the hub at ${url.origin}: ${error.message}`, { found: url.origin })))
    req.end(options.body)
  })
}
