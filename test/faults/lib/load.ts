/**
 * Load published from the suite process through the real publisher (Avro, registry, idempotent
 * producer), in the background, so a case can inflict its fault while events are still flowing.
 *
 *  - synthetic: `keys` tags, each published `versions` times; version g is named `v<g>`, so after
 *    FINAL every key must be named `v<versions>` (anything else is stale). Tags, because no
 *    processor but the table sink touches them (the citation network writes opinions-cited);
 *  - sample: the bundled generator (courts and a seeded case-law corpus), every record once.
 */
import { openPublisher, type Publisher } from '../../../core/events/publisher.js'
import { loadCourts } from '../../../connectors/sample/courts.js'
import { generateSample } from '../../../connectors/sample/generator.js'
import type { Runtime } from '../../../bin/runtime.js'
import { sleep, GiveUp } from './wait.js'

export const SYNTHETIC_RESOURCE = 'tag'
const STAMP = '2026-01-01T00:00:00+00:00'
/** The name of a synthetic key's generation g. */
export const generationName = (g: number) => `v${g}`

export interface Load {
  /** Events acknowledged by Kafka so far. */
  published(): number
  /** Events this load will publish in all. */
  readonly total: number
  /** Resolves when every event is acknowledged (or rejects with the publisher's error). */
  readonly done: Promise<{ published: number; seconds: number }>
  /** Set once the load has finished, with its outcome. */
  readonly finished: { ok: boolean; error?: string; at: number } | undefined
  /** Throws GiveUp when the load has failed: for waits that need it to go on. */
  ensureAlive(): void
  /** Events per resource (what the tables must hold after FINAL, for records published once). */
  readonly byResource: Map<string, number>
}

export interface LoadOptions {
  /** Events per second at most (the load is spread so that a fault lands while it runs). */
  ratePerSec?: number
  /** Records per publisher batch (flush). */
  chunk?: number
  /** Stops publishing (the case ended, e.g. failed half-way): the load then rejects. */
  signal?: AbortSignal
}

/** The case-law part of the sample (what the citation network reads, and its dockets and clusters), without courts and judges. */
export const CASE_LAW = new Set(['dockets', 'clusters', 'citations', 'opinions', 'audio'])

/** Loads still publishing, by the signal that stops them. */
const running = new Map<AbortSignal, Set<Promise<unknown>>>()

/** Resolves once every load started with `signal` has stopped (so its topics can be deleted), or after `limitMs`. */
export async function loadsSettled(signal: AbortSignal, limitMs = 30_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([Promise.allSettled([...(running.get(signal) ?? [])]), new Promise((r) => { timer = setTimeout(r, limitMs) })])
  clearTimeout(timer)
  running.delete(signal)
}

function runLoad(rt: Runtime, total: number, records: () => Iterable<{ resource: string; record: Record<string, unknown> }>, byResource: Map<string, number>, opts: LoadOptions): Load {
  let pub: Publisher | undefined
  const chunk = opts.chunk ?? 2000
  const t0 = Date.now()
  const state: { finished: Load['finished'] } = { finished: undefined }
  const done = (async () => {
    try {
      pub = await openPublisher(rt)
      let n = 0
      for (const { resource, record } of records()) {
        await pub.upsert(resource, record)
        if (++n % chunk === 0) {
          await pub.flush()
          if (opts.ratePerSec) {
            const due = t0 + (n / opts.ratePerSec) * 1000
            if (due > Date.now()) await sleep(due - Date.now())
          }
        }
      }
      await pub.flush()
      if (pub.stats.invalid) throw new Error(`${pub.stats.invalid} records refused by the publisher`)
      const published = pub.stats.published
      await pub.stop()
      state.finished = { ok: true, at: Date.now() }
      return { published, seconds: (Date.now() - t0) / 1000 }
    } catch (err) {
      state.finished = { ok: false, error: (err as Error).message, at: Date.now() }
      await pub?.stop().catch(() => {})
      throw err
    }
  })()
  done.catch(() => {}) // observed by the case through `finished` or by awaiting `done`
  if (opts.signal) {
    const set = running.get(opts.signal) ?? new Set<Promise<unknown>>()
    running.set(opts.signal, set)
    set.add(done)
    void done.catch(() => {}).finally(() => set.delete(done))
  }
  return {
    total, byResource, done,
    get finished() { return state.finished },
    ensureAlive() { if (state.finished && !state.finished.ok) throw new GiveUp(`the load failed: ${state.finished.error}`) },
    published: () => pub?.stats.published ?? 0,
  }
}

/** `keys` × `versions` tag events; generation g is named v<g>. */
export function syntheticLoad(rt: Runtime, keys: number, versions: number, opts: LoadOptions = {}): Load {
  const records = function* () {
    for (let g = 1; g <= versions; g++) {
      for (let id = 1; id <= keys; id++) yield { resource: SYNTHETIC_RESOURCE, record: { id, date_created: STAMP, date_modified: STAMP, name: generationName(g) } }
    }
  }
  return runLoad(rt, keys * versions, records, new Map([[SYNTHETIC_RESOURCE, keys]]), opts)
}

/** The sample data set for `seed` and `opinions`, every record once, in the generator's order (only `resources`, when given). */
export function sampleLoad(rt: Runtime, seed: number, opinions: number, opts: LoadOptions & { resources?: ReadonlySet<string> } = {}): Load {
  const courts = loadCourts()
  const wanted = (r: string) => !opts.resources || opts.resources.has(r)
  const all = function* () {
    for (const record of courts) yield { resource: 'courts', record: record as unknown as Record<string, unknown> }
    yield* generateSample({ seed, opinions, courts })
  }
  const records = function* () { for (const r of all()) if (wanted(r.resource)) yield r }
  const byResource = new Map<string, number>()
  for (const { resource } of records()) byResource.set(resource, (byResource.get(resource) ?? 0) + 1)
  const total = [...byResource.values()].reduce((a, b) => a + b, 0)
  return runLoad(rt, total, records, byResource, opts)
}
