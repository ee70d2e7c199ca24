/**
 * Our search engine in bench/search.ts: documents indexed into a ClickHouse database of its own
 * as the search indexer does (streams/search), and queries asked as the search API asks them
 * (domain/search/query-sql.ts).
 *
 * Indexing: batches of `batch` documents, analyzeDocument + toIndexRows (postings grouped per
 * batch) + the index rows' inserts (startIndexRowsWrite), up to `inflight` batches' inserts in
 * flight; batch i gets version `versionBase + i`, as each chunk the indexer writes has its own.
 * Querying: the BM25 statistics (statsSql, the corpus statistics cached by the caller), then the
 * top PAGE_SIZE (searchPageSql), which also counts the matches where it can, else countSql beside it.
 */
import { performance } from 'node:perf_hooks'
import type { Config } from '../../core/config.js'
import type { Db } from '../../core/clickhouse.js'
import { sql } from '../../core/sql.js'
import { analyzeDocument, type SearchDocument } from '../../domain/search/document.js'
import { parseQuery } from '../../domain/search/parse.js'
import type { Node } from '../../domain/search/ast.js'
import { searchTables } from '../../domain/search/tables.js'
import { searchPageSql, countSql, statsSql, type SearchStats, type CorpusStats, type SearchSqlOptions } from '../../domain/search/query-sql.js'
import { toIndexRows } from '../../streams/search/index-rows.js'
import { startIndexRowsWrite } from '../../streams/search/indexer.js'
import { waitFor } from '../../test/kit/wait-for.js'
import { serverCpuSeconds } from './machine-cpu.js'
import { PAGE_SIZE, type SearchEngine } from './search-queries.js'
import type { OpinionDoc } from './search-corpus.js'

export const SEARCH_TYPE = 'o' as const

export interface OurIndexOptions { cfg: Config; db: Db; database: string; batch: number; inflight: number }

export interface IndexSpent { analyzeCpuMs: number; rowsCpuMs: number; processCpuMs: number; insertMs: number }

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }

/** CPU ms used so far by the local ClickHouse (its launcher and the engine under it), or undefined when it is not local. */
export function clickhouseServerCpuMs(cfg: Config): number | undefined {
  const seconds = serverCpuSeconds(cfg.dataDir).clickhouse
  return seconds === undefined ? undefined : seconds * 1000
}

/** Indexes `docs` as a stream processor does: a batch → rows → one insert, inserts overlapping the next batch's preparation. */
export async function indexDocs(o: OurIndexOptions, docs: readonly OpinionDoc[], versionBase: number): Promise<IndexSpent> {
  const spent = { analyzeCpuMs: 0, rowsCpuMs: 0, processCpuMs: 0, insertMs: 0 }
  const start = cpuMs()
  const inflight: Promise<void>[] = []
  for (let i = 0; i < docs.length; i += o.batch) {
    const c0 = cpuMs()
    const version = versionBase + i
    const analyzed = docs.slice(i, i + o.batch).map((d) => ({ doc: analyzeDocument(SEARCH_TYPE, d as unknown as SearchDocument), version }))
    const c1 = cpuMs()
    const rows = toIndexRows(SEARCH_TYPE, analyzed)
    spent.analyzeCpuMs += c1 - c0
    spent.rowsCpuMs += cpuMs() - c1
    if (inflight.length >= o.inflight) await inflight.shift()
    const w0 = performance.now()
    const w = startIndexRowsWrite(o.db, SEARCH_TYPE, rows)
    inflight.push(w.done.then(() => { spent.insertMs += performance.now() - w0 }))
    await w.sent // the server works on this batch while the next one is prepared
  }
  await Promise.all(inflight)
  spent.processCpuMs = cpuMs() - start
  return spent
}

/**
 * Waits (up to maxMs) until the bench tables have settled: no merge running and the same active
 * parts on four checks 2 s apart (one check can fall between two merges). Past maxMs, measures
 * anyway. Returns the active parts per table.
 */
export async function settle(o: OurIndexOptions, maxMs: number): Promise<string> {
  let last = ''
  let quiet = 0
  await waitFor(async () => {
    const [m] = await o.db.query<{ n: number; parts: number }>(sql`SELECT (SELECT count() FROM system.merges WHERE database = ${o.database}) AS n,
      (SELECT count() FROM system.parts WHERE database = ${o.database} AND active) AS parts`)
    const state = `${m.parts}`
    quiet = Number(m.n) === 0 && state === last ? quiet + 1 : 0
    last = state
    return quiet >= 3
  }, 'merges to settle', maxMs, 2000).catch(() => false)
  const parts = await o.db.query<{ t: string; n: number; size: string }>(sql`SELECT table AS t, count() AS n, formatReadableSize(sum(bytes_on_disk)) AS size
    FROM system.parts WHERE database = ${o.database} AND active GROUP BY table ORDER BY table`)
  return parts.map((p) => `${p.t}: ${p.n} parts, ${p.size}`).join('; ')
}

/** The postings table's active parts: rows and bytes on disk. */
export async function postingsSize(o: OurIndexOptions): Promise<{ rows: number; bytes: number }> {
  const [r] = await o.db.query<{ rows: number; bytes: number }>(sql`SELECT sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts
    WHERE database = ${o.database} AND table = ${searchTables(SEARCH_TYPE).postings} AND active`)
  return { rows: Number(r?.rows ?? 0), bytes: Number(r?.bytes ?? 0) }
}

export function ourSearchEngine(db: Db, corpus: CorpusStats): SearchEngine {
  return {
    name: 'ClickHouse',
    async run(q) {
      const ast = parseQuery(q.q, SEARCH_TYPE)
      const filters: Node | undefined = q.filters ? parseQuery(`court_id:${q.filters.court} dateFiled:[${q.filters.from} TO ${q.filters.to}]`, SEARCH_TYPE) : undefined
      const o: SearchSqlOptions = { filters, corpus, limit: PAGE_SIZE, order: q.byDate ? [{ field: 'dateFiled', dir: 'desc' }] : undefined }
      const stats = q.byDate ? undefined : (await db.query<SearchStats>(statsSql(ast, SEARCH_TYPE, o)))[0]
      // as the search API asks: the page counts the matches where its rows are one per document
      // (searchSql `total`); otherwise the count runs beside it (the statistics order a phrase's join)
      const pageSql = searchPageSql(ast, SEARCH_TYPE, { ...o, stats, total: true })
      const [page, counts] = await Promise.all([
        db.query<{ id: number; total?: number }>(pageSql.sql).then((rows) => (pageSql.fallback?.needed(rows) ? db.query<{ id: number; total?: number }>(pageSql.fallback.sql) : rows)),
        pageSql.total ? Promise.resolve(null) : db.query<{ count: number }>(countSql(ast, SEARCH_TYPE, { ...o, stats })),
      ])
      const count = counts ? counts[0].count : page.length ? page[0].total : 0
      return { hits: Number(count), top: page.map((p) => Number(p.id)) }
    },
  }
}
