/**
 * Streams the reference's bulk-data CSV files as records. The files are Postgres COPY output
 * with backtick quotes and every value quoted: an unquoted empty field is NULL, a quoted empty
 * field (``) is the empty string, and fields may hold newlines and doubled backticks.
 * A row the CSV layer cannot read (bad quoting, wrong column count, no id) is written to the
 * dead-letter file with its line and reason; every other row is yielded. Values stay strings
 * (or null): the publisher's codec types them per column and refuses what does not fit.
 */
import { createReadStream, appendFileSync, mkdirSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { Transform, type Readable } from 'node:stream'
import path from 'node:path'
import { parse } from 'csv-parse'
import { edgeId } from '../../core/edges.js'
import { listBulkFiles, type BulkFile } from './files.js'
import { columnName, normalizeValue } from './columns.js'

export { listBulkFiles }

export interface BulkProgress { file: string; bytes: number; totalBytes: number; rows: number; bad: number }
export interface BulkOptions { deadLetterPath: string; onProgress?: (p: BulkProgress) => void }
export interface BulkRow { resource: string; record: Record<string, unknown>; line: number; file: string }

function deadLetter(file: string, entry: { file: string; line: number; reason: string; raw?: unknown }) {
  mkdirSync(path.dirname(file), { recursive: true })
  appendFileSync(file, JSON.stringify(entry) + '\n')
}

/** The file's bytes, decompressed when it is .bz2, counting compressed bytes read for progress. */
function open(file: string, onBytes: (n: number) => void): Readable {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 })
  const counted = raw.pipe(new Transform({ transform(chunk, _enc, cb) { onBytes(chunk.length); cb(null, chunk) } }))
  if (!file.endsWith('.bz2')) return counted
  const bz = spawn('bzip2', ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] })
  counted.pipe(bz.stdin)
  let err = ''
  bz.stderr.on('data', (d) => { err += d })
  bz.on('exit', (code) => { if (code) bz.stdout.destroy(new Error(`bzip2 failed on ${file}: ${err.trim()}`)) })
  return bz.stdout
}

export async function* readBulkFile(f: BulkFile, opts: BulkOptions): AsyncGenerator<BulkRow> {
  const name = path.basename(f.path)
  const progress: BulkProgress = { file: name, bytes: 0, totalBytes: f.bytes, rows: 0, bad: 0 }
  const bad = (line: number, reason: string, raw?: unknown) => { progress.bad++; deadLetter(opts.deadLetterPath, { file: name, line, reason, raw }) }
  const parser = parse({
    quote: '`', escape: '`', relax_column_count: true, skip_records_with_error: true, info: true, raw: true, bom: true,
    cast: (value, ctx) => (ctx.quoting ? value : value === '' ? null : value),
  })
  parser.on('skip', (err: Error & { lines?: number; record?: unknown }) => bad(err.lines ?? 0, err.message, err.record))
  const input = open(f.path, (n) => { progress.bytes += n })
  input.on('error', (err) => parser.destroy(err))
  input.pipe(parser)

  let header: string[] | undefined
  let lastEnd = 0
  let lastReport = 0
  try {
    for await (const { record, info, raw } of parser as AsyncIterable<{ record: (string | null)[]; info: { lines: number }; raw: string }>) {
      // info.lines is the record's last line; its first is that minus the newlines inside it.
      const inner = (raw.replace(/\r?\n$/, '').match(/\n/g) ?? []).length
      const line = info.lines - inner
      lastEnd = info.lines
      if (!header) { header = record.map((c) => columnName(String(c ?? ''))); continue }
      if (record.length !== header.length) { bad(line, `expected ${header.length} columns, found ${record.length}`, record); continue }
      const out: Record<string, unknown> = {}
      header.forEach((col, i) => { out[col] = normalizeValue(record[i]) })
      if (f.resource === 'opinions-cited' && (out.id === undefined || out.id === null)) {
        const citing = Number(out.citing_opinion_id), cited = Number(out.cited_opinion_id)
        if (!Number.isSafeInteger(citing) || !Number.isSafeInteger(cited)) { bad(line, 'citing_opinion_id and cited_opinion_id must be integers', record); continue }
        out.id = edgeId(citing, cited)
      }
      if (out.id === undefined || out.id === null || out.id === '') { bad(line, 'row has no id', record); continue }
      progress.rows++
      yield { resource: f.resource, record: out, line, file: name }
      if (progress.rows - lastReport >= 1000) { lastReport = progress.rows; opts.onProgress?.({ ...progress }) }
    }
  } catch (err) {
    // An error the parser cannot skip past (an unterminated quote at the end of the file).
    bad(lastEnd + 1, (err as Error).message)
  }
  opts.onProgress?.({ ...progress })
}

export async function* readBulkDir(dir: string, opts: BulkOptions & { onSkippedFile?: (name: string) => void }): AsyncGenerator<BulkRow> {
  const { files, skipped } = listBulkFiles(dir)
  for (const s of skipped) opts.onSkippedFile?.(s)
  for (const f of files) yield* readBulkFile(f, opts)
}
