/**
 * The parallel publisher (core/events/parallel-publisher.ts): a key lands in the partition a Java
 * client (and kafkajs) would choose, every change is acknowledged by the time `flush` returns, a
 * key's changes arrive in the order they were made and decode through the registry, and invalid
 * records are refused with their reason. Runs against the local Kafka.
 */
import t from 'tap'
import { Partitioners } from 'kafkajs'
import { testStack } from '../../helpers/stack.js'
import { createParallelPublisher, partitionOf } from '../../../core/events/parallel-publisher.js'
import { createDecoder, entityTopic } from '../../../schemas/events/index.js'

t.test('a key goes to the partition kafkajs\'s default (Java-compatible) partitioner gives it', async (t) => {
  const partitioner = Partitioners.DefaultPartitioner()
  for (const partitions of [1, 3, 4, 16]) {
    const partitionMetadata = Array.from({ length: partitions }, (_, i) => ({ partitionId: i, leader: 0, replicas: [0], isr: [0], offlineReplicas: [], partitionErrorCode: 0 }))
    for (const key of ['1', '42', '999999999', 'scotus', 'ca9', 'é-ü', 'a'.repeat(37)]) {
      t.equal(partitionOf(Buffer.from(key), partitions), partitioner({ topic: 'x', partitionMetadata, message: { key, value: null } }), `${key} of ${partitions}`)
    }
  }
})

t.test('publishes through worker threads: all acknowledged at flush, in order per key, refusals reported', async (t) => {
  const rt = await testStack(t)
  const refused: string[] = []
  const pub = createParallelPublisher({ ...rt, threads: 2, batchSize: 50, onInvalid: (_r, record, reason) => refused.push(`${String(record.id)}: ${reason}`) })
  await pub.start()
  const ts = '2026-11-28T00:00:00+00:00'
  const ids = 300
  // Every id twice, so that order per key can be checked: the second change (a new name) wins.
  for (const round of [1, 2]) {
    for (let id = 1; id <= ids; id++) await pub.upsert('courts', { id: `c${id}`, full_name: `Court ${id} round ${round}`, short_name: `C${id}`, jurisdiction: 'F', date_modified: ts })
  }
  await pub.upsert('courts', { full_name: 'no key' })
  await pub.delete('courts', 'c7')
  await pub.flush()
  t.equal(pub.stats.published, 2 * ids + 1, 'every change acknowledged when flush returned')
  t.equal(refused.length, 1, 'the record without a key is refused')
  t.match(refused[0], /id/, 'with its reason')
  await pub.stop()

  const topic = entityTopic(rt.cfg, rt.catalogue.get('courts'))
  const admin = rt.kafka.admin()
  await admin.connect()
  const offsets = await admin.fetchTopicOffsets(topic)
  await admin.disconnect()
  t.equal(offsets.reduce((s, o) => s + Number(o.high), 0), 2 * ids + 1, 'the topic holds every change once')

  const decode = createDecoder(rt.registry)
  const consumer = rt.kafka.consumer({ groupId: `${rt.cfg.topicPrefix}check` })
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
  const seen = new Map<string, { partition: number; version: number; name: string; op: string }[]>()
  let n = 0
  const done = new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async ({ partition, message }) => {
        const key = message.key!.toString()
        const ev = await decode(message.value) as { op: string; version: number; entity: { full_name: string } | null }
        const list = seen.get(key) ?? []
        list.push({ partition, version: ev.version, name: ev.entity?.full_name ?? '', op: ev.op })
        seen.set(key, list)
        if (++n === 2 * ids + 1) resolve()
      },
    })
  })
  await done
  await consumer.disconnect()
  const partitions = offsets.length
  let misplaced = 0, unordered = 0
  for (const [key, list] of seen) {
    if (list.some((e) => e.partition !== partitionOf(Buffer.from(key), partitions))) misplaced++
    for (let i = 1; i < list.length; i++) if (list[i].version <= list[i - 1].version) unordered++
  }
  t.equal(seen.size, ids, 'every key arrived')
  t.equal(misplaced, 0, 'each key in its own partition')
  t.equal(unordered, 0, 'a key\'s changes in the order they were made')
  t.same(seen.get('c5')!.map((e) => e.name), ['Court 5 round 1', 'Court 5 round 2'])
  t.same(seen.get('c7')!.map((e) => e.op), ['upsert', 'upsert', 'delete'])
})
