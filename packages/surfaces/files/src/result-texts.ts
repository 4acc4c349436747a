import type { FileInfo, JsonValue } from '@tessera/protocol'

/**
 * How the file tools' completed results read to a model: what was asked for, one line per
 * entry or match, file contents as they are; sizes and limits only where they matter. The
 * structured result carries every field.
 */

type Fields = Record<string, JsonValue | undefined>

function fields(output: JsonValue): Fields {
  return output !== null && typeof output === 'object' && !Array.isArray(output) ? (output as Fields) : {}
}

export function listText(output: JsonValue): string {
  const result = fields(output) as { path?: string; files?: FileInfo[]; total?: number }
  const files = result.files ?? []
  const lines = files.map((f) => (f.file_type === 'directory' ? `${f.name}/` : f.file_type === 'symlink' ? `${f.name}@` : `${f.name} ${f.size}`))
  if (files.length === 0) lines.push(`${result.path ?? ''} is empty`)
  if (result.total !== undefined) lines.push(`[${files.length} of ${result.total} entries; more with offset]`)
  return lines.join('\n')
}

export function navigateText(output: JsonValue): string {
  const result = fields(output)
  return `now in ${result.path} (${result.files_count} entries)`
}

export function findText(output: JsonValue): string {
  const result = fields(output) as { matches?: Array<{ path: string; type: string }>; count?: number; truncated?: boolean; limits?: string[] }
  const matches = result.matches ?? []
  const lines = matches.map((m) => (m.type === 'directory' ? `${m.path}/` : m.path))
  if (matches.length === 0) lines.push('no matches')
  if (result.truncated === true) lines.push(`[stopped at ${(result.limits ?? []).join(', ')}; more may exist]`)
  return lines.join('\n')
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
