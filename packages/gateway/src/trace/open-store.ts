import { TesseraError } from '@tessera/protocol'
import { openMemoryStore } from './memory-store.js'
import { openPostgresStore } from './postgres-store.js'
import { openSqliteStore } from './sqlite-store.js'
import type { TraceStore } from './store.js'

/**
 * Opens a store from one configuration string:
 *   memory:                                 a trace that lives as long as the process
 *   sqlite:PATH, or a bare file path        the embedded default (.tessera/trace.db)
 *   postgres://… or postgresql://…          a database several hubs can share
 */
export async function openStore(spec: string): Promise<TraceStore> {
  const trimmed = spec.trim()
  if (trimmed === 'memory:') return openMemoryStore()
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return openPostgresStore(trimmed)
  const path = trimmed.startsWith('sqlite:') ? trimmed.slice('sqlite:'.length) : trimmed
  if (path === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new TesseraError('invalid_request', `unknown trace store "${spec}"`, {
      expected: 'memory:, sqlite:PATH, a file path, or postgres://…',
      found: spec,
    })
  }
  return openSqliteStore(path)
}
