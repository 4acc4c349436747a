import zlib from 'node:zlib'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)) >>> 0, 8 + data.length)
  return out
}

/**
 * An X screen (ZPixmap, 32 bits a pixel, B G R unused) as an RGB PNG, rows unfiltered and
 * deflated at level 1. A screenshot is read once and thrown away: ~20 ms here where pngjs,
 * filtering every row in JavaScript, takes 80–110 ms for a 1280×800 screen.
 */
export function pngOfBgrx(pixels: Buffer, width: number, height: number): Buffer {
  const stride = width * 3 + 1
  const raw = Buffer.allocUnsafe(height * stride)
  for (let y = 0; y < height; y++) {
    let o = y * stride
    raw[o++] = 0
    for (let i = y * width * 4, end = i + width * 4; i < end; i += 4) {
      raw[o++] = pixels[i + 2] as number
      raw[o++] = pixels[i + 1] as number
      raw[o++] = pixels[i] as number
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  // Bit depth 8, colour type 2 (RGB), deflate, no interlace.
  header[8] = 8
  header[9] = 2
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))])
}
