/**
 * Streams the reference's bulk-data CSV files (Postgres COPY output, backtick-quoted, plain
 * or bzip2-compressed) as typed records in storage form: `{ resource, record, line, file }`.
 *
 * - Constant memory: the file is read a chunk at a time and the next chunk is only read when
 *   the consumer asks for more records, so a slow consumer slows the reading (and, for .bz2,
 *   the bzip2 process) instead of buffering.
 * - Values: see columns.ts. NULL (unquoted empty) → null, `` → ''.
 * - A row that cannot be read or typed (malformed quoting, wrong number of columns, a value
 *   that does not fit its column, no id, a quote left open at the end of the file) is written
 *   to the dead-letter file as one JSON line {file, line, resource, reason, raw} and is not
 *   yielded. Every other row is yielded.
 * - A file that cannot be read at all (missing, bzip2 failure, corrupt compressed data) throws.
 */
import { createReadStream, statSync, openSync, writeSync, closeSync, mkdirSync } from 'node:fs'
import { spawn, type ChildProcess } from 'node:child_process'
import { PassThrough, Transform, pipeline, type Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import path from 'node:path'
import { edgeId } from '../../domain/citations/edges.js'
import { listBulkFiles, scanBulkDir, resourceOf, tableOf, FILE_RESOURCES, type BulkFile } from './files.js'
import { columnName, columnKinds, converterFor, BadValue, type Converter } from './columns.js'
import { CopyCsvParser, type ParsedRecord } from './parser.js'

export { listBulkFiles, scanBulkDir, resourceOf, tableOf, FILE_RESOURCES, type BulkFile }

export interface BulkProgress { file: string; bytes: number; totalBytes: number; rows: number; bad: number }
export interface BulkOptions {
  deadLetterPath: string
  onProgress?: (p: BulkProgress) => void
  /** Least time between two progress calls (the last call of a file always happens). Default 200 ms. */
  progressIntervalMs?: number
}
export interface BulkRow { resource: string; record: Record<string, unknown>; line: number; file: string }

const CHUNK = 1 << 20
const READ_AHEAD = 4 << 20

/** Appends dead-letter lines to a file opened on first use. */
class DeadLetters {
  private fd: number | undefined
  constructor(private readonly file: string) {}
  write(entry: Record<string, unknown>) {
    if (this.fd === undefined) {
      mkdirSync(path.dirname(this.file), { recursive: true })
      this.fd = openSync(this.file, 'a')
    }
    writeSync(this.fd, JSON.stringify(entry) + '\n')
  }
  close() {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }
}

interface Source {
  chunks: AsyncIterable<Buffer>
  bytesRead(): number
  /** Resolves once the input is fully read; rejects when it could not be (bzip2 failure, I/O error). */
  finished(): Promise<void>
  close(): void
}

/** The file's bytes, decompressed when it is .bz2 (by the bzip2 command), counting the file bytes read. */
function openSource(file: string): Source {
  let bytes = 0
  const compressed = /\.bz2$/i.test(file)
  // Compressed input in small reads: a compressed MB is several MB of text, and progress is counted on it.
  const raw = createReadStream(file, { highWaterMark: compressed ? 64 * 1024 : CHUNK })
  if (!compressed) {
    const counted = (async function* () {
      for await (const b of raw) { bytes += (b as Buffer).length; yield b as Buffer }
    })()
    return { chunks: counted, bytesRead: () => bytes, finished: async () => {}, close: () => raw.destroy() }
  }
  const child: ChildProcess = spawn('bzip2', ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (d) => { if (stderr.length < 4000) stderr += d })
  let failure: Error | undefined
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (err: NodeJS.ErrnoException) => {
      failure ??= err.code === 'ENOENT' ? new Error('the bzip2 command is needed to read .bz2 files and was not found') : err
      resolve(null)
    })
    child.on('close', (code) => resolve(code))
  })
  const counter = new Transform({ transform(chunk: Buffer, _enc, cb) { bytes += chunk.length; cb(null, chunk) } })
  let closing = false
  pipeline(raw, counter, child.stdin!, (err) => {
    // EPIPE when bzip2 stops early (bad data, or we closed it) is reported through its exit code instead.
    if (err && !closing && (err as NodeJS.ErrnoException).code !== 'EPIPE') failure ??= err
  })
  // Let bzip2 run ahead by a few MB (the pipe alone holds 64 KiB): while the consumer awaits
  // something else (a Kafka send), decompression goes on. Still a fixed bound on memory.
  const ahead = new PassThrough({ highWaterMark: READ_AHEAD })
  pipeline(child.stdout!, ahead, () => {})
  return {
    chunks: ahead as Readable as AsyncIterable<Buffer>,
    bytesRead: () => bytes,
    async finished() {
      const code = await exited
      if (failure) throw failure
      if (code !== 0) throw new Error(`bzip2 could not decompress ${path.basename(file)} (exit ${code}): ${stderr.trim()}`)
    },
    close() {
      closing = true
      raw.destroy()
      ahead.destroy()
      if (child.exitCode === null && child.signalCode === null) child.kill()
    },
  }
}

/** How one file's header maps to typed record fields. */
interface Layout { names: string[]; convert: Converter[]; idIndex: number }

function layoutOf(resource: string, header: (string | null)[]): Layout {
  const kinds = columnKinds(resource)
  const names = header.map((h) => columnName(h ?? ''))
  const convert = names.map((n) => converterFor(n, kinds.get(n)))
  return { names, convert, idIndex: names.indexOf('id') }
}

export async function* readBulkFile(file: string, resource: string, opts: BulkOptions): AsyncGenerator<BulkRow> {
  const name = path.basename(file)
  const progress: BulkProgress = { file: name, bytes: 0, totalBytes: statSync(file).size, rows: 0, bad: 0 }
  const interval = opts.progressIntervalMs ?? 200
  let lastReport = 0
  const report = (force = false) => {
    if (!opts.onProgress) return
    const now = Date.now()
    if (!force && now - lastReport < interval) return
    lastReport = now
    progress.bytes = source.bytesRead()
    opts.onProgress({ ...progress })
  }
  const dead = new DeadLetters(opts.deadLetterPath)
  const parser = new CopyCsvParser()
  const source = openSource(file)
  const decoder = new StringDecoder('utf8')
  let layout: Layout | undefined
  const edges = resource === 'opinions-cited'

  const refuse = (rec: ParsedRecord, reason: string) => {
    progress.bad++
    const { raw, truncated } = parser.rawOf(rec)
    dead.write({ file: name, line: rec.line, resource, reason, raw, ...(truncated ? { truncated: true } : {}) })
  }

  /** A parsed record → the row to yield, or undefined when it is refused (or is the header or a blank line). */
  const toRow = (rec: ParsedRecord): BulkRow | undefined => {
    if (!layout) {
      if (rec.error) throw new Error(`${name}: unreadable header on line ${rec.line}: ${rec.error}`)
      layout = layoutOf(resource, rec.fields)
      return undefined
    }
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
    if (record.id === undefined || record.id === null || record.id === '') { refuse(rec, 'row has no id'); return undefined }
    progress.rows++
    return { resource, record, line: rec.line, file: name }
  }

  let first = true
  try {
    for await (const buf of source.chunks) {
      let text = decoder.write(buf)
      if (first && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
        first = false
      }
      for (const rec of parser.push(text)) {
        const row = toRow(rec)
        if (row) yield row
      }
      report()
    }
    await source.finished()
    const tail = parser.push(decoder.end())
    for (const rec of tail.concat(parser.end())) {
      const row = toRow(rec)
      if (row) yield row
    }
  } finally {
    source.close()
    dead.close()
    report(true)
  }
}

/** Every record of every bulk file in a folder, file by file in dependency order. */
export async function* readBulkDir(dir: string, opts: BulkOptions & { onSkippedFile?: (name: string) => void }): AsyncGenerator<BulkRow> {
  const { files, skipped } = scanBulkDir(dir)
  for (const s of skipped) opts.onSkippedFile?.(s)
  for (const f of files) yield* readBulkFile(f.path, f.resource, opts)
}
