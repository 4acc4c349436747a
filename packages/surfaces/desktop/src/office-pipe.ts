import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'

/** LibreOffice puts its single-instance socket here, whatever TMPDIR says (its pipe code names the folder itself). */
const PIPE_DIR = '/tmp'
const USER_INSTALLATION = /^-env:UserInstallation=(.+)$/

/**
 * The socket a LibreOffice started with these arguments makes so that a second start hands
 * its documents over: `/tmp/OSL_PIPE_<uid>_SingleOfficeIPC_<digest>`, the digest being the MD5
 * of its user installation URL as UTF-16 code units, each byte in hex without a leading zero
 * (measured on LibreOffice 7.4). It deletes the socket only when it quits on its own; a tile's
 * app ends by signal, so without this every Calc tile would leave one behind: the tile removes
 * it once the app has ended, and the app's watch does when the hub died first. Undefined for
 * any other program, or one started without a profile of its own.
 */
export function officePipeOf(args: readonly string[], uid: number = process.getuid?.() ?? 0): string | undefined {
  const url = args.map((arg) => USER_INSTALLATION.exec(arg)?.[1]).find((found) => found !== undefined)
  if (url === undefined) return undefined
  const digest = [...createHash('md5').update(Buffer.from(url, 'utf16le')).digest()].map((byte) => byte.toString(16)).join('')
  return `${PIPE_DIR}/OSL_PIPE_${uid}_SingleOfficeIPC_${digest}`
}

/** Removes the socket of an app that has ended; nothing to do when it left none. */
export function removeOfficePipe(pipe: string | undefined): void {
  if (pipe !== undefined) rmSync(pipe, { force: true })
}
