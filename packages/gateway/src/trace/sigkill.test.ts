import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, type TempDir } from '../../test-support/tmp.js'
import { openSqliteStore } from './sqlite-store.js'
import { verifyStore } from './verify.js'

/*
 * A hub can die at any instant. A child process appends to a SQLite trace in a tight loop
 * and is killed with SIGKILL at random moments; after each kill the trace must reopen with
 * every chain intact, no half-written event, and take new appends on top.
 *
 * The child runs the built store (dist/), since plain node cannot load TypeScript; `npm test`
 * builds before it runs vitest. TESSERA_GATEWAY_DIST points at another build of the gateway.
 */

const here = dirname(fileURLToPath(import.meta.url))
const gatewayDist = process.env.TESSERA_GATEWAY_DIST ?? resolve(here, '../../dist')
const builtStore = join(gatewayDist, 'trace', 'sqlite-store.js')
const childScript = resolve(here, '../../test-support/sigkill-child.mjs')

const ROUNDS = 5
const SESSIONS = ['alpha', 'beta', 'gamma']

function randomDelayMs(): number {
  return 50 + Math.floor(Math.random() * 250)
}

/** Starts the child and resolves once it has committed its first batch. */
function startAppender(databasePath: string): Promise<{ child: ChildProcess; exited: Promise<NodeJS.Signals | number | null> }> {
  const child = spawn(process.execPath, [childScript, builtStore, databasePath], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<NodeJS.Signals | number | null>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit(signal ?? code))
  })
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the appender did not start within 20 s: ${stderr}`))
    }, 20_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('ready')) {
        clearTimeout(timer)
        resolveReady({ child, exited })
      }
    })
    void exited.then((how) => {
      clearTimeout(timer)
      reject(new Error(`the appender exited (${String(how)}) before it was killed: ${stderr}`))
    })
  })
}

describe('a hub killed with SIGKILL mid-append', () => {
  let dir: TempDir

  beforeAll(async () => {
    if (!existsSync(builtStore)) {
      throw new Error(`sigkill.test.ts runs the built store in a child process and ${builtStore} is missing: run npm run build first`)
    }
    dir = await makeTempDir('tessera-sigkill-')
  })

  afterAll(async () => {
    await dir?.remove()
  })

  it(`leaves an intact trace that takes new appends, over ${ROUNDS} random kills`, async () => {
    const databasePath = join(dir.path, 'trace.db')
    let previousTotal = 0
    for (let round = 1; round <= ROUNDS; round += 1) {
      const { child, exited } = await startAppender(databasePath)
      const delay = randomDelayMs()
      await new Promise((wait) => setTimeout(wait, delay))
      child.kill('SIGKILL')
      expect(await exited, `round ${round}: the child should die by SIGKILL`).toBe('SIGKILL')

      const store = await openSqliteStore(databasePath)
      try {
        const context = `round ${round}, killed after ${delay} ms`
        const results = await verifyStore(store)
        expect(results.every((result) => result.ok), `${context}: ${JSON.stringify(results)}`).toBe(true)
        for (const session of SESSIONS) {
          for await (const link of store.readRaw(session)) {
            expect(() => JSON.parse(link.body), `${context}: ${session}#${link.seq}`).not.toThrow()
          }
        }
        const total = (await store.sessions()).reduce((sum, summary) => sum + summary.events, 0)
        expect(total, context).toBeGreaterThan(previousTotal)

        // The survivor continues every chain where the killed process left it.
        const heads = await Promise.all(SESSIONS.map((session) => store.head(session)))
        const added = await store.append(
          SESSIONS.map((session) => ({
            session,
            time: new Date().toISOString(),
            type: 'session_started' as const,
            actor: 'test:survivor',
            surface: null,
            action: null,
            frameId: null,
            requestId: null,
            data: { round },
          })),
        )
        added.forEach((event, index) => {
          const head = heads[index]
          expect(event.seq, context).toBe(head === null || head === undefined ? 0 : head.seq + 1)
          expect(event.prevHash, context).toBe(head?.hash ?? '0'.repeat(64))
        })
        expect((await verifyStore(store)).every((result) => result.ok), context).toBe(true)
        previousTotal = total + SESSIONS.length
      } finally {
        await store.close()
      }
    }
  }, 120_000)
})
