/**
 * patches/kafkajs+2.2.4.patch decodes a record's offset and timestamp with numbers where they are
 * safe integers (kafkajs parsed the batch's base offset and timestamp strings into Longs again for
 * every record, a third of a table sink's record decoding), and reads each record where it lies in
 * the batch instead of through a view and a decoder of its own. The answers must stay those of
 * 64-bit arithmetic everywhere: past 2^53, with negative timestamps and deltas, and with a
 * timestamp delta too large for the number path; keys, values and headers as written, compressed
 * or not; and a record whose length lies is an error that does not pass for a fetch's cut-off end.
 */
import t from 'tap'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// Not part of kafkajs's public API: the patched modules themselves.
const Long = require('kafkajs/src/utils/long.js') as { fromValue(v: string | number | bigint): unknown }
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0/index.js') as { RecordBatch: (o: Record<string, unknown>) => Promise<{ buffer: Buffer }> }
const Record = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (o: Record<string, unknown>) => unknown
const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder.js') as (d: unknown) => Promise<{ records: { offset: string; timestamp: string; key: Buffer; value: Buffer }[] }>
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (b: Buffer) => unknown
const { Types: Compression } = require('kafkajs/src/protocol/message/compression/index.js') as { Types: { None: number; GZIP: number } }

async function encodeBatch(firstOffset: bigint, firstTimestamp: bigint, deltas: { offset: number; timestamp: bigint }[], o: { compression?: number; headers?: (i: number) => Record<string, Buffer | Buffer[]> } = {}) {
  const records = deltas.map((d, i) => Record({ offsetDelta: d.offset, timestampDelta: Long.fromValue(d.timestamp.toString()), key: Buffer.from(`k${i}`), value: Buffer.from(`v${i}`), headers: o.headers?.(i) ?? {} }))
  return RecordBatch({
    compression: o.compression ?? Compression.None, firstOffset: Long.fromValue(firstOffset.toString()), firstTimestamp: Long.fromValue(firstTimestamp.toString()),
    maxTimestamp: Long.fromValue(firstTimestamp.toString()), lastOffsetDelta: deltas.at(-1)?.offset ?? 0, records,
  })
}

async function roundTrip(firstOffset: bigint, firstTimestamp: bigint, deltas: { offset: number; timestamp: bigint }[]) {
  // The fetch response hands the decoder the batch from its first offset on.
  const { records: decoded } = await decodeBatch(new Decoder((await encodeBatch(firstOffset, firstTimestamp, deltas)).buffer))
  return decoded
}

const cases: [string, bigint, bigint, { offset: number; timestamp: bigint }[]][] = [
  ['small offsets, a current timestamp', 0n, 1_795_957_000_000n, [{ offset: 0, timestamp: 0n }, { offset: 1, timestamp: 5n }, { offset: 2, timestamp: -3n }, { offset: 500, timestamp: 86_400_000n }]],
  ['no timestamp (-1)', 41n, -1n, [{ offset: 0, timestamp: 0n }, { offset: 1, timestamp: -1n }]],
  ['offsets around 2^53', 2n ** 53n - 2n, 1_795_957_000_000n, [{ offset: 0, timestamp: 0n }, { offset: 1, timestamp: 1n }, { offset: 2, timestamp: 2n }, { offset: 3, timestamp: 3n }]],
  ['offsets near 2^63', 2n ** 63n - 10n, 0n, [{ offset: 0, timestamp: 0n }, { offset: 9, timestamp: 9n }]],
  ['a timestamp delta past 2^49', 7n, 1_795_957_000_000n, [{ offset: 0, timestamp: 2n ** 50n + 3n }, { offset: 1, timestamp: -(2n ** 52n) - 1n }]],
  ['timestamps past 2^53', 7n, 2n ** 60n, [{ offset: 0, timestamp: 1n }, { offset: 1, timestamp: -1n }]],
]

for (const [name, firstOffset, firstTimestamp, deltas] of cases) {
  t.test(name, async (t) => {
    const records = await roundTrip(firstOffset, firstTimestamp, deltas)
    t.same(records.map((r) => r.offset), deltas.map((d) => (firstOffset + BigInt(d.offset)).toString()), 'offsets as 64-bit sums')
    t.same(records.map((r) => r.timestamp), deltas.map((d) => (firstTimestamp + d.timestamp).toString()), 'timestamps as 64-bit sums')
    t.same(records.map((r) => r.value.toString()), deltas.map((_, i) => `v${i}`), 'the record bodies read after them')
  })
}

t.test('keys, values and headers as written, compressed or not', async (t) => {
  const deltas = Array.from({ length: 50 }, (_, i) => ({ offset: i, timestamp: BigInt(i) }))
  const headers = (i: number): Record<string, Buffer | Buffer[]> => i % 3 === 0 ? {} : i % 3 === 1 ? { a: Buffer.from(`h${i}`) } : { a: [Buffer.from('x'), Buffer.from('y')], b: Buffer.from('z') }
  for (const compression of [Compression.None, Compression.GZIP]) {
    const { records } = await decodeBatch(new Decoder((await encodeBatch(100n, 1_795_957_000_000n, deltas, { compression, headers })).buffer))
    t.same(records.map((r) => [r.offset, r.key.toString(), r.value.toString()]), deltas.map((d, i) => [String(100 + d.offset), `k${i}`, `v${i}`]), `records (compression ${compression})`)
    t.same(records.map((r) => (r as unknown as { headers: Record<string, unknown> }).headers), deltas.map((_, i) => headers(i)), `headers (compression ${compression})`)
  }
})

t.test('a record whose length runs past its batch is an error, not a cut-off fetch', async (t) => {
  const bytes = Buffer.from((await encodeBatch(0n, 0n, [{ offset: 0, timestamp: 0n }, { offset: 1, timestamp: 0n }])).buffer)
  // Each record here is 11 bytes: its length (1 byte, 10) and attributes, timestamp and offset
  // deltas, "kN" and "vN" with their lengths, and no headers. The last one's length becomes 63
  // (zigzag 126): past the end of the batch.
  const corrupt = Buffer.from(bytes)
  t.equal(corrupt[bytes.length - 11], 20, 'the last record\'s length (zigzag 10) where expected')
  corrupt[bytes.length - 11] = 126
  const err = await decodeBatch(new Decoder(corrupt)).then(() => undefined, (e: Error) => e)
  t.ok(err, 'decoding fails')
  t.not(err?.name, 'KafkaJSPartialMessageError', 'and not as a fetch cut off at its end (which would be passed over)')
})
