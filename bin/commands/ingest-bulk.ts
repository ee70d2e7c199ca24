/**
 * `lds ingest bulk <dir|file…>`: the reference's bulk files → the entity topics.
 *
 * Order (files.ts): the race code table, then every link file (read into memory, links.ts), then
 * the row files in dependency order, each row joined with its links; then the parents of link files
 * whose own file was not in the run (their current row, read from ClickHouse, with the new arrays);
 * then, with `--prune`, deletes for the current rows a snapshot no longer has.
 *
 * A snapshot over existing data is an update: the same ids get new versions; columns a file does not
 * carry (and link columns whose file is not in the run) keep their current values. Progress is
 * checkpointed (checkpoints.ts) after Kafka acknowledged it (every publishing thread's share), so a killed run resumes where it
 * stood. A bad row goes to the dead-letter file; a bad file is one line naming it, and the others
 * still load.
 */
import path from 'node:path'
import { availableParallelism } from 'node:os'
import { statSync } from 'node:fs'
import { openPublisher, type PublisherDeps } from '../../core/events/publisher.js'
import { openParallelPublisher } from '../../core/events/parallel-publisher.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnSpecs } from '../../schemas/columns.js'
import type { Db } from '../../core/clickhouse.js'
import { readBulkFile, resolveBulkInputs, DeadLetters, BadBulkFile, type BulkFile, type BulkProgress, type BulkRow } from '../../connectors/bulk/index.js'
import { createBulkProgress } from '../../connectors/bulk/progress.js'
import { Checkpoints } from '../../connectors/bulk/checkpoints.js'
import { CodeTable, LinkSet, RACE_CODES } from '../../connectors/bulk/links.js'
import { currentOf } from '../../connectors/bulk/current.js'
import type { Dialect } from '../../connectors/bulk/dialect.js'
import { ensureLbzip2 } from '../../infra/debian.js'

export interface IngestBulkOptions {
  deadLetterPath?: string
  progress?: boolean
  /** Publish deletes for current rows that the run's files of their resource do not hold. */
  prune?: boolean
  /** Ignore what an interrupted run of the same inputs left, and start from the beginning. */
  restart?: boolean
  /** The format of every file, instead of telling it from each file's content. */
  dialect?: Dialect
  /** Records between two checkpoints. Default 50,000. */
  checkpointEvery?: number
  /**
   * Threads that send to Kafka (parallel-publisher.ts); 0 publishes from this thread alone.
   * Default: one per core but one for inputs of 16 MB or more, 0 below.
   */
  publishThreads?: number
}

export interface FileSummary {
  file: string; table: string | undefined; resource: string
  dialect?: Dialect; decompressor?: string
  /** Rows read and published (for a link file: links read). */
  rows: number
  /** Rows an earlier, interrupted run had published: read again, not published again. */
  resumed: number
  refused: number
  error?: string
}

export interface BulkSummary {
  published: number; refused: number; deadLetterPath: string; skippedFiles: string[]; seconds: number
  byResource: Record<string, number>; deleted: Record<string, number>
  files: FileSummary[]; failedFiles: number
}

type Key = string | number
const LOOKUP_BATCH = 1000
const PARALLEL_FROM_BYTES = 16 * 1024 * 1024
const PARALLEL_FROM_CORES = 4

export async function ingestBulk(rt: PublisherDeps & { db: Db }, inputs: string | readonly string[], opts: IngestBulkOptions = {}): Promise<BulkSummary> {
  const started = Date.now()
  const { files, skipped } = resolveBulkInputs(typeof inputs === 'string' ? [inputs] : inputs)
  if (files.some((f) => /\.bz2$/i.test(f.path))) await ensureLbzip2((m) => rt.log.warn(m))
  const deadLetterPath = opts.deadLetterPath ?? path.join(rt.cfg.dataDir, 'dead-letters', `bulk-${Date.now()}.jsonl`)
  const dead = new DeadLetters(deadLetterPath)
  const checkpoints = new Checkpoints(path.join(rt.cfg.dataDir, 'bulk-checkpoints'), files.map((f) => f.path), opts.restart, `${rt.cfg.topicPrefix} ${rt.cfg.clickhouseDatabase}`)
  const every = opts.checkpointEvery ?? 50_000
  const current = currentOf(rt.db, rt.cfg.clickhouseDatabase)
  let at = { file: '', line: 0 }
  // Rows the CSV layer accepts but the codec refuses land in the same file, with their line.
  const onInvalid = (resource: string, record: Record<string, unknown>, reason: string) => dead.write({ file: at.file, line: at.line, resource, reason, raw: record })
  // Worker threads pay for their start (a second or more) only on large inputs, and only where
  // cores are free for them: on 2 cores shared with the broker they measured slower than one
  // thread (docs/decisions/bulk.md).
  const inputBytes = files.reduce((sum, f) => sum + statSync(f.path).size, 0)
  const threads = opts.publishThreads ?? (inputBytes >= PARALLEL_FROM_BYTES && availableParallelism() >= PARALLEL_FROM_CORES ? undefined : 0)
  const pub = threads === 0 ? await openPublisher(rt, onInvalid) : await openParallelPublisher(rt, { threads, onInvalid })
  const bars = opts.progress === false ? undefined : createBulkProgress()
  const races = new CodeTable(RACE_CODES, async (id) => (await current.rows('races', [id], ['race'])).get(id)?.race as string | undefined)
  const links = new LinkSet()
  const seen = new Map<string, Set<Key>>()
  const byResource: Record<string, number> = {}
  const deleted: Record<string, number> = {}
  const summaries: FileSummary[] = []
  const rowResources = new Set(files.filter((f) => f.table?.target.kind !== 'link').map((f) => f.resource))

  const count = (resource: string) => { byResource[resource] = (byResource[resource] ?? 0) + 1 }

  /** Reads one file, handing each row to `each`; a bad file is recorded, not thrown. */
  async function readFile(f: BulkFile, skip: number, each: (row: BulkRow) => Promise<void> | void): Promise<FileSummary> {
    const s: FileSummary = { file: path.basename(f.path), table: f.table?.table, resource: f.resource, rows: 0, resumed: 0, refused: 0 }
    const before = dead.byFile.get(s.file) ?? 0
    let last: BulkProgress | undefined
    try {
      for await (const row of readBulkFile(f.path, f.resource, {
        deadLetters: dead, table: f.table, dialect: opts.dialect, skip,
        onProgress: (p) => { last = p; bars?.update(p) },
      })) {
        at = { file: row.file, line: row.line }
        if (row.replayed) s.resumed++
        else s.rows++
        await each(row)
      }
    } catch (err) {
      if (!(err instanceof BadBulkFile)) throw err
      s.error = err.message
      rt.log.error(err.message)
    }
    s.dialect = last?.dialect
    s.decompressor = last?.decompressor
    s.refused = (dead.byFile.get(s.file) ?? 0) - before
    summaries.push(s)
    return s
  }

  /** Link files: into memory. Re-read on a resume (they publish nothing themselves). */
  async function readLinks(f: BulkFile) {
    const table = f.table!
    links.declare(table)
    const again = checkpoints.stepDone(`links:${f.path}`)
    await readFile(f, again ? Infinity : 0, async (row) => {
      const reason = await links.add(table, row.record, table.target.kind === 'link' && table.target.codes ? races : undefined)
      if (reason && !row.replayed) dead.write({ file: row.file, line: row.line, resource: f.resource, reason, raw: row.record })
    })
    checkpoints.markStep(`links:${f.path}`)
  }

  /** Row files: joined with their links, missing columns kept from the current row, published. */
  async function publishRows(f: BulkFile) {
    const mark = checkpoints.of(f.path)
    const linkColumns = links.columnsOf(f.resource)
    const keys = opts.prune ? (seen.get(f.resource) ?? seen.set(f.resource, new Set()).get(f.resource)!) : undefined
    // A finished file is read again only when its rows still matter to this run (links, prune).
    if (mark.done && linkColumns.length === 0 && !keys) {
      summaries.push({ file: path.basename(f.path), table: f.table?.table, resource: f.resource, rows: 0, resumed: 0, refused: 0, error: undefined })
      return
    }
    const skip = mark.done ? Infinity : mark.records
    const stored = columnSpecs(catalogue, catalogue.get(f.resource)).map((c) => c.column)
    const empty = await current.isEmpty(f.resource)
    let keep: string[] | undefined // columns the file does not carry, kept from the current row
    let batch: BulkRow[] = []
    let sinceMark = 0
    let lastOrdinal = mark.records

    const flushBatch = async () => {
      if (batch.length === 0) return
      const rows = batch
      batch = []
      if (keep!.length) {
        const found = await current.rows(f.resource, rows.map((r) => r.record.id as Key), keep)
        for (const r of rows) {
          const cur = found.get(r.record.id as Key)
          if (cur) for (const c of keep!) r.record[c] = cur[c]
        }
      }
      for (const r of rows) {
        at = { file: r.file, line: r.line }
        await pub.upsert(f.resource, r.record)
        count(f.resource)
      }
    }

    await readFile(f, skip, async (row) => {
      const record = row.record
      keys?.add(record.id as Key)
      if (linkColumns.length) Object.assign(record, links.take(f.resource, record.id as Key))
      if (row.replayed) return
      keep ??= empty ? [] : stored.filter((c) => c !== 'id' && !(c in record))
      if (keep.length) {
        batch.push(row)
        if (batch.length >= LOOKUP_BATCH) await flushBatch()
      } else {
        await pub.upsert(f.resource, record)
        count(f.resource)
      }
      lastOrdinal = row.ordinal
      if (++sinceMark >= every) {
        await flushBatch()
        await pub.flush()
        checkpoints.mark(f.path, lastOrdinal)
        sinceMark = 0
      }
    }).then(async (s) => {
      await flushBatch()
      await pub.flush()
      checkpoints.mark(f.path, s.error ? lastOrdinal : Math.max(lastOrdinal, mark.records), !s.error)
    })
  }

  /** Parents named by a link file whose own file was not in the run: their current row with the new arrays. */
  async function applyLeftoverLinks() {
    for (const resource of links.resources()) {
      const step = `leftovers:${resource}`
      const pending = [...links.leftovers(resource)]
      if (checkpoints.stepDone(step)) continue
      if (!rowResources.has(resource)) {
        // Link files alone: they are the whole relation, so parents holding links they no longer
        // name lose them. (With the parents' own file in the run, its rows were given theirs.)
        const named = new Set(pending.map(([k]) => k))
        const columns = links.columnsOf(resource)
        for (const column of columns) {
          for (const k of await current.withAny(resource, column)) {
            if (named.has(k)) continue
            named.add(k)
            pending.push([k, Object.fromEntries(columns.map((c) => [c, []]))])
          }
        }
      }
      for (let i = 0; i < pending.length; i += LOOKUP_BATCH) {
        const part = pending.slice(i, i + LOOKUP_BATCH)
        const found = await current.rows(resource, part.map(([k]) => k))
        for (const [key, arrays] of part) {
          const row = found.get(key)
          if (!row) {
            dead.write({ file: `${resource} links`, line: 0, resource, reason: `links name ${resource} ${JSON.stringify(key)}, which neither the run nor the service holds`, raw: { id: key, ...arrays } })
            continue
          }
          at = { file: `${resource} links`, line: 0 }
          await pub.upsert(resource, { ...row, ...arrays })
          count(resource)
        }
      }
      await pub.flush()
      checkpoints.markStep(step)
    }
  }

  /** With --prune: current rows of each resource the run's files no longer hold are deleted. */
  async function prune() {
    for (const [resource, keys] of seen) {
      const step = `prune:${resource}`
      if (checkpoints.stepDone(step)) continue
      let n = 0
      for await (const page of current.keys(resource)) {
        for (const k of page) if (!keys.has(k)) { await pub.delete(resource, k); n++ }
      }
      await pub.flush()
      deleted[resource] = n
      checkpoints.markStep(step)
    }
  }

  try {
    for (const f of files) {
      if (f.table?.target.kind === 'link') await readLinks(f)
      else {
        await publishRows(f)
        // A code table's rows are what later link rows translate through.
        if (f.resource === 'races') for (const [id, code] of await racesOf(f)) races.add(id, code)
      }
    }
    await applyLeftoverLinks()
    if (opts.prune) await prune()
    await pub.flush()
  } finally {
    bars?.stop()
    await pub.stop()
    dead.close()
  }
  const failedFiles = summaries.filter((s) => s.error).length
  if (failedFiles === 0) checkpoints.clear()
  return {
    published: pub.stats.published, refused: dead.count, deadLetterPath, skippedFiles: skipped,
    seconds: (Date.now() - started) / 1000, byResource, deleted, files: summaries, failedFiles,
  }

  /** The race codes of a code file, by id (a small table: read again rather than kept from the pass). */
  async function racesOf(f: BulkFile): Promise<[number, string][]> {
    const out: [number, string][] = []
    for await (const row of readBulkFile(f.path, f.resource, { deadLetters: dead, table: f.table, dialect: opts.dialect, skip: Infinity })) {
      if (typeof row.record.race === 'string') out.push([Number(row.record.id), row.record.race])
    }
    return out
  }
}
