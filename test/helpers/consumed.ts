/**
 * Waits that prove a processor got past a point, for "nothing happened" checks: a consumer group
 * has committed every partition of its topics up to the end offsets those topics had when the wait
 * began. Processors commit a batch only after it is done (its events queued, its mails sent), so
 * once the group has committed that far, whatever it would have done about what was published
 * before the wait is done, and a check after it sees it.
 *
 *   await pub.flush()
 *   await consumedAll(rt, DOCKET_ALERT_SENDER, [entityTopic(rt.cfg, 'docket-entries')], 'the sender')
 *   await consumedAll(rt, DELIVERY_PROCESSOR, [queueTopic(rt.cfg)], 'the deliveries')   // what it queued
 */
import type { Runtime } from '../../bin/runtime.js'
import { groupId } from '../../schemas/events/index.js'
import { waitFor } from './stack.js'

/** Per topic, per partition: the end offset (the offset the next message will get). */
export type Ends = Map<string, Map<number, bigint>>

/**
 * Waits until `processor`'s consumer group has committed every partition of `topics` up to the end
 * offsets they have now (asked of the broker after this call: they cover all published before it).
 */
export async function consumedAll(rt: Runtime, processor: string, topics: readonly string[], what: string, timeoutMs = 60_000): Promise<void> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const ends: Ends = new Map()
    for (const topic of topics) ends.set(topic, new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.high)])))
    const group = groupId(rt.cfg, processor)
    await waitFor(async () => {
      const committed = await admin.fetchOffsets({ groupId: group, topics: [...topics] })
      for (const [topic, partitions] of ends) {
        const at = new Map((committed.find((c) => c.topic === topic)?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]))
        for (const [partition, end] of partitions) if (end > 0n && (at.get(partition) ?? -1n) < end) return false
      }
      return true
    }, `${what}: ${group} to commit ${topics.join(', ')} up to their end offsets`, timeoutMs, 100)
  } finally { await admin.disconnect() }
}
