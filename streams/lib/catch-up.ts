/**
 * Waiting until what a batch reads has caught up with the topics. The tables the table sink keeps
 * and the entity tables a process holds in memory trail their topics: a row published just before
 * the event that needs it may not be there yet. `createEndOffsets` takes what the topics hold when
 * a batch is consumed, and `catchUp` (with `sinkCatchUp`, `tableCatchUp`) waits (bounded,
 * heartbeating, given up when stale) until the readers have reached it. Used by the alert sources
 * and by webhook delivery's re-enable.
 */
import type { Kafka } from 'kafkajs'
import type { Config } from '../../core/config.js'
import { endOffsets } from '../../core/kafka.js'
import { DependencyError } from '../../core/dependency-error.js'
import type { Watermarks } from '../../core/events/watermark-reader.js'
import { keepAlive, type BatchContext } from '../runner.js'
import type { EntityTable } from './entity-table.js'

/** Per topic, per partition: the offset the next message will get. */
export type EndOffsets = Map<string, Map<number, bigint>>

export interface EndOffsetsReader {
  /** The end offsets of every topic, asked of the broker after this call: they cover all that was published before it. */
  fetch(): Promise<EndOffsets>
  stop(): Promise<void>
}

/**
 * End offsets of a fixed set of topics, through one admin client kept open. Concurrent callers
 * share a request, but never one sent before they asked (it could miss what they need): a caller
 * that finds a request in flight joins the next one, sent when that one returns.
 */
export function createEndOffsets(deps: { kafka: Kafka; cfg: Config }, topics: readonly string[]): EndOffsetsReader {
  const admin = deps.kafka.admin()
  let connected: Promise<void> | undefined
  let inFlight: Promise<EndOffsets> | undefined
  let queued: Promise<EndOffsets> | undefined
  const request = async (): Promise<EndOffsets> => {
    try {
      await (connected ??= admin.connect().catch((err) => { connected = undefined; throw err }))
      return await endOffsets(admin, topics)
    } catch (err) {
      throw new DependencyError('Kafka', deps.cfg.kafkaBrokers.join(','), 'did not answer an end-offsets request', { cause: err })
    }
  }
  const send = () => {
    const p: Promise<EndOffsets> = request().finally(() => { if (inFlight === p) inFlight = undefined })
    inFlight = p
    return p
  }
  return {
    fetch() {
      if (queued) return queued
      if (!inFlight) return send()
      const next = inFlight.catch(() => {}).then(() => { queued = undefined; return send() })
      queued = next
      return next
    },
    async stop() { if (connected) await admin.disconnect() },
  }
}

/**
 * Waits until the table sink has applied every partition of `topic` up to its end offset in `ends`
 * (its watermark is the next offset it will read); false if `deadline` (epoch ms) passes first.
 */
export async function sinkApplied(watermarks: Watermarks, topic: string, ends: ReadonlyMap<number, bigint>, deadline: number): Promise<boolean> {
  const waits = [...ends].filter(([, end]) => end > 0n).map(([p, end]) => watermarks.waitUntilApplied(topic, p, String(end - 1n), Math.max(0, deadline - Date.now())))
  return (await Promise.all(waits)).every(Boolean)
}

/** One thing a batch waits for: resolves true once caught up, false after `sliceMs`. */
export interface CatchUp { what: string; until(sliceMs: number): Promise<boolean> }

/**
 * Waits, up to `timeoutMs`, for every wait of `waits` together; resolves with the `what` of those
 * that had not caught up by then. The waits run in slices with heartbeats between them (the
 * runner's keepAlive), so the member stays in its group, and the batch is given up (BatchGivenUp,
 * uncommitted) once it is stale: a rebalance moved its partition, or the consumer is stopping.
 */
export async function catchUp(batch: BatchContext | undefined, timeoutMs: number, waits: readonly CatchUp[]): Promise<string[]> {
  const done = await Promise.all(waits.map((w) => keepAlive(batch, timeoutMs, (ms) => w.until(ms), `waiting for ${w.what}`)))
  return waits.filter((_, i) => !done[i]).map((w) => w.what)
}

/** A CatchUp on the table sink: it has applied `topic` up to `ends` (see sinkApplied). */
export const sinkCatchUp = (watermarks: Watermarks, topic: string, ends: ReadonlyMap<number, bigint>): CatchUp =>
  ({ what: `${topic} (table sink)`, until: (ms) => sinkApplied(watermarks, topic, ends, Date.now() + ms) })

/** A CatchUp on an in-memory entity table: it has read its topic up to `ends`. */
export const tableCatchUp = (table: EntityTable, ends: ReadonlyMap<number, bigint>): CatchUp =>
  ({ what: table.topic, until: (ms) => table.waitUntil(ends, ms) })
