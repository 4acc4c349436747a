import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The hub's checkpoint signing key: in the data folder beside the tokens (mode 0600), never in the trace store. */
export const CHECKPOINT_KEY_FILE = 'checkpoint.key'
export const CHECKPOINT_PUBLIC_FILE = 'checkpoint.pub'

export interface CheckpointKey {
  privateKey: KeyObject
  publicKey: KeyObject
}

/** The data folder's Ed25519 key, created on first use. */
export function loadOrCreateCheckpointKey(dataDir: string): CheckpointKey {
  const keyPath = join(dataDir, CHECKPOINT_KEY_FILE)
  if (existsSync(keyPath)) {
    const privateKey = createPrivateKey(readFileSync(keyPath, 'utf8'))
    return { privateKey, publicKey: createPublicKey(privateKey) }
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' })
  writeFileSync(join(dataDir, CHECKPOINT_PUBLIC_FILE), publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 })
  return { privateKey, publicKey }
}

/** The public key a verifier checks checkpoints with, or null when the folder has none. */
export function readCheckpointPublicKey(dataDir: string): KeyObject | null {
  const path = join(dataDir, CHECKPOINT_PUBLIC_FILE)
  return existsSync(path) ? createPublicKey(readFileSync(path, 'utf8')) : null
}
