/**
 * Issue 22, without a broker: patches/kafkajs+2.2.4.patch reads a record batch's records in place
 * (RecordsInPlace: offsets and where keys and values lie) for a consumer made with `recordsInPlace`.
 * Each record's message made from there must be the one kafkajs decodes, keys and values must lie
 * where they say (null ones too, headers skipped, compressed or not), a record whose length lies is
 * still an error, and a Batch keeps records in place only where no filter but the fetched offset
 * applies: offsets past 2^53 and aborted transactions go through kafkajs's messages and filters.
 */
import t from 'tap'
import { createRequire } from 'node:module'
import { isDeepStrictEqual as same } from 'node:util'

const require = createRequire(import.meta.url)
// Not part of kafkajs's public API: the patched modules themselves.
const Long = require('kafkajs/src/utils/long.js') as { fromValue(v: string | number | bigint): unknown }
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0/index.js') as { RecordBatch: (o: Record<string, unknown>) => Promise<{ buffer: Buffer }> }
const Record = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (o: Record<string, unknown>) => unknown
const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder.js') as (d: unknown, inPlace?: unknown) => Promise<{ records: Message[] }>
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (b: Buffer) => unknown
const RecordsInPlace = require('kafkajs/src/protocol/recordBatch/v0/recordsInPlace.js') as new () => InPlace
const Batch = require('kafkajs/src/consumer/batch.js') as new (topic: string, fetchedOffset: string, partitionData: Record<string, unknown>) => { records?: InPlace; messages: Message[]; isEmpty(): boolean; firstOffset(): string | null; lastOffset(): string; lastFilteredOffset(): string | undefined; messageCount(): number }
const { Types: Compression } = require('kafkajs/src/protocol/message/compression/index.js') as { Types: { None: number; GZIP: number } }

interface Message { offset: string; key: Buffer | null; value: Buffer | null; headers: Record<string, unknown> }
interface InPlace { length: number; safe: boolean; offset(i: number): string; buffer(i: number): Buffer; keyStart(i: number): number; keyEnd(i: number): number; valueStart(i: number): number; valueEnd(i: number): number; message(i: number): Message }

async function encodeBatch(firstOffset: bigint, n: number, compression = Compression.None) {
  const records = Array.from({ length: n }, (_, i) => Record({
    offsetDelta: i * 2, timestampDelta: Long.fromValue(i * 1000),
    key: i % 5 === 1 ? null : Buffer.from(`k${i}`), value: i % 7 === 2 ? null : Buffer.from(`value ${i} `.repeat(i % 9)),
    headers: i % 3 === 0 ? {} : { a: Buffer.from(`h${i}`), b: [Buffer.from('x'), Buffer.from('')] },
  }))
  return (await RecordBatch({ compression, firstOffset: Long.fromValue(firstOffset.toString()), firstTimestamp: Long.fromValue('1795957000000'), maxTimestamp: Long.fromValue('1795957000000'), lastOffsetDelta: (n - 1) * 2, records })).buffer
}

/** The batches as a fetch response's record set, read both ways. */
async function both(buffers: Buffer[]) {
  const all = Buffer.concat(buffers)
  const plain: Message[] = []
  const d1 = new Decoder(all) as { offset: number }
  while (d1.offset < all.length) plain.push(...(await decodeBatch(d1)).records)
  const inPlace = new RecordsInPlace()
  const d2 = new Decoder(all) as { offset: number }
  while (d2.offset < all.length) await decodeBatch(d2, inPlace)
  return { plain, inPlace }
}

const bytes = (b: Buffer, from: number, to: number) => (from < 0 ? null : b.subarray(from, to).toString('hex'))

t.test('every record\'s message, key and value, compressed or not', async (t) => {
  for (const compression of [Compression.None, Compression.GZIP]) {
    const { plain, inPlace } = await both([await encodeBatch(100n, 30, compression), await encodeBatch(160n, 17, compression)])
    t.equal(inPlace.length, plain.length, `as many records (compression ${compression})`)
    t.same(Array.from({ length: inPlace.length }, (_, i) => inPlace.message(i)), plain, 'the same messages, batch context and headers included')
    t.same(Array.from({ length: inPlace.length }, (_, i) => inPlace.offset(i)), plain.map((m) => m.offset), 'the same offsets')
    t.same(Array.from({ length: inPlace.length }, (_, i) => bytes(inPlace.buffer(i), inPlace.keyStart(i), inPlace.keyEnd(i))), plain.map((m) => m.key && m.key.toString('hex')), 'keys where they lie, null ones null')
    t.same(Array.from({ length: inPlace.length }, (_, i) => bytes(inPlace.buffer(i), inPlace.valueStart(i), inPlace.valueEnd(i))), plain.map((m) => m.value && m.value.toString('hex')), 'values where they lie, null ones null')
  }
})

t.test('a record whose length runs past its batch is still an error, not a cut-off fetch', async (t) => {
  const good = Buffer.from(await encodeBatch(0n, 3))
  // Bytes of the records (after the batch's 61-byte header) raised to 126 (zigzag 63) one at a
  // time: where kafkajs's decoder fails on it (a record length past the batch, a read past a
  // record), the in-place reader must fail too, and not as a fetch cut off at its end.
  let checked = 0
  for (let at = 61; at < good.length; at++) {
    const corrupt = Buffer.from(good)
    corrupt[at] = 126
    const plainOut = await decodeBatch(new Decoder(corrupt)).then((b) => b.records, (e: Error) => e)
    if (!(plainOut instanceof Error)) {
      // Where kafkajs reads it, so does the in-place reader, to the same messages.
      const inPlace = new RecordsInPlace()
      const err = await decodeBatch(new Decoder(corrupt), inPlace).then(() => undefined, (e: Error) => e)
      if (err || !same(Array.from({ length: inPlace.length }, (_, i) => inPlace.message(i)), plainOut)) t.fail(`byte ${at}: kafkajs reads it, the in-place reader ${err ? `fails (${err.message})` : 'differs'}`)
      continue
    }
    const inPlaceErr = await decodeBatch(new Decoder(corrupt), new RecordsInPlace()).then(() => undefined, (e: Error) => e)
    t.ok(inPlaceErr, `byte ${at}: the in-place reader fails too`)
    t.not(inPlaceErr?.name, 'KafkaJSPartialMessageError', 'and not as a cut-off fetch')
    checked++
  }
  t.ok(checked > 0, 'corruptions that kafkajs refuses were found')
})

t.test('a Batch keeps records in place only where the fetched offset is the only filter', async (t) => {
  const batches = [await encodeBatch(100n, 30, Compression.GZIP), await encodeBatch(160n, 5)]
  const make = async (fetchedOffset: string, extra: Record<string, unknown> = {}) => {
    const { plain, inPlace } = await both(batches)
    return [new Batch('t', fetchedOffset, { partition: 0, highWatermark: '200', messages: plain, ...extra }), new Batch('t', fetchedOffset, { partition: 0, highWatermark: '200', messages: inPlace, ...extra })]
  }
  for (const fetched of ['100', '133', '160', '163', '999']) {
    const [plain, inPlace] = await make(fetched)
    t.ok(inPlace.records, `from ${fetched}: in place`)
    t.equal(inPlace.records!.length, plain.messages.length, `from ${fetched}: the records from the fetched offset on`)
    t.same([inPlace.isEmpty(), inPlace.firstOffset(), inPlace.lastOffset(), inPlace.lastFilteredOffset(), inPlace.messageCount()], [plain.isEmpty(), plain.firstOffset(), plain.lastOffset(), plain.lastFilteredOffset(), plain.messageCount()], `from ${fetched}: the same first and last offsets`)
    t.same(inPlace.messages, plain.messages, `from ${fetched}: its messages, made when read, are kafkajs's`)
  }
  const aborted = { abortedTransactions: [{ producerId: '-1', firstOffset: '110' }] }
  const [plain, inPlace] = await make('100', aborted)
  t.equal(inPlace.records, undefined, 'aborted transactions: messages, through kafkajs\'s filters')
  t.same(inPlace.messages, plain.messages)
  const { inPlace: far } = await both([await encodeBatch(2n ** 53n - 4n, 6)])
  t.equal(far.safe, false, 'offsets past 2^53 are not numbers')
  const { plain: farPlain } = await both([await encodeBatch(2n ** 53n - 4n, 6)])
  const farBatch = new Batch('t', String(2n ** 53n - 4n), { partition: 0, highWatermark: '0', messages: far })
  t.equal(farBatch.records, undefined, 'so that batch is messages')
  t.same(farBatch.messages, farPlain, 'the same ones')
})
