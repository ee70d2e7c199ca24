/**
 * bench/search.ts --reindex: a share of the documents indexed again (the same texts at new
 * versions, as a re-index after a change does), then the compaction of their stale postings
 * (streams/search/compaction.ts) measured: its time, the server's CPU, the postings' size and the
 * queries before and after.
 */
import { performance } from 'node:perf_hooks'
import { refreshSql } from '../../schemas/internal/search-layout.js'
import type { CorpusStats } from '../../domain/search/query-sql.js'
import { compactSearchType } from '../../streams/search/compaction.js'
import { createCorpus, type OpinionDoc } from './search-corpus.js'
import { fmtInt, fmtMs } from './stats.js'
import { KINDS, type Query } from './search-queries.js'
import { measure } from './search-timing.js'
import { indexDocs, settle, postingsSize, ourSearchEngine, clickhouseServerCpuMs, SEARCH_TYPE, type OurIndexOptions } from './our-search-engine.js'

export interface CompactionRun {
  /** share of the `docs` indexed documents to index again, 0 to 1 */
  share: number
  docs: number
  chunk: number
  reps: number
  generate(corpus: ReturnType<typeof createCorpus>, first: number, last: number): OpinionDoc[]
  log(m: string): void
  loadAvg(): string
}

export async function measureCompaction(ix: OurIndexOptions, queries: Query[], corpus: CorpusStats, run: CompactionRun) {
  const { log, loadAvg } = run
  const count = Math.round(run.share * run.docs)
  const gen = createCorpus()
  log(`compaction: indexing ${fmtInt(count)} documents again (the same texts at new versions, as after a change)`)
  const t0 = performance.now()
  for (let first = 1; first <= count; first += run.chunk) {
    const docs = run.generate(gen, first, Math.min(first + run.chunk - 1, count))
    await indexDocs(ix, docs, run.docs + first) // above every version of the first load
    log(`  indexed again ${fmtInt(Math.min(first + run.chunk - 1, count))} / ${fmtInt(count)}`)
  }
  const reindexSeconds = (performance.now() - t0) / 1000
  await ix.db.command(refreshSql(SEARCH_TYPE, { database: ix.database }))
  log(`compaction: ${await settle(ix, 300_000)}`)
  const before = await postingsSize(ix)
  const stale = (await measure(ourSearchEngine(ix.db, corpus), queries, run.reps, log, loadAvg)).timings
  const s0 = clickhouseServerCpuMs(ix.cfg)
  const c0 = performance.now()
  let lastLog = 0
  const check = await compactSearchType(ix.db, SEARCH_TYPE, {
    minShare: 0,
    wait: (parts) => { if (performance.now() - lastLog > 5000) { lastLog = performance.now(); log(`  compacting: ${parts} parts left to rewrite (load average ${loadAvg()})`) } },
  })
  const compactSeconds = (performance.now() - c0) / 1000
  const s1 = clickhouseServerCpuMs(ix.cfg)
  const serverCpuSeconds = s0 !== undefined && s1 !== undefined ? (s1 - s0) / 1000 : undefined
  log(`compaction: ${check.stale} of ${check.postings} sampled postings stale; done in ${compactSeconds.toFixed(1)} s, server CPU ${serverCpuSeconds?.toFixed(1) ?? '–'} s`)
  log(`compaction: ${await settle(ix, 300_000)}`)
  const after = await postingsSize(ix)
  const compacted = (await measure(ourSearchEngine(ix.db, corpus), queries, run.reps, log, loadAvg)).timings
  const gib = (b: number) => (b / 2 ** 30).toFixed(2)
  log(`compaction: postings ${fmtInt(before.rows)} rows, ${gib(before.bytes)} GiB → ${fmtInt(after.rows)} rows, ${gib(after.bytes)} GiB`)
  for (const k of KINDS) log(`  ${k}: p50 / p95 ${fmtMs(stale[k].p50)} / ${fmtMs(stale[k].p95)} ms with stale postings → ${fmtMs(compacted[k].p50)} / ${fmtMs(compacted[k].p95)} ms compacted`)
  return { share: run.share, documents: count, reindexSeconds, sampled: { postings: check.postings, stale: check.stale }, compactSeconds, serverCpuSeconds, before, after, queriesStale: stale, queriesCompacted: compacted }
}
