/**
 * Runs a stream processor definition on KafkaJS:
 *   consume → decode → validate → transform (pure) → sink (one write per batch)
 *   → commit the offset after the last message of the batch → heartbeat.
 * An event that cannot be decoded or is invalid goes to the dead-letter topic with the
 * reason and its source coordinates, and the batch goes on. A failed sink write is retried
 * with backoff; if it still fails nothing is committed and the batch is consumed again.
 * Processing is at-least-once; sinks make it exactly-once in state (versioned upserts).
 */
import type { Kafka, Consumer, Producer, KafkaMessage } from 'kafkajs'
import pRetry from 'p-retry'
import type { Logger } from '../core/logger.js'
import { streamEvents, consumerLag } from '../core/metrics.js'
import { ensureTopics, plainTopic, idempotentProducer } from '../core/kafka.js'

export interface Incoming { topic: string; partition: number; message: KafkaMessage }

export interface StreamDef<E, Out> {
  name: string
  groupId: string
  topics: string[]
  /** Decode and validate one message; throw to dead-letter it with the error message as reason. */
  decode(m: Incoming): Promise<E>
  /** Pure: events of one batch → what the sink writes. */
  transform(events: { event: E; source: Incoming }[]): Out
  sink(out: Out): Promise<void>
  dlqTopic: string
  fromBeginning?: boolean
  /** Bytes fetched per partition per batch (bounds the size of one sink write). */
  fetchBytes?: number
}

export interface RunningStream { stop(): Promise<void>; readonly consumer: Consumer }

export async function startStream<E, Out>(def: StreamDef<E, Out>, deps: { kafka: Kafka; log: Logger }): Promise<RunningStream> {
  const log = deps.log.child({ stream: def.name })
  const admin = deps.kafka.admin()
  await admin.connect()
  try { await ensureTopics(admin, [plainTopic(def.dlqTopic, 1, 30 * 24 * 3600_000)]) } finally { await admin.disconnect() }

  const dlq: Producer = idempotentProducer(deps.kafka)
  await dlq.connect()
  const consumer = deps.kafka.consumer({
    groupId: def.groupId, sessionTimeout: 30_000, heartbeatInterval: 3_000,
    maxBytesPerPartition: def.fetchBytes ?? 16 * 1024 * 1024, maxBytes: 4 * (def.fetchBytes ?? 16 * 1024 * 1024), maxWaitTimeInMs: 250,
  })
  await consumer.connect()
  for (const topic of def.topics) await consumer.subscribe({ topic, fromBeginning: def.fromBeginning ?? true })

  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: 1,
    eachBatch: async ({ batch, heartbeat, resolveOffset, isRunning, isStale }) => {
      if (batch.messages.length === 0) return
      const good: { event: E; source: Incoming }[] = []
      const dead: { source: Incoming; reason: string }[] = []
      for (const message of batch.messages) {
        if (!isRunning() || isStale()) return
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
        await pRetry(() => def.sink(out), {
          retries: 5, minTimeout: 200, factor: 2,
          onFailedAttempt: ({ error, attemptNumber }) => log.warn({ err: error.message, attemptNumber }, 'sink write failed; retrying'),
        })
        streamEvents.inc({ stream: def.name, topic: batch.topic, outcome: 'applied' }, good.length)
      }
      const last = batch.lastOffset()
      resolveOffset(last)
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() }])
      consumerLag.set({ group: def.groupId, topic: batch.topic, partition: String(batch.partition) }, Math.max(0, Number(batch.highWatermark) - Number(last) - 1))
      await heartbeat()
    },
  })
  log.info({ topics: def.topics }, 'stream started')
  return {
    consumer,
    async stop() {
      await consumer.disconnect()
      await dlq.disconnect()
    },
  }
}
