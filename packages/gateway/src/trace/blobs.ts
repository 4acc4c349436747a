import { type JsonValue, TesseraError, sha256Hex } from '@tessera/protocol'

/** A content-addressed text: stored once, named by the SHA-256 hex of its UTF-8 bytes. */
export interface StoredBlob {
  hash: string
  text: string
}

/** Refuses a blob whose name is not the hash of its text, before anything is written. */
export function checkBlobs(blobs: readonly StoredBlob[]): void {
  for (const [index, blob] of blobs.entries()) {
    if (typeof blob.text !== 'string' || typeof blob.hash !== 'string' || !/^[0-9a-f]{64}$/.test(blob.hash) || sha256Hex(blob.text) !== blob.hash) {
      throw new TesseraError('invalid_request', `blob ${index} is not named by the SHA-256 of its text; nothing was stored`, {
        expected: 'hash = sha256 hex of text',
        found: (typeof blob.hash === 'string' ? blob.hash.slice(0, 64) : typeof blob.hash) as JsonValue,
      })
    }
  }
}
