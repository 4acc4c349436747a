import { contentHash } from './content-hash.js'
import type { Frame, FrameBody } from './schemas/frame.js'

/** The frame id is the hash of everything else in the frame: same UI → same id. */
export function frameId(body: FrameBody): string {
  const { id: _ignored, ...rest } = body as FrameBody & { id?: string }
  return contentHash(rest)
}

export function sealFrame(body: FrameBody): Frame {
  return { ...body, id: frameId(body) } as Frame
}
