/**
 * Search at scale: ClickHouse through domain/search/query-sql.ts against PostgreSQL 15 full-text
 * search over the same documents, in one run.
 *
 *   npx tsx bench/search.ts [--docs 1000000 | --quick] [--queries 40] [--reps 3] [--batch 5000] [--inflight 2] [--no-peer] [--keep] [--reuse]
 *                           [--topics-opinions 100000 [--topics-seed 7] [--topics-prefix bench.search] [--indexers 1] | --no-topics | --only-topics]
 *
 * --keep keeps the ClickHouse database (and the query samples drawn from its texts); --reuse then
 * measures the queries again on it, without indexing (the peer is skipped: its rows are not kept).
 * --reindex SHARE then indexes that share of the documents again (new versions, as a re-index after
 * a change does), and measures the compaction of their stale postings (streams/search/compaction.ts):
 * its time, the server's CPU, the postings' size before and after, and the queries before and after.
 *
 * 1. Generates opinion-like documents (bench/lib/search-corpus.ts), 50,000 at a time, and indexes
 *    each chunk as the search indexer does: batches of --batch documents, analyzeDocument +
 *    toIndexRows (postings grouped per batch) + writeIndexRows (the postings as one Native block,
 *    the document rows as another insert) per batch, up to --inflight batches' inserts in flight.
 *    Each batch has its own version, as each chunk the indexer writes has.
 *    Generation is not timed; the index rate is documents / time spent indexing (analysis, rows,
 *    inserts, materialized views), background merges excluded but running. The same rows are
 *    written to a CSV file for the peer.
 * 2. Queries (--queries per kind, after 3 warm-ups, each run --reps times), as the search API asks them: the BM25
 *    statistics (statsSql with the corpus statistics cached: corpusStatsSql once), then the top 20
 *    (searchSql), which also counts the matches where it can (`total`), else the count (countSql) beside it:
 *      term      a word of frequency rank 50-5,000, unfielded (all 13 default fields), by score
 *      phrase    2-3 consecutive words of a generated text (frequent words and "F.3d" are common)
 *      field     caseName:<surname>, by score
 *      filtered  a term with court_id and a 5-year dateFiled range (request filters), by score
 *      ordered   a term, ordered by dateFiled desc (no statistics needed)
 * 3. The peer: PostgreSQL 15 (bench/lib/postgres.ts, under .data/bench/pg-search, stopped at the
 *    end): one table, a stored tsvector ('simple' configuration: no stemming, no stop words, as our
 *    analyzer) with weight A for the case name, B for the other short fields, D for the text; a
 *    GIN index; b-trees on (court_id, date_filed) and date_filed; ts_rank, to_tsquery,
 *    phraseto_tsquery, `smith:A` for caseName. Loaded by COPY (index rate = COPY + index builds).
 *    The same queries: top 20 and count(*) in parallel on two connections.
 * 4. From the topics (bench/lib/search-from-topics.ts): the search-index role itself catching up from
 *    the first offsets over the sample generator's data set of --topics-opinions opinions (every
 *    search type, built from the tables as in production), distinct documents indexed per second.
 *    --topics-prefix bench.api1m --topics-opinions 1200000 --topics-seed 1 reuses bench/api.ts's
 *    data set of `--prefix bench.api1m --opinions 1200000`.
 *    The role runs in its own process (`lds run --roles search-index`, SEARCH_INDEX_NODE_OPTIONS);
 *    --indexers N runs N of them, which share the topics' partitions (their CPU summed).
 *    Steps 1-3 measure the index rows and inserts alone, over opinion documents made in memory.
 * Prints a table with p50/p95 and ratios (peer / ClickHouse: above 1, ClickHouse is faster), the
 * machine's load average, and writes .data/bench/search.json. The ClickHouse database
 * lds_bench_search is dropped at the end (--keep keeps it).
 */
import os from 'node:os'
import path from 'node:path'
import { createWriteStream, createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { loadConfig } from '../core/config.js'
import { createDb, type Db } from '../core/clickhouse.js'
import { sql, ident } from '../core/sql.js'
import { analyzeDocument, type SearchDocument } from '../domain/search/document.js'
import { tokens } from '../domain/search/analyzer.js'
import { parseQuery } from '../domain/search/parse.js'
import type { Node } from '../domain/search/ast.js'
import { searchTableDdl, refreshSql } from '../schemas/internal/search-layout.js'
import { searchTables } from '../domain/search/tables.js'
import { searchPageSql, countSql, statsSql, corpusStatsSql, type SearchStats, type CorpusStats, type SearchSqlOptions } from '../domain/search/query-sql.js'
import { toIndexRows } from '../streams/search/index-rows.js'
import { createCorpus, WORDS, COURT_IDS, SURNAME_TOKENS, rng, type OpinionDoc } from './lib/search-corpus.js'
import { percentile, fmtMs, fmtInt, fmtRatio, table } from './lib/stats.js'
import { startPostgres, type LocalPostgres } from './lib/postgres.js'
import { stopChildrenOnExit, treeCpuMsOf } from './lib/children.js'
import { startIndexRowsWrite } from '../streams/search/indexer.js'
import { compactSearchType } from '../streams/search/compaction.js'
import { measureFromTopics, describeFromTopics, type FromTopicsResult } from './lib/search-from-topics.js'
import { parseFlags } from '../test/kit/args.js'
import { waitFor } from '../test/kit/wait-for.js'

const flags = parseFlags('npx tsx bench/search.ts', ({ quick }) => ({
  quick: { type: 'boolean', help: 'small sizes' },
  docs: { type: 'number', default: quick ? 100_000 : 1_000_000, help: 'synthetic opinions' },
  queries: { type: 'number', default: 40, help: 'queries per kind' },
  batch: { type: 'number', default: 5_000, help: 'documents per indexing batch' },
  inflight: { type: 'number', default: 2, help: 'batches\' inserts in flight' },
  reps: { type: 'number', default: 3, help: 'runs of each query' },
  'peer-timeout-ms': { type: 'number', default: 30_000, help: 'PostgreSQL statement timeout' },
  'no-peer': { type: 'boolean', help: 'skip the PostgreSQL peer' },
  keep: { type: 'boolean', help: 'keep the database and query samples' },
  reuse: { type: 'boolean', help: 'reuse the kept database (implies --keep and --no-peer)' },
  reindex: { type: 'number', default: 0, help: 'share of the documents to index again, 0 to 1' },
  db: { type: 'string', default: 'lds_bench_search', help: 'ClickHouse database' },
  'topics-opinions': { type: 'number', default: quick ? 20_000 : 100_000, help: 'opinions of the from-topics case' },
  'topics-seed': { type: 'number', default: 7, help: 'sample generator seed of the from-topics case' },
  'topics-prefix': { type: 'string', default: 'bench.search', help: 'topic prefix of the from-topics case' },
  indexers: { type: 'number', default: 1, help: 'search-index processes in the from-topics case' },
  'no-topics': { type: 'boolean', help: 'skip the from-topics case' },
  'only-topics': { type: 'boolean', help: 'run the from-topics case only' },
}))
const N = flags.docs
const QUERIES = flags.queries
const BATCH = flags.batch
const INFLIGHT = flags.inflight
const REPS = flags.reps
const PEER_TIMEOUT_MS = flags['peer-timeout-ms']
const CHUNK = 50_000
const PEER = !flags['no-peer'] && !flags.reuse
const REUSE = flags.reuse
const KEEP = flags.keep || REUSE
const REINDEX = flags.reindex
if (!(REINDEX >= 0 && REINDEX <= 1)) throw new Error('--reindex takes a share of the documents, 0 to 1')
const DB = flags.db
const TOPICS_OPINIONS = flags['no-topics'] || REUSE ? 0 : flags['topics-opinions']
const TOPICS = { seed: flags['topics-seed'], prefix: flags['topics-prefix'], indexers: flags.indexers }
const TYPE = 'o' as const

const cfg = loadConfig()
const BENCH_DIR = path.join(cfg.dataDir, 'bench')
const PG_DIR = path.join(BENCH_DIR, 'pg-search')
const CSV = path.join(PG_DIR, 'opinions.csv')
const SAMPLES = path.join(BENCH_DIR, `${DB}-samples.json`)
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`)
const loadAvg = () => os.loadavg().map((x) => x.toFixed(1)).join(' ')

// ---------------------------------------------------------------- loading ClickHouse

const PG_COLUMNS = ['id', 'case_name', 'case_name_full', 'docket_number', 'citation', 'judge', 'court', 'court_citation_string', 'court_id', 'status', 'date_filed', 'cite_count', 'text'] as const
const csvField = (v: unknown) => { const s = Array.isArray(v) ? v.join('; ') : String(v ?? ''); return `"${s.replace(/"/g, '""')}"` }

interface LoadResult {
  docs: number; indexSeconds: number; docsPerSecond: number; genSeconds: number
  /** CPU seconds of this process analysing and building rows (a machine shared with other work slows the wall clock, less these) */
  analyzeCpuSeconds: number; rowsCpuSeconds: number
  /** the inserts' wall time, summed (they overlap the next batch's preparation) */
  insertSeconds: number
  /** CPU seconds of the local ClickHouse server while indexing (merges running meanwhile included); undefined when it is not local */
  serverCpuSeconds?: number
}

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

/** CPU ms used so far by the local ClickHouse (its launcher and the engine under it), or undefined. */
function serverCpuMs0(): number | undefined {
  try {
    return treeCpuMsOf(Number(readFileSync(path.join(cfg.dataDir, 'run', 'clickhouse.pid'), 'utf8').trim()))
  } catch { return undefined }
}

/** Documents first..last (ids), generated in batches as the corpus makes them. */
function generate(corpus: ReturnType<typeof createCorpus>, first: number, last: number): OpinionDoc[] {
  const docs: OpinionDoc[] = []
  for (let b = first; b <= last; b += BATCH) docs.push(...corpus.batch(b, Math.min(BATCH, last + 1 - b)))
  return docs
}

/** The texts queries are drawn from: every 499th document's tokens, up to 2,000. */
function drawSamples(samples: string[][], docs: readonly OpinionDoc[]): void {
  for (const d of docs) if (samples.length < 2000 && d.id % 499 === 0) samples.push(tokens(d.text))
}

/** The samples of a kept database: from the file its run wrote, or generated again (not indexed). */
function keptSamples(): string[][] {
  if (existsSync(SAMPLES)) return JSON.parse(readFileSync(SAMPLES, 'utf8')) as string[][]
  log(`  no ${SAMPLES}: generating the ${fmtInt(N)} documents again (not indexing) to draw the query samples`)
  const corpus = createCorpus()
  const samples: string[][] = []
  for (let b = 1; b <= N && samples.length < 2000; b += BATCH) drawSamples(samples, corpus.batch(b, Math.min(BATCH, N + 1 - b)))
  writeFileSync(SAMPLES, JSON.stringify(samples))
  return samples
}

/**
 * Indexes documents as a stream processor does: a batch → rows → one insert, inserts overlapping
 * the next batch's preparation; batch i gets version `versionBase + i` (a version per batch, as the
 * indexer gives each chunk it writes).
 */
async function indexDocs(db: Db, docs: readonly OpinionDoc[], versionBase: number): Promise<{ analyzeCpuMs: number; rowsCpuMs: number; insertMs: number }> {
  const spent = { analyzeCpuMs: 0, rowsCpuMs: 0, insertMs: 0 }
  const inflight: Promise<void>[] = []
  for (let i = 0; i < docs.length; i += BATCH) {
    const c0 = cpuMs()
    const version = versionBase + i
    const analyzed = docs.slice(i, i + BATCH).map((d) => ({ doc: analyzeDocument(TYPE, d as unknown as SearchDocument), version }))
    const c1 = cpuMs()
    const rows = toIndexRows(TYPE, analyzed)
    spent.analyzeCpuMs += c1 - c0
    spent.rowsCpuMs += cpuMs() - c1
    if (inflight.length >= INFLIGHT) await inflight.shift()
    const w0 = performance.now()
    const w = startIndexRowsWrite(db, cfg.clickhouseUrl, TYPE, rows)
    inflight.push(w.done.then(() => { spent.insertMs += performance.now() - w0 }))
    await w.sent // the server works on this batch while the next one is prepared
  }
  await Promise.all(inflight)
  return spent
}

async function loadClickHouse(db: Db, samples: string[][]): Promise<LoadResult> {
  const corpus = createCorpus()
  const csv = PEER ? createWriteStream(CSV) : null
  let indexMs = 0
  let genMs = 0
  let analyzeCpu = 0
  let rowsCpu = 0
  let insertMs = 0
  let done = 0
  let lastLog = performance.now()
  let serverCpuMs = 0
  for (let first = 1; first <= N; first += CHUNK) {
    const t0 = performance.now()
    const docs = generate(corpus, first, Math.min(first + CHUNK - 1, N))
    if (csv) {
      let out = ''
      for (const d of docs) {
        out += PG_COLUMNS.map((c) => csvField(d[c])).join(',') + '\n'
        if (out.length > 4_000_000) { if (!csv.write(out)) await once(csv, 'drain'); out = '' }
      }
      if (!csv.write(out)) await once(csv, 'drain')
    }
    drawSamples(samples, docs)
    const t1 = performance.now()
    genMs += t1 - t0
    const s0 = serverCpuMs0()
    const spent = await indexDocs(db, docs, first)
    analyzeCpu += spent.analyzeCpuMs
    rowsCpu += spent.rowsCpuMs
    insertMs += spent.insertMs
    indexMs += performance.now() - t1
    const s1 = serverCpuMs0()
    if (s0 !== undefined && s1 !== undefined) serverCpuMs += s1 - s0
    done += docs.length
    if (performance.now() - lastLog > 5000 || done === N) {
      lastLog = performance.now()
      log(`  indexed ${fmtInt(done)} / ${fmtInt(N)} documents, ${fmtInt((done / indexMs) * 1000)} docs/s (load average ${loadAvg()})`)
    }
  }
  if (csv) { csv.end(); await once(csv, 'finish') }
  return {
    docs: done, indexSeconds: indexMs / 1000, docsPerSecond: (done / indexMs) * 1000, genSeconds: genMs / 1000,
    analyzeCpuSeconds: analyzeCpu / 1000, rowsCpuSeconds: rowsCpu / 1000, insertSeconds: insertMs / 1000,
    serverCpuSeconds: serverCpuMs0() === undefined ? undefined : serverCpuMs / 1000,
  }
}

/**
 * Waits (up to maxMs) until the bench tables have settled: no merge running and the same active
 * parts on four checks 2 s apart (one check can fall between two merges: a run measured its
 * queries over 12 parts while merges went on). Returns the active part counts.
 */
async function settle(db: Db, maxMs: number): Promise<string> {
  let last = ''
  let quiet = 0
  // Settled: no merge running and the same parts three readings in a row; past maxMs, measure anyway.
  await waitFor(async () => {
    const [m] = await db.query<{ n: number; parts: number }>(sql`SELECT (SELECT count() FROM system.merges WHERE database = ${DB}) AS n,
      (SELECT count() FROM system.parts WHERE database = ${DB} AND active) AS parts`)
    const state = `${m.parts}`
    quiet = Number(m.n) === 0 && state === last ? quiet + 1 : 0
    last = state
    return quiet >= 3
  }, 'merges to settle', maxMs, 2000).catch(() => false)
  const parts = await db.query<{ t: string; n: number; size: string }>(sql`SELECT table AS t, count() AS n, formatReadableSize(sum(bytes_on_disk)) AS size FROM system.parts WHERE database = ${DB} AND active GROUP BY table ORDER BY table`)
  return parts.map((p) => `${p.t}: ${p.n} parts, ${p.size}`).join('; ')
}

// ---------------------------------------------------------------- queries

type Kind = 'term' | 'phrase' | 'field' | 'filtered' | 'ordered'
const KINDS: Kind[] = ['term', 'phrase', 'field', 'filtered', 'ordered']

interface Query { kind: Kind; q: string; filters?: { court: string; from: string; to: string }; byDate: boolean }

function makeQueries(samples: string[][]): Query[] {
  const r = rng(42)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]
  const mid = () => WORDS[50 + Math.floor(r() * 4950)]
  const out: Query[] = []
  for (let i = 0; i < QUERIES + 3; i++) {
    const toks = pick(samples)
    const at = Math.floor(r() * (toks.length - 3))
    const y = 1950 + Math.floor(r() * 70)
    out.push(
      { kind: 'term', q: mid(), byDate: false },
      { kind: 'phrase', q: `"${toks.slice(at, at + 2 + Math.floor(r() * 2)).join(' ')}"`, byDate: false },
      { kind: 'field', q: `caseName:${pick(SURNAME_TOKENS)}`, byDate: false },
      { kind: 'filtered', q: mid(), filters: { court: COURT_IDS[Math.floor(Math.pow(r(), 2) * 20)], from: `${y}-01-01`, to: `${y + 4}-12-31` }, byDate: false },
      { kind: 'ordered', q: mid(), byDate: true },
    )
  }
  return out
}

interface Engine { name: string; run(q: Query): Promise<{ hits: number; top: number[] }> }

function clickhouseEngine(db: Db, corpus: CorpusStats): Engine {
  return {
    name: 'ClickHouse',
    async run(q) {
      const ast = parseQuery(q.q, TYPE)
      const filters: Node | undefined = q.filters ? parseQuery(`court_id:${q.filters.court} dateFiled:[${q.filters.from} TO ${q.filters.to}]`, TYPE) : undefined
      const o: SearchSqlOptions = { filters, corpus, limit: 20, order: q.byDate ? [{ field: 'dateFiled', dir: 'desc' }] : undefined }
      const stats = q.byDate ? undefined : (await db.query<SearchStats>(statsSql(ast, TYPE, o)))[0]
      // as the search API asks: the page counts the matches where its rows are one per document
      // (searchSql `total`); otherwise the count runs beside it (the statistics order a phrase's join)
      const pageSql = searchPageSql(ast, TYPE, { ...o, stats, total: true })
      const [page, counts] = await Promise.all([
        db.query<{ id: number; total?: number }>(pageSql.sql).then((rows) => (pageSql.fallback?.needed(rows) ? db.query<{ id: number; total?: number }>(pageSql.fallback.sql) : rows)),
        pageSql.total ? Promise.resolve(null) : db.query<{ count: number }>(countSql(ast, TYPE, { ...o, stats })),
      ])
      const count = counts ? counts[0].count : page.length ? page[0].total : 0
      return { hits: Number(count), top: page.map((p) => Number(p.id)) }
    },
  }
}

function postgresEngine(pool: pg.Pool): Engine {
  return {
    name: 'PostgreSQL',
    async run(q) {
      let tsq: string
      const args: unknown[] = []
      if (q.kind === 'phrase') { tsq = `phraseto_tsquery('simple'::regconfig, $1)`; args.push(q.q.replace(/"/g, '')) }
      else if (q.kind === 'field') { tsq = `to_tsquery('simple'::regconfig, $1)`; args.push(`${q.q.split(':')[1]}:A`) }
      else { tsq = `plainto_tsquery('simple'::regconfig, $1)`; args.push(q.q) }
      let where = `tsv @@ ${tsq}`
      if (q.filters) { where += ` AND court_id = $2 AND date_filed BETWEEN $3 AND $4`; args.push(q.filters.court, q.filters.from, q.filters.to) }
      const order = q.byDate ? 'date_filed DESC NULLS LAST, id DESC' : `ts_rank(tsv, ${tsq}) DESC, id DESC`
      try {
        const [page, count] = await Promise.all([
          pool.query(`SELECT id FROM opinions WHERE ${where} ORDER BY ${order} LIMIT 20`, args),
          pool.query(`SELECT count(*)::int AS n FROM opinions WHERE ${where}`, args),
        ])
        return { hits: count.rows[0].n, top: page.rows.map((r: { id: string }) => Number(r.id)) }
      } catch (err) {
        if (!/statement timeout/.test(String((err as Error).message))) throw err
        log(`  PostgreSQL: ${q.kind} ${q.q} ran past ${PEER_TIMEOUT_MS} ms (counted as ${PEER_TIMEOUT_MS} ms)`)
        return { hits: 0, top: [] }
      }
    },
  }
}

/** p50/p95 over every run, and over each query's best run (less sensitive to other work on the machine) */
interface Timing { p50: number; p95: number; bestP50: number; bestP95: number; meanHits: number }

async function measure(e: Engine, queries: Query[]): Promise<Record<Kind, Timing>> {
  const out = {} as Record<Kind, Timing>
  for (const kind of KINDS) {
    const qs = queries.filter((q) => q.kind === kind)
    for (const q of qs.slice(0, 3)) await e.run(q) // warm-up
    const times: number[] = []
    const bests: number[] = []
    let hits = 0
    for (const q of qs.slice(3)) {
      let best = Infinity
      for (let rep = 0; rep < REPS; rep++) {
        const t0 = performance.now()
        const r = await e.run(q)
        const ms = performance.now() - t0
        times.push(ms)
        best = Math.min(best, ms)
        if (rep === 0) hits += r.hits
      }
      bests.push(best)
    }
    times.sort((a, b) => a - b)
    bests.sort((a, b) => a - b)
    out[kind] = { p50: percentile(times, 0.5), p95: percentile(times, 0.95), bestP50: percentile(bests, 0.5), bestP95: percentile(bests, 0.95), meanHits: hits / bests.length }
    log(`  ${e.name} ${kind}: p50 ${fmtMs(out[kind].p50)} ms, p95 ${fmtMs(out[kind].p95)} ms (best of ${REPS}: ${fmtMs(out[kind].bestP50)} / ${fmtMs(out[kind].bestP95)} ms), ${fmtInt(out[kind].meanHits)} hits on average (load average ${loadAvg()})`)
  }
  return out
}

// ---------------------------------------------------------------- compaction

/** The postings table's active parts: rows and bytes on disk. */
async function postingsSize(db: Db): Promise<{ rows: number; bytes: number }> {
  const [r] = await db.query<{ rows: number; bytes: number }>(sql`SELECT sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
    WHERE database = ${DB} AND table = ${searchTables(TYPE).postings} AND active`)
  return { rows: Number(r?.rows ?? 0), bytes: Number(r?.bytes ?? 0) }
}

/** --reindex: a share of the documents indexed again, then their stale postings compacted. */
async function measureCompaction(db: Db, queries: Query[], corpus: CorpusStats) {
  const count = Math.round(REINDEX * N)
  const gen = createCorpus()
  log(`compaction: indexing ${fmtInt(count)} documents again (the same texts at new versions, as after a change)`)
  const t0 = performance.now()
  for (let first = 1; first <= count; first += CHUNK) {
    const docs = generate(gen, first, Math.min(first + CHUNK - 1, count))
    await indexDocs(db, docs, N + first) // above every version of the first load
    log(`  indexed again ${fmtInt(Math.min(first + CHUNK - 1, count))} / ${fmtInt(count)}`)
  }
  const reindexSeconds = (performance.now() - t0) / 1000
  await db.command(refreshSql(TYPE, { database: DB }))
  log(`compaction: ${await settle(db, 300_000)}`)
  const before = await postingsSize(db)
  const stale = await measure(clickhouseEngine(db, corpus), queries)
  const s0 = serverCpuMs0()
  const c0 = performance.now()
  let lastLog = 0
  const check = await compactSearchType(db, TYPE, {
    minShare: 0,
    wait: (parts) => { if (performance.now() - lastLog > 5000) { lastLog = performance.now(); log(`  compacting: ${parts} parts left to rewrite (load average ${loadAvg()})`) } },
  })
  const compactSeconds = (performance.now() - c0) / 1000
  const s1 = serverCpuMs0()
  const serverCpuSeconds = s0 !== undefined && s1 !== undefined ? (s1 - s0) / 1000 : undefined
  log(`compaction: ${check.stale} of ${check.postings} sampled postings stale; done in ${compactSeconds.toFixed(1)} s, server CPU ${serverCpuSeconds?.toFixed(1) ?? '–'} s`)
  log(`compaction: ${await settle(db, 300_000)}`)
  const after = await postingsSize(db)
  const compacted = await measure(clickhouseEngine(db, corpus), queries)
  const gib = (b: number) => (b / 2 ** 30).toFixed(2)
  log(`compaction: postings ${fmtInt(before.rows)} rows, ${gib(before.bytes)} GiB → ${fmtInt(after.rows)} rows, ${gib(after.bytes)} GiB`)
  for (const k of KINDS) log(`  ${k}: p50 / p95 ${fmtMs(stale[k].p50)} / ${fmtMs(stale[k].p95)} ms with stale postings → ${fmtMs(compacted[k].p50)} / ${fmtMs(compacted[k].p95)} ms compacted`)
  return { share: REINDEX, documents: count, reindexSeconds, sampled: { postings: check.postings, stale: check.stale }, compactSeconds, serverCpuSeconds, before, after, queriesStale: stale, queriesCompacted: compacted }
}

// ---------------------------------------------------------------- the peer

async function loadPostgres(pgi: LocalPostgres): Promise<{ seconds: number; docsPerSecond: number; size: string }> {
  const t0 = performance.now()
  await pgi.psql(`DROP TABLE IF EXISTS opinions;
    CREATE TABLE opinions (id bigint PRIMARY KEY, case_name text, case_name_full text, docket_number text, citation text, judge text,
      court text, court_citation_string text, court_id text, status text, date_filed date, cite_count int, text text,
      tsv tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, coalesce(case_name, '')), 'A') ||
        setweight(to_tsvector('simple'::regconfig, coalesce(case_name_full, '') || ' ' || coalesce(docket_number, '') || ' ' || coalesce(citation, '') || ' ' ||
          coalesce(judge, '') || ' ' || coalesce(court, '') || ' ' || coalesce(court_citation_string, '')), 'B') ||
        setweight(to_tsvector('simple'::regconfig, coalesce(text, '')), 'D')) STORED)`)
  let last = performance.now()
  let bytes = 0
  const file = createReadStream(CSV)
  file.on('data', (chunk) => {
    bytes += chunk.length
    if (performance.now() - last > 10_000) { last = performance.now(); log(`  PostgreSQL COPY: ${(bytes / 1e6).toFixed(0)} MB read (load average ${loadAvg()})`) }
  })
  await pgi.psql(`COPY opinions (${PG_COLUMNS.join(', ')}) FROM STDIN (FORMAT csv)`, file)
  log(`  PostgreSQL: COPY done in ${((performance.now() - t0) / 1000).toFixed(0)} s; building the GIN and b-tree indexes`)
  await pgi.psql(`SET maintenance_work_mem = '1GB'; CREATE INDEX opinions_tsv ON opinions USING gin (tsv);
    CREATE INDEX opinions_court_date ON opinions (court_id, date_filed); CREATE INDEX opinions_date ON opinions (date_filed)`)
  await pgi.psql('VACUUM ANALYZE opinions')
  const seconds = (performance.now() - t0) / 1000
  const size = (await pgi.psql(`SELECT pg_size_pretty(pg_total_relation_size('opinions'))`)).trim()
  return { seconds, docsPerSecond: N / seconds, size }
}

// ---------------------------------------------------------------- run

/** --only-topics: step 4 alone. */
async function onlyFromTopics(): Promise<void> {
  const f = await measureFromTopics({ opinions: TOPICS_OPINIONS || 100_000, ...TOPICS, dataDir: BENCH_DIR, log })
  console.log(`\nsearch from the topics, ${fmtInt(f.opinions)} opinions' data set: ${describeFromTopics(f)}; load average ${loadAvg()}`)
  mkdirSync(BENCH_DIR, { recursive: true })
  writeFileSync(path.join(BENCH_DIR, 'search-topics.json'), JSON.stringify(f, null, 2))
}

async function main(): Promise<void> {
  stopChildrenOnExit()
  if (flags['only-topics']) return onlyFromTopics()
  const root = createDb(cfg, { useDatabase: false })
  const db = createDb(cfg, { database: DB, requestTimeoutMs: 600_000 })
  let pgi: LocalPostgres | undefined
  let pool: pg.Pool | undefined
  const result: Record<string, unknown> = { docs: N, queriesPerKind: QUERIES, batch: BATCH, inflight: INFLIGHT, cpus: os.cpus().length, loadAverageStart: os.loadavg() }
  try {
    log(`search bench: ${fmtInt(N)} opinion documents, ${QUERIES} queries per kind, batches of ${BATCH}, ${INFLIGHT} inserts in flight; ${os.cpus().length} CPUs, load average ${loadAvg()}`)
    const samples: string[][] = []
    if (REUSE) {
      samples.push(...keptSamples())
      log(`ClickHouse: reusing ${DB} as kept by an earlier --keep run (${samples.length} sample texts); not indexing`)
      // brings a kept index to the current layout (idempotent): an index kept by an older build lacks its newer parts
      for (const q of searchTableDdl(TYPE, { database: DB })) await db.command(q)
    } else {
      await root.command(sql`DROP DATABASE IF EXISTS ${ident(DB)}`)
      await root.command(sql`CREATE DATABASE ${ident(DB)}`)
      for (const q of searchTableDdl(TYPE, { database: DB })) await db.command(q)
      if (PEER) mkdirSync(PG_DIR, { recursive: true })
      log('ClickHouse: generating and indexing')
      const load = await loadClickHouse(db, samples)
      result.load = load
      log(`ClickHouse: ${fmtInt(load.docs)} documents indexed in ${load.indexSeconds.toFixed(1)} s = ${fmtInt(load.docsPerSecond)} docs/s (generation ${load.genSeconds.toFixed(0)} s, not counted); waiting for merges`)
      log(`ClickHouse: indexing CPU of this process: analysis ${load.analyzeCpuSeconds.toFixed(1)} s, index rows ${load.rowsCpuSeconds.toFixed(1)} s (${fmtInt(load.docs / (load.analyzeCpuSeconds + load.rowsCpuSeconds))} docs per CPU second); inserts ${load.insertSeconds.toFixed(1)} s summed; ClickHouse server CPU while indexing ${load.serverCpuSeconds?.toFixed(1) ?? '–'} s (${load.serverCpuSeconds ? fmtInt(load.docs / load.serverCpuSeconds) : '–'} docs per server CPU second)`)
      if (KEEP) { mkdirSync(BENCH_DIR, { recursive: true }); writeFileSync(SAMPLES, JSON.stringify(samples)) }
    }
    const load = result.load as LoadResult | undefined
    const parts = await settle(db, 180_000)
    log(`ClickHouse: ${parts}`)
    await db.command(refreshSql(TYPE, { database: DB }))
    const tc = performance.now()
    const [corpus] = await db.query<CorpusStats>(corpusStatsSql(TYPE, { database: DB }))
    log(`ClickHouse: corpus statistics (cached by the caller) in ${fmtMs(performance.now() - tc)} ms: n = ${fmtInt(Number(corpus.n))}`)

    const queries = makeQueries(samples)
    const cached: CorpusStats = { n: Number(corpus.n), avgdl: corpus.avgdl }
    const ch = await measure(clickhouseEngine(db, cached), queries)
    result.clickhouse = { load, parts, queries: ch }
    if (REINDEX > 0) result.compaction = await measureCompaction(db, queries, cached)
    // the index is not needed past this point: dropped now (not at the end) so that its disk space
    // (6.4 GiB at 1M documents) is free while PostgreSQL loads the same rows
    if (!KEEP) await root.command(sql`DROP DATABASE IF EXISTS ${ident(DB)}`)

    let peer: Record<Kind, Timing> | undefined
    let peerLoad: Awaited<ReturnType<typeof loadPostgres>> | undefined
    if (PEER) {
      try {
        pgi = await startPostgres({ dir: PG_DIR, log, settings: { shared_buffers: '2GB', work_mem: '64MB', effective_cache_size: '8GB', max_parallel_workers_per_gather: '2' } })
      } catch (err) {
        log(`PostgreSQL peer skipped: it could not be installed or started (${String((err as Error).message).slice(0, 300)})`)
      }
      if (pgi) {
        log('PostgreSQL: loading the same documents')
        peerLoad = await loadPostgres(pgi)
        log(`PostgreSQL: ${fmtInt(N)} documents in ${peerLoad.seconds.toFixed(0)} s = ${fmtInt(peerLoad.docsPerSecond)} docs/s (COPY + indexes), ${peerLoad.size}`)
        // a peer query that runs past the timeout is counted at the timeout (logged)
        pool = new pg.Pool({ ...pgi.connection, max: 4, statement_timeout: PEER_TIMEOUT_MS })
        peer = await measure(postgresEngine(pool), queries)
        result.postgres = { load: peerLoad, queries: peer }
      }
    } else log('PostgreSQL peer skipped (--no-peer)')

    let fromTopics: FromTopicsResult | undefined
    if (TOPICS_OPINIONS > 0) {
      fromTopics = await measureFromTopics({ opinions: TOPICS_OPINIONS, ...TOPICS, dataDir: BENCH_DIR, log })
      result.fromTopics = fromTopics
      log(`from the topics: ${describeFromTopics(fromTopics)}`)
    }

    result.loadAverageEnd = os.loadavg()
    const rows: string[][] = [['', 'ClickHouse p50', 'p95', 'best p50', 'best p95', ...(peer ? ['PostgreSQL p50', 'p95', 'best p50', 'best p95', 'p95 ratio', 'best p95 ratio'] : []), 'mean hits']]
    if (load) rows.push(['index docs/s (generated opinion documents)', fmtInt(load.docsPerSecond), '', '', '', ...(peerLoad ? [fmtInt(peerLoad.docsPerSecond), '', '', '', fmtRatio(load.docsPerSecond / peerLoad.docsPerSecond), ''] : []), ''])
    if (fromTopics) rows.push([`index docs/s, from the topics (${fmtInt(fromTopics.opinions)} opinions: ${fmtInt(fromTopics.total)} docs of every type)`, fmtInt(fromTopics.docsPerSecond), '', '', '', ...(peer ? ['', '', '', '', '', ''] : []), ''])
    for (const k of KINDS) {
      const c = ch[k]
      const p = peer?.[k]
      rows.push([`${k} ms`, fmtMs(c.p50), fmtMs(c.p95), fmtMs(c.bestP50), fmtMs(c.bestP95),
        ...(p ? [fmtMs(p.p50), fmtMs(p.p95), fmtMs(p.bestP50), fmtMs(p.bestP95), fmtRatio(p.p95 / c.p95), fmtRatio(p.bestP95 / c.bestP95)] : []), fmtInt(c.meanHits)])
    }
    console.log(`\nsearch, ${fmtInt(N)} documents, ${QUERIES} queries per kind run ${REPS} times ("best": each query's fastest run); ratios: PostgreSQL / ClickHouse for times, ClickHouse / PostgreSQL for docs/s; above 1 = ClickHouse better`)
    console.log(table(rows))
    console.log(`load average: start ${(result.loadAverageStart as number[]).map((x) => x.toFixed(1)).join(' ')}, end ${loadAvg()} (${os.cpus().length} CPUs)`)
    mkdirSync(BENCH_DIR, { recursive: true })
    writeFileSync(path.join(BENCH_DIR, 'search.json'), JSON.stringify(result, null, 2))
    log(`wrote ${path.join(BENCH_DIR, 'search.json')}`)
  } finally {
    await pool?.end().catch(() => {})
    if (pgi) { await pgi.psql('DROP TABLE IF EXISTS opinions').catch(() => {}); await pgi.stop(); log('PostgreSQL stopped') }
    rmSync(CSV, { force: true })
    if (!KEEP) await root.command(sql`DROP DATABASE IF EXISTS ${ident(DB)}`).catch(() => {})
    await db.close()
    await root.close()
  }
}

main().catch((err) => { console.error(err); process.exitCode = 1 })
