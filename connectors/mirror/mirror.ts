/**
 * `lds ingest mirror`: follows another v4 API (the reference with a user's token, or another
 * instance of this service) and publishes what it reads as upserts, resource by resource in
 * dependency order. Each list is read in date_modified order by cursor where the list allows it,
 * from the last change already published, so a later run (or each `--follow` poll) reads only what
 * changed; lists that cannot be ordered so are read whole, in id order. Progress is checkpointed in
 * Kafka after each acknowledged publish (checkpoints.ts): a killed mirror resumes where it was.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { createPublisher, type Publisher, type PublisherDeps } from '../../core/events/publisher.js'
import { planMirror, type MirrorStep } from './plan.js'
import { toMirrorRecords, type MirrorRecord } from './records.js'
import { createSource, isNotFound, type Source } from './source.js'
import { openCheckpoints, type Checkpoint, type CheckpointStore } from './checkpoints.js'
import type { MirrorProgress } from './progress.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'

export const DEFAULT_BUDGET_PER_HOUR = 5000

export interface MirrorOptions {
  /** The source's API root, e.g. https://host/api/rest/v4/. */
  from: string
  token?: string
  /** Resource names or paths; every public list when absent. */
  resources?: readonly string[]
  /** Only changes from this date_modified on (ISO 8601), where no checkpoint says more. */
  since?: string
  /** Requests per hour; 0: no limit. */
  budgetPerHour?: number
  /** Poll again for changes this long after each pass ends, until `signal` aborts. */
  followEveryMs?: number
  /** Forget the checkpoints of this source and read everything again. */
  restart?: boolean
  progress?: MirrorProgress
  signal?: AbortSignal
  /** How often the published records are flushed and checkpointed (at least at the end of each list). */
  checkpointEveryMs?: number
  minBackoffMs?: number
  /** Records per publisher batch. */
  batchSize?: number
}

export interface ResourceReport { resource: string; mode: MirrorStep['mode']; records: number; refused: number; requests: number; seconds: number }
export interface MirrorReport { source: string; polls: number; records: number; refused: number; requests: number; throttled: number; seconds: number; resources: ResourceReport[] }

interface Page { next?: string | null; results?: Record<string, unknown>[] }

/** The first page of a step's list, from the checkpoint's date_modified on. */
export function firstPageUrl(step: MirrorStep, modifiedSince: string | null): string {
  const q = new URLSearchParams()
  if (step.mode === 'id-pass') { if (step.idOrder === 'id') q.set('order_by', 'id') }
  else {
    q.set('order_by', 'date_modified')
    if (modifiedSince) q.set('date_modified__gte', modifiedSince)
  }
  const query = q.toString()
  return `${step.path}/${query ? `?${query}` : ''}`
}

/** Ids remembered at one date_modified; beyond this they are published again on the next poll (harmless). */
const MAX_IDS_AT_MODIFIED = 10_000

interface WalkContext { cat: Catalogue; source: Source; pub: Publisher; store: CheckpointStore; opts: MirrorOptions; refused: { n: number } }

async function walk(ctx: WalkContext, step: MirrorStep): Promise<ResourceReport> {
  const { source, pub, store, opts } = ctx
  const started = Date.now()
  const requestsBefore = source.stats.requests
  const refusedBefore = ctx.refused.n
  const r = step.resource
  const saved: Checkpoint = store.get(r.name) ?? { next: null, modifiedSince: opts.since ?? null, idsAtModified: [], records: 0 }
  const state = { next: saved.next, modifiedSince: saved.modifiedSince, ids: new Set(saved.idsAtModified), records: saved.records }
  const modified = step.mode !== 'id-pass'
  const every = opts.checkpointEveryMs ?? 1000
  let published = 0
  let lastSave = Date.now()

  const save = async () => {
    await pub.flush()
    const ids = state.ids.size <= MAX_IDS_AT_MODIFIED ? [...state.ids] : []
    await store.save(r.name, { next: state.next, modifiedSince: state.modifiedSince, idsAtModified: ids, records: state.records })
    lastSave = Date.now()
  }
  const report = (note?: string) => opts.progress?.update({ resource: r.name, mode: step.mode, records: state.records, requests: source.stats.requests, note })

  /** A page by a link the source gave; a link it no longer takes (a cursor, a page past its limit) starts the list again from the checkpoint. */
  const fetchPage = async (url: string, isLink: boolean): Promise<Page> => {
    try { return await source.get(url) as Page } catch (err) {
      if (!isLink || !isNotFound(err)) throw err
      return await source.get(firstPageUrl(step, state.modifiedSince)) as Page
    }
  }

  let page = await fetchPage(state.next ?? firstPageUrl(step, state.modifiedSince), state.next !== null)
  for (;;) {
    const next = page.next ?? null
    // The next page is read while this one is published.
    const ahead = next ? fetchPage(next, true) : undefined
    ahead?.catch(() => undefined)
    for (const obj of page.results ?? []) {
      let records: MirrorRecord[]
      try { records = toMirrorRecords(ctx.cat, r, obj, step.nested) } catch (err) {
        if (!(err instanceof Error) || !/names no/.test(err.message)) throw err
        ctx.refused.n++
        continue
      }
      const id = records[0].record[r.key] as string | number
      const at = modified ? String(obj.date_modified ?? '') : ''
      if (modified && at === state.modifiedSince && state.ids.has(id)) continue
      for (const rec of records) await pub.upsert(rec.resource, rec.record)
      published++
      state.records++
      if (modified && at) {
        if (at !== state.modifiedSince) { state.modifiedSince = at; state.ids = new Set() }
        state.ids.add(id)
      }
    }
    state.next = next
    if (!next || Date.now() - lastSave >= every || opts.signal?.aborted) await save()
    report()
    if (!next || opts.signal?.aborted) break
    page = await ahead!
  }
  return { resource: r.name, mode: step.mode, records: published, refused: ctx.refused.n - refusedBefore, requests: source.stats.requests - requestsBefore, seconds: (Date.now() - started) / 1000 }
}

export async function runMirror(deps: PublisherDeps, opts: MirrorOptions): Promise<MirrorReport> {
  const started = Date.now()
  const steps = planMirror(deps.catalogue, opts.resources)
  const source = createSource(opts.from, {
    token: opts.token, budgetPerHour: opts.budgetPerHour ?? DEFAULT_BUDGET_PER_HOUR, minBackoffMs: opts.minBackoffMs,
    onWait: (reason) => opts.progress?.waiting(reason),
  })
  const refused = { n: 0 }
  const pub = createPublisher({ ...deps, batchSize: opts.batchSize, onInvalid: () => { refused.n++ } })
  const store = await openCheckpoints(deps, source.root.href, { restart: opts.restart })
  const totals = new Map<string, ResourceReport>()
  let polls = 0
  try {
    await pub.start()
    for (;;) {
      polls++
      for (const step of steps) {
        if (opts.signal?.aborted) break
        const one = await walk({ cat: deps.catalogue, source, pub, store, opts, refused }, step)
        const sum = totals.get(one.resource)
        totals.set(one.resource, sum ? { ...sum, records: sum.records + one.records, refused: sum.refused + one.refused, requests: sum.requests + one.requests, seconds: sum.seconds + one.seconds } : one)
      }
      if (opts.followEveryMs === undefined || opts.signal?.aborted) break
      await sleep(opts.followEveryMs, undefined, { signal: opts.signal }).catch(() => undefined)
      if (opts.signal?.aborted) break
    }
  } finally {
    await pub.stop()
    await store.close()
    await source.close()
  }
  const resources = [...totals.values()]
  return {
    source: source.root.href, polls, resources, requests: source.stats.requests, throttled: source.stats.throttled,
    records: resources.reduce((n, x) => n + x.records, 0), refused: refused.n, seconds: (Date.now() - started) / 1000,
  }
}
