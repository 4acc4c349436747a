// Writes docs/schemas/*.schema.json from the zod schemas in packages/protocol (built first),
// so the published JSON Schemas can never drift from the types.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { publishedSchemas, toJsonSchema } from '@tessera/protocol'

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'schemas')
mkdirSync(out, { recursive: true })
for (const [name, schema] of Object.entries(publishedSchemas)) {
  writeFileSync(join(out, `${name}.schema.json`), JSON.stringify(toJsonSchema(name, schema), null, 2) + '\n')
}
console.log(`wrote ${Object.keys(publishedSchemas).length} JSON Schemas to docs/schemas/`)
