/**
 * Search indexing from the topics: the search-index role, as deployed, catching up from the first
 * offsets over a data set of the sample generator (every search type: clusters with their
 * opinions, dockets with parties and archive documents, judges, audio), after the table sink has
 * applied it. What it measures is the whole indexer: reading the topics, finding the documents a
 * change touches, building them from the tables, analysing, inserting, reloading live versions.
 * The role runs as deployed, in processes of its own (`lds run --roles search-index` with
 * NODE_OPTIONS=SEARCH_INDEX_NODE_OPTIONS), one or several sharing the partitions; the table sink
 * runs in this process.
 *
 * The data set is published once to topics `bench.search.*` (database bench_search; or another
 * prefix's) and kept for the next run (bench/lib/dataset.ts); the search index is emptied and its consumer groups removed
 * before each measurement. A document that several topics touch (a cluster, by its opinions, its
 * citations, its docket) is built again for each batch that touches it, as in a real catch-up, so
 * the rate counts distinct documents in the index at the end, not builds.
 */
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { loadConfig, PROJECT_ROOT } from '../../core/config.js'
import { createLogger } from '../../core/logger.js'
import { sql, ident } from '../../core/sql.js'
import { createRuntime, stopAll, SEARCH_INDEX_NODE_OPTIONS, type Runtime } from '../../bin/runtime.js'
import { waitForCatchUp } from '../../bin/catch-up.js'
import { entityTopic, groupId } from '../../schemas/events/index.js'
import { SEARCH_TYPES, searchTables, type SearchType } from '../../domain/search/index.js'
import { SEARCH_SOURCES } from '../../streams/search/documents.js'
import { SEARCH_INDEXER } from '../../streams/search/indexer.js'
import { ensureData, entityTopics } from './dataset.js'
import { spawnChild, treeCpuMsOf, type Child } from './children.js'
import { fmtInt } from './stats.js'

export interface FromTopicsResult {
  opinions: number
  /** distinct documents in the index at the end, per type */
  documents: Record<SearchType, number>
  total: number
  seconds: number
  docsPerSecond: number
  /** processes of the search-index role that shared the catch-up */
  indexers: number
  /** CPU seconds of the indexer processes (summed) and of the local ClickHouse server during the catch-up */
  indexerCpuSeconds: number
  serverCpuSeconds?: number
  /** events the indexer read */
  events: number
}

export const FROM_TOPICS_PREFIX = 'bench.search'

/** Counts per type of distinct documents in the index. */
async function countDocuments(rt: Runtime): Promise<Record<SearchType, number>> {
  const out = {} as Record<SearchType, number>
  for (const type of Object.keys(SEARCH_TYPES) as SearchType[]) {
    const [r] = await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${ident(rt.db.database)}.${ident(searchTables(type).docs)} FINAL`)
    out[type] = Number(r.n)
  }
  return out
}

/** Empties the search index of the data set and forgets its indexer's offsets. */
async function resetSearchIndex(rt: Runtime): Promise<void> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g === groupId(rt.cfg, SEARCH_INDEXER))
    if (groups.length) await admin.deleteGroups(groups)
  } finally { await admin.disconnect() }
  const tables = await rt.db.query<{ name: string }>(sql`
    SELECT name FROM system.tables WHERE database = ${rt.db.database} AND startsWith(name, 'search') AND engine LIKE '%MergeTree'`)
  for (const t of tables) await rt.db.command(sql`TRUNCATE TABLE ${ident(rt.db.database)}.${ident(t.name)}`)
}

/**
 * `prefix` picks the data set (topics `prefix.*`, database `prefix` with _ for dots, marker file
 * `<database>-data.json`): another benchmark's, such as bench/api.ts's `--prefix bench.api1m`, is
 * reused when its size and seed are the ones given.
 */
export async function measureFromTopics(opts: { opinions: number; seed?: number; prefix?: string; indexers?: number; dataDir: string; log: (m: string) => void }): Promise<FromTopicsResult> {
  const indexers = opts.indexers ?? 1
  if (!Number.isInteger(indexers) || indexers < 1) throw new Error('--indexers takes a whole number of search-index instances, 1 or more')
  const prefix = opts.prefix ?? FROM_TOPICS_PREFIX
  const database = prefix.replace(/\./g, '_')
  const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: `${prefix}.`, CLICKHOUSE_DATABASE: database, LOG_LEVEL: 'warn' })
  const rt = createRuntime(cfg, createLogger(cfg))
  const serverCpuMs = () => {
    try { return treeCpuMsOf(Number(readFileSync(path.join(cfg.dataDir, 'run', 'clickhouse.pid'), 'utf8').trim())) } catch { return undefined }
  }
  const { processors: sink } = await ensureData(rt, {
    opinions: opts.opinions, seed: opts.seed ?? 7, reload: false, roles: ['table-sink'],
    markerFile: path.join(opts.dataDir, `${database}-data.json`), log: opts.log,
  })
  try {
    await resetSearchIndex(rt)
    const existing = new Set(await entityTopics(rt))
    const topics = [...new Set(Object.values(SEARCH_SOURCES).flat())].map((r) => entityTopic(cfg, r)).filter((t) => existing.has(t))
    const admin = rt.kafka.admin()
    await admin.connect()
    let events = 0
    try {
      for (const t of topics) for (const p of await admin.fetchTopicOffsets(t)) events += Number(p.high) - Number(p.low)
    } finally { await admin.disconnect() }
    opts.log(`search from the topics: ${events.toLocaleString('en-US')} events on ${topics.length} topics; the search-index role ` +
      `(${indexers === 1 ? 'a process' : `${indexers} processes`} of \`lds run --roles search-index\`) catching up from the first offsets`)
    const server0 = serverCpuMs()
    const t0 = Date.now()
    // as deployed: processes of their own, with SEARCH_INDEX_NODE_OPTIONS (start-up counted in the time)
    const indexer = Array.from({ length: indexers }, (_, i) => startIndexer(prefix, database, opts.dataDir, i + 1))
    let cpuMs = 0
    try {
      const exited = Promise.race(indexer.map((c) => c.done.then((code) => { throw new Error(`${c.name} ended (${code}) during the catch-up; its log: ${c.logFile}\n${c.tail(10)}`) })))
      await Promise.race([exited, waitForCatchUp(rt.kafka, rt.clock, [{ label: 'search index', group: groupId(cfg, SEARCH_INDEXER), topics: async () => topics }], { progress: true, timeoutMs: 2 * 60 * 60_000 })])
      for (const c of indexer) cpuMs += treeCpuMsOf(c.pid) ?? 0
    } finally {
      await Promise.all(indexer.map((c) => c.stop({ timeoutMs: 30_000 })))
    }
    const seconds = (Date.now() - t0) / 1000
    const server1 = serverCpuMs()
    const documents = await countDocuments(rt)
    const total = Object.values(documents).reduce((a, b) => a + b, 0)
    return {
      opinions: opts.opinions, documents, total, seconds, docsPerSecond: total / seconds, events, indexers,
      indexerCpuSeconds: cpuMs / 1000,
      serverCpuSeconds: server0 !== undefined && server1 !== undefined ? (server1 - server0) / 1000 : undefined,
    }
  } finally {
    await stopAll(rt, sink)
    await rt.close()
  }
}

/**
 * An instance of the search-index role over the data set, as a deployment starts it:
 * `lds run --roles search-index` with NODE_OPTIONS=SEARCH_INDEX_NODE_OPTIONS.
 */
function startIndexer(prefix: string, database: string, dataDir: string, n: number): Child {
  return spawnChild({
    name: `search-index ${n}`,
    cmd: process.execPath,
    args: ['--import', 'tsx', path.join(PROJECT_ROOT, 'bin', 'lds-cli.ts'), 'run', '--roles', 'search-index'],
    env: { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, SEARCH_INDEX_NODE_OPTIONS].filter(Boolean).join(' '), LDS_TOPIC_PREFIX: `${prefix}.`, CLICKHOUSE_DATABASE: database, LOG_LEVEL: 'warn' },
    cwd: PROJECT_ROOT,
    logFile: path.join(dataDir, 'logs', `search-index-${n}.log`),
  })
}

/** One line: documents per type, events, time, rate, and the CPU of both sides. */
export function describeFromTopics(f: FromTopicsResult): string {
  const n = fmtInt
  return `${n(f.total)} documents (${Object.entries(f.documents).map(([k, v]) => `${k} ${n(v)}`).join(', ')}) from ${n(f.events)} events in ${f.seconds.toFixed(0)} s = ${n(f.docsPerSecond)} docs/s; ` +
    `${f.indexers > 1 ? `${f.indexers} indexers' CPU` : 'indexer CPU'} ${f.indexerCpuSeconds.toFixed(0)} s (${n(f.total / f.indexerCpuSeconds)} docs per CPU second), ClickHouse server CPU ${f.serverCpuSeconds?.toFixed(0) ?? '–'} s`
}
