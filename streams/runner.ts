/**
 * Runs a stream processor definition on KafkaJS:
 *   consume → decode → validate → transform (pure) → sink (one write per batch)
 *   → commit the offset after the last message of the batch → heartbeat.
 * An event that cannot be decoded or is invalid goes to the dead-letter topic with the reason and
 * its source coordinates, and the batch goes on. A sink write that fails because a dependency is
 * unreachable is retried with backoff for as long as it takes (the group membership is kept alive
 * meanwhile, so lag grows and nothing is lost); any other failure is retried a few times and then
 * ends the batch uncommitted, to be consumed again. While the sink runs the member heartbeats
 * every heartbeat interval, however long the write takes (waits, outside calls), so it is not
 * evicted; once the batch turns stale (rebalance, eviction, stop) retries end and waits made with
 * `keepAlive` give it up uncommitted.
 * Processing is at-least-once; sinks make it exactly-once in state (versioned upserts).
 * Several instances of one definition share its partitions (one consumer group); partition p of
 * every topic goes to the same instance (co-partitioning), so a processor can rely on seeing every
 * event about one key in one place.
 */
import type { Kafka, Consumer, Producer, KafkaMessage, RecordsInPlace } from 'kafkajs'
import pRetry from 'p-retry'
import type { Logger } from '../core/logger.js'
import { streamEvents, consumerLag, sinkRetries } from '../core/metrics.js'
import { ensureTopics, plainTopic, idempotentProducer, subscribeAll, stoppableConsumer, commitBatch, IDLE_FETCH_WAIT_MS } from '../core/kafka.js'
import { CoPartitionedAssigner } from '../core/kafka-assigner.js'
import { DependencyError } from '../core/dependency-error.js'

export interface Incoming { topic: string; partition: number; message: KafkaMessage }

/** What a batch committed: the next offset to read of one topic partition. */
export interface Committed { topic: string; partition: number; offset: string }

/**
 * What a sink knows of the batch it writes. The runner heartbeats on its own while the sink runs
 * (every heartbeat interval), so a slow write, wait or outside call does not get the member evicted
 * from its group. A sink that waits (for another processor, say) should wait in slices with
 * `keepAlive`, which gives the batch up (throws BatchGivenUp) once it is stale: a rebalance took or
 * is taking its partition, or the consumer is stopping. A given-up batch is not committed: it is
 * consumed again, by this member or the partition's new owner.
 */
export interface BatchContext {
  /** Heartbeats now (KafkaJS sends one at most every heartbeat interval); never throws. */
  heartbeat(): Promise<void>
  /** True once the batch should be given up: partition moved or sought, group rebalancing or member evicted, consumer stopping. */
  isStale(): boolean
}

/** Thrown by a sink (through keepAlive) to give its batch up uncommitted. */
export class BatchGivenUp extends Error {
  constructor(what: string) { super(`batch given up (${what})`); this.name = 'BatchGivenUp' }
}

/** Longest single wait inside keepAlive: well under any session timeout. */
const KEEP_ALIVE_SLICE_MS = 2_000

/**
 * Waits up to `timeoutMs` for `until(sliceMs)` (which resolves true once done, false after sliceMs)
 * in slices of at most two seconds, heartbeating between them; throws BatchGivenUp once the batch
 * is stale. Resolves false when `timeoutMs` passed first.
 */
export async function keepAlive(batch: BatchContext | undefined, timeoutMs: number, until: (sliceMs: number) => Promise<boolean>, what = 'waiting'): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (batch?.isStale()) throw new BatchGivenUp(what)
    const left = deadline - Date.now()
    if (await until(Math.max(0, Math.min(KEEP_ALIVE_SLICE_MS, left)))) return true
    if (deadline - Date.now() <= 0) return false
    await batch?.heartbeat()
  }
}

export interface StreamDef<E, Out> {
  name: string
  groupId: string
  topics: string[]
  /**
   * Decode and validate one message; throw (or reject) to dead-letter it with the error message as
   * reason. A decoder that needs nothing asynchronous may answer at once (no promise per message).
   */
  decode(m: Incoming): E | Promise<E>
  /** Pure: events of one batch → what the sink writes. */
  transform(events: { event: E; source: Incoming }[]): Out
  /** Writes a batch; `batch` lets a sink that waits keep the member alive and give a stale batch up (see BatchContext). */
  sink(out: Out, batch?: BatchContext): Promise<void>
  /** Called after a batch's offsets are committed (watermarks, progress). */
  afterCommit?(c: Committed): Promise<void> | void
  dlqTopic: string
  fromBeginning?: boolean
  /** Bytes fetched per partition per batch (bounds the size of one sink write). */
  fetchBytes?: number
  /** Consumer group timeouts (tests shorten them); defaults: session 30 s, heartbeat 3 s, rebalance 60 s. */
  timeouts?: ConsumerTimeouts
  /**
   * Batches of different partitions processed at the same time (default 1). Only for a sink whose
   * batches are independent of each other (one partition's batches still run one after another,
   * in offset order, and each commits only its own partition).
   */
  concurrency?: number
  /**
   * Messages per sink write (default: the whole batch). A larger batch is decoded and written in
   * chunks of this size, the next chunk decoded while the previous one is written (one write in
   * flight, in order); the batch is committed once every chunk is written. Only for a sink whose
   * writes are idempotent and independent (versioned upserts).
   */
  chunkMessages?: number
  /**
   * Opt-in for a sink whose cost per message counts (the table sink): its consumer reads records in
   * place (kafkajs `recordsInPlace`, patches/kafkajs+2.2.4.patch), with no message object per record,
   * and a batch read so goes through a collector instead of `decode` and `transform`. A batch that
   * kafkajs could not keep in place (control records, aborted transactions) goes through `decode`
   * and `transform` as in any other stream.
   */
  inPlace?: { collector(topic: string, partition: number): RecordCollector<Out> }
}

/**
 * Decodes the records of one chunk where they lie and gathers them: what `decode` and then
 * `transform` do, without an object per message.
 */
export interface RecordCollector<Out> {
  /**
   * Decodes record i and keeps what it makes; throws (or rejects) to dead-letter it, the reason its
   * message, having kept nothing of it. Called in order, each call awaited before the next.
   */
  add(records: RecordsInPlace, i: number): void | Promise<void>
  /** Records kept so far. */
  readonly size: number
  /** What the sink writes: the records kept, as `transform` makes it from their events. */
  done(): Out
}

export interface ConsumerTimeouts { sessionTimeout?: number; heartbeatInterval?: number; rebalanceTimeout?: number }

export interface RunningStream {
  /** Finishes and commits the batch in flight, then leaves the group. */
  stop(): Promise<void>
  readonly consumer: Consumer
}

/** Longest pause between two attempts at a sink write while a dependency is down. */
const MAX_BACKOFF_MS = 5_000
/** Attempts at a write that fails for another reason before the batch is given up (and consumed again). */
const OTHER_FAILURE_RETRIES = 5

export async function startStream<E, Out>(def: StreamDef<E, Out>, deps: { kafka: Kafka; log: Logger }): Promise<RunningStream> {
  const log = deps.log.child({ stream: def.name })
  const dlq: Producer = idempotentProducer(deps.kafka)
  const consumer = stoppableConsumer(deps.kafka, {
    groupId: def.groupId, sessionTimeout: 30_000, heartbeatInterval: 3_000, rebalanceTimeout: 60_000, ...def.timeouts,
    partitionAssigners: [CoPartitionedAssigner],
    maxBytesPerPartition: def.fetchBytes ?? 16 * 1024 * 1024, maxBytes: 4 * (def.fetchBytes ?? 16 * 1024 * 1024),
    // New events end a fetch at once; the wait only paces an idle consumer, whose every fetch names all its partitions.
    maxWaitTimeInMs: IDLE_FETCH_WAIT_MS,
    ...(def.inPlace ? { recordsInPlace: true } : {}),
  })
  // The dead-letter topic, its producer and the consumer's connection are independent: made at
  // the same time (one after another, they were most of a sink's half-second start).
  const ensureDlq = async () => {
    const admin = deps.kafka.admin()
    await admin.connect()
    try { await ensureTopics(admin, [plainTopic(def.dlqTopic, 1, 30 * 24 * 3600_000)]) } finally { await admin.disconnect() }
  }
  const started = await Promise.allSettled([ensureDlq(), dlq.connect(), consumer.connect()])
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed) {
    await Promise.allSettled([dlq.disconnect(), consumer.disconnect()])
    throw failed.reason
  }
  await subscribeAll(consumer, def.topics, def.fromBeginning ?? true)

  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: Math.max(1, def.concurrency ?? 1),
    eachBatch: async ({ batch, heartbeat, resolveOffset, commitOffsetsIfNecessary, isStale, isRunning }) => {
      // Records in place only for a stream that asked for them (def.inPlace); batch.messages is then made only if read.
      const records = def.inPlace ? batch.records : undefined
      const count = records ? records.length : batch.messages.length
      if (count === 0) return
      // A stopping consumer finishes a batch it is writing (and commits it); one still waiting
      // (keepAlive) or retrying a failed write is given up. A stale one (its partition moved to
      // another instance in a rebalance) must not commit, and leaves it to the new owner.
      // While the sink runs, the member heartbeats on its own. A heartbeat refused because the
      // group is rebalancing (or no longer knows this member) makes the batch stale: the sink's
      // waits give it up, and the error is thrown once the sink is done, so KafkaJS joins again.
      let lost: Error | undefined
      const beat = async () => {
        if (lost) return
        try { await heartbeat() } catch (err) {
          const e = err as Error & { type?: string }
          if (['REBALANCE_IN_PROGRESS', 'NOT_COORDINATOR_FOR_GROUP', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID'].includes(e.type ?? '')) {
            lost = e
            log.info({ err: e.message, topic: batch.topic, partition: batch.partition }, 'group rebalancing while a batch is written; the batch is given up if it waits')
          } else log.debug({ err: e.message }, 'heartbeat failed')
        }
      }
      const ctx: BatchContext = { heartbeat: beat, isStale: () => !!lost || isStale() || !isRunning() }
      /** Writes one chunk, retrying; resolves false when the batch was given up (stale). */
      const write = async (out: Out, n: number): Promise<boolean> => {
        let otherFailures = 0
        try {
          await pRetry(() => def.sink(out, ctx), {
            retries: Number.MAX_SAFE_INTEGER, minTimeout: 200, factor: 2, maxTimeout: MAX_BACKOFF_MS,
            shouldRetry: ({ error }) => !(error instanceof BatchGivenUp) && !ctx.isStale() && (error instanceof DependencyError || ++otherFailures <= OTHER_FAILURE_RETRIES),
            onFailedAttempt: async ({ error, attemptNumber }) => {
              if (error instanceof BatchGivenUp) return
              sinkRetries.inc({ stream: def.name })
              const level = error instanceof DependencyError && attemptNumber > 1 ? 'debug' : 'warn'
              log[level]({ err: error.message, attemptNumber }, 'sink write failed; retrying')
              await beat()
            },
          })
        } catch (err) {
          // Given up (or failed) while stale: not committed, consumed again by whoever owns the partition.
          if (err instanceof BatchGivenUp || ctx.isStale()) {
            log.info({ topic: batch.topic, partition: batch.partition, reason: (err as Error).message }, 'stale batch given up uncommitted')
            return false
          }
          throw err
        }
        // Written: committed (once every chunk is) if the group still lets this member (else the commit's error rejoins).
        streamEvents.inc({ stream: def.name, topic: batch.topic, outcome: 'applied' }, n)
        return true
      }
      const chunk = Math.max(1, def.chunkMessages ?? count)
      // The write of the previous chunk, in flight while the next one is decoded.
      let pending: Promise<boolean> | undefined
      let ticker: NodeJS.Timeout | undefined
      try {
        for (let from = 0; from < count; from += chunk) {
          const good: { event: E; source: Incoming }[] = []
          const dead: { source: Incoming; reason: string }[] = []
          const to = Math.min(count, from + chunk)
          const collector = records && def.inPlace!.collector(batch.topic, batch.partition)
          const sourceOf = (i: number): Incoming => ({ topic: batch.topic, partition: batch.partition, message: collector ? records!.message(i) : batch.messages[i] })
          /** One record: kept by the in-place collector (no message object), else decoded into `good`; a promise only when it must wait. */
          const take = (i: number): void | Promise<void> => {
            if (collector) return collector.add(records!, i)
            const source = sourceOf(i)
            const decoded = def.decode(source)
            if (!(decoded instanceof Promise)) { good.push({ event: decoded, source }); return }
            return decoded.then((event) => { good.push({ event, source }) })
          }
          for (let i = from; i < to; i++) {
            // Asked every 256 messages (kafkajs builds a string key per call: 3 % of the table
            // sink's time when asked per message); the commit below asks once more.
            if ((i - from) % 256 === 0 && isStale()) { await pending?.catch(() => {}); return }
            // Lets the write in flight move its bytes meanwhile.
            if (pending && (i - from) % 2048 === 2047) await new Promise((r) => setImmediate(r))
            try {
              const taken = take(i)
              if (taken) await taken
            } catch (err) { dead.push({ source: sourceOf(i), reason: (err as Error).message }) }
          }
          if (dead.length) {
            await dlq.send({
              topic: def.dlqTopic, acks: -1,
              messages: dead.map(({ source, reason }) => ({
                key: source.message.key,
                value: JSON.stringify({
                  reason, stream: def.name, topic: source.topic, partition: source.partition, offset: source.message.offset,
                  key: source.message.key?.toString('utf8') ?? null, value_base64: source.message.value?.toString('base64') ?? null,
                  dead_lettered_at: new Date().toISOString(),
                }),
                headers: { 'lds-reason': reason.slice(0, 500), 'lds-source': `${source.topic}/${source.partition}/${source.message.offset}` },
              })),
            })
            for (const d of dead) log.warn({ reason: d.reason, topic: d.source.topic, offset: d.source.message.offset }, 'event dead-lettered')
            streamEvents.inc({ stream: def.name, topic: batch.topic, outcome: 'dead_lettered' }, dead.length)
          }
          const n = collector ? collector.size : good.length
          if (n === 0) continue
          const out = collector ? collector.done() : def.transform(good)
          if (pending && !(await pending)) { if (lost) throw lost; return }
          ticker ??= setInterval(() => { void beat() }, def.timeouts?.heartbeatInterval ?? 3_000)
          pending = write(out, n)
          // Awaited before the next write or the commit; a failure meanwhile is not unhandled.
          pending.catch(() => {})
        }
        if (pending && !(await pending)) { if (lost) throw lost; return }
      } catch (err) {
        // A failure while the previous chunk is written (the dead-letter send) leaves with no write behind.
        await pending?.catch(() => {})
        throw err
      } finally {
        if (ticker) clearInterval(ticker)
      }
      if (isStale()) return
      const last = batch.lastOffset()
      resolveOffset(last)
      const next = (BigInt(last) + 1n).toString()
      await commitBatch(commitOffsetsIfNecessary, batch.topic, batch.partition, next)
      consumerLag.set({ group: def.groupId, topic: batch.topic, partition: String(batch.partition) }, Math.max(0, Number(batch.highWatermark) - Number(last) - 1))
      await def.afterCommit?.({ topic: batch.topic, partition: batch.partition, offset: next })
      await heartbeat()
    },
  })
  log.info({ topics: def.topics.length }, 'stream started')
  return {
    consumer,
    async stop() {
      // disconnect() stops fetching and waits for the batch in flight to finish.
      await consumer.disconnect()
      await dlq.disconnect()
      log.info('stream stopped')
    },
  }
}
