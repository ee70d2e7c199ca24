/**
 * patches/kafkajs+2.2.4.patch: a fetched batch skips only its leading records below the fetched
 * offset (a partition's records come in offset order) and keeps the fetched array when nothing is
 * dropped, instead of parsing every record's offset into a Long and copying the array twice. What
 * a consumer is handed must not change: records below the fetched offset dropped (a compressed
 * batch starts before it), control records and aborted transactions' records left out, and the
 * batch's first and last offsets as before.
 */
import t from 'tap'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// Not part of kafkajs's public API: the patched module itself.
interface Message { offset: string; key: Buffer | null; value: Buffer | null; isControlRecord: boolean; batchContext: { producerId: string; inTransaction: boolean } }
const Batch = require('kafkajs/src/consumer/batch.js') as new (topic: string, fetchedOffset: string, data: { partition: number; highWatermark: string; messages: Message[]; abortedTransactions: { firstOffset: string; producerId: string }[] }) => {
  messages: Message[]; messagesWithinOffset: Message[]; isEmpty(): boolean; isEmptyDueToLogCompactedMessages(): boolean; firstOffset(): string | null; lastOffset(): string
}

const plain = { producerId: '-1', inTransaction: false }
const msg = (offset: bigint | number, o: Partial<Message> = {}): Message => ({ offset: String(offset), key: Buffer.from(`k${offset}`), value: Buffer.from('v'), isControlRecord: false, batchContext: plain, ...o })
const batch = (fetched: bigint | number, messages: Message[], abortedTransactions: { firstOffset: string; producerId: string }[] = []) =>
  new Batch('t', String(fetched), { partition: 0, highWatermark: String(BigInt(messages.at(-1)?.offset ?? fetched) + 1n), messages, abortedTransactions })
const offsets = (ms: Message[]) => ms.map((m) => m.offset)

t.test('records below the fetched offset are dropped, the rest kept in order', async (t) => {
  const b = batch(13, [10, 11, 12, 13, 14, 16].map((o) => msg(o)))
  t.same(offsets(b.messages), ['13', '14', '16'])
  t.equal(b.firstOffset(), '13')
  t.equal(b.lastOffset(), '16')
})

t.test('a batch starting at the fetched offset is handed over whole', async (t) => {
  const ms = [5, 6, 7].map((o) => msg(o))
  const b = batch(5, ms)
  t.same(offsets(b.messages), ['5', '6', '7'])
  t.equal(b.lastOffset(), '7')
})

t.test('offsets past 2^53 compare as 64-bit numbers', async (t) => {
  const big = 2n ** 53n
  const b = batch(big + 1n, [big - 1n, big, big + 1n, big + 2n].map((o) => msg(o)))
  t.same(offsets(b.messages), [String(big + 1n), String(big + 2n)])
})

t.test('everything below the fetched offset (compacted away): empty, last offset the fetched one', async (t) => {
  const b = batch(20, [17, 18, 19].map((o) => msg(o)))
  t.ok(b.isEmpty())
  t.ok(b.isEmptyDueToLogCompactedMessages())
  t.equal(b.lastOffset(), '20')
})

t.test('control records and aborted transactions are left out', async (t) => {
  const tx = { producerId: '7', inTransaction: true }
  const ms = [
    msg(1),
    msg(2, { batchContext: tx }), msg(3, { batchContext: tx }),
    msg(4, { batchContext: tx, isControlRecord: true, key: Buffer.from([0, 0, 0, 0]) }),
    msg(5),
    msg(6, { isControlRecord: true, key: Buffer.from([0, 0, 0, 1]) }),
    msg(7),
  ]
  const b = batch(1, ms, [{ firstOffset: '2', producerId: '7' }])
  t.same(offsets(b.messages), ['1', '5', '7'])
  t.equal(b.lastOffset(), '7', 'the last offset still counts the control record before it')
})
