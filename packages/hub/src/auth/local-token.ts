import { promises as fs } from 'node:fs'
import { join } from 'node:path'

/**
 * The raw initial secrets, for local clients (the stdio MCP bridge, the CLI). Apart from the
 * token store so that a short CLI command reads one without loading the store's schemas.
 */
export const LOCAL_TOKEN_FILES = { agent: 'agent.token', admin: 'admin.token' } as const
export type LocalTokenName = keyof typeof LOCAL_TOKEN_FILES

/** Path of a raw local token file (`agent.token`, `admin.token`). */
export function localTokenPath(dataDir: string, name: LocalTokenName): string {
  return join(dataDir, LOCAL_TOKEN_FILES[name])
}

/** Reads a raw local token, or null when the file is absent (e.g. revoked and removed). */
export async function readLocalToken(dataDir: string, name: LocalTokenName): Promise<string | null> {
  try {
    const token = (await fs.readFile(localTokenPath(dataDir, name), 'utf8')).trim()
    return token === '' ? null : token
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
