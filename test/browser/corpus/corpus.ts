/**
 * A corpus of real web pages for testing and benchmarking the browser surface.
 *
 * Every page comes from an open-source project as published (an npm package that is a
 * devDependency of the repository, or a Debian package that scripts/bootstrap installs);
 * none was written for Tessera. `serveCorpus()` serves them from loopback only, each
 * page's folder mounted under `/<name>/`, on two ports (two origins) so that a page can
 * be embedded cross-origin. README.md beside this file says why each page is here.
 */
import { createReadStream, existsSync, readFileSync, statSync, type Stats } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createRequire } from 'node:module'
import { dirname, extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export type CorpusFeature =
  | 'form'
  | 'table'
  | 'menu'
  | 'dialog'
  | 'iframe'
  | 'cross-origin-iframe'
  | 'shadow-dom'
  | 'spa'
  | 'large'
  | 'dropdown'
  | 'todomvc'

/** CSS selectors that drive a page's own widgets; the corpus test and benchmarks use them. */
export interface CorpusInteractions {
  /** Clicking it opens the page's modal dialog. */
  dialog?: string
  /** Clicking it opens the page's custom dropdown (listbox or menu). */
  dropdown?: string
  /** Hovering it opens a submenu of the page's menu. */
  menu?: string
  /** A client-side route link: clicking it changes location without loading a document. */
  route?: string
}

export interface CorpusPage {
  /** Short slug; the page's folder is served under `/<name>/`. */
  name: string
  /** The page's own `<title>`; a short description for a page that has none. */
  title: string
  /** Where the page comes from: `npm:<package>@<version>` or `debian:<package>`. */
  source: string
  features: CorpusFeature[]
  /** Absolute folder served under `/<name>/`. */
  root: string
  /** The page, relative to `root`. */
  path: string
  interactions?: CorpusInteractions
  /**
   * Absolute URL paths that the page's own HTML references outside its folder, mapped to
   * files or folders on disk. Debian's jQuery UI demos, for one, load
   * `/usr/share/javascript/jquery-ui/...` as a Debian web server would serve it. A key
   * ending in `/` maps a folder, any other key one file.
   */
  aliases?: Readonly<Record<string, string>>
}

/**
 * The repository's root: the first folder above this module whose package.json is the
 * workspace's own ("name": "tessera"). Walking up, not a fixed '../../..', so the module
 * also works bundled elsewhere in the repository (the benchmarks transpile it into
 * node_modules/.cache).
 */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }
      if (name === 'tessera') return dir
    } catch {
      // No package.json here, or not JSON: keep walking up.
    }
    if (dirname(dir) === dir) throw new Error(`no package.json named "tessera" above ${from}`)
  }
}

const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)))
const requireFromRepo = createRequire(join(repoRoot, 'package.json'))

/** The folder and version of an installed npm package; a missing one gets a path that does not exist. */
function npmPackage(name: string): { dir: string; source: string } {
  try {
    const manifest = requireFromRepo.resolve(`${name}/package.json`)
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }
    return { dir: dirname(manifest), source: `npm:${name}@${version ?? 'unknown'}` }
  } catch {
    return { dir: join(repoRoot, 'node_modules', name), source: `npm:${name} (not installed)` }
  }
}

const todomvc = npmPackage('todomvc')
const tablesort = npmPackage('tablesort')
const snowFall = npmPackage('@zachleat/snow-fall')
const lineNumbers = npmPackage('@zachleat/line-numbers')
const jsonEditor = npmPackage('json-editor')
const ckeditor = npmPackage('ckeditor4')

const jqueryUiDemos = '/usr/share/doc/libjs-jquery-ui-docs/examples'
/**
 * Debian's jQuery UI demos load their libraries by absolute path. They ask for
 * `/usr/share/nodejs/require.js`, which node-requirejs installs one folder deeper.
 */
const jqueryUiAliases: Readonly<Record<string, string>> = {
  '/usr/share/javascript/': '/usr/share/javascript/',
  '/usr/share/nodejs/require.js': '/usr/share/nodejs/requirejs/require.js',
}
const jqueryUi = (name: string, title: string, path: string, features: CorpusFeature[], interactions?: CorpusInteractions): CorpusPage => ({
  name,
  title,
  source: 'debian:libjs-jquery-ui-docs',
  features,
  root: jqueryUiDemos,
  path,
  aliases: jqueryUiAliases,
  ...(interactions ? { interactions } : {}),
})

const todoApp = (framework: string, title: string): CorpusPage => ({
  name: `todomvc-${framework}`,
  title,
  source: todomvc.source,
  features: ['todomvc', 'spa'],
  root: todomvc.dir,
  path: `examples/${framework}/index.html`,
  interactions: { route: '#filters a[href="#/active"]' },
})

export const CORPUS: readonly CorpusPage[] = [
  todoApp('vanillajs', 'VanillaJS • TodoMVC'),
  todoApp('backbone', 'Backbone.js • TodoMVC'),
  todoApp('react', 'React • TodoMVC'),
  todoApp('emberjs', 'ember.js • TodoMVC'),
  todoApp('vue', 'Vue.js • TodoMVC'),
  jqueryUi('jqui-selectmenu', 'jQuery UI Selectmenu - Default functionality', 'selectmenu/default.html', ['dropdown'], {
    dropdown: '#speed-button',
  }),
  jqueryUi('jqui-modal-form', 'jQuery UI Dialog - Modal form', 'dialog/modal-form.html', ['dialog', 'table'], {
    dialog: '#create-user',
  }),
  jqueryUi('jqui-menu', 'jQuery UI Menu - Default functionality', 'menu/default.html', ['menu'], {
    menu: '#menu > li:has(> ul) > div',
  }),
  jqueryUi('jqui-controlgroup', 'jQuery UI Controlgroup - Default Functionality', 'controlgroup/default.html', ['form', 'dropdown'], {
    dropdown: '#car-type-button',
  }),
  {
    name: 'bash-reference',
    title: 'Bash Reference Manual',
    source: 'debian:bash-doc',
    features: ['large', 'table'],
    root: '/usr/share/doc/bash',
    path: 'bashref.html',
  },
  {
    name: 'tablesort',
    title: 'tablesort test page',
    source: tablesort.source,
    features: ['table'],
    root: tablesort.dir,
    path: 'test/index.html',
  },
  {
    name: 'snow-fall',
    title: '<snow-fall> demo',
    source: snowFall.source,
    features: ['shadow-dom'],
    root: snowFall.dir,
    path: 'demo.html',
  },
  {
    name: 'line-numbers',
    title: '<line-numbers> Web Component',
    source: lineNumbers.source,
    features: ['shadow-dom'],
    root: lineNumbers.dir,
    path: 'demo.html',
  },
  {
    name: 'json-editor',
    title: 'Advanced JSON Editor Example',
    source: jsonEditor.source,
    features: ['form'],
    root: jsonEditor.dir,
    path: 'examples/advanced.html',
  },
  {
    name: 'ckeditor',
    title: 'CKEditor Sample',
    source: ckeditor.source,
    features: ['iframe', 'dialog', 'dropdown'],
    root: ckeditor.dir,
    path: 'samples/index.html',
    interactions: { dialog: '.cke_button__link', dropdown: '.cke_combo__format .cke_combo_button' },
  },
  {
    name: 'ckeditor-toolbar',
    title: 'Toolbar Configurator',
    source: ckeditor.source,
    features: ['spa'],
    root: ckeditor.dir,
    path: 'samples/toolbarconfigurator/index.html',
    interactions: { route: 'label[for="radio-advanced"]' },
  },
]

/**
 * The one test-harness route (not a corpus page): `/_frames/cross-origin?src=/<name>/<path>`
 * answers a minimal page whose only content is an iframe showing that path from the
 * other origin.
 */
export const CROSS_ORIGIN_FRAME_ROUTE = '/_frames/cross-origin'

export interface CorpusServer {
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** The same mounts on a second port: a different origin. */
  otherOrigin: string
  /** A page's URL on `origin`; a string is a page name or an absolute path (`/name/...`). */
  url(page: CorpusPage | string): string
  close(): Promise<void>
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.jsx': 'text/jsx; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
}

function contentType(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

/** `rest` (a decoded URL path below a mount) inside `root`, or null when it would leave it. */
function inside(root: string, rest: string): string | null {
  if (rest.includes('\0')) return null
  const segments = rest.split('/')
  if (segments.some((segment) => segment === '..')) return null
  const base = resolve(root)
  const file = resolve(base, '.' + sep + segments.filter((s) => s !== '' && s !== '.').join(sep))
  return file === base || file.startsWith(base.endsWith(sep) ? base : base + sep) ? file : null
}

function stat(file: string): Stats | null {
  try {
    return statSync(file)
  } catch {
    return null
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-cache' })
  res.end(body)
}

interface Mounts {
  /** page name → folder */
  pages: ReadonlyMap<string, string>
  /** absolute URL path → file or folder, longest first */
  aliases: ReadonlyArray<readonly [string, string]>
}

function mountsOf(pages: readonly CorpusPage[]): Mounts {
  const byName = new Map<string, string>()
  const aliases = new Map<string, string>()
  for (const page of pages) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(page.name) || page.name.startsWith('_')) throw new Error(`bad corpus page name: ${page.name}`)
    if (byName.has(page.name)) throw new Error(`duplicate corpus page name: ${page.name}`)
    byName.set(page.name, page.root)
    for (const [from, to] of Object.entries(page.aliases ?? {})) {
      const known = aliases.get(from)
      if (known !== undefined && known !== to) throw new Error(`conflicting corpus aliases for ${from}`)
      aliases.set(from, to)
    }
  }
  return { pages: byName, aliases: [...aliases].sort((a, b) => b[0].length - a[0].length) }
}

/** The file a URL path names, 'forbidden' for a traversal attempt, or null. */
function locate(mounts: Mounts, path: string): string | 'forbidden' | null {
  for (const [from, to] of mounts.aliases) {
    if (from.endsWith('/') ? path.startsWith(from) : path === from) {
      return from.endsWith('/') ? (inside(to, path.slice(from.length)) ?? 'forbidden') : to
    }
  }
  const match = /^\/([^/]+)\/(.*)$/.exec(path)
  if (!match) return null
  const root = mounts.pages.get(match[1] ?? '')
  if (root === undefined) return null
  return inside(root, match[2] ?? '') ?? 'forbidden'
}

function crossOriginFrame(otherOrigin: string, src: string | null): string | null {
  if (src === null || !src.startsWith('/') || src.startsWith('//')) return null
  const target = new URL(src, otherOrigin)
  if (target.origin !== otherOrigin) return null
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>cross-origin frame</title>',
    '<style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%}</style></head>',
    `<body><iframe id="corpus-frame" title="${escapeHtml(src)}" src="${escapeHtml(target.href)}"></iframe></body></html>`,
  ].join('')
}

function handler(mounts: Mounts, otherOrigin: () => string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD')
      send(res, 405, 'method not allowed\n')
      return
    }
    let url: URL
    let path: string
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1')
      path = decodeURIComponent(url.pathname)
    } catch {
      send(res, 400, 'bad request\n')
      return
    }
    if (path === CROSS_ORIGIN_FRAME_ROUTE) {
      const page = crossOriginFrame(otherOrigin(), url.searchParams.get('src'))
      if (page === null) send(res, 400, 'src must be an absolute path on this server\n')
      else send(res, 200, page, 'text/html; charset=utf-8')
      return
    }
    if (/^\/[^/]+$/.test(path) && mounts.pages.has(path.slice(1))) {
      res.writeHead(301, { location: `${path}/` })
      res.end()
      return
    }
    let file = locate(mounts, path)
    if (file === 'forbidden') {
      send(res, 403, 'forbidden\n')
      return
    }
    let info = file === null ? null : stat(file)
    if (file !== null && info?.isDirectory()) {
      if (!path.endsWith('/')) {
        res.writeHead(301, { location: `${url.pathname}/${url.search}` })
        res.end()
        return
      }
      file = join(file, 'index.html')
      info = stat(file)
    }
    if (file === null || info === null || !info.isFile()) {
      send(res, 404, 'not found\n')
      return
    }
    res.writeHead(200, { 'content-type': contentType(file), 'content-length': info.size, 'cache-control': 'no-cache' })
    if (req.method === 'HEAD') {
      res.end()
      return
    }
    const stream = createReadStream(file)
    stream.on('error', () => res.destroy())
    stream.pipe(res)
  }
}

interface Listening {
  server: Server
  sockets: Set<Socket>
  origin: string
}

async function listen(serve: (req: IncomingMessage, res: ServerResponse) => void): Promise<Listening> {
  const server = createServer(serve)
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', fail)
      done()
    })
  })
  const { port } = server.address() as AddressInfo
  return { server, sockets, origin: `http://127.0.0.1:${port}` }
}

function shut({ server, sockets }: Listening): Promise<void> {
  return new Promise((done) => {
    server.close(() => done())
    for (const socket of sockets) socket.destroy()
  })
}

/**
 * Serves every corpus page on 127.0.0.1, on two ports. Both serve the same mounts; each
 * one's cross-origin frame route embeds from the other.
 */
export async function serveCorpus(pages: readonly CorpusPage[] = CORPUS): Promise<CorpusServer> {
  const mounts = mountsOf(pages)
  let origin = ''
  let otherOrigin = ''
  const first = await listen(handler(mounts, () => otherOrigin))
  let second: Listening
  try {
    second = await listen(handler(mounts, () => origin))
  } catch (error) {
    await shut(first)
    throw error
  }
  origin = first.origin
  otherOrigin = second.origin
  const byName = new Map(pages.map((page) => [page.name, page]))
  return {
    origin,
    otherOrigin,
    url(page: CorpusPage | string): string {
      if (typeof page !== 'string') return `${origin}/${page.name}/${page.path}`
      if (page.startsWith('/')) return `${origin}${page}`
      const named = byName.get(page)
      if (named === undefined) throw new Error(`no corpus page named ${page}`)
      return `${origin}/${named.name}/${named.path}`
    },
    async close(): Promise<void> {
      await Promise.all([shut(first), shut(second)])
    },
  }
}

/** Pages whose file is missing on this machine (npm or Debian package not installed). */
export function missingPages(pages: readonly CorpusPage[] = CORPUS): CorpusPage[] {
  return pages.filter((page) => !existsSync(join(page.root, page.path)))
}
