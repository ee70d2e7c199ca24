/**
 * Runs a stream processor definition on KafkaJS:
 *   consume → decode → validate → transform (pure) → sink (one write per batch)
 *   → commit the offset after the last message of the batch → heartbeat.
 * An event that cannot be decoded or is invalid goes to the dead-letter topic with the reason and
 * its source coordinates, and the batch goes on. A sink write that fails because a dependency is
 * unreachable is retried with backoff for as long as it takes (the group membership is kept alive
 * meanwhile, so lag grows and nothing is lost); any other failure is retried a few times and then
 * ends the batch uncommitted, to be consumed again.
 * Processing is at-least-once; sinks make it exactly-once in state (versioned upserts).
 * Several instances of one definition share its partitions (one consumer group); partition p of
 * every topic goes to the same instance (co-partitioning), so a processor can rely on seeing every
 * event about one key in one place.
 */
import type { Kafka, Consumer, Producer, KafkaMessage } from 'kafkajs'
import pRetry from 'p-retry'
import type { Logger } from '../core/logger.js'
import { streamEvents, consumerLag, sinkRetries } from '../core/metrics.js'
import { ensureTopics, plainTopic, idempotentProducer, subscribeAll } from '../core/kafka.js'
import { CoPartitionedAssigner } from '../core/kafka-assigner.js'
import { DependencyError } from '../core/dependency-error.js'

export interface Incoming { topic: string; partition: number; message: KafkaMessage }

/** What a batch committed: the next offset to read of one topic partition. */
export interface Committed { topic: string; partition: number; offset: string }

export interface StreamDef<E, Out> {
  name: string
  groupId: string
  topics: string[]
  /** Decode and validate one message; throw to dead-letter it with the error message as reason. */
  decode(m: Incoming): Promise<E>
  /** Pure: events of one batch → what the sink writes. */
  transform(events: { event: E; source: Incoming }[]): Out
  sink(out: Out): Promise<void>
  /** Called after a batch's offsets are committed (watermarks, progress). */
  afterCommit?(c: Committed): Promise<void> | void
  dlqTopic: string
  fromBeginning?: boolean
  /** Bytes fetched per partition per batch (bounds the size of one sink write). */
  fetchBytes?: number
}

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
  const admin = deps.kafka.admin()
  await admin.connect()
  try { await ensureTopics(admin, [plainTopic(def.dlqTopic, 1, 30 * 24 * 3600_000)]) } finally { await admin.disconnect() }

  const dlq: Producer = idempotentProducer(deps.kafka)
  await dlq.connect()
  const consumer = deps.kafka.consumer({
    groupId: def.groupId, sessionTimeout: 30_000, heartbeatInterval: 3_000, rebalanceTimeout: 60_000,
    partitionAssigners: [CoPartitionedAssigner],
    maxBytesPerPartition: def.fetchBytes ?? 16 * 1024 * 1024, maxBytes: 4 * (def.fetchBytes ?? 16 * 1024 * 1024), maxWaitTimeInMs: 250,
  })
  await consumer.connect()
  await subscribeAll(consumer, def.topics, def.fromBeginning ?? true)

  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: 1,
    eachBatch: async ({ batch, heartbeat, resolveOffset, isStale }) => {
      if (batch.messages.length === 0) return
      // A stopping consumer finishes this batch (and commits it); a stale one (its partition moved
      // to another instance in a rebalance) must not commit, and leaves it to the new owner.
      const good: { event: E; source: Incoming }[] = []
      const dead: { source: Incoming; reason: string }[] = []
      for (const message of batch.messages) {
        if (isStale()) return
        const source = { topic: batch.topic, partition: batch.partition, message }
        try { good.push({ event: await def.decode(source), source }) } catch (err) { dead.push({ source, reason: (err as Error).message }) }
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
      if (good.length) {
        const out = def.transform(good)
        let otherFailures = 0
        await pRetry(() => def.sink(out), {
          retries: Number.MAX_SAFE_INTEGER, minTimeout: 200, factor: 2, maxTimeout: MAX_BACKOFF_MS,
          shouldRetry: ({ error }) => error instanceof DependencyError || ++otherFailures <= OTHER_FAILURE_RETRIES,
          onFailedAttempt: async ({ error, attemptNumber }) => {
            sinkRetries.inc({ stream: def.name })
            const level = error instanceof DependencyError && attemptNumber > 1 ? 'debug' : 'warn'
            log[level]({ err: error.message, attemptNumber }, 'sink write failed; retrying')
            await heartbeat().catch(() => {})
          },
        })
        streamEvents.inc({ stream: def.name, topic: batch.topic, outcome: 'applied' }, good.length)
      }
      if (isStale()) return
      const last = batch.lastOffset()
      resolveOffset(last)
      const next = (BigInt(last) + 1n).toString()
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: next }])
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
