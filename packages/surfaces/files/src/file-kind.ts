import { cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { actionFacade, defineKind } from '@tessera/kit'
import { z } from 'zod'
import { FILE_ACTIONS } from './file-actions.js'
import { editAnswer, findAnswer, listAnswer, navigateAnswer, readAnswer, writeAnswer } from './lean-answers.js'
import { editText, navigateText, readText, writeText } from './result-texts.js'
import { createFileSurface } from './file-surface.js'

const RootConfig = z.strictObject({
  name: z.string().min(1).max(64),
  /** The folder served; relative to the config file's folder, or `data:x` inside the data folder. */
  path: z.string().optional(),
  /**
   * Serve a copy of this folder, made once at `path` (default `data:<name>-files`), so what an
   * agent writes never touches the original (the demo folder of the repository, say).
   */
  copyOf: z.string().optional(),
  readOnly: z.boolean().optional(),
  /**
   * What the agent reads of a secret found in this root's files: a typed marker
   * (`redact`, the default) or the secret itself (`show`, for a person who wants it so).
   * The trace stores the marker either way.
   */
  secrets: z.enum(['redact', 'show']).optional(),
})

export const FilesConfig = z.strictObject({
  title: z.string().max(200).optional(),
  roots: z.array(RootConfig).min(1),
  cwd: z.string().optional(),
  columns: z.number().int().optional(),
  cellSize: z.number().int().optional(),
  maxFrameEntries: z.number().int().optional(),
})
export type FilesConfig = z.infer<typeof FilesConfig>

// A listing and a search answer with their lean JSON as text too: short lists read as well as JSON as lines do.
const FACADES = [
  ['file_list', 'list', 'List a directory: subdirectories, files with sizes.', undefined, listAnswer],
  ['file_navigate', 'navigate', 'Show a directory in the file tile.', navigateText, navigateAnswer],
  ['file_find', 'find', 'Find files by glob (**/*.ts; a name without / matches at any depth).', undefined, findAnswer],
  ['file_read', 'read', 'Read a file (binary as base64), from offset, at most max_bytes.', readText, readAnswer],
  ['file_write', 'write', 'Write a whole file, atomically.', writeText, writeAnswer],
  ['file_edit', 'edit', 'Replace exact text in a file; nothing changes unless it occurs expected_count times (default 1).', editText, editAnswer],
] as const

/** The files kind: sandboxed roots shown as a grid of the current directory. */
export const filesKind = defineKind<FilesConfig>({
  kind: 'files',
  title: 'Files',
  idPrefix: 'files',
  configSchema: FilesConfig,
  contracts: FILE_ACTIONS.contracts,
  facadeTools: FACADES.map(([name, action, description, text, lean]) =>
    actionFacade({ name, kind: 'files', contract: FILE_ACTIONS.contract(action), maxRisk: FILE_ACTIONS.maxRisk(action), description, text, lean }),
  ),
  guide: 'file_*: tile argument surface; answers are the output alone.',
  async open(config, env) {
    const roots = config.roots.map((root) => {
      const path = env.resolvePath(root.path ?? (root.copyOf === undefined ? root.name : `data:${root.name}-files`))
      // Copied once: into a folder that is missing or still empty (the hub may have made it for a terminal).
      if (root.copyOf !== undefined && (!existsSync(path) || readdirSync(path).length === 0)) {
        const source = env.resolvePath(root.copyOf)
        if (existsSync(source)) cpSync(source, path, { recursive: true })
        else mkdirSync(path, { recursive: true })
      }
      return { name: root.name, path, ...(root.readOnly === undefined ? {} : { readOnly: root.readOnly }), ...(root.secrets === 'show' ? { showsSecrets: true } : {}) }
    })
    return createFileSurface({
      id: env.id,
      roots,
      ...(config.title === undefined ? {} : { title: config.title }),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      ...(config.columns === undefined ? {} : { columns: config.columns }),
      ...(config.cellSize === undefined ? {} : { cellSize: config.cellSize }),
      ...(config.maxFrameEntries === undefined ? {} : { maxFrameEntries: config.maxFrameEntries }),
    })
  },
})
