/**
 * What the webhook delivery queue holds: every message of the delivery topics (the main topic and
 * each retry topic), decoded, read from the start up to the end offsets they have now. "Nothing
 * was scheduled" is then a fact about the topics, not a wait that hopes the schedule came due.
 */
import { randomBytes } from 'node:crypto'
import type { Runtime } from '../../bin/runtime.js'
import { deliveryTopics, openWebhookQueue, type QueuedEvent } from '../../core/events/webhook-queue.js'
import { waitFor } from '../kit/wait-for.js'

export interface Queued { topic: string; event: QueuedEvent }

export async function queuedDeliveries(rt: Runtime, timeoutMs = 30_000): Promise<Queued[]> {
  const topics = deliveryTopics(rt.cfg)
  const queue = await openWebhookQueue(rt)
  const admin = rt.kafka.admin()
  await admin.connect()
  const remaining = new Map<string, bigint>()
  try {
    for (const topic of topics) {
      for (const p of await admin.fetchTopicOffsets(topic)) if (BigInt(p.high) > BigInt(p.low)) remaining.set(`${topic}/${p.partition}`, BigInt(p.high))
    }
  } finally { await admin.disconnect() }
  const out: Queued[] = []
  if (remaining.size === 0) { await queue.stop(); return out }
  const consumer = rt.kafka.consumer({ groupId: `${rt.cfg.topicPrefix}queued-${randomBytes(4).toString('hex')}` })
  try {
    await consumer.connect()
    await consumer.subscribe({ topics, fromBeginning: true })
    const raw: { topic: string; value: Buffer }[] = []
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const key = `${topic}/${partition}`
        const end = remaining.get(key)
        if (end === undefined) return
        if (message.value) raw.push({ topic, value: message.value })
        if (BigInt(message.offset) + 1n >= end) remaining.delete(key)
      },
    })
    await waitFor(() => remaining.size === 0, `the delivery topics read to their end (${[...remaining.keys()].join(', ')} left)`, timeoutMs)
    for (const r of raw) out.push({ topic: r.topic, event: await queue.codec.decode(r.value) })
    return out
  } finally {
    await consumer.disconnect()
    await queue.stop()
  }
}
