/**
 * Which bulk file is which table. Files are named `<table>-<YYYY-MM-DD>.csv[.bz2]`; the table part
 * decides. The reference's exports have used both the hyphenated names (`people-db-people`,
 * `opinion-clusters`) and the database table names (`search_docket`, `people_db_person`), so both
 * are recognised (connectors/bulk/tables.ts). Files are put in the order they can be applied in:
 * code tables first, then link tables (read into memory, joined into their parents), then rows in
 * the catalogue's dependency order; within a table, oldest snapshot first, so a newer one's rows
 * are published last.
 */
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { RESOURCES } from '../../schemas/catalogue/index.js'
import { bulkTableNamed, EXTRA_FILES, type BulkTable } from './tables.js'

export interface BulkFile {
  path: string
  /** The resource its rows land in (for a link table, the parent resource). */
  resource: string
  /** The reference table, or undefined for an older file read by its header alone. */
  table: BulkTable | undefined
  bytes: number
}

const ORDER = RESOURCES.map((r) => r.name)
/** Code tables other link tables translate through: applied before everything else. */
const CODE_RESOURCES = new Set(['races'])

/** The table part of a bulk file name: 'opinion-clusters-2024-08-31.csv.bz2' → 'opinion-clusters'. */
export function tableOf(file: string): string | undefined {
  const m = /^(.+?)(?:[-_]\d{4}-\d{2}-\d{2}(?:[T_][\d:.-]+Z?)?)?\.csv(?:\.bz2)?$/i.exec(path.basename(file))
  return m?.[1]
}

/** The reference table a file name names, with the resource it feeds; undefined when it feeds none of ours. */
export function classify(file: string): { table: BulkTable | undefined; resource: string } | undefined {
  const name = tableOf(file)
  if (name === undefined) return undefined
  const table = bulkTableNamed(name)
  if (table) return { table, resource: table.target.resource }
  const extra = EXTRA_FILES[name] ?? EXTRA_FILES[name.toLowerCase()]
  return extra ? { table: undefined, resource: extra } : undefined
}

/** The resource a bulk file feeds, or undefined when it feeds none of ours. */
export function resourceOf(file: string): string | undefined {
  return classify(file)?.resource
}

const isLink = (f: BulkFile) => f.table?.target.kind === 'link'

/** Phase, then dependency order, then snapshot date. */
export function sortBulkFiles(files: BulkFile[]): BulkFile[] {
  const phase = (f: BulkFile) => (CODE_RESOURCES.has(f.resource) && !isLink(f) ? 0 : isLink(f) ? 1 : 2)
  const rank = (r: string) => (ORDER.indexOf(r) + 1 || ORDER.length + 1)
  const dated = (f: BulkFile) => `${/\d{4}-\d{2}-\d{2}/.exec(path.basename(f.path))?.[0] ?? ''} ${path.basename(f.path)}`
  return files.sort((a, b) => phase(a) - phase(b) || rank(a.resource) - rank(b.resource) || (a.table?.n ?? 99) - (b.table?.n ?? 99) || dated(a).localeCompare(dated(b)))
}

/**
 * The bulk files named by `inputs` (folders, whose .csv and .csv.bz2 files are taken, or files),
 * in the order they are applied, and the names of the files that feed none of our resources.
 */
export function resolveBulkInputs(inputs: readonly string[]): { files: BulkFile[]; skipped: string[] } {
  const files: BulkFile[] = []
  const skipped: string[] = []
  const seen = new Set<string>()
  const take = (full: string, named: boolean) => {
    const abs = path.resolve(full)
    if (seen.has(abs)) return
    seen.add(abs)
    const st = statSync(abs)
    if (!st.isFile()) return
    if (!named && !/\.csv(\.bz2)?$/i.test(abs)) return
    const c = classify(abs)
    if (!c) skipped.push(path.basename(abs))
    else files.push({ path: abs, resource: c.resource, table: c.table, bytes: st.size })
  }
  for (const input of inputs) {
    const st = statSync(input) // a missing input is the caller's mistake: it throws with the path
    if (st.isDirectory()) for (const name of readdirSync(input).sort()) take(path.join(input, name), false)
    else take(input, true)
  }
  return { files: sortBulkFiles(files), skipped }
}

/** The bulk files of a folder in the order they are applied, and the CSV files that feed none of ours. */
export function scanBulkDir(dir: string): { files: BulkFile[]; skipped: string[] } {
  return resolveBulkInputs([dir])
}

/** The bulk files of a folder that feed a resource of ours, in the order they are applied. */
export function listBulkFiles(dir: string): BulkFile[] {
  return scanBulkDir(dir).files
}
