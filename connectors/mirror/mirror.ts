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
import { openCheckpoints, type Checkpoint, type CheckpointStore, type RangeCheckpoint } from './checkpoints.js'
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
  /** Date_modified ranges of one list read at once (1: one cursor per list; default: 4 without a budget, else 1). */
  parallelRanges?: number
}

export interface ResourceReport { resource: string; mode: MirrorStep['mode']; records: number; refused: number; requests: number; seconds: number }
export interface MirrorReport { source: string; polls: number; records: number; refused: number; requests: number; throttled: number; seconds: number; resources: ResourceReport[] }

interface Page { next?: string | null; results?: Record<string, unknown>[] }

/** The first page of a step's list, from the checkpoint's date_modified on (and before `before`, a range's end). */
export function firstPageUrl(step: MirrorStep, modifiedSince: string | null, before?: string | null): string {
  const q = new URLSearchParams()
  if (step.mode === 'id-pass') { if (step.idOrder === 'id') q.set('order_by', 'id') }
  else {
    q.set('order_by', 'date_modified')
    if (modifiedSince) q.set('date_modified__gte', modifiedSince)
    if (before) q.set('date_modified__lt', before)
  }
  const query = q.toString()
  return `${step.path}/${query ? `?${query}` : ''}`
}

/** Ids remembered at one date_modified; beyond this they are published again on the next poll (harmless). */
const MAX_IDS_AT_MODIFIED = 10_000

/**
 * Date_modified ranges a list is split into and walked at once, each by its own cursor, when the
 * source sets no request budget (another instance of ours, a local copy). Under a budget the
 * budget is the bound, and ranges would only spend requests on planning them.
 */
export const UNBUDGETED_PARALLEL_RANGES = 4

interface WalkContext { cat: Catalogue; source: Source; pub: Publisher; store: CheckpointStore; opts: MirrorOptions; refused: { n: number } }

/** Where one walk of a list (or of one range of it) stands. */
interface RangeState { next: string | null; modifiedSince: string | null; ids: Set<string | number>; records: number }

const rangeOf = (r: RangeState): RangeCheckpoint => ({ next: r.next, modifiedSince: r.modifiedSince, idsAtModified: r.ids.size <= MAX_IDS_AT_MODIFIED ? [...r.ids] : [], records: r.records })

/**
 * Reads one list, or one date_modified range of it ([its modifiedSince, before)), page after page,
 * and publishes what it reads. `skip` says whether an object must not be published (a newer version
 * of it was, by another range); `published` hears of each one that was.
 */
async function walkRange(ctx: WalkContext, step: MirrorStep, state: RangeState, before: string | null,
  hooks: { save: () => Promise<void>; due: () => boolean; skip?: (id: string | number, at: string) => boolean; published?: (id: string | number, at: string) => void }): Promise<number> {
  const { source, pub, opts } = ctx
  const r = step.resource
  const modified = step.mode !== 'id-pass'
  let published = 0

  /** A page by a link the source gave; a link it no longer takes (a cursor, a page past its limit) starts the range again from where it stands. */
  const fetchPage = async (url: string, isLink: boolean): Promise<Page> => {
    try { return await source.get(url) as Page } catch (err) {
      if (!isLink || !isNotFound(err)) throw err
      return await source.get(firstPageUrl(step, state.modifiedSince, before)) as Page
    }
  }

  let page = await fetchPage(state.next ?? firstPageUrl(step, state.modifiedSince, before), state.next !== null)
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
      // Checked and published without a pause between: versions follow the order of these checks.
      if (!hooks.skip?.(id, at)) {
        for (const rec of records) await pub.upsert(rec.resource, rec.record)
        hooks.published?.(id, at)
        published++
        state.records++
      }
      if (modified && at) {
        if (at !== state.modifiedSince) { state.modifiedSince = at; state.ids = new Set() }
        state.ids.add(id)
      }
    }
    state.next = next
    if (!next || hooks.due() || opts.signal?.aborted) await hooks.save()
    if (!next || opts.signal?.aborted) break
    page = await ahead!
  }
  return published
}

/** The date_modified of the first object of a one-page answer, or undefined when it has none. */
async function firstModified(source: Source, url: string): Promise<string | undefined> {
  const page = await source.get(url) as Page
  const at = page.results?.[0]?.date_modified
  return typeof at === 'string' && at ? at : undefined
}

/**
 * The ranges a date_modified list is walked in at once: from `from` (or the list's oldest change)
 * to its newest, cut in `n` equal spans of time. The last range has no end, so changes made while
 * the pass runs land in it. One range (or none) when the list is small in time or empty.
 */
async function planRanges(source: Source, step: MirrorStep, from: string | null, n: number): Promise<{ newest: string; ranges: { lo: string | null; before: string | null }[] } | undefined> {
  const newestUrl = `${step.path}/?${new URLSearchParams({ order_by: '-date_modified', ...(from ? { date_modified__gte: from } : {}) })}`
  const newest = await firstModified(source, newestUrl)
  if (!newest) return undefined
  const oldest = from ?? await firstModified(source, firstPageUrl(step, null))
  return { newest, ranges: cutRanges(from, oldest ?? newest, newest, n) }
}

/**
 * `n` ranges of equal time from `oldest` to `newest`: [from, cut₁), [cut₁, cut₂) … [cutₙ₋₁, no end).
 * The first starts at `from` (null: the list's beginning), the last has no end. One range when
 * there is no time between them.
 */
export function cutRanges(from: string | null, oldest: string, newest: string, n: number): { lo: string | null; before: string | null }[] {
  const lo = Date.parse(oldest), hi = Date.parse(newest)
  if (!(hi > lo) || n < 2) return [{ lo: from, before: null }]
  const cuts = [...new Set(Array.from({ length: n - 1 }, (_, i) => new Date(lo + Math.ceil(((hi - lo) * (i + 1)) / n)).toISOString()))]
  return [from, ...cuts].map((start, i) => ({ lo: start, before: cuts[i] ?? null }))
}

async function walk(ctx: WalkContext, step: MirrorStep): Promise<ResourceReport> {
  const { source, store, opts } = ctx
  const started = Date.now()
  const requestsBefore = source.stats.requests
  const refusedBefore = ctx.refused.n
  const r = step.resource
  const saved: Checkpoint = store.get(r.name) ?? { next: null, modifiedSince: opts.since ?? null, idsAtModified: [], records: 0 }
  const every = opts.checkpointEveryMs ?? 1000
  let lastSave = Date.now()
  const due = () => Date.now() - lastSave >= every
  const whole: RangeState = { next: saved.next, modifiedSince: saved.modifiedSince, ids: new Set(saved.idsAtModified), records: saved.records }
  const finish = (published: number): ResourceReport => ({ resource: r.name, mode: step.mode, records: published, refused: ctx.refused.n - refusedBefore, requests: source.stats.requests - requestsBefore, seconds: (Date.now() - started) / 1000 })
  const report = (records: number) => opts.progress?.update({ resource: r.name, mode: step.mode, records, requests: source.stats.requests })

  const parallel = opts.parallelRanges ?? (opts.budgetPerHour === 0 ? UNBUDGETED_PARALLEL_RANGES : 1)
  const sliceable = step.mode !== 'id-pass' && step.rangeable && (saved.ranges !== undefined || (saved.next === null && parallel > 1))
  if (!sliceable) {
    const save = async () => {
      const cp = rangeOf(whole)
      await ctx.pub.flush()
      await store.save(r.name, cp)
      lastSave = Date.now()
      report(whole.records)
    }
    return finish(await walkRange(ctx, step, whole, null, { save, due }))
  }

  // Ranges at once: from the checkpoint's ranges (a pass that was stopped) or planned now.
  const plan = saved.ranges ? undefined : await planRanges(source, step, whole.modifiedSince, parallel)
  const ranges = saved.ranges ?? plan?.ranges.map((p, i) => ({
    before: p.before, done: false, next: null, modifiedSince: p.lo, idsAtModified: i === 0 ? [...whole.ids] : [], records: 0,
  }))
  if (!ranges) return finish(0)
  const newestAtStart = saved.newestAtStart ?? plan!.newest
  const states = ranges.map((c) => ({ before: c.before, done: c.done, state: { next: c.next, modifiedSince: c.modifiedSince, ids: new Set(c.idsAtModified), records: c.records } as RangeState }))
  const total = () => saved.records + states.reduce((n, s) => n + s.state.records, 0)
  // Where every range stands is taken first, then published records are flushed, then it is
  // saved: the ranges go on publishing meanwhile, and a checkpoint must not count what is not yet
  // acknowledged. Saves are written one after another, in the order they were taken.
  let saving = Promise.resolve()
  const save = () => {
    lastSave = Date.now()
    const cp: Checkpoint = { next: null, modifiedSince: whole.modifiedSince, idsAtModified: [...whole.ids].slice(0, MAX_IDS_AT_MODIFIED), records: saved.records,
      newestAtStart, ranges: states.map((s) => ({ before: s.before, done: s.done, ...rangeOf(s.state) })) }
    const records = total()
    saving = saving.then(async () => { await ctx.pub.flush(); await store.save(r.name, cp); report(records) })
    return saving
  }
  // An object changed while the pass runs moves to the last range (it has no end), while an earlier
  // range may have its older version in a page already read. The date_modified published for each
  // object changed since the pass began keeps that older version from being published after it.
  const began = Date.parse(newestAtStart)
  const changed = new Map<string | number, string>()
  let published = 0
  await Promise.all(states.map(async (s, i) => {
    if (s.done) return
    const last = i === states.length - 1
    const n = await walkRange(ctx, step, s.state, s.before, {
      save, due,
      skip: last ? undefined : (id, at) => { const seen = changed.get(id); return seen !== undefined && seen > at },
      published: last ? (id, at) => { if (Date.parse(at) > began) changed.set(id, at) } : undefined,
    })
    published += n
    if (!opts.signal?.aborted) s.done = true
  }))
  if (opts.signal?.aborted || states.some((s) => !s.done)) { await save(); return finish(published) }
  // The pass is complete: the next one starts where the last range (the newest changes) ended.
  const end = states[states.length - 1].state
  await saving
  await ctx.pub.flush()
  await store.save(r.name, { next: null, modifiedSince: end.modifiedSince, idsAtModified: [...end.ids].slice(0, MAX_IDS_AT_MODIFIED), records: total() })
  report(total())
  return finish(published)
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
