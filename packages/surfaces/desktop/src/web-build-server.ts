import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { basename } from 'node:path'
import { TesseraError } from '@tessera/protocol'
import send from 'send'

/** Where a web build's page and its document are served, and how to stop serving them. */
export interface ServedWebBuild {
  /** The entry page's URL, with the document handed to it when there is one. */
  url: string
  close(): Promise<void>
}

export interface WebBuildFiles {
  root: string
  entry: string
  /** A file a person configured, served alone at /document/<its name>. */
  document?: string | undefined
  documentParam?: string | undefined
}

const DOCUMENT_PREFIX = '/document/'

/**
 * Serves one tile's web build on loopback, on a port of the system's choosing: its folder (the
 * `send` library: types, ranges — PDF.js reads a document in ranges — and no way out of the
 * folder) and, apart from it, the one document the tile was configured with. Nothing else on
 * the machine is reachable through it.
 */
export async function serveWebBuild(files: WebBuildFiles): Promise<ServedWebBuild> {
  const documentPath = files.document === undefined ? undefined : `${DOCUMENT_PREFIX}${encodeURIComponent(basename(files.document))}`
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://loopback').pathname
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    const stream = documentPath !== undefined && path === documentPath && files.document !== undefined ? send(req, files.document) : send(req, path, { root: files.root, index: false })
    stream.on('error', (error: { status?: number }) => {
      res.writeHead(error.status ?? 500).end()
    })
    stream.pipe(res)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new TesseraError('conflict', `could not serve the web build from ${files.root}: ${error.message}`, { found: files.root })))
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = new URL(files.entry, `http://127.0.0.1:${port}/`)
  // With no document the parameter is given empty, which means none: left out, PDF.js opens a sample it does not ship and shows an error.
  if (files.documentParam !== undefined) url.searchParams.set(files.documentParam, documentPath ?? '')
  return {
    url: url.href,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
