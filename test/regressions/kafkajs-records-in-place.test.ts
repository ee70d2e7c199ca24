/**
 * Issue 22: the table sink reads a fetch's records in place (patches/kafkajs+2.2.4.patch,
 * `recordsInPlace`: offsets and where each key and value lie, no message object per record) and its
 * collector transcodes them from there (streams/table-sink.ts). On real batches from the broker
 * (LZ4, GZIP and uncompressed; a committed and an aborted transaction, whose control records send a
 * batch down kafkajs's filters; deletes; malformed events) the in-place consumer must deliver the
 * same messages at the same offsets as a plain one, end its batches at the same last offsets, and
 * the sink must make byte-identical rows and dead-letter the same records for the same reasons.
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import kafkajs, { type Batch, type KafkaMessage } from 'kafkajs'
import { testStack } from '../helpers/stack.js'
import { openPublisher } from '../../core/events/publisher.js'
import { tableSinkDef, type TableRows } from '../../streams/table-sink.js'
import { entityTopic } from '../../schemas/events/index.js'
import type { Incoming } from '../../streams/runner.js'
import type { Runtime } from '../../bin/runtime.js'

const { CompressionTypes } = kafkajs

/** What one consumer saw: every message (in place: made from the records), batch ends, rows and dead letters. */
interface Seen { offsets: string[]; messages: KafkaMessage[]; lastOffsets: string[]; rows: { table: string; encoded: Buffer; upserts: unknown[][]; deletes: unknown[] }[]; dead: [string, string][]; materialized: number; inPlace: number; firstMessages?: KafkaMessage[] }

async function consume(rt: Runtime, topic: string, recordsInPlace: boolean, end: bigint, from?: string): Promise<Seen> {
  const def = tableSinkDef({ cfg: rt.cfg, db: rt.db, registry: rt.registry, catalogue: rt.catalogue, resources: ['opinions'] })
  const seen: Seen = { offsets: [], messages: [], lastOffsets: [], rows: [], dead: [], materialized: 0, inPlace: 0 }
  const keep = (out: TableRows) => {
    for (const [table, b] of out) seen.rows.push({ table, encoded: Buffer.concat(b.encoded), upserts: b.upserts, deletes: b.deletes })
  }
  // Small fetches: many batches, some of them starting inside a compressed record batch.
  const consumer = rt.kafka.consumer({ groupId: `in-place-${randomBytes(4).toString('hex')}`, maxBytesPerPartition: 4096, maxWaitTimeInMs: 200, recordsInPlace })
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
  let done: () => void
  const finished = new Promise<void>((r) => { done = r })
  let failed: unknown
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary }) => {
      try {
        const b = batch as Batch
        if (!b.isEmpty()) {
          if (b.records) {
            // batch.messages is still there, made when read.
            if (seen.inPlace++ === 0) seen.firstMessages = b.messages
            const collector = def.inPlace!.collector(b.topic, b.partition)
            for (let i = 0; i < b.records.length; i++) {
              seen.offsets.push(b.records.offset(i))
              seen.messages.push(b.records.message(i))
              try { await collector.add(b.records, i) } catch (err) { seen.dead.push([b.records.offset(i), (err as Error).message]) }
            }
            if (collector.size) keep(collector.done())
          } else {
            seen.materialized++
            const good: { event: Awaited<ReturnType<typeof def.decode>>; source: Incoming }[] = []
            for (const message of b.messages) {
              seen.offsets.push(message.offset)
              seen.messages.push(message)
              const source = { topic: b.topic, partition: b.partition, message }
              try { good.push({ event: await def.decode(source), source }) } catch (err) { seen.dead.push([message.offset, (err as Error).message]) }
            }
            if (good.length) keep(def.transform(good))
          }
        }
        const last = b.lastOffset()
        seen.lastOffsets.push(last)
        resolveOffset(last)
        await commitOffsetsIfNecessary()
        if (BigInt(last) + 1n >= end) done()
      } catch (err) { failed = err; done() }
    },
  })
  if (from !== undefined) consumer.seek({ topic, partition: 0, offset: from })
  await finished
  await consumer.disconnect()
  if (failed) throw failed
  return seen
}

t.test('records in place: the same messages, offsets, rows and dead letters as kafkajs\'s messages', async (t) => {
  const rt = await testStack(t)
  const topic = entityTopic(rt.cfg, rt.catalogue.get('opinions'))
  const opinion = (id: number) => ({ id, cluster_id: id, type: '010combined', per_curiam: id % 2 === 0, sha1: id.toString(16).padStart(40, '0'), plain_text: `text ${id} ${'é'.repeat(id % 5)}`.repeat(1 + (id % 40)), date_created: '2024-01-01T00:00:00+00:00' })

  // Events as the publisher writes them (LZ4 batches), deletes among them.
  const pub = await openPublisher(rt)
  for (let id = 1; id <= 600; id++) {
    await pub.upsert('opinions', opinion(id))
    if (id % 50 === 0) await pub.delete('opinions', id - 7)
  }
  await pub.stop()

  // Their bytes, read back, sent again in batches of every codec, in a committed and an aborted
  // transaction, and with malformed ones among them.
  const plain = await consume(rt, topic, false, BigInt((await highWatermark(rt, topic))))
  const bodies = plain.messages.map((m) => ({ key: m.key, value: m.value }))
  const producer = rt.kafka.producer({ idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  const chunks = (n: number) => Array.from({ length: Math.ceil(bodies.length / n) }, (_, i) => bodies.slice(i * n, (i + 1) * n))
  for (const [i, messages] of chunks(150).entries()) {
    await producer.send({ topic, compression: [CompressionTypes.GZIP, CompressionTypes.None, CompressionTypes.LZ4][i % 3], messages })
  }
  const valid = bodies[10]
  await producer.send({
    topic, messages: [
      { key: Buffer.from('1'), value: Buffer.from('not avro') },
      { key: valid.key, value: valid.value!.subarray(0, valid.value!.length - 3) },
      { key: Buffer.from('999999'), value: valid.value },
      { key: valid.key, value: null },
      { key: valid.key, value: valid.value, headers: { a: 'b', c: ['d', 'e'] } },
    ],
  })
  const tx = rt.kafka.producer({ transactionalId: `in-place-${randomBytes(4).toString('hex')}`, idempotent: true, maxInFlightRequests: 1 })
  await tx.connect()
  const committed = await tx.transaction()
  await committed.send({ topic, compression: CompressionTypes.LZ4, messages: bodies.slice(0, 40) })
  await committed.commit()
  const aborted = await tx.transaction()
  await aborted.send({ topic, messages: bodies.slice(40, 80) })
  await aborted.abort()
  await producer.send({ topic, compression: CompressionTypes.GZIP, messages: bodies.slice(80, 200) })
  await Promise.all([producer.disconnect(), tx.disconnect()])

  const end = BigInt(await highWatermark(rt, topic))
  const [before, after] = [await consume(rt, topic, false, end), await consume(rt, topic, true, end)]
  t.ok(after.inPlace > 5, `batches read in place (${after.inPlace})`)
  t.ok(after.materialized > 0, `batches with control records went through kafkajs's filters (${after.materialized})`)
  t.equal(before.inPlace, 0, 'a consumer that did not ask gets messages')
  t.equal(after.offsets.length, before.offsets.length, 'as many messages')
  t.same(after.offsets, before.offsets, 'the same offsets, aborted and control records left out')
  t.same(after.messages, before.messages, 'the same messages (key, value, headers, timestamp, batch context)')
  t.equal(after.lastOffsets.at(-1), before.lastOffsets.at(-1), 'the same last offset, so the same commit')
  t.same(after.dead, before.dead, 'the same records dead-lettered, for the same reasons')
  t.ok(before.dead.length >= 4, `malformed events dead-lettered (${before.dead.length})`)
  const joined = (s: Seen) => ({
    encoded: Buffer.concat(s.rows.map((r) => r.encoded)).toString('base64'),
    upserts: s.rows.flatMap((r) => r.upserts),
    deletes: s.rows.flatMap((r) => r.deletes),
    tables: [...new Set(s.rows.map((r) => r.table))],
  })
  t.same(after.firstMessages, after.messages.slice(0, after.firstMessages!.length), 'batch.messages, read, are the records\' messages')
  const [b, a] = [joined(before), joined(after)]
  t.ok(b.encoded.length > 1000 && b.deletes.length > 0, 'rows and deletes to compare')
  t.equal(a.encoded, b.encoded, 'byte-identical RowBinary rows')
  t.same(a.upserts, b.upserts, 'the same generic upserts')
  t.same(a.deletes, b.deletes, 'the same deletes')
  t.same(a.tables, b.tables)

  // From an offset inside a compressed record batch (a restart after a commit there): its leading
  // records are skipped as kafkajs skips them.
  const middle = String(Number(before.offsets[0]) + 137)
  const [b2, a2] = [await consume(rt, topic, false, end, middle), await consume(rt, topic, true, end, middle)]
  t.equal(a2.offsets[0], middle, 'starts at the offset asked for')
  t.same(a2.offsets, b2.offsets, 'the same offsets from there')
  t.same(a2.messages, b2.messages, 'the same messages from there')
  t.same(joined(a2), joined(b2), 'the same rows from there')
})

async function highWatermark(rt: Runtime, topic: string): Promise<string> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try { return (await admin.fetchTopicOffsets(topic))[0].high } finally { await admin.disconnect() }
}
