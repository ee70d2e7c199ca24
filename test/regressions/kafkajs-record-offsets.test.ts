/**
 * patches/kafkajs+2.2.4.patch decodes a record's offset and timestamp with numbers where they are
 * safe integers (kafkajs parsed the batch's base offset and timestamp strings into Longs again for
 * every record, a third of a table sink's record decoding). The answers must stay those of 64-bit
 * arithmetic everywhere: past 2^53, with negative timestamps and deltas, and with a timestamp delta
 * too large for the number path.
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
const { Types: Compression } = require('kafkajs/src/protocol/message/compression/index.js') as { Types: { None: number } }

async function roundTrip(firstOffset: bigint, firstTimestamp: bigint, deltas: { offset: number; timestamp: bigint }[]) {
  const records = deltas.map((d, i) => Record({ offsetDelta: d.offset, timestampDelta: Long.fromValue(d.timestamp.toString()), key: Buffer.from(`k${i}`), value: Buffer.from(`v${i}`) }))
  const encoded = await RecordBatch({
    compression: Compression.None, firstOffset: Long.fromValue(firstOffset.toString()), firstTimestamp: Long.fromValue(firstTimestamp.toString()),
    maxTimestamp: Long.fromValue(firstTimestamp.toString()), lastOffsetDelta: deltas.at(-1)?.offset ?? 0, records,
  })
  // The fetch response hands the decoder the batch from its first offset on.
  const { records: decoded } = await decodeBatch(new Decoder(encoded.buffer))
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
