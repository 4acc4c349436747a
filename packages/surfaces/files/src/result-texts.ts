import { outputFields as fields } from '@tessera/kit'
import type { JsonValue } from '@tessera/protocol'

/**
 * How the file tools' completed results read to a model where a sentence or the file's own
 * text reads better than JSON: contents as they are, a write or an edit in a few words. A
 * listing and a search read as their lean JSON (lean-answers.ts).
 */

export function navigateText(output: JsonValue): string {
  const result = fields(output)
  return `now in ${result.path} (${result.files_count} entries)`
}

export function readText(output: JsonValue): string {
  const result = fields(output)
  const content = typeof result.content === 'string' ? result.content : ''
  const notes: string[] = []
  if (result.encoding === 'base64') notes.push('base64 (binary)')
  if (result.truncated === true) notes.push(`bytes ${result.offset}–${Number(result.offset) + Number(result.bytes_read)} of ${result.size}; continue at offset ${result.next_offset}`)
  return notes.length === 0 ? content : `${content}\n[${notes.join(' · ')}]`
}

export function writeText(output: JsonValue): string {
  const result = fields(output)
  return `wrote ${result.path} (${result.bytes_written} bytes${result.created === true ? ', new file' : ''})`
}

export function editText(output: JsonValue): string {
  const result = fields(output)
  return `edited ${result.path}: ${result.replacements} replacement${result.replacements === 1 ? '' : 's'}`
}
