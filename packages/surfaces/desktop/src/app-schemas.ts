import { readFileSync, readdirSync } from 'node:fs'
import { TesseraError } from '@tessera/protocol'
import { AppSchema } from './app-schema.js'

/** The shipped schemas' folder: `apps/` beside `src/` and `dist/`, so it is found from either. */
const APPS_DIR = new URL('../apps/', import.meta.url)

/** Reads and checks one schema file; a shipped schema that does not validate is the project's error, said with its path. */
export function parseAppSchema(text: string, where: string): AppSchema {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new TesseraError('invalid_input', `${where} is not JSON: ${(error as Error).message}`, { found: where })
  }
  const parsed = AppSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new TesseraError('invalid_input', `${where}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'does not match the app schema'}`, { expected: 'docs/schemas/app_schema.schema.json', found: (issue?.path ?? []) as unknown as string[] })
  }
  return parsed.data
}

function loadShipped(): readonly AppSchema[] {
  const files = readdirSync(APPS_DIR).filter((file) => file.endsWith('.json')).sort()
  return files.map((file) => parseAppSchema(readFileSync(new URL(file, APPS_DIR), 'utf8'), `apps/${file}`))
}

/** The app schemas Tessera ships, one per app it starts by name. */
export const APP_SCHEMAS: readonly AppSchema[] = loadShipped()

export function appSchemaFor(app: string): AppSchema | undefined {
  return APP_SCHEMAS.find((schema) => schema.app === app)
}
