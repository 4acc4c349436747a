import { readFileSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { TesseraError } from '@tessera/protocol'
import { lookup } from 'mime-types'

/** Bytes of files one drop carries into the page: files as an agent drops them, not a disk. */
export const DROP_BYTES = 50 * 1024 * 1024

export interface DroppedFile {
  name: string
  type: string
  base64: string
}

/** The files of a drop read from this machine (paths already checked to be in the tile's folder), with the type their name says. */
export function droppedFiles(paths: readonly string[]): DroppedFile[] {
  let total = 0
  return paths.map((path) => {
    const size = statSync(path, { throwIfNoEntry: false })
    if (size === undefined || !size.isFile()) throw new TesseraError('not_found', `no file ${path} to drop`, { expected: 'a file in the tile\'s folder', found: path })
    total += size.size
    if (total > DROP_BYTES) throw new TesseraError('invalid_input', `expected files of at most ${DROP_BYTES / 1024 / 1024} MiB in one drop, found more with ${path}`, { expected: DROP_BYTES, found: total })
    return { name: basename(path), type: lookup(path) || '', base64: readFileSync(path).toString('base64') }
  })
}

/**
 * Runs on the element (`this`): the events a drop from outside the page fires — dragenter,
 * dragover, drop, at the element's centre — carrying a DataTransfer with the files and the
 * typed data. The page reads them as it reads a person's drop; whether it takes the drop is
 * what its answer shows.
 */
export const DROP_ON_ELEMENT = `function (files, data) {
  const transfer = new DataTransfer()
  for (const file of files) {
    const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))
    transfer.items.add(new File([bytes], file.name, { type: file.type }))
  }
  for (const [type, value] of Object.entries(data)) transfer.setData(type, value)
  const box = this.getBoundingClientRect()
  const at = { clientX: box.x + box.width / 2, clientY: box.y + box.height / 2 }
  for (const type of ['dragenter', 'dragover', 'drop']) this.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, dataTransfer: transfer, ...at }))
}`
