/**
 * Moves the entity topics of internal resources (users, per-user rows) from the name they had while
 * public and internal shared `<prefix>entity.` to `<prefix>internal.entity.` (schemas/events/names.ts).
 * Each old topic is read from its beginning to its end and every message produced again, in order
 * and with its key, value and headers, to the new topic; the old topic is deleted only once the copy
 * is acknowledged. A move interrupted before that is made again from the start on the next
 * `prepare`: the events it copied twice are versions the sinks and the read model already hold.
 */
import type { Kafka } from 'kafkajs'
import type { Config } from '../config.js'
import type { Logger } from '../logger.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { entityTopic, formerEntityTopic } from '../../schemas/events/names.js'
import { feedOf } from '../../schemas/events/feeds.js'
import { endOffsets, idempotentProducer, retryRetriable, stoppableConsumer } from '../kafka.js'
import { randomUUID } from 'node:crypto'

/** Messages produced per send while copying. */
const COPY_BATCH = 1_000

export async function moveInternalEntityTopics(cfg: Pick<Config, 'topicPrefix'>, kafka: Kafka, cat: Catalogue, log: Logger): Promise<number> {
  const admin = kafka.admin()
  await admin.connect()
  let moved = 0
  try {
    const existing = new Set(await admin.listTopics())
    for (const r of cat.stored) {
      if (feedOf(r) !== 'internal') continue
      const from = formerEntityTopic(cfg, r)
      const to = entityTopic(cfg, r)
      if (from === to || !existing.has(from)) continue
      const ends = (await endOffsets(admin, [from])).get(from) ?? new Map<number, bigint>()
      const copied = await copyTopic(kafka, from, to, ends)
      await retryRetriable(() => admin.deleteTopics({ topics: [from], timeout: 60_000 }))
      log.info({ from, to, events: copied }, 'internal entity topic moved apart from the public feed')
      moved++
    }
  } finally { await admin.disconnect() }
  return moved
}

/** Copies every message below `ends` (per partition) of `from` into `to`, in order per partition. */
export async function copyTopic(kafka: Kafka, from: string, to: string, ends: ReadonlyMap<number, bigint>): Promise<number> {
  const pending = new Map([...ends].filter(([, end]) => end > 0n))
  if (pending.size === 0) return 0
  const producer = idempotentProducer(kafka)
  await producer.connect()
  // A group of its own, deleted afterwards: it only reads.
  const groupId = `${from}.move-${randomUUID()}`
  const consumer = stoppableConsumer(kafka, { groupId, allowAutoTopicCreation: false })
  let copied = 0
  try {
    await consumer.connect()
    await consumer.subscribe({ topic: from, fromBeginning: true })
    await new Promise<void>((resolve, reject) => {
      consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          const end = pending.get(batch.partition)
          if (end === undefined) return
          const messages = batch.messages.filter((m) => BigInt(m.offset) < end)
          for (let i = 0; i < messages.length; i += COPY_BATCH) {
            await producer.send({ topic: to, acks: -1, messages: messages.slice(i, i + COPY_BATCH).map((m) => ({ key: m.key, value: m.value, headers: m.headers })) })
          }
          copied += messages.length
          // Compaction leaves gaps in offsets: the batch's last offset, not its last message, says where it stands.
          if (BigInt(batch.lastOffset()) + 1n >= end) pending.delete(batch.partition)
          if (pending.size === 0) resolve()
        },
      }).catch(reject)
    })
  } finally {
    await consumer.disconnect()
    await producer.disconnect()
    const admin = kafka.admin()
    await admin.connect()
    await admin.deleteGroups([groupId]).catch(() => {}).finally(() => admin.disconnect())
  }
  return copied
}
