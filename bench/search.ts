/**
 * Search at scale: our engine (ClickHouse through domain/search/query-sql.ts) against two peers
 * over the same documents and queries, in one run: PostgreSQL 15 full-text search
 * (bench/lib/pg-search-peer.ts) and Apache Lucene 10.6, the engine inside Elasticsearch
 * (bench/lib/lucene-peer.ts).
 *
 *   npx tsx bench/search.ts [--docs 1000000 | --quick] [--queries 40] [--reps 3] [--batch 5000] [--inflight 2] [--no-peer] [--no-lucene] [--keep] [--reuse]
 *                           [--topics-opinions 100000 [--topics-seed 7] [--topics-prefix bench.search] [--indexers 1] | --no-topics | --only-topics]
 *
 * --keep keeps the ClickHouse database (and the query samples drawn from its texts); --reuse then
 * measures the queries again on it, without indexing (the peers are skipped: their rows are not
 * kept). --reindex SHARE then indexes that share of the documents again and measures the
 * compaction of their stale postings (bench/lib/search-compaction.ts).
 *
 * 1. Generates opinion-like documents (bench/lib/search-corpus.ts), 50,000 at a time, and indexes
 *    each chunk as the search indexer does (bench/lib/our-search-engine.ts). Generation is not
 *    timed; the index rate is documents / time spent indexing (analysis, rows, inserts,
 *    materialized views), background merges excluded but running. The same rows are written to
 *    the peers' CSV file (bench/lib/search-peer-file.ts).
 * 2. Queries (bench/lib/search-queries.ts: term, phrase, field, filtered, ordered; --queries per
 *    kind after 3 warm-ups, each run --reps times), timed round trip (bench/lib/search-timing.ts).
 * 3. The peers load the CSV file and answer the same queries; their match counts are compared with
 *    ours (close, not identical: analysis and field sets differ a little).
 * 4. From the topics (bench/lib/search-from-topics.ts): the search-index role itself catching up
 *    from the first offsets over the sample generator's data set of --topics-opinions opinions.
 *    --topics-prefix bench.api1m --topics-opinions 1200000 --topics-seed 1 reuses bench/api.ts's
 *    data set of `--prefix bench.api1m --opinions 1200000`; --indexers N runs N role processes.
 * Prints a table with p50/p95, CPU µs per indexed document and ratios (peer ÷ ours: above 1, ours
 * is faster), the machine's load average, and writes .data/bench/search.json (sections
 * `clickhouse`, `postgres`, `lucene`, each with `load` and `queries`). The ClickHouse database
 * lds_bench_search is dropped at the end (--keep keeps it).
 */
import os from 'node:os'
import path from 'node:path'
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { loadConfig } from '../core/config.js'
import { createDb, type Db } from '../core/clickhouse.js'
import { sql, ident } from '../core/sql.js'
import { tokens } from '../domain/search/analyzer.js'
import { searchTableDdl, refreshSql } from '../schemas/internal/search-layout.js'
import { corpusStatsSql, type CorpusStats } from '../domain/search/query-sql.js'
import { createCorpus, type OpinionDoc } from './lib/search-corpus.js'
import { fmtMs, fmtInt, fmtRatio, table } from './lib/stats.js'
import { stopChildrenOnExit } from './lib/children.js'
import { measureFromTopics, describeFromTopics, type FromTopicsResult } from './lib/search-from-topics.js'
import { KINDS, makeQueries, type Kind, type Query, type SearchEngine } from './lib/search-queries.js'
import { measure, compareCounts, type Measured, type CountCheck } from './lib/search-timing.js'
import { writePeerFile, type PeerFileWriter } from './lib/search-peer-file.js'
import { indexDocs, settle, ourSearchEngine, clickhouseServerCpuMs, SEARCH_TYPE, type OurIndexOptions } from './lib/our-search-engine.js'
import { measureCompaction } from './lib/search-compaction.js'
import { startPgSearchPeer, type PeerLoad } from './lib/pg-search-peer.js'
import { startLucenePeer, findLuceneRuntime } from './lib/lucene-peer.js'
import { parseFlags } from '../test/kit/args.js'

const flags = parseFlags('npx tsx bench/search.ts', ({ quick }) => ({
  quick: { type: 'boolean', help: 'small sizes' },
  docs: { type: 'number', default: quick ? 100_000 : 1_000_000, help: 'synthetic opinions' },
  queries: { type: 'number', default: 40, help: 'queries per kind' },
  batch: { type: 'number', default: 5_000, help: 'documents per indexing batch' },
  inflight: { type: 'number', default: 2, help: 'batches\' inserts in flight' },
  reps: { type: 'number', default: 3, help: 'runs of each query' },
  'peer-timeout-ms': { type: 'number', default: 30_000, help: 'PostgreSQL statement timeout' },
  'no-peer': { type: 'boolean', help: 'skip the PostgreSQL peer' },
  'no-lucene': { type: 'boolean', help: 'skip the Lucene peer' },
  keep: { type: 'boolean', help: 'keep the database and query samples' },
  reuse: { type: 'boolean', help: 'reuse the kept database (implies --keep, --no-peer and --no-lucene)' },
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
const REPS = flags.reps
const CHUNK = 50_000
const REUSE = flags.reuse
const PG_PEER = !flags['no-peer'] && !REUSE
const LUCENE_PEER = !flags['no-lucene'] && !REUSE
const KEEP = flags.keep || REUSE
const REINDEX = flags.reindex
if (!(REINDEX >= 0 && REINDEX <= 1)) throw new Error('--reindex takes a share of the documents, 0 to 1')
const DB = flags.db
const TOPICS_OPINIONS = flags['no-topics'] || REUSE ? 0 : flags['topics-opinions']
const TOPICS = { seed: flags['topics-seed'], prefix: flags['topics-prefix'], indexers: flags.indexers }

const cfg = loadConfig()
const BENCH_DIR = path.join(cfg.dataDir, 'bench')
// per database, so that two runs with different --db share no peer file, cluster or index
const PEER_CSV = path.join(BENCH_DIR, `${DB}-peers.csv`)
const PG_DIR = path.join(BENCH_DIR, DB === 'lds_bench_search' ? 'pg-search' : `pg-${DB}`)
const LUCENE_DIR = path.join(BENCH_DIR, 'lucene')
const SAMPLES = path.join(BENCH_DIR, `${DB}-samples.json`)
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`)
const loadAvg = () => os.loadavg().map((x) => x.toFixed(1)).join(' ')

// ---------------------------------------------------------------- loading ours

interface LoadResult {
  docs: number; indexSeconds: number; docsPerSecond: number; genSeconds: number
  /** CPU seconds of this process analysing and building rows (a machine shared with other work slows the wall clock, less these) */
  analyzeCpuSeconds: number; rowsCpuSeconds: number
  /** CPU seconds of this process while indexing: analysis, rows and sending the inserts */
  processCpuSeconds: number
  /** the inserts' wall time, summed (they overlap the next batch's preparation) */
  insertSeconds: number
  /** CPU seconds of the local ClickHouse server while indexing (merges running meanwhile included); undefined when it is not local */
  serverCpuSeconds?: number
  /** (this process's + the server's CPU) / documents; the process's alone when the server is not local */
  cpuMicrosPerDoc: number
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

/** Generates the N documents chunk by chunk, writes them for the peers, and indexes them into ours. */
async function loadOurs(ix: OurIndexOptions, samples: string[][], peerFile: PeerFileWriter | null): Promise<LoadResult> {
  const corpus = createCorpus()
  let indexMs = 0, genMs = 0, analyzeCpu = 0, rowsCpu = 0, processCpu = 0, insertMs = 0, serverCpuMs = 0, done = 0
  let lastLog = performance.now()
  for (let first = 1; first <= N; first += CHUNK) {
    const t0 = performance.now()
    const docs = generate(corpus, first, Math.min(first + CHUNK - 1, N))
    await peerFile?.append(docs)
    drawSamples(samples, docs)
    const t1 = performance.now()
    genMs += t1 - t0
    const s0 = clickhouseServerCpuMs(cfg)
    const spent = await indexDocs(ix, docs, first)
    analyzeCpu += spent.analyzeCpuMs
    rowsCpu += spent.rowsCpuMs
    processCpu += spent.processCpuMs
    insertMs += spent.insertMs
    indexMs += performance.now() - t1
    const s1 = clickhouseServerCpuMs(cfg)
    if (s0 !== undefined && s1 !== undefined) serverCpuMs += s1 - s0
    done += docs.length
    if (performance.now() - lastLog > 5000 || done === N) {
      lastLog = performance.now()
      log(`  indexed ${fmtInt(done)} / ${fmtInt(N)} documents, ${fmtInt((done / indexMs) * 1000)} docs/s (load average ${loadAvg()})`)
    }
  }
  await peerFile?.close()
  const serverCpuSeconds = clickhouseServerCpuMs(cfg) === undefined ? undefined : serverCpuMs / 1000
  return {
    docs: done, indexSeconds: indexMs / 1000, docsPerSecond: (done / indexMs) * 1000, genSeconds: genMs / 1000,
    analyzeCpuSeconds: analyzeCpu / 1000, rowsCpuSeconds: rowsCpu / 1000, processCpuSeconds: processCpu / 1000, insertSeconds: insertMs / 1000,
    serverCpuSeconds, cpuMicrosPerDoc: ((processCpu / 1000 + (serverCpuSeconds ?? 0)) * 1e6) / done,
  }
}

// ---------------------------------------------------------------- the peers

interface PeerResult { name: string; short: string; load: PeerLoad; measured: Measured; counts: CountCheck }

function logCounts(name: string, counts: CountCheck): void {
  const parts = KINDS.map((k) => `${k} ${counts[k].differing} of ${counts[k].queries} differ${counts[k].differing ? ` (up to ${(counts[k].maxRelativeDiff * 100).toFixed(0)} %)` : ''}`)
  log(`${name}: match counts against ours: ${parts.join('; ')}`)
}

async function runPeer(name: string, short: string, peer: { load(): Promise<PeerLoad>; engine(): SearchEngine }, queries: Query[], ours: Measured): Promise<PeerResult> {
  log(`${name}: loading the same documents`)
  const load = await peer.load()
  log(`${name}: ${fmtInt(load.docs)} documents in ${load.seconds.toFixed(1)} s = ${fmtInt(load.docsPerSecond)} docs/s, ${load.size}, ${load.cpuMicrosPerDoc !== undefined ? `${fmtInt(load.cpuMicrosPerDoc)} CPU µs per document` : `CPU not measured: ${load.cpuUnmeasured}`}`)
  const measured = await measure(peer.engine(), queries, REPS, log, loadAvg)
  const counts = compareCounts(ours, measured)
  logCounts(name, counts)
  return { name, short, load, measured, counts }
}

async function runPostgres(queries: Query[], ours: Measured): Promise<PeerResult | undefined> {
  let peer
  try {
    peer = await startPgSearchPeer({ dir: PG_DIR, timeoutMs: flags['peer-timeout-ms'], log, loadAvg })
  } catch (err) {
    log(`PostgreSQL peer skipped: it could not be installed or started (${String((err as Error).message).slice(0, 300)})`)
    return undefined
  }
  try {
    return await runPeer('PostgreSQL', 'PG', { load: () => peer.load(PEER_CSV, N), engine: () => peer.engine() }, queries, ours)
  } finally { await peer.stop() }
}

async function runLucene(queries: Query[], ours: Measured): Promise<PeerResult | undefined> {
  const runtime = findLuceneRuntime()
  if ('missing' in runtime) { log(`Lucene peer skipped: ${runtime.missing}`); return undefined }
  let peer
  try {
    peer = await startLucenePeer({ dir: LUCENE_DIR, index: DB, javaHome: runtime.javaHome, log })
  } catch (err) {
    log(`Lucene peer skipped: it could not be built or started (${String((err as Error).message).slice(-300)})`)
    return undefined
  }
  try {
    return await runPeer('Lucene', 'Lucene', { load: () => peer.load(PEER_CSV), engine: () => peer.engine() }, queries, ours)
  } finally { await peer.stop() }
}

// ---------------------------------------------------------------- the table

function printTable(load: LoadResult | undefined, ours: Record<Kind, { p50: number; p95: number; bestP50: number; bestP95: number; meanHits: number }>, peers: PeerResult[], fromTopics: FromTopicsResult | undefined): void {
  const blank = (n: number) => Array<string>(n).fill('')
  const header = ['', 'ours p50', 'p95', 'best p50', 'best p95', 'hits']
  for (const p of peers) header.push(`${p.name} p50`, 'p95', 'best p50', 'best p95', 'hits', `${p.short} ÷ ours p95`, 'best p95')
  const rows: string[][] = [header]
  if (load) {
    rows.push(['index docs/s (generated opinions)', fmtInt(load.docsPerSecond), ...blank(4),
      ...peers.flatMap((p) => [fmtInt(p.load.docsPerSecond), ...blank(4), fmtRatio(load.docsPerSecond / p.load.docsPerSecond), ''])])
    rows.push(['index CPU µs per document', fmtInt(load.cpuMicrosPerDoc), ...blank(4),
      ...peers.flatMap((p) => [p.load.cpuMicrosPerDoc === undefined ? '–' : fmtInt(p.load.cpuMicrosPerDoc), ...blank(4),
        p.load.cpuMicrosPerDoc === undefined ? '–' : fmtRatio(p.load.cpuMicrosPerDoc / load.cpuMicrosPerDoc), ''])])
  }
  if (fromTopics) rows.push([`index docs/s, from the topics (${fmtInt(fromTopics.opinions)} opinions: ${fmtInt(fromTopics.total)} docs)`, fmtInt(fromTopics.docsPerSecond), ...blank(4 + peers.length * 7)])
  for (const k of KINDS) {
    const c = ours[k]
    rows.push([`${k} ms`, fmtMs(c.p50), fmtMs(c.p95), fmtMs(c.bestP50), fmtMs(c.bestP95), fmtInt(c.meanHits),
      ...peers.flatMap(({ measured: { timings: { [k]: t } } }) => [fmtMs(t.p50), fmtMs(t.p95), fmtMs(t.bestP50), fmtMs(t.bestP95), fmtInt(t.meanHits), fmtRatio(t.p95 / c.p95), fmtRatio(t.bestP95 / c.bestP95)])])
  }
  console.log(`\nsearch, ${fmtInt(N)} documents, ${QUERIES} queries per kind run ${REPS} times ("best": each query's fastest run; hits: mean matches); ratios peer ÷ ours for times and CPU, ours ÷ peer for docs/s: above 1 = ours better`)
  console.log(table(rows))
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
  const db: Db = createDb(cfg, { database: DB, requestTimeoutMs: 600_000 })
  const ix: OurIndexOptions = { cfg, db, database: DB, batch: BATCH, inflight: flags.inflight }
  const result: Record<string, unknown> = { docs: N, queriesPerKind: QUERIES, batch: BATCH, inflight: flags.inflight, cpus: os.cpus().length, loadAverageStart: os.loadavg() }
  try {
    log(`search bench: ${fmtInt(N)} opinion documents, ${QUERIES} queries per kind, batches of ${BATCH}, ${flags.inflight} inserts in flight; ${os.cpus().length} CPUs, load average ${loadAvg()}`)
    const samples: string[][] = []
    let load: LoadResult | undefined
    if (REUSE) {
      samples.push(...keptSamples())
      log(`ClickHouse: reusing ${DB} as kept by an earlier --keep run (${samples.length} sample texts); not indexing`)
      // brings a kept index to the current layout (idempotent): an index kept by an older build lacks its newer parts
      for (const q of searchTableDdl(SEARCH_TYPE, { database: DB })) await db.command(q)
    } else {
      await root.command(sql`DROP DATABASE IF EXISTS ${ident(DB)}`)
      await root.command(sql`CREATE DATABASE ${ident(DB)}`)
      for (const q of searchTableDdl(SEARCH_TYPE, { database: DB })) await db.command(q)
      mkdirSync(BENCH_DIR, { recursive: true })
      log('ClickHouse: generating and indexing')
      load = await loadOurs(ix, samples, PG_PEER || LUCENE_PEER ? writePeerFile(PEER_CSV) : null)
      log(`ClickHouse: ${fmtInt(load.docs)} documents indexed in ${load.indexSeconds.toFixed(1)} s = ${fmtInt(load.docsPerSecond)} docs/s (generation ${load.genSeconds.toFixed(0)} s, not counted); waiting for merges`)
      log(`ClickHouse: indexing CPU of this process ${load.processCpuSeconds.toFixed(1)} s (analysis ${load.analyzeCpuSeconds.toFixed(1)} s, index rows ${load.rowsCpuSeconds.toFixed(1)} s); inserts ${load.insertSeconds.toFixed(1)} s summed; ClickHouse server CPU while indexing ${load.serverCpuSeconds?.toFixed(1) ?? '–'} s; ${fmtInt(load.cpuMicrosPerDoc)} CPU µs per document`)
      if (KEEP) writeFileSync(SAMPLES, JSON.stringify(samples))
    }
    const parts = await settle(ix, 180_000)
    log(`ClickHouse: ${parts}`)
    await db.command(refreshSql(SEARCH_TYPE, { database: DB }))
    const tc = performance.now()
    const [corpus] = await db.query<CorpusStats>(corpusStatsSql(SEARCH_TYPE, { database: DB }))
    log(`ClickHouse: corpus statistics (cached by the caller) in ${fmtMs(performance.now() - tc)} ms: n = ${fmtInt(Number(corpus.n))}`)

    const queries = makeQueries(samples, QUERIES)
    const cached: CorpusStats = { n: Number(corpus.n), avgdl: corpus.avgdl }
    const ours = await measure(ourSearchEngine(db, cached), queries, REPS, log, loadAvg)
    result.clickhouse = { load, parts, queries: ours.timings }
    if (REINDEX > 0) result.compaction = await measureCompaction(ix, queries, cached, { share: REINDEX, docs: N, chunk: CHUNK, reps: REPS, generate, log, loadAvg })
    // the index is not needed past this point: dropped now (not at the end) so that its disk space
    // (6.4 GiB at 1M documents) is free while the peers load the same rows
    if (!KEEP) await root.command(sql`DROP DATABASE IF EXISTS ${ident(DB)}`)

    const peers: PeerResult[] = []
    const section = (p: PeerResult) => ({ load: p.load, queries: p.measured.timings, counts: p.counts })
    if (PG_PEER) {
      const p = await runPostgres(queries, ours)
      if (p) { peers.push(p); result.postgres = section(p) }
    } else log('PostgreSQL peer skipped (--no-peer)')
    if (LUCENE_PEER) {
      const p = await runLucene(queries, ours)
      if (p) { peers.push(p); result.lucene = section(p) }
    } else log('Lucene peer skipped (--no-lucene)')

    let fromTopics: FromTopicsResult | undefined
    if (TOPICS_OPINIONS > 0) {
      fromTopics = await measureFromTopics({ opinions: TOPICS_OPINIONS, ...TOPICS, dataDir: BENCH_DIR, log })
      result.fromTopics = fromTopics
      log(`from the topics: ${describeFromTopics(fromTopics)}`)
    }

    result.loadAverageEnd = os.loadavg()
    printTable(load, ours.timings, peers, fromTopics)
    console.log(`load average: start ${(result.loadAverageStart as number[]).map((x) => x.toFixed(1)).join(' ')}, end ${loadAvg()} (${os.cpus().length} CPUs)`)
    writeFileSync(path.join(BENCH_DIR, 'search.json'), JSON.stringify(result, null, 2))
    log(`wrote ${path.join(BENCH_DIR, 'search.json')}`)
  } finally {
    rmSync(PEER_CSV, { force: true })
    if (!KEEP) await root.command(sql`DROP DATABASE IF EXISTS ${ident(DB)}`).catch(() => {})
    await db.close()
    await root.close()
  }
}

main().catch((err) => { console.error(err); process.exitCode = 1 })
