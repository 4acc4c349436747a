import { deflateRawSync, inflateRawSync } from 'node:zlib'

/**
 * Below this many bytes a blob is kept as its text: packing a small frame saves little and
 * costs a step on the gateway's path.
 */
export const PACK_MIN_BYTES = 4096

/**
 * A blob as a store keeps it: its text, or — at PACK_MIN_BYTES and over, where it comes out
 * smaller — its UTF-8 bytes deflated. A frame is JSON that repeats its keys on every node (a
 * page of a manual is 100 KB of it), and deflate keeps about a seventh. The blob's name stays
 * the hash of its text: packing is how it is kept, never what it is.
 */
export function packBlob(text: string): string | Buffer {
  if (text.length < PACK_MIN_BYTES / 4 || Buffer.byteLength(text) < PACK_MIN_BYTES) return text
  const packed = deflateRawSync(text, { level: 6 })
  return packed.length < Buffer.byteLength(text) ? packed : text
}

/** A kept blob's text: as it was stored, or inflated from its packed bytes. */
export function unpackBlob(kept: string | Buffer | Uint8Array): string {
  return typeof kept === 'string' ? kept : inflateRawSync(kept).toString('utf8')
}
