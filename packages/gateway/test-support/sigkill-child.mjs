// Appends to a SQLite trace as fast as it can until it is killed; sigkill.test.ts kills it
// with SIGKILL at a random moment and checks that no event was left half written.
// Plain JavaScript on purpose: it runs the BUILT store (node cannot load TypeScript).
//
// usage: node sigkill-child.mjs <path of the built sqlite-store.js> <database path>
import { pathToFileURL } from 'node:url'

const [storeModule, databasePath] = process.argv.slice(2)
if (!storeModule || !databasePath) {
  process.stderr.write('usage: node sigkill-child.mjs <sqlite-store.js> <database path>\n')
  process.exit(2)
}

const { openSqliteStore } = await import(pathToFileURL(storeModule).href)
const store = await openSqliteStore(databasePath)
const sessions = ['alpha', 'beta', 'gamma']
let appended = 0

for (let round = 0; ; round += 1) {
  const size = 1 + Math.floor(Math.random() * 300)
  const batch = []
  for (let i = 0; i < size; i += 1) {
    batch.push({
      session: sessions[Math.floor(Math.random() * sessions.length)],
      time: new Date().toISOString(),
      type: 'completed',
      actor: `child:${process.pid}`,
      surface: 'sigkill',
      action: 'append',
      frameId: null,
      requestId: `${process.pid}-${appended + i}`,
      // Bodies of very different sizes, so a batch spans many pages and the kill can land
      // anywhere in a commit.
      data: { round, index: i, filler: 'x'.repeat(Math.floor(Math.random() * 4000)) },
    })
  }
  await store.append(batch)
  appended += size
  if (round === 0) process.stdout.write('ready\n')
}
