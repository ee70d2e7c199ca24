/**
 * Streams the reference's bulk-data CSV files (PostgreSQL COPY output in any of the three formats
 * it has used, plain or bzip2-compressed) as typed records in storage form:
 * `{ resource, record, line, file, ordinal }`.
 *
 * - The format is told from the file's first MiB of text (dialect.ts), per file, not from its name.
 * - Constant memory: a chunk is read only when the consumer asks for more records, so a slow
 *   consumer slows the reading (and the decompressor) instead of buffering.
 * - Values: see columns.ts. NULL (unquoted empty) → null, a quoted empty value → ''.
 * - A row that cannot be read or typed (malformed quoting, wrong number of columns, a value that
 *   does not fit its column, no id) is written to the dead-letter file as one JSON line
 *   {file, line, resource, reason, raw} and is not yielded.
 * - A file that cannot be read at all (missing, a wrong header, corrupt compressed data) throws
 *   a BadBulkFile naming it; rows read before the damage have been yielded.
 */
import { statSync, openSync, writeSync, closeSync, mkdirSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import path from 'node:path'
import { edgeId } from '../../domain/citations/edges.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { keyed, KINDS } from '../../schemas/kinds.js'
import { columnSpecs } from '../../schemas/columns.js'
import { listBulkFiles, scanBulkDir, resolveBulkInputs, resourceOf, tableOf, type BulkFile } from './files.js'
import { columnKinds, converterFor, BadValue, type Converter } from './columns.js'
import { CopyCsvParser, type ParsedRecord } from './parser.js'
import { detectDialect, type Dialect } from './dialect.js'
import { openSource } from './source.js'
import { storageColumn, type BulkTable } from './tables.js'

export { listBulkFiles, scanBulkDir, resolveBulkInputs, resourceOf, tableOf, type BulkFile }

export interface BulkProgress {
  file: string; bytes: number; totalBytes: number; rows: number; bad: number
  dialect?: Dialect; decompressor?: string
}
export interface BulkOptions {
  /** Where refused rows go (JSON lines); or give `deadLetters`, a writer shared by several files. */
  deadLetterPath?: string
  deadLetters?: DeadLetters
  onProgress?: (p: BulkProgress) => void
  /** Least time between two progress calls (the last call of a file always happens). Default 200 ms. */
  progressIntervalMs?: number
  /** The reference table the file holds, when known (its own column renames and link keys). */
  table?: BulkTable
  /** The format, when the user says it; otherwise told from the content. */
  dialect?: Dialect
  /**
   * Records (after the header) an earlier run already published: they are read and yielded with
   * `replayed: true` (so their ids still count), but refusals among them are not written again.
   */
  skip?: number
}
export interface BulkRow {
  resource: string; record: Record<string, unknown>; line: number; file: string
  /** 1-based number of the record after the header, blank and refused ones included: a resume point. */
  ordinal: number
  replayed: boolean
}

/** A file that cannot be read (as opposed to a row): its name and why, in one line. */
export class BadBulkFile extends Error {
  override name = 'BadBulkFile'
  constructor(readonly file: string, reason: string) { super(`${file}: ${reason}`) }
}

/** Appends dead-letter lines to a file opened on first use; counts them per source file. */
export class DeadLetters {
  private fd: number | undefined
  readonly byFile = new Map<string, number>()
  constructor(readonly path: string) {}
  write(entry: { file: string; line: number; resource: string; reason: string; raw: unknown; truncated?: boolean }) {
    if (this.fd === undefined) {
      mkdirSync(path.dirname(this.path), { recursive: true })
      this.fd = openSync(this.path, 'a')
    }
    writeSync(this.fd, JSON.stringify(entry) + '\n')
    this.byFile.set(entry.file, (this.byFile.get(entry.file) ?? 0) + 1)
  }
  get count() { let n = 0; for (const v of this.byFile.values()) n += v; return n }
  close() {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }
}

/** How much text decides the format. */
const SAMPLE_CHARS = 1 << 20

/** How one file's header maps to typed record fields. */
interface Layout { names: string[]; convert: Converter[]; idIndex: number }

/** Converters for a link table's columns: the parent's key, the child's key (or code id), the link id. */
function linkKinds(table: BulkTable): Map<string, ReturnType<typeof keyed>> {
  if (table.target.kind !== 'link') throw new Error('not a link table')
  const { resource, column, parent, child, codes } = table.target
  const r = catalogue.get(resource)
  const childSpec = columnSpecs(catalogue, r).find((c) => c.column === column)!
  const kinds = new Map<string, ReturnType<typeof keyed>>([['id', KINDS.int]])
  kinds.set(parent, keyed('int', r.keyKind === 'string'))
  // A code table's id as text: older files wrote the code itself there (links.ts translates both).
  kinds.set(child, codes ? KINDS.string : keyed('int', childSpec.spec.ch.includes('String')))
  return kinds
}

function layoutOf(name: string, resource: string, table: BulkTable | undefined, header: (string | null)[]): Layout {
  const cols = header.map((h) => (h ?? '').trim())
  const link = table?.target.kind === 'link' ? table.target : undefined
  const names = link ? cols : cols.map((c) => storageColumn(table, c))
  const kinds = link ? linkKinds(table!) : columnKinds(resource)
  // A header is checked against what the file should hold: its keys, and mostly known columns.
  const keys = link ? [link.parent, link.child] : resource === 'opinions-cited' ? ['citing_opinion_id', 'cited_opinion_id'] : ['id']
  const missing = keys.filter((k) => !names.includes(k))
  const known = names.filter((n, i) => kinds.has(n) || table?.columns.includes(cols[i]))
  if (missing.length || known.length * 2 < names.length) {
    throw new BadBulkFile(name, `wrong header for ${table?.table ?? resource}: ${missing.length ? `no ${missing.join(', ')} column` : 'mostly unknown columns'} (found ${cols.slice(0, 8).join(', ')}${cols.length > 8 ? ', …' : ''})`)
  }
  return { names, convert: names.map((n) => converterFor(n, kinds.get(n))), idIndex: names.indexOf('id') }
}

export async function* readBulkFile(file: string, resource: string, opts: BulkOptions): AsyncGenerator<BulkRow> {
  const name = path.basename(file)
  const progress: BulkProgress = { file: name, bytes: 0, totalBytes: statSync(file).size, rows: 0, bad: 0 }
  const interval = opts.progressIntervalMs ?? 200
  const skip = opts.skip ?? 0
  let lastReport = 0
  const source = openSource(file)
  progress.decompressor = source.decompressor
  const report = (force = false) => {
    if (!opts.onProgress) return
    const now = Date.now()
    if (!force && now - lastReport < interval) return
    lastReport = now
    progress.bytes = source.bytesRead()
    opts.onProgress({ ...progress })
  }
  const ownDead = opts.deadLetters ? undefined : new DeadLetters(opts.deadLetterPath ?? path.join(path.dirname(file), 'bulk-dead-letters.jsonl'))
  const dead = opts.deadLetters ?? ownDead!
  const decoder = new StringDecoder('utf8')
  let parser: CopyCsvParser | undefined
  let layout: Layout | undefined
  let ordinal = 0
  const edges = resource === 'opinions-cited'

  const refuse = (rec: ParsedRecord, reason: string) => {
    progress.bad++
    if (ordinal <= skip) return // written by the run that read it first
    const { raw, truncated } = parser!.rawOf(rec)
    dead.write({ file: name, line: rec.line, resource, reason, raw, ...(truncated ? { truncated: true } : {}) })
  }

  /** A parsed record → the row to yield, or undefined when it is refused (or is the header or a blank line). */
  const toRow = (rec: ParsedRecord): BulkRow | undefined => {
    if (!layout) {
      if (rec.error) throw new BadBulkFile(name, `unreadable header on line ${rec.line}: ${rec.error}`)
      layout = layoutOf(name, resource, opts.table, rec.fields)
      return undefined
    }
    ordinal++
    if (rec.error) { refuse(rec, rec.error); return undefined }
    const f = rec.fields
    const { names, convert, idIndex } = layout
    if (f.length !== names.length) {
      if (f.length === 1 && f[0] === null) return undefined // a blank line holds no row
      refuse(rec, `expected ${names.length} columns, found ${f.length}`)
      return undefined
    }
    const record: Record<string, unknown> = {}
    try {
      for (let i = 0; i < f.length; i++) record[names[i]] = convert[i](f[i])
    } catch (err) {
      if (!(err instanceof BadValue)) throw err
      refuse(rec, err.message)
      return undefined
    }
    if (edges && (idIndex === -1 || record.id === null)) {
      // A citation map without ids: the edge id the citation network uses for the same pair.
      const citing = record.citing_opinion_id, cited = record.cited_opinion_id
      if (typeof citing === 'number' && typeof cited === 'number') record.id = edgeId(citing, cited)
    }
    const link = opts.table?.target.kind === 'link' ? opts.table.target : undefined
    if (link ? record[link.parent] == null || record[link.child] == null : record.id === undefined || record.id === null || record.id === '') {
      refuse(rec, link ? `row has no ${record[link.parent] == null ? link.parent : link.child}` : 'row has no id')
      return undefined
    }
    progress.rows++
    return { resource, record, line: rec.line, file: name, ordinal, replayed: ordinal <= skip }
  }

  let sample = ''
  const start = (text: string) => {
    const found = opts.dialect ? { dialect: opts.dialect } : detectDialect(text)
    progress.dialect = found.dialect
    parser = new CopyCsvParser({ dialect: found.dialect })
    return parser.push(text)
  }
  try {
    for await (const buf of source.chunks) {
      let records: ParsedRecord[]
      if (!parser) {
        sample += decoder.write(buf)
        if (sample.charCodeAt(0) === 0xfeff) sample = sample.slice(1)
        if (sample.length < SAMPLE_CHARS) continue
        records = start(sample)
        sample = ''
      } else {
        records = parser.push(decoder.write(buf))
      }
      for (const rec of records) {
        const row = toRow(rec)
        if (row) yield row
      }
      report()
    }
    await source.finished().catch((err: Error) => { throw new BadBulkFile(name, err.message) })
    const tail = parser ? parser.push(decoder.end()) : start(sample + decoder.end())
    for (const rec of tail.concat(parser!.end())) {
      const row = toRow(rec)
      if (row) yield row
    }
    if (!layout) throw new BadBulkFile(name, 'empty file: no header')
  } finally {
    source.close()
    ownDead?.close()
    report(true)
  }
}

/** Every record of every bulk file in a folder, file by file in the order they are applied. */
export async function* readBulkDir(dir: string, opts: BulkOptions & { onSkippedFile?: (name: string) => void }): AsyncGenerator<BulkRow> {
  const { files, skipped } = scanBulkDir(dir)
  for (const s of skipped) opts.onSkippedFile?.(s)
  const dead = opts.deadLetters ?? new DeadLetters(opts.deadLetterPath ?? path.join(dir, 'bulk-dead-letters.jsonl'))
  try {
    for (const f of files) yield* readBulkFile(f.path, f.resource, { ...opts, deadLetters: dead, table: f.table })
  } finally { if (!opts.deadLetters) dead.close() }
}
