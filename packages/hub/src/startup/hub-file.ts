import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { TesseraError } from '@tessera/protocol/errors'

/** The stable handle scripts and tests use to find a running hub: DATA/hub.json. */
export interface HubFile {
  url: string
  mcpUrl: string
  consoleUrl: string
  pid: number
  startedAt: string
  store: string
}

export const HUB_FILE = 'hub.json'

export function writeHubFile(dataDir: string, hub: HubFile): void {
  writeFileSync(join(dataDir, HUB_FILE), `${JSON.stringify(hub, null, 2)}\n`, { mode: 0o600 })
}

export function removeHubFile(dataDir: string, pid = process.pid): void {
  const current = readHubFile(dataDir)
  if (current?.pid === pid) rmSync(join(dataDir, HUB_FILE), { force: true })
}

export function readHubFile(dataDir: string): HubFile | null {
  const path = join(dataDir, HUB_FILE)
  if (!existsSync(path)) return null
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as HubFile
  } catch (error) {
    throw new TesseraError('store_error', `${path} is not valid JSON: ${(error as Error).message}`, { found: path })
  }
}

/** The hub in DATA/hub.json if its process is still alive. */
export function runningHub(dataDir: string): HubFile | null {
  const hub = readHubFile(dataDir)
  if (hub === null) return null
  try {
    process.kill(hub.pid, 0)
    return hub
  } catch {
    return null
  }
}

export function requireRunningHub(dataDir: string): HubFile {
  const hub = runningHub(dataDir)
  if (hub === null) throw new TesseraError('not_found', `no running hub found in ${dataDir} (start one with \`tessera up --data ${dataDir}\`)`, { expected: join(dataDir, HUB_FILE) })
  return hub
}
