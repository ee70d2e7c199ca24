/**
 * Writes small bulk files in the reference's current format by hand (what PostgreSQL's
 * `COPY … WITH (FORMAT csv, HEADER, ESCAPE '\', FORCE_QUOTE *)` writes): an unquoted header, every
 * non-NULL value in double quotes with `"` and `\` escaped by a backslash, NULL as nothing.
 */
import { writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import path from 'node:path'

export type Cell = string | number | boolean | null

export function currentFormat(columns: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const cell = (v: Cell) => (v === null ? '' : `"${(typeof v === 'boolean' ? (v ? 't' : 'f') : String(v)).replace(/[\\"]/g, '\\$&')}"`)
  return [columns.join(','), ...rows.map((r) => r.map(cell).join(','))].join('\n') + '\n'
}

/** Writes `<dir>/<name>` (and compresses it with bzip2 when the name ends in .bz2); returns its path. */
export function writeBulkFile(dir: string, name: string, columns: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const plain = path.join(dir, name.replace(/\.bz2$/, ''))
  writeFileSync(plain, currentFormat(columns, rows))
  if (name.endsWith('.bz2')) execFileSync('bzip2', ['-f', plain])
  return path.join(dir, name)
}
