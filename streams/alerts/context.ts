/**
 * What every event source needs (docket alerts, fetches, prayers, reports, search alerts): the
 * current users and webhook endpoints (kept in memory from their topics), a webhook emitter that
 * sends a user's events to its enabled endpoints of the type, a mailer (optional), and helpers to
 * read rows the table sink holds and to shape them as the API shows them.
 *
 * Those tables and rows trail the topics: a row published just before the event that needs it may
 * not be there yet. `createEndOffsets` and `catchUp` (with `sinkCatchUp`, `tableCatchUp`) let a
 * source wait (bounded, heartbeating, given up when stale) until what it reads has caught up with
 * what the topics held when it consumed a batch.
 */
import type { Kafka } from 'kafkajs'
import type { Config } from '../../core/config.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import type { Clock } from '../../core/clock.js'
import type { Db } from '../../core/clickhouse.js'
import { sql, ident } from '../../core/sql.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { formatDatetime } from '../../schemas/values.js'
import type { Publisher } from '../../schemas/events/publisher.js'
import type { WebhookQueue } from '../../schemas/events/webhook-queue.js'
import { createWebhookEmitter, type WebhookEmitter } from '../../schemas/events/webhook-emitter.js'
import type { Mailer, MailContent } from '../../connectors/mail.js'
import { createEntityTable, type EntityTable, type Row } from '../lib/entity-table.js'
import type { Watermarks } from '../../schemas/events/watermark-reader.js'
import { retryRetriable } from '../../core/kafka.js'
import { DependencyError } from '../../core/dependency-error.js'
import { keepAlive, type BatchContext, type ConsumerTimeouts } from '../runner.js'

export type { Row }

export interface SourceDeps {
  cfg: Config; kafka: Kafka; registry: Registry; log: Logger; clock: Clock; db: Db; catalogue: Catalogue
  publisher: Publisher; queue: WebhookQueue; mailer?: Mailer
  /** The table sink's watermarks, when the process already reads them; a source that needs them reads its own otherwise. */
  watermarks?: Watermarks
  /** The source's consumer group timeouts (tests shorten them). */
  consumerTimeouts?: ConsumerTimeouts
}

export interface SourceContext {
  users: EntityTable
  webhooks: EntityTable
  emitter: WebhookEmitter
  /** Mails a user when it has an address and a mailer is configured; failures are logged, not thrown. */
  mail(userId: number, content: MailContent): Promise<void>
  /** Rows of a resource's table (FINAL) whose `column` is one of `values`. */
  rowsWhere(resource: string, column: string, values: readonly unknown[]): Promise<Row[]>
  stop(): Promise<void>
}

export async function openSourceContext(deps: SourceDeps, name: string): Promise<SourceContext> {
  const log = deps.log.child({ stream: name })
  const users = createEntityTable(deps, 'users')
  const webhooks = createEntityTable(deps, 'webhooks')
  await Promise.all([users.start(), webhooks.start()])
  await Promise.all([users.ready(), webhooks.ready()])
  const emitter = createWebhookEmitter({
    queue: deps.queue, publisher: deps.publisher, clock: deps.clock,
    endpointsOf: (user, type) => [...webhooks.values()].filter((w) => Number(w.user_id) === user && Number(w.event_type) === type),
  })
  return {
    users, webhooks, emitter,
    async mail(userId, content) {
      const to = String(users.get(userId)?.email ?? '')
      if (!deps.mailer || !to) return
      await deps.mailer.send({ to, ...content }).catch((err) => log.warn({ err: (err as Error).message }, 'mail not sent'))
    },
    async rowsWhere(resource, column, values) {
      const r = deps.catalogue.get(resource)
      if (!values.length) return []
      const type = values.every((v) => typeof v === 'number') ? 'Int64' : 'String'
      return deps.db.withKeys<Row>(values, type, (k) => sql`SELECT * EXCEPT (_version, _deleted) FROM ${ident(deps.db.database)}.${ident(r.table)} FINAL WHERE ${ident(column)} IN ${k}`)
    },
    async stop() { await Promise.all([users.stop(), webhooks.stop()]) },
  }
}

/** A stored row as the API shows its plain fields: timestamps in the API's form; relations left to the caller. */
export function asShown(row: Row): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v) ? formatDatetime(v) : v
  return out
}

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
      const answers = await Promise.all(topics.map((t) => retryRetriable(() => admin.fetchTopicOffsets(t))))
      return new Map(topics.map((t, i) => [t, new Map(answers[i].map((p) => [p.partition, BigInt(p.high)]))]))
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
