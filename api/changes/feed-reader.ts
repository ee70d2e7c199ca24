/**
 * Reads the public entity topics from a cursor for the change feed: a consumer of its own (a
 * one-off group that never commits, so it holds no offsets and leaves nothing behind), positioned
 * at the cursor's offsets, handing changes to the caller in messages of at most `max` changes,
 * each with the cursor that resumes right after it. One key's changes come in the order they were
 * made: a key lives in one partition, and a partition is read in order.
 */
import { randomUUID } from 'node:crypto'
import type { Kafka } from 'kafkajs'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import { stoppableConsumer, subscribeAll } from '../../core/kafka.js'
import { createDecoder, entityTopic, validateEntityEvent } from '../../schemas/events/index.js'
import { advance, type Cursor } from './cursor.js'

/** Most bytes one client's consumer fetches at once (a partition's batch may still exceed it when one message does). */
const FETCH_BYTES = 512 * 1024

/** How often a consumer waiting on a slow client tells the group it is alive. */
const HEARTBEAT_MS = 3_000

export interface Change { resource: string; op: 'upsert' | 'delete'; key: string; version: number; entity: Record<string, unknown> | null }

export interface ChangeMessage { changes: Change[]; cursor: Cursor }

export interface FeedReaderDeps { kafka: Kafka; registry: Registry; log: Logger; topicPrefix: string }

export interface ChangeReader {
  /** Resolves once the consumer has left its group. */
  stop(): Promise<void>
}

/**
 * Starts reading `resources` after `from`. `deliver` gets each message in order and must resolve
 * before the next one comes (back-pressure); it answers false to end the reading.
 */
export async function readChanges(deps: FeedReaderDeps, resources: readonly string[], from: Cursor, max: number, deliver: (m: ChangeMessage) => Promise<boolean>): Promise<ChangeReader> {
  const resourceOf = new Map(resources.map((r) => [entityTopic({ topicPrefix: deps.topicPrefix }, r), r]))
  const decode = createDecoder(deps.registry)
  const consumer = stoppableConsumer(deps.kafka, {
    groupId: `${deps.topicPrefix}changes-${randomUUID()}`, maxWaitTimeInMs: 250, allowAutoTopicCreation: false,
    // One consumer per client: kafkajs's fetch sizes (10 MB a fetch) held a fetched-ahead backlog per
    // client, and 100 clients reading from the beginning took an API process past a 4 GB heap.
    maxBytes: FETCH_BYTES, maxBytesPerPartition: FETCH_BYTES,
  })
  let cursor = from
  let open = true
  let stopping: Promise<void> | null = null
  const stop = () => { open = false; stopping ??= consumer.disconnect(); return stopping }

  await consumer.connect()
  await subscribeAll(consumer, [...resourceOf.keys()], true)
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, isRunning, isStale, heartbeat, resolveOffset }) => {
      const resource = resourceOf.get(batch.topic)!
      const partition = String(batch.partition)
      let pending: Change[] = []
      let last: string | null = null
      const flush = async () => {
        if (!pending.length || last === null) return
        cursor = advance(cursor, { [resource]: { [partition]: last } })
        const message = { changes: pending, cursor }
        pending = []
        // A slow client holds the batch: keep the group membership alive meanwhile.
        const beat = setInterval(() => { heartbeat().catch(() => undefined) }, HEARTBEAT_MS)
        try {
          if (!(await deliver(message))) void stop()
        } finally { clearInterval(beat) }
      }
      const next = BigInt(cursor[resource]?.[partition] ?? '0')
      for (const m of batch.messages) {
        if (!open || !isRunning() || isStale()) return
        if (BigInt(m.offset) < next) { resolveOffset(m.offset); continue } // before the cursor (a seek not yet applied)
        try {
          const e = validateEntityEvent(await decode(m.value))
          pending.push({ resource, op: e.op, key: e.key, version: e.version, entity: e.entity })
        } catch (err) {
          // Processors send such events to their dead-letter topics; the feed skips them.
          deps.log.warn({ err, topic: batch.topic, partition: batch.partition, offset: m.offset }, 'change feed: undecodable event skipped')
        }
        last = m.offset
        // Nothing is committed, but the fetch position only moves past resolved offsets.
        resolveOffset(m.offset)
        if (pending.length >= max) await flush()
      }
      await flush()
      // Skipped events still move the cursor, so a message of only undecodable events is not re-read.
      if (last !== null && BigInt(last) >= BigInt(cursor[resource]?.[partition] ?? '0')) cursor = advance(cursor, { [resource]: { [partition]: last } })
    },
  })
  // The group commits nothing: after any (re)join, each partition goes back to where the cursor is,
  // not to the beginning.
  const seekToCursor = () => {
    for (const [topic, resource] of resourceOf) {
      for (const [partition, offset] of Object.entries(cursor[resource] ?? {})) consumer.seek({ topic, partition: Number(partition), offset })
    }
  }
  consumer.on(consumer.events.GROUP_JOIN, () => { if (open) seekToCursor() })
  seekToCursor()
  return { stop }
}
