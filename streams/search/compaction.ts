/**
 * The search index's compaction. Every version of a document the indexer writes adds its
 * postings; queries read only the current version's, so a replaced or deleted document's
 * postings stay behind: they inflate the document frequencies BM25 reads (idf) and the index grows
 * with every re-index (a cluster is indexed again whenever one of its opinions, its docket or its
 * citation count changes). The compaction is a ClickHouse mutation that drops them
 * (compaction-sql.ts `compactSql`); the search-index role runs it per type whenever the
 * stale share of a sample of the postings reaches LDS_SEARCH_COMPACT_SHARE, checking a minute after
 * it starts and then every LDS_SEARCH_COMPACT_EVERY_S seconds, and `lds search compact` runs it at once.
 *
 * A compaction never changes a query's answer (it drops only postings no query reads), so it needs
 * no coordination with the indexer or the API; one runs at a time per type.
 */
import type { Config } from '../../core/config.js'
import type { Db } from '../../core/clickhouse.js'
import type { Logger } from '../../core/logger.js'
import { SEARCH_TYPES, type SearchType } from '../../domain/search/index.js'
import { compactSql, compactionProbeSql, compactionsRunningSql, reloadLatestSql } from './compaction-sql.js'

export interface CompactionCheck {
  type: SearchType
  /** Postings of the probe field, and how many of them are stale. */
  postings: number
  stale: number
  /** A compaction was started (or, with `wait`, done) by this check. */
  compacted: boolean
  /** A compaction of the type was already running: nothing was measured or started. */
  running: boolean
  /** Why the running compaction last failed, if it did (the server retries it). */
  failure?: string
}

export interface CompactOptions {
  /** Compact from this stale share on (0: whenever a stale posting is found). */
  minShare: number
  /** Return once the compaction is done, reporting the parts it has left to rewrite meanwhile. */
  wait?: boolean | ((partsToDo: number) => void)
}

interface Running { running: number; parts_to_do: number; failure: string }

/** Measures one type's stale share and compacts its postings if it reaches `minShare`. */
export async function compactSearchType(db: Db, type: SearchType, o: CompactOptions): Promise<CompactionCheck> {
  const tables = { database: db.database }
  const running = async () => (await db.query<Running>(compactionsRunningSql(type, tables)))[0]
  const busy = await running()
  if (Number(busy?.running ?? 0) > 0) return { type, postings: 0, stale: 0, compacted: false, running: true, ...(busy?.failure ? { failure: busy.failure } : {}) }
  await db.command(reloadLatestSql(type, tables))
  const [probe] = await db.query<{ postings: number; stale: number }>(compactionProbeSql(type, tables))
  const postings = Number(probe?.postings ?? 0)
  const stale = Number(probe?.stale ?? 0)
  const due = stale > 0 && stale >= o.minShare * postings
  if (due) {
    // asynchronous on the server: a large index takes longer than one HTTP request should wait
    await db.command(compactSql(type, tables), { settings: { allow_nondeterministic_mutations: 1, mutations_sync: 0 } })
    if (o.wait) {
      for (;;) {
        const r = await running()
        if (!r || Number(r.running) === 0) break
        // a mutation that fails is retried by the server for ever: give up waiting and say why
        if (r.failure) throw new Error(`the compaction of search type ${type} failed: ${r.failure}`)
        if (typeof o.wait === 'function') o.wait(Number(r.parts_to_do))
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
  }
  return { type, postings, stale, compacted: due, running: false }
}

/** Checks every type now (see compactSearchType). */
export async function compactSearchIndex(db: Db, o: CompactOptions): Promise<CompactionCheck[]> {
  const out: CompactionCheck[] = []
  for (const type of Object.keys(SEARCH_TYPES) as SearchType[]) out.push(await compactSearchType(db, type, o))
  return out
}

/** When the first check runs after a start (or sooner, with a shorter interval). */
const FIRST_CHECK_MS = 60_000

/**
 * The periodic check of the search-index role. A check that fails (ClickHouse down) is logged
 * and tried again at the next interval; the role itself goes on.
 */
export function startSearchCompaction(deps: { cfg: Config; db: Db; log: Logger }): { stop(): Promise<void> } {
  const { everyMs, staleShare } = deps.cfg.searchCompaction
  const log = deps.log.child({ job: 'search-compaction' })
  if (everyMs <= 0) return { async stop() {} }
  let current: Promise<void> = Promise.resolve()
  const check = async () => {
    try {
      for (const c of await compactSearchIndex(deps.db, { minShare: staleShare })) {
        if (c.compacted) log.info({ type: c.type, stale: c.stale, postings: c.postings }, 'search index: compacting the postings of replaced and deleted documents')
        if (c.failure) log.warn({ type: c.type, failure: c.failure }, 'search index: a compaction keeps failing (ClickHouse retries it); see system.mutations')
      }
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'search index: the compaction check failed; trying again at the next interval')
    }
  }
  // The first check comes soon after a start: a first load indexes a document many times (a
  // cluster again for each of its opinions and citations; the sample's first start left 87 % of
  // the o type's postings stale) and should not serve a bloated index for a whole interval.
  let timer: NodeJS.Timeout = setTimeout(function tick() {
    current = current.then(check)
    timer = setTimeout(tick, everyMs)
    timer.unref()
  }, Math.min(everyMs, FIRST_CHECK_MS))
  timer.unref()
  return {
    async stop() { clearTimeout(timer); await current },
  }
}
