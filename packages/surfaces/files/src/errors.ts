import { TesseraError } from '@tessera/protocol'

/** The errno code of a Node fs error, if it is one. */
export function errnoOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/**
 * Turns an fs error into a TesseraError that names the path as the agent wrote it (root
 * name + root-relative path). Node's own messages carry absolute host paths, so they are
 * never passed on; only the errno code is.
 */
export function fsFailure(error: unknown, display: string, rootName: string, doing: string): TesseraError {
  if (error instanceof TesseraError) return error
  const code = errnoOf(error)
  const where = `"${display}" in root "${rootName}"`
  switch (code) {
    case 'ENOENT':
      return new TesseraError('not_found', `could not ${doing} ${where}: expected it to exist, found nothing there`, { path: display, root: rootName, expected: 'an existing path', found: 'nothing' })
    case 'ENOTDIR':
      return new TesseraError('not_found', `could not ${doing} ${where}: expected a directory along the path, found a file`, { path: display, root: rootName, expected: 'directory', found: 'file' })
    case 'EISDIR':
      return new TesseraError('invalid_request', `could not ${doing} ${where}: expected a file, found a directory`, { path: display, root: rootName, expected: 'file', found: 'directory' })
    case 'ELOOP':
    case 'EMLINK':
      return new TesseraError('forbidden', `could not ${doing} ${where}: expected a plain file or directory, found a symlink (it may have been swapped in while the path was being opened)`, { path: display, root: rootName, expected: 'no symlink at open time', found: 'symlink' })
    case 'EACCES':
    case 'EPERM':
      return new TesseraError('forbidden', `could not ${doing} ${where}: the host refused permission`, { path: display, root: rootName, errno: code })
    case 'EROFS':
      return new TesseraError('forbidden', `could not ${doing} ${where}: the file system is read-only`, { path: display, root: rootName, errno: code })
    case 'ENAMETOOLONG':
      return new TesseraError('invalid_request', `could not ${doing} ${where}: the host path is too long`, { path: display, root: rootName, errno: code })
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new TesseraError('conflict', `could not ${doing} ${where}: something already exists there`, { path: display, root: rootName, errno: code })
    case 'ENOSPC':
    case 'EDQUOT':
      return new TesseraError('internal', `could not ${doing} ${where}: no space left on the device`, { path: display, root: rootName, errno: code })
    default:
      return new TesseraError('internal', `could not ${doing} ${where}: ${code ?? 'unexpected error'}`, { path: display, root: rootName, errno: code ?? null })
  }
}
