/**
 * What the cases that fault the infrastructure under a sink's load share (the broker cases 3 and
 * 9–11): a table sink of the case's own
 * reading a paced synthetic load (so events flow before, during and after the fault), and the
 * end of such a case: every event published, the sink caught up, the table's FINAL tally, a clean
 * SIGTERM of the sink.
 */
import { entityTopic, groupId, PROCESSORS } from '../../../schemas/events/index.js'
import type { CaseContext } from './case.js'
import type { CaseStack } from './stack.js'
import { syntheticLoad, SYNTHETIC_RESOURCE, type Load } from './load.js'
import { rawCount, syntheticTally, finalNotLatest } from './check.js'
import { waitRunning, stopRole, describeExit, logFacts, type RoleProcess } from './role.js'
import { waitFor, waitDrained } from './wait.js'
import { groupLag } from './kafka-facts.js'
import { withAdmin } from './admin.js'

export interface SinkUnderLoad {
  s: CaseStack
  sink: RoleProcess
  load: Load
  keys: number
  versions: number
  topic: string
  table: string
  /** Rows written so far (no FINAL: progress). */
  rows(): Promise<number>
  limits: SinkUnderLoadLimits
}

/** How long the steps may take: a 3-broker cluster on this machine starts and drains slower than the single broker. */
export interface SinkUnderLoadLimits { startMs: number; fifthMs: number; drainStallMs: number }
export const CLUSTER_LIMITS: SinkUnderLoadLimits = { startMs: 180_000, fifthMs: 180_000, drainStallMs: 180_000 }

/** A sink and a paced load, once a fifth of the load is published and some of it applied. */
export async function sinkUnderLoad(ctx: CaseContext, label: string, opts: { keys: number; ratePerSec: number; limits: SinkUnderLoadLimits }): Promise<SinkUnderLoad> {
  const versions = 2
  const s = await ctx.stack(label, { LDS_SINK_FETCH_BYTES: String(256 * 1024) })
  const table = s.rt.catalogue.get(SYNTHETIC_RESOURCE).table
  const sink = ctx.role('table-sink', 'table-sink', s.env)
  await waitRunning(sink, opts.limits.startMs)
  const load = syntheticLoad(s.rt, opts.keys, versions, { signal: ctx.signal, ratePerSec: opts.ratePerSec, chunk: 500 })
  const rows = () => rawCount(s.rt, table)
  await waitFor(async () => { load.ensureAlive(); return load.published() >= load.total / 5 && (await rows()) > 0 }, 'a fifth of the load published and applied', opts.limits.fifthMs, 100)
  return { s, sink, load, keys: opts.keys, versions, topic: entityTopic(s.rt.cfg, SYNTHETIC_RESOURCE), table, rows, limits: opts.limits }
}

/** Seconds from now until the producer has acknowledged more than `from.published` events and the sink written more than `from.rows` rows (undefined: not within `limitMs`). */
export async function firstProgress(u: Pick<SinkUnderLoad, 'load' | 'rows'>, from: { published: number; rows: number }, limitMs: number): Promise<{ producer?: number; consumer?: number }> {
  const t0 = Date.now()
  const progress: { producer?: number; consumer?: number } = {}
  await waitFor(async () => {
    if (progress.producer === undefined && (u.load.published() > from.published || u.load.finished?.ok)) progress.producer = (Date.now() - t0) / 1000
    if (progress.consumer === undefined && (await u.rows()) > from.rows) progress.consumer = (Date.now() - t0) / 1000
    return (u.load.finished !== undefined && !u.load.finished.ok) || (progress.producer !== undefined && progress.consumer !== undefined)
  }, 'the producer and the sink to make progress', limitMs, 100).catch(() => {})
  return progress
}

/** The end of the case: the load finished, the sink caught up, nothing lost or duplicated, the sink stops cleanly. */
export async function finishSinkUnderLoad(ctx: CaseContext, u: SinkUnderLoad): Promise<void> {
  const { published } = await u.load.done.catch((err: Error) => { throw new Error(`the publisher failed: ${err.message}`) })
  ctx.record.published = published
  ctx.check(published === u.load.total, `published ${published} of ${u.load.total}`)
  ctx.check(u.sink.alive(), `the table sink exited (${u.sink.exit ? describeExit(u.sink.exit) : ''})`)
  await withAdmin(u.s.rt, (admin) => waitDrained(() => groupLag(admin, groupId(u.s.rt.cfg, PROCESSORS.tableSink), [u.topic]), 'the sink to commit every event', { stallMs: u.limits.drainStallMs, maxMs: 30 * 60_000, intervalMs: 250 }))
  const tally = await syntheticTally(u.s.rt, u.keys, u.versions)
  Object.assign(ctx.record, { rows: tally.rows, lost: tally.lost, duplicated: tally.duplicated })
  ctx.record.details.tally = tally.detail
  ctx.record.details.finalNotLatest = await finalNotLatest(u.s.rt, u.table, 'id')
  ctx.record.details.sinkLog = logFacts(u.sink)
  const stop = await stopRole(u.sink, 'SIGTERM')
  ctx.check(stop.code === 0 && !stop.forced, `the sink did not stop cleanly on SIGTERM (${describeExit(stop)})`)
}
