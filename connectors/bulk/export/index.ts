/**
 * `lds export bulk <dir>`: the current state of the tables written back as bulk files.
 *
 * - `reference-csv` (default): the reference's 33 files, `<file>-<YYYY-MM-DD>.csv.bz2`, each what
 *   PostgreSQL's `COPY … TO STDOUT WITH (FORMAT csv, ENCODING utf8, HEADER, ESCAPE '\', FORCE_QUOTE *)`
 *   writes, so they load with the reference's own `\COPY … FROM` into the tables of `schema.sql`.
 *   ClickHouse formats every line (queries.ts); its bytes stream through a record counter into
 *   `lbzip2` (or `bzip2`) and from there through a SHA-256 into the file: memory stays flat
 *   whatever the table's size.
 * - `parquet`: `<file>.parquet` per table, storage types, NULLs as NULLs (ClickHouse's Parquet).
 * - `jsonl`: `<resource>.jsonl` per resource in v4 field names, what `lds publish` reads back.
 *
 * Each file is read in one query (current rows, deleted ones left out, ordered by key), so the same
 * data gives byte-identical files. A file is written under a temporary name and renamed when
 * complete. `manifest.json` lists format, snapshot time and, per file, its rows, bytes and SHA-256.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createWriteStream, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { compile, type Sql } from '../../../core/sql.js'
import type { Db } from '../../../core/clickhouse.js'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { BULK_TABLES, type BulkTable } from '../tables.js'
import { referenceSchemaSql } from '../pg-schema.js'
import { csvHeader, csvLinesQuery, countQuery, countResourceQuery, jsonlQuery, linkSource, parquetQuery } from './queries.js'
import { CsvRecordCounter } from './pg-text.js'
import { bzip2Command } from '../source.js'
import { parquetRowCount } from './parquet-footer.js'

export const EXPORT_FORMATS = ['reference-csv', 'parquet', 'jsonl'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export interface ManifestFile {
  name: string
  /** The reference's table (reference-csv, parquet) or the resource (jsonl). */
  table: string
  resource: string
  rows: number
  bytes: number
  sha256: string
  /** Time spent writing it. */
  seconds: number
  /** Link tables of codes: elements whose code the code table does not have (left out). */
  unmapped?: number
}

export interface Manifest {
  format: ExportFormat
  /** When the export started (each file is one consistent read of the current rows from then on). */
  snapshot: string
  database: string
  compressor?: string
  files: ManifestFile[]
  seconds: number
}

export interface ExportProgress { file: string; rows: number; total: number; bytes: number; done: boolean }

export interface ExportOptions {
  format?: ExportFormat
  /** File names (`opinions`, `search_opinion_joined_by`), table names or resource names; all when absent. */
  resources?: readonly string[]
  /** The date in reference-csv file names (default: today, UTC). */
  date?: string
  /** The compressor command (default: lbzip2 when on PATH, else bzip2). */
  compressor?: string
  onProgress?: (p: ExportProgress) => void
  /** Files written at the same time (each its own query and compressor). Default 4. */
  concurrency?: number
  /** Least time between two progress calls of a file (its last call always happens). Default 200 ms. */
  progressIntervalMs?: number
  now?: () => Date
}

/** The tables a `--resources` list names (every table of a named resource, link tables included). */
export function selectTables(names?: readonly string[]): BulkTable[] {
  if (!names || names.length === 0) return [...BULK_TABLES]
  const wanted = new Set(names.map((n) => n.trim()).filter(Boolean))
  const known = new Set(BULK_TABLES.flatMap((t) => [t.file, t.table, t.target.resource]))
  const unknown = [...wanted].filter((n) => !known.has(n))
  if (unknown.length) throw new Error(`unknown table or resource ${unknown.join(', ')}; known files: ${BULK_TABLES.map((t) => t.file).join(', ')}`)
  return BULK_TABLES.filter((t) => wanted.has(t.file) || wanted.has(t.table) || wanted.has(t.target.resource))
}

/** The resources whose rows the selected tables hold, in export order (jsonl). */
export function selectResources(names?: readonly string[]): string[] {
  return [...new Set(selectTables(names).map((t) => t.target.resource))]
}


/** A pass-through that hashes and counts what goes by. */
function hashing() {
  const hash = createHash('sha256')
  let bytes = 0
  const stream = new Transform({ transform(chunk: Buffer, _e, cb) { hash.update(chunk); bytes += chunk.length; cb(null, chunk) } })
  return { stream, bytes: () => bytes, digest: () => hash.digest('hex') }
}

function throttled(fn: ((p: ExportProgress) => void) | undefined, intervalMs: number) {
  let last = 0
  return (p: ExportProgress) => {
    if (!fn) return
    const now = Date.now()
    if (p.done || now - last >= intervalMs) { last = now; fn(p) }
  }
}

export class BulkExporter {
  private readonly date: string
  readonly compressor: string
  constructor(private readonly db: Db, private readonly dir: string, private readonly opts: ExportOptions = {}) {
    this.date = opts.date ?? (opts.now?.() ?? new Date()).toISOString().slice(0, 10)
    this.compressor = opts.compressor ?? bzip2Command()
  }

  private async raw(q: Sql, format: string, settings: Record<string, unknown> = {}): Promise<Readable> {
    const { query, query_params } = compile(q)
    const res = await this.db.client.exec({ query: `${query}\nFORMAT ${format}`, query_params, clickhouse_settings: settings as never })
    return res.stream
  }

  /** Rows a file will have, for progress only: not counted when nobody watches. */
  private async total(q: Sql): Promise<number> {
    return this.opts.onProgress ? this.count(q) : 0
  }

  private async count(q: Sql): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(q)
    return Number(row?.n ?? 0)
  }

  /** One table as `<file>-<date>.csv.bz2`. */
  async csv(t: BulkTable): Promise<ManifestFile> {
    const started = Date.now()
    const name = `${t.file}-${this.date}.csv.bz2`
    const total = await this.total(countQuery(this.db.database, t))
    const progress = throttled(this.opts.onProgress, this.opts.progressIntervalMs ?? 200)
    const counter = new CsvRecordCounter()
    const header = csvHeader(t)
    const hashed = hashing()
    const target = path.join(this.dir, name)
    const part = `${target}.part`
    const body = await this.raw(csvLinesQuery(this.db.database, t), 'TSVRaw')
    const child = spawn(this.compressor, ['-c'], { stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr!.on('data', (d) => { if (stderr.length < 4000) stderr += d })
    const exited = new Promise<void>((resolve, reject) => {
      child.once('error', reject)
      child.once('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${this.compressor} failed (${code ?? signal}): ${stderr.trim()}`))))
    })
    const counting = new Transform({
      transform: (chunk: Buffer, _e, cb) => {
        counter.push(chunk)
        progress({ file: name, rows: Math.max(0, counter.records - 1), total, bytes: hashed.bytes(), done: false })
        cb(null, chunk)
      },
    })
    async function* withHeader() {
      yield Buffer.from(header)
      yield* body
    }
    try {
      await Promise.all([
        pipeline(withHeader(), counting, child.stdin!),
        pipeline(child.stdout!, hashed.stream, createWriteStream(part)),
        exited,
      ])
    } catch (err) {
      body.destroy()
      child.kill()
      rmSync(part, { force: true })
      throw err
    }
    if (!counter.complete) {
      rmSync(part, { force: true })
      throw new Error(`${name}: the output of ClickHouse ended inside a record (an error while it was being sent?)`)
    }
    renameSync(part, target)
    const rows = counter.records - 1
    progress({ file: name, rows, total, bytes: hashed.bytes(), done: true })
    const file: ManifestFile = { name, table: t.table, resource: t.target.resource, rows, bytes: hashed.bytes(), sha256: hashed.digest(), seconds: (Date.now() - started) / 1000 }
    const unmapped = t.target.kind === 'link' ? linkSource(this.db.database, t).unmapped : undefined
    if (unmapped) file.unmapped = await this.count(unmapped)
    return file
  }

  /** Streams a query's output in `format` to a file, hashing it; `lines` counts newlines as rows. */
  private async plain(q: Sql, format: string, name: string, total: number, lines: boolean, settings: Record<string, unknown> = {}) {
    const started = Date.now()
    const progress = throttled(this.opts.onProgress, this.opts.progressIntervalMs ?? 200)
    const hashed = hashing()
    const target = path.join(this.dir, name)
    const part = `${target}.part`
    let rows = 0
    const counting = new Transform({
      transform: (chunk: Buffer, _e, cb) => {
        if (lines) for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++
        progress({ file: name, rows, total, bytes: hashed.bytes(), done: false })
        cb(null, chunk)
      },
    })
    const body = await this.raw(q, format, settings)
    try {
      await pipeline(body, counting, hashed.stream, createWriteStream(part))
    } catch (err) {
      rmSync(part, { force: true })
      throw err
    }
    renameSync(part, target)
    if (!lines) rows = parquetRowCount(target)
    progress({ file: name, rows, total, bytes: hashed.bytes(), done: true })
    return { name, rows, bytes: hashed.bytes(), sha256: hashed.digest(), seconds: (Date.now() - started) / 1000 }
  }

  async parquet(t: BulkTable): Promise<ManifestFile> {
    const total = await this.total(countQuery(this.db.database, t))
    const f = await this.plain(parquetQuery(this.db.database, t), 'Parquet', `${t.file}.parquet`, total, false,
      { output_format_parquet_compression_method: 'zstd', output_format_parquet_string_as_string: 1 })
    return { ...f, table: t.table, resource: t.target.resource }
  }

  async jsonl(resource: string): Promise<ManifestFile> {
    const total = await this.total(countResourceQuery(this.db.database, resource))
    const f = await this.plain(jsonlQuery(this.db.database, resource), 'JSONEachRow', `${resource}.jsonl`, total, true,
      { output_format_json_quote_64bit_integers: 0, date_time_output_format: 'iso', output_format_json_quote_denormals: 0 })
    return { ...f, table: catalogue.storageOf(catalogue.get(resource)).table, resource }
  }
}

/** Writes the export into `dir` (created when missing) and returns its manifest (also written as manifest.json). */
export async function exportBulk(db: Db, dir: string, opts: ExportOptions = {}): Promise<Manifest> {
  const started = Date.now()
  const format = opts.format ?? 'reference-csv'
  if (!EXPORT_FORMATS.includes(format)) throw new Error(`unknown format ${format}; one of ${EXPORT_FORMATS.join(', ')}`)
  const snapshot = (opts.now?.() ?? new Date()).toISOString()
  mkdirSync(dir, { recursive: true })
  const exporter = new BulkExporter(db, dir, opts)
  const tables = selectTables(opts.resources)
  const limit = Math.max(1, opts.concurrency ?? 4)
  let files: ManifestFile[]
  if (format === 'reference-csv') {
    writeFileSync(path.join(dir, 'schema.sql'), referenceSchemaSql(tables))
    files = await inOrder(tables, limit, (t) => exporter.csv(t))
  } else if (format === 'parquet') {
    files = await inOrder(tables, limit, (t) => exporter.parquet(t))
  } else {
    files = await inOrder(selectResources(opts.resources), limit, (r) => exporter.jsonl(r))
  }
  const manifest: Manifest = {
    format, snapshot, database: db.database, ...(format === 'reference-csv' ? { compressor: exporter.compressor } : {}),
    files, seconds: (Date.now() - started) / 1000,
  }
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  return manifest
}

/** `fn` over `items`, at most `limit` at a time, results in the items' order; the first failure stops new work and is thrown. */
async function inOrder<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++
      try { out[i] = await fn(items[i]) } catch (err) { failed = true; throw err }
    }
  }
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker))
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failure) throw failure.reason
  return out
}
