// Writes docs/schemas/*.schema.json from the zod schemas in packages/protocol and the desktop surface (built first),
// so the published JSON Schemas can never drift from the types.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { publishedSchemas, toJsonSchema } from '@tessera/protocol'
import { AppSchema } from '@tessera/surface-desktop'

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'schemas')
mkdirSync(out, { recursive: true })
// The desktop surface's app schemas (packages/surfaces/desktop/apps/*.json) are checked against this one.
const all = { ...publishedSchemas, app_schema: AppSchema }
for (const [name, schema] of Object.entries(all)) {
  writeFileSync(join(out, `${name}.schema.json`), JSON.stringify(toJsonSchema(name, schema), null, 2) + '\n')
}
console.log(`wrote ${Object.keys(all).length} JSON Schemas to docs/schemas/`)
