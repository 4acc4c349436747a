export type { ApprovalFilter, ChainHead, ReadOptions, SessionSummary, StoredEvent, TraceStore, TraceStoreKind } from './store.js'
export {
  chainEvent,
  verifyEvents,
  type BrokenLink,
  type BrokenLinkReason,
  type ChainedEvent,
  type ChainVerification,
  type VerifyOptions,
} from './hash-chain.js'
export { verifyStore, type SessionVerification, type VerifyStoreOptions } from './verify.js'
export { MemoryTraceStore, openMemoryStore } from './memory-store.js'
export { DEFAULT_SQLITE_PATH, SqliteTraceStore, openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js'
export { PostgresTraceStore, openPostgresStore, type PostgresStoreOptions } from './postgres-store.js'
export { openStore } from './open-store.js'
