/**
 * Times an engine over the benchmark's queries, per kind: 3 warm-ups, then each query run `reps`
 * times; p50/p95 over every run and over each query's best run (less sensitive to other work on
 * the machine). Keeps each query's match count, so engines' counts can be compared.
 */
import { performance } from 'node:perf_hooks'
import { percentile, fmtMs, fmtInt } from './stats.js'
import { KINDS, type Kind, type Query, type SearchEngine } from './search-queries.js'

export interface Timing { p50: number; p95: number; bestP50: number; bestP95: number; meanHits: number }

export interface Measured {
  timings: Record<Kind, Timing>
  /** matches of each measured query (warm-ups excluded) */
  hits: Map<Query, number>
}

export async function measure(e: SearchEngine, queries: readonly Query[], reps: number, log: (m: string) => void, loadAvg: () => string): Promise<Measured> {
  const timings = {} as Record<Kind, Timing>
  const hitsOf = new Map<Query, number>()
  for (const kind of KINDS) {
    const qs = queries.filter((q) => q.kind === kind)
    for (const q of qs.slice(0, 3)) for (let i = 0; i < (e.warmUpRuns ?? 1); i++) await e.run(q)
    const times: number[] = []
    const bests: number[] = []
    let hits = 0
    for (const q of qs.slice(3)) {
      let best = Infinity
      for (let rep = 0; rep < reps; rep++) {
        const t0 = performance.now()
        const r = await e.run(q)
        const ms = performance.now() - t0
        times.push(ms)
        best = Math.min(best, ms)
        if (rep === 0) { hits += r.hits; hitsOf.set(q, r.hits) }
      }
      bests.push(best)
    }
    times.sort((a, b) => a - b)
    bests.sort((a, b) => a - b)
    const t = timings[kind] = { p50: percentile(times, 0.5), p95: percentile(times, 0.95), bestP50: percentile(bests, 0.5), bestP95: percentile(bests, 0.95), meanHits: hits / bests.length }
    log(`  ${e.name} ${kind}: p50 ${fmtMs(t.p50)} ms, p95 ${fmtMs(t.p95)} ms (best of ${reps}: ${fmtMs(t.bestP50)} / ${fmtMs(t.bestP95)} ms), ${fmtInt(t.meanHits)} hits on average (load average ${loadAvg()})`)
  }
  return { timings, hits: hitsOf }
}

/** Per kind: how many queries a peer counted differently from ours, and the largest relative difference. */
export type CountCheck = Record<Kind, { queries: number; differing: number; maxRelativeDiff: number }>

export function compareCounts(ours: Measured, peer: Measured): CountCheck {
  const out = {} as CountCheck
  for (const kind of KINDS) out[kind] = { queries: 0, differing: 0, maxRelativeDiff: 0 }
  for (const [q, mine] of ours.hits) {
    const theirs = peer.hits.get(q)
    if (theirs === undefined) continue
    const c = out[q.kind]
    c.queries++
    if (theirs !== mine) {
      c.differing++
      c.maxRelativeDiff = Math.max(c.maxRelativeDiff, Math.abs(theirs - mine) / Math.max(mine, theirs, 1))
    }
  }
  return out
}
