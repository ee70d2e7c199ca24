/**
 * The webhook delivery consumer. Reads the delivery queue (the main topic and the seven retry
 * topics, co-partitioned by endpoint) and POSTs each due event to its endpoint:
 *  - headers: Content-Type, Idempotency-Key (the event id, the same on every attempt) and the
 *    Standard Webhooks signature headers (webhook-id, webhook-timestamp, webhook-signature);
 *  - success is a 2xx within one real second (never scaled); redirects are not followed; a body
 *    is read up to 4 KB; the target's addresses are checked after DNS resolution, at connect time;
 *  - a failure schedules the next attempt on the retry topic of its counter, due after 3, 9, 27,
 *    81, 243, 729, 2187 scheduled minutes (divided by LDS_TIME_SCALE); the owner is mailed at retries
 *    1, 5 and 7 (for the endpoint's oldest pending event); the 8th failure fails the event and
 *    disables the endpoint, whose later events are held;
 *  - a re-enable request resends the endpoint's events that failed or were held in the last two days.
 * A partition waits for its head message to fall due (pause, then resume on a timer): no polling.
 * Offsets are committed after the attempts they cover, so a killed consumer repeats at most the
 * attempts in flight (receivers deduplicate by Idempotency-Key); status changes go to the
 * webhook-events resource, endpoint changes to the webhooks resource.
 */
import dns from 'node:dns'
import type { Consumer, Kafka, EachBatchPayload } from 'kafkajs'
import { Agent, request } from 'undici'
import pMap from 'p-map'
import type { Config } from '../../core/config.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import type { Clock } from '../../core/clock.js'
import type { Db } from '../../core/clickhouse.js'
import { sql, ident } from '../../core/sql.js'
import { CoPartitionedAssigner } from '../../core/kafka-assigner.js'
import { subscribeAll, stoppableConsumer, commitBatch, IDLE_FETCH_WAIT_MS } from '../../core/kafka.js'
import { groupId, entityTopic } from '../../schemas/events/index.js'
import { useWatermarks, type Watermarks } from '../../core/events/watermark-reader.js'
import { createEndOffsets, sinkApplied } from '../lib/catch-up.js'
import {
  afterFailure, RETRY_DELAYS_MS, onReenable, classifyAttempt, elapsedBeforeRetry, signatureHeaders, isForbiddenAddress, EVENT_STATUS, RESPONSE_TIMEOUT_MS, RESPONSE_BODY_LIMIT,
  DELIVERY_CONTENT_TYPE, type EventTypeId, type FailureEmailKind,
} from '../../domain/webhooks/index.js'
import { webhookFailingMail, webhookDisabledMail, type Mailer } from '../../clients/mail.js'
import type { Publisher } from '../../core/events/publisher.js'
import { openEntityTable, type EntityTable, type EntityTables, type Row } from '../lib/entity-table.js'
import { deliveryTopics, type QueuedEvent, type WebhookQueue } from '../../core/events/webhook-queue.js'

export const DELIVERY_PROCESSOR = 'webhook-delivery'
/**
 * Deliveries in flight at once per batch; partitions run concurrently, so with 4 partitions up to
 * 128. Measured with bench/webhooks.ts: 64 per batch (256 sockets) delivered ~2,300/s, 32 ~3,500/s,
 * 16 ~2,750/s. It also bounds how fast a partition drains past an endpoint that never answers (32
 * attempts a second, each given one second).
 */
const CONCURRENCY = 32

/**
 * Longest time the broker holds a fetch that finds nothing new. A new message ends the wait at
 * once (the first attempts' topic is never paused); only a retry partition resumed after its held
 * messages were delivered waits for the fetch in flight, so a retry that arrived meanwhile can be
 * late by one wait. That is kept to 1/36 of the shortest retry delay (5 s of 3 minutes, the idle
 * wait of every other consumer) and never under 250 ms, which is what a scaled clock (tests, time
 * scale 3600) gets.
 */
export function deliveryFetchWaitMs(clock: Pick<Clock, 'scaled'>): number {
  return Math.max(250, Math.min(IDLE_FETCH_WAIT_MS, Math.floor(clock.scaled(RETRY_DELAYS_MS[0]) / 36)))
}

/** How long a re-enable waits for the table sink to write the endpoint's events before reading them. */
const REENABLE_SINK_WAIT_MS = 10_000

export interface DeliveryDeps {
  cfg: Config; kafka: Kafka; registry: Registry; log: Logger; clock: Clock; db: Db
  publisher: Publisher; queue: WebhookQueue; mailer?: Mailer
  /** The table sink's watermarks, when the process already reads them (read here otherwise). */
  watermarks?: Watermarks
  /** The process's shared entity tables, when it has them (opened here otherwise). */
  tables?: EntityTables
  /** Where owners manage their webhooks (in failure mails). */
  panelUrl?: string
}

/** undici's names for an attempt that ran out of time (connecting, waiting for headers, reading the body; ours for the body's second). */
const TIMEOUTS = new Set(['ConnectTimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError'])

class BodyOutOfTime extends Error { override name = 'BodyTimeoutError' }

export interface DeliveryStats { attempted: number; delivered: number; failed: number; held: number }

/** An undici agent whose connections only reach allowed addresses, checked after DNS resolution. */
function safeAgent(allowInsecure: boolean): Agent {
  return new Agent({
    connections: 256, keepAliveTimeout: 10_000, headersTimeout: RESPONSE_TIMEOUT_MS, bodyTimeout: RESPONSE_TIMEOUT_MS,
    connect: {
      timeout: RESPONSE_TIMEOUT_MS,
      lookup(hostname, options, callback) {
        dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
          if (err) return callback(err, '', 0)
          const list = addresses as dns.LookupAddress[]
          const bad = list.find((a) => isForbiddenAddress(a.address))
          if (bad && !allowInsecure) return callback(new Error(`${hostname} resolves to a forbidden address (${bad.address})`), '', 0)
          if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list)
          callback(null, list[0].address, list[0].family)
        })
      },
    },
  })
}

export async function startWebhookDelivery(deps: DeliveryDeps) {
  const { cfg, clock } = deps
  const log = deps.log.child({ stream: DELIVERY_PROCESSOR })
  const endpoints: EntityTable = openEntityTable(deps, 'webhooks')
  const users: EntityTable = openEntityTable(deps, 'users')
  await Promise.all([endpoints.start(), users.start()])
  await Promise.all([endpoints.ready(), users.ready()])
  const { watermarks, release: releaseWatermarks } = await useWatermarks(deps)
  const eventsTopic = entityTopic(cfg, 'webhook-events')
  const eventOffsets = createEndOffsets(deps, [eventsTopic])
  const agent = safeAgent(cfg.webhooksAllowInsecure)
  const stats: DeliveryStats = { attempted: 0, delivered: 0, failed: 0, held: 0 }
  /** Events waiting for a retry, per endpoint (this instance owns the endpoint): for the "oldest pending" mail rule. */
  const pending = new Map<number, Map<string, string>>()

  const statusRow = (e: QueuedEvent, status: number, extra: Record<string, unknown>) => ({
    id: e.event_id, webhook_id: e.webhook_id, user_id: e.user_id, event_type: e.event_type, status, retry_counter: e.retry_counter,
    next_retry_date: null, status_code: null, response: '', error_message: '', debug: e.debug, content: e.content, failed_at: null,
    date_created: e.date_created, date_modified: new Date(clock.now()).toISOString(), ...extra,
  })

  async function mail(kind: FailureEmailKind, endpoint: Row, e: QueuedEvent, failureNumber: number, nextAttemptAt: number | null) {
    const to = String(users.get(Number(endpoint.user_id))?.email ?? '')
    if (!deps.mailer || !to) return
    const input = { webhook: { url: String(endpoint.url), event_type: Number(endpoint.event_type) as EventTypeId, version: Number(endpoint.version) }, eventId: e.event_id, failureNumber, panelUrl: deps.panelUrl ?? `${cfg.publicBaseUrl}/api/rest/v4/webhooks/${endpoint.id}/` }
    const m = kind === 'failing' ? webhookFailingMail({ ...input, nextAttemptAt: nextAttemptAt ? new Date(nextAttemptAt).toISOString() : null }) : webhookDisabledMail(input)
    await deps.mailer.send({ to, ...m }).catch((err) => log.warn({ err: (err as Error).message, to: '[redacted]' }, 'failure notice not sent'))
  }

  /** One POST; the outcome as the success rule sees it. */
  async function post(endpoint: Row, e: QueuedEvent) {
    const started = performance.now()
    try {
      // The agent's connect, headers and body timeouts bound the attempt (no timer and signal per request).
      const res = await request(String(endpoint.url), {
        method: 'POST', dispatcher: agent, body: e.content,
        headers: { 'content-type': DELIVERY_CONTENT_TYPE, 'idempotency-key': e.event_id, 'user-agent': 'lds-webhooks/1', ...signatureHeaders(String(endpoint.secret), e.event_id, Date.now(), e.content) },
      })
      // The body gets what is left of the second: a receiver trickling it cannot hold the attempt.
      const cut = setTimeout(() => res.body.destroy(new BodyOutOfTime()), Math.max(0, RESPONSE_TIMEOUT_MS - (performance.now() - started)))
      let body = Buffer.alloc(0)
      try {
        for await (const chunk of res.body) {
          body = Buffer.concat([body, chunk as Buffer])
          if (body.length >= RESPONSE_BODY_LIMIT) { res.body.destroy(); break }
        }
      } finally { clearTimeout(cut) }
      return classifyAttempt({ status: res.statusCode, elapsedMs: performance.now() - started, body: body.subarray(0, RESPONSE_BODY_LIMIT) })
    } catch (err) {
      const e2 = err as Error
      return classifyAttempt({ error: TIMEOUTS.has(e2.name) ? `No response within ${RESPONSE_TIMEOUT_MS} ms.` : e2.message })
    }
  }

  /**
   * Read-modify-write of an endpoint's failure count, one at a time per endpoint: at a short retry
   * delay the next attempt can fail before the previous count's write is acknowledged, and two
   * writes from the same stale row would lose an increment.
   */
  const countChains = new Map<number, Promise<void>>()
  function countFailure(webhookId: number, disable: boolean): Promise<void> {
    const run = async () => {
      const endpoint = endpoints.get(webhookId)
      if (!endpoint) return
      const updated = { ...endpoint, failure_count: Number(endpoint.failure_count ?? 0) + 1, date_modified: new Date(clock.now()).toISOString(), ...(disable ? { enabled: false } : {}) }
      const written = await deps.publisher.write('webhooks', { upsert: updated })
      endpoints.set(webhookId, updated, written.version)
    }
    const chained = (countChains.get(webhookId) ?? Promise.resolve()).then(run, run)
    const settled = chained.catch(() => {})
    countChains.set(webhookId, settled)
    void settled.then(() => { if (countChains.get(webhookId) === settled) countChains.delete(webhookId) })
    return chained
  }

  async function deliver(e: QueuedEvent): Promise<void> {
    const endpoint = endpoints.get(e.webhook_id)
    if (!endpoint) {
      await deps.publisher.upsert('webhook-events', statusRow(e, EVENT_STATUS.FAILED, { error_message: 'The endpoint was deleted.', failed_at: new Date(clock.now()).toISOString() }))
      return
    }
    if (!endpoint.enabled && !e.debug) {
      stats.held++
      await deps.publisher.upsert('webhook-events', statusRow(e, EVENT_STATUS.ENDPOINT_DISABLED, { error_message: 'The endpoint is disabled.', failed_at: new Date(clock.now()).toISOString() }))
      return
    }
    stats.attempted++
    const first = e.first_attempt_at || clock.now()
    log.debug({ event: e.event_id, counter: e.retry_counter, lateMs: clock.now() - e.due_at }, 'delivering')
    const outcome = await post(endpoint, e)
    const mine = pending.get(e.webhook_id) ?? new Map<string, string>()
    if (outcome.ok) {
      stats.delivered++
      mine.delete(e.event_id)
      await deps.publisher.upsert('webhook-events', statusRow(e, EVENT_STATUS.DELIVERED, { status_code: outcome.status_code, response: outcome.response }))
      return
    }
    stats.failed++
    const isOldestPending = ![...mine].some(([id, created]) => id !== e.event_id && created < e.date_created)
    const next = afterFailure({ retryCounter: e.retry_counter, isOldestPending, debug: e.debug }, clock.now(), { scaled: clock.scaled })
    // Retries are due at the schedule's elapsed times from the first attempt (0:03, 0:12, 0:39 …),
    // so the time an attempt and its answer take does not push the later ones back.
    if (next.nextAttemptAt !== null) next.nextAttemptAt = Math.max(clock.now(), first + clock.scaled(elapsedBeforeRetry(next.retryCounter)))
    const retry: QueuedEvent | null = next.nextAttemptAt === null ? null : { ...e, retry_counter: next.retryCounter, due_at: next.nextAttemptAt, first_attempt_at: first }
    const attempt = { status_code: outcome.status_code, response: outcome.response, error_message: outcome.error_message }
    // The "retry enqueued" row takes its version now, before the retry is reminded: a retry due
    // sooner than this path's awaits (a scaled clock, a slow broker) is delivered and its
    // "delivered" row written first, and the older row, versioned after it, hid it for good.
    const enqueued = retry && deps.publisher.upsert('webhook-events', statusRow(e, EVENT_STATUS.ENQUEUED_RETRY, { ...attempt, retry_counter: next.retryCounter, next_retry_date: new Date(retry.due_at).toISOString() }))
    enqueued?.catch(() => {}) // awaited below; not an unhandled rejection meanwhile
    if (retry) {
      // Reminded before anything is awaited: a short delay must not wait on Kafka acknowledgements.
      remind(retry)
      if (next.countsTowardFailures) await countFailure(e.webhook_id, false)
      mine.set(e.event_id, e.date_created)
      pending.set(e.webhook_id, mine)
      await deps.queue.send([retry])
      await enqueued
    } else {
      mine.delete(e.event_id)
      await deps.publisher.upsert('webhook-events', statusRow(e, EVENT_STATUS.FAILED, { ...attempt, retry_counter: next.retryCounter, failed_at: new Date(clock.now()).toISOString() }))
      // The failure is in its topic before the endpoint's disable is in its own: whoever sees the
      // endpoint disabled and re-enables it at once, the re-enable finds this event failed (reenable
      // waits for the table sink to write what the topic holds).
      if (next.disableEndpoint) await deps.publisher.flush()
      if (next.countsTowardFailures) await countFailure(e.webhook_id, next.disableEndpoint)
    }
    if (next.email) await mail(next.email, endpoint, e, next.failureNumber, next.nextAttemptAt)
    if (next.disableEndpoint) log.info({ webhook: e.webhook_id }, 'webhook endpoint disabled after its eighth failure')
  }

  /** Re-enabled: the endpoint's events that failed or were held in the last two days go again. */
  async function reenable(e: QueuedEvent): Promise<void> {
    // The events are read from ClickHouse: first let the table sink write what their topic holds
    // now (the failure that disabled the endpoint, published just before the endpoint was).
    const ends = (await eventOffsets.fetch()).get(eventsTopic)!
    if (!await sinkApplied(watermarks, eventsTopic, ends, Date.now() + REENABLE_SINK_WAIT_MS)) {
      log.warn({ webhook: e.webhook_id, waitedMs: REENABLE_SINK_WAIT_MS }, 'the table sink is behind on webhook events; re-enabling with what ClickHouse holds')
    }
    const rows = await deps.db.query<Record<string, unknown>>(sql`
      SELECT * EXCEPT (_version, _deleted) FROM ${ident(deps.db.database)}.${ident('webhook_events')} FINAL
      WHERE webhook_id = ${e.webhook_id} AND status IN (${EVENT_STATUS.FAILED}, ${EVENT_STATUS.ENDPOINT_DISABLED}) AND NOT debug`)
    const now = clock.now()
    const plan = onReenable(rows.map((r) => ({ id: String(r.id), status: Number(r.status) as never, debug: false, failedAt: Date.parse(String(r.failed_at ?? r.date_modified)) })), now, { scaled: clock.scaled })
    const byId = new Map(rows.map((r) => [String(r.id), r]))
    const again = plan.resend.map((id) => byId.get(id)!).map((r): QueuedEvent => ({
      kind: 'event', event_id: String(r.id), webhook_id: e.webhook_id, user_id: Number(r.user_id), event_type: Number(r.event_type), content: String(r.content),
      debug: false, retry_counter: 0, due_at: now, date_created: new Date(Date.parse(String(r.date_created))).toISOString(),
    }))
    if (again.length) await deps.queue.send(again)
    for (const id of plan.expire) await deps.publisher.upsert('webhook-events', { ...byId.get(id)!, status: EVENT_STATUS.FAILED, date_modified: new Date(now).toISOString() })
    log.info({ webhook: e.webhook_id, resent: again.length, expired: plan.expire.length }, 'webhook endpoint re-enabled')
  }

  /** Runs `fn` when the clock reaches `time` (a scaled clock's timer, a manual clock's advance); returns its cancel. */
  function at(time: number, fn: () => void): () => void {
    const abort = new AbortController()
    clock.until(time, abort.signal).then(fn, () => { /* cancelled */ })
    return () => abort.abort()
  }

  /**
   * Each attempt runs once per process, whichever asks first: the local reminder set when the retry
   * was scheduled (precise to the millisecond) or the retry topic's copy of it (durable). The copy
   * is committed only after the attempt, so a crash in between repeats it after a restart.
   */
  const attempts = new Map<string, Promise<void>>()
  const reminders = new Map<string, () => void>()
  const attemptKey = (e: QueuedEvent) => `${e.event_id}:${e.retry_counter}:${e.kind}`
  function attemptOnce(e: QueuedEvent): Promise<void> {
    const k = attemptKey(e)
    const cancel = reminders.get(k)
    if (cancel) { cancel(); reminders.delete(k) }
    let p = attempts.get(k)
    if (!p) { p = e.kind === 'reenable' ? reenable(e) : deliver(e); attempts.set(k, p) }
    return p
  }
  /** The local reminder of a scheduled retry (this instance owns the endpoint's partitions). */
  function remind(e: QueuedEvent): void {
    const k = attemptKey(e)
    reminders.set(k, at(e.due_at, () => {
      reminders.delete(k)
      attemptOnce(e).then(() => deps.publisher.flush()).catch((err) => log.warn({ err: (err as Error).message }, 'a reminded attempt failed; its retry-topic copy will run it'))
    }))
  }

  /** A fetched message and what it asks for (null: unreadable, skipped). */
  interface Held { e: QueuedEvent | null; offset: string }
  /**
   * Partitions whose head is not due yet: their fetched messages are held here (the partition
   * paused, nothing committed) and delivered by a timer the moment each falls due, then the
   * partition resumes after them. A rebalance drops what is held: the new owner reads it again.
   */
  const waiting = new Map<string, { topic: string; partition: number; held: Held[]; resume: () => void; cancel?: () => void }>()
  let generation = 0

  const run = async (list: Held[]) => {
    await pMap(list.filter((h) => h.e), (h) => attemptOnce(h.e!), { concurrency: CONCURRENCY })
    for (const h of list) if (h.e) attempts.delete(attemptKey(h.e))
  }
  const commit = async (topic: string, partition: number, offset: string) => {
    await consumer.commitOffsets([{ topic, partition, offset: (BigInt(offset) + 1n).toString() }])
  }

  /** Delivers what is due of a waiting partition; waits for the next; resumes the partition when all is done. */
  async function drain(key: string, gen: number): Promise<void> {
    const w = waiting.get(key)
    if (!w || gen !== generation) return
    const now = clock.now()
    const dueCount = w.held.findIndex((h) => h.e !== null && h.e.due_at > now)
    const due = dueCount === -1 ? w.held : w.held.slice(0, dueCount)
    w.held = w.held.slice(due.length)
    if (due.length) {
      await run(due)
      await deps.publisher.flush()
      if (gen !== generation) return
      await commit(w.topic, w.partition, due[due.length - 1].offset)
    }
    if (w.held.length === 0) {
      waiting.delete(key)
      consumer.seek({ topic: w.topic, partition: w.partition, offset: (BigInt(due[due.length - 1].offset) + 1n).toString() })
      w.resume()
      return
    }
    w.cancel = at(w.held[0].e!.due_at, () => drainLogged(key, gen))
  }
  const drainLogged = (key: string, gen: number) => { drain(key, gen).catch((err) => log.error({ err: (err as Error).message }, 'delivery failed; the partition is read again')) }

  const consumer: Consumer = stoppableConsumer(deps.kafka, {
    groupId: groupId(cfg, DELIVERY_PROCESSOR), partitionAssigners: [CoPartitionedAssigner], maxWaitTimeInMs: deliveryFetchWaitMs(clock),
    sessionTimeout: 30_000, heartbeatInterval: 3_000, maxBytesPerPartition: 4 * 1024 * 1024,
  })
  consumer.on(consumer.events.GROUP_JOIN, () => {
    // Partitions may have moved: what this process held or was reminded of is left to their owner.
    generation++
    for (const w of waiting.values()) w.cancel?.()
    waiting.clear()
    for (const cancel of reminders.values()) cancel()
    reminders.clear()
    attempts.clear()
  })
  await consumer.connect()
  await subscribeAll(consumer, deliveryTopics(cfg))
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: 8,
    eachBatch: async ({ batch, resolveOffset, heartbeat, pause, isStale, commitOffsetsIfNecessary }: EachBatchPayload) => {
      const held: Held[] = []
      for (const m of batch.messages) {
        try { held.push({ e: await deps.queue.codec.decode(m.value), offset: m.offset }) } catch (err) {
          log.warn({ topic: batch.topic, offset: m.offset, err: (err as Error).message }, 'unreadable delivery message skipped')
          held.push({ e: null, offset: m.offset })
        }
      }
      const now = clock.now()
      const notDue = held.findIndex((h) => h.e !== null && h.e.due_at > now)
      const due = notDue === -1 ? held : held.slice(0, notDue)
      if (due.length) {
        await run(due)
        await deps.publisher.flush()
        if (isStale()) return
        resolveOffset(due[due.length - 1].offset)
        // what a stop lets this batch deliver is committed (commitBatch), not delivered again after a restart
        await commitBatch(commitOffsetsIfNecessary, batch.topic, batch.partition, (BigInt(due[due.length - 1].offset) + 1n).toString())
      }
      if (notDue !== -1 && !isStale()) {
        // Hold the rest and deliver each at its due time, from memory: no polling, no refetch.
        const key = `${batch.topic}/${batch.partition}`
        waiting.set(key, { topic: batch.topic, partition: batch.partition, held: held.slice(notDue), resume: pause() })
        const gen = generation
        waiting.get(key)!.cancel = at(held[notDue].e!.due_at, () => drainLogged(key, gen))
      }
      await heartbeat()
    },
  })
  log.info('webhook delivery started')
  return {
    stats,
    consumer,
    async stop() {
      generation++
      for (const w of waiting.values()) w.cancel?.()
      for (const cancel of reminders.values()) cancel()
      await consumer.disconnect()
      await Promise.all([endpoints.stop(), users.stop(), eventOffsets.stop(), releaseWatermarks()])
      await agent.close()
      log.info('webhook delivery stopped')
    },
  }
}
