/**
 * The id allocator without Kafka: the block arithmetic (offset → ids, the base above the old
 * clock-based ids, the end of the safe range) and the allocator over a fake lease (lazy first
 * lease, the next block leased ahead of need, one lease in flight shared by concurrent callers, a
 * failed lease an error to the caller and tried again on the next call, never an invented id).
 */
import t from 'tap'
import { idBlock, createIdAllocator, kafkaIdAllocator, ID_BASE, ID_BLOCK_SIZE, type IdBlock } from '../../../core/ids.js'
import { DependencyError } from '../../../core/dependency-error.js'
import { createLogger } from '../../../core/logger.js'
import { loadConfig } from '../../../core/config.js'
import type { Kafka } from 'kafkajs'

t.test('block arithmetic', async (t) => {
  t.same(idBlock(0), { start: ID_BASE, end: ID_BASE + ID_BLOCK_SIZE })
  t.same(idBlock('1'), { start: ID_BASE + ID_BLOCK_SIZE, end: ID_BASE + 2 * ID_BLOCK_SIZE })
  t.same(idBlock(41n, 100, 10), { start: 510, end: 520 })
  // consecutive offsets give adjacent, disjoint blocks
  const a = idBlock(12345), b = idBlock(12346)
  t.equal(a.end, b.start)
  // exact for large offsets (computed in BigInt)
  t.same(idBlock('5000000000000'), { start: 3_000_000_000_000_000 + 5_000_000_000_000_000, end: 8_000_000_000_001_000 })
  // the last block whose every id is safe, and the first that is not
  const last = (BigInt(Number.MAX_SAFE_INTEGER) + 1n - BigInt(ID_BASE)) / BigInt(ID_BLOCK_SIZE) - 1n
  t.ok(idBlock(last).end - 1 <= Number.MAX_SAFE_INTEGER)
  t.throws(() => idBlock(last + 1n), RangeError)
  t.throws(() => idBlock(-1), RangeError)
  // about 6e12 leases before the end: ~190,000 years at one lease a second
  t.ok(last > 6_000_000_000_000n && last < 6_010_000_000_000n, `${last} leases`)
})

t.test('the base is above every id of the old scheme until 2065', async (t) => {
  const oldMax = (ms: number) => ms * 1000 + 999
  t.ok(ID_BASE > oldMax(Date.now()), 'above today\'s old ids')
  t.ok(ID_BASE > oldMax(Date.parse('2064-12-31T23:59:59Z')))
  t.ok(ID_BASE < oldMax(Date.parse('2065-02-01T00:00:00Z')), 'the margin is stated honestly')
  t.ok(idBlock(0).start > 1.8e15)
})

/** A fake lease: blocks of `size` from offset 0 on; each call is held until released when `manual`. */
function fakeLeases(size = 10, manual = false) {
  let offset = 0
  const calls: Array<{ resolve: () => void; reject: (e: Error) => void }> = []
  let failNext = 0
  const lease = () => new Promise<IdBlock>((resolve, reject) => {
    const go = () => {
      if (failNext > 0) { failNext--; reject(new Error('broker hiccup')); return }
      resolve(idBlock(offset++, 1000, size))
    }
    if (manual) calls.push({ resolve: go, reject }); else queueMicrotask(go)
  })
  return { lease, calls, fail: (n: number) => { failNext = n }, get count() { return offset } }
}

t.test('lazy: nothing is leased until the first id', async (t) => {
  const f = fakeLeases()
  const ids = createIdAllocator(f.lease, { prefetchWhenLeft: 5 })
  await new Promise((r) => setTimeout(r, 5))
  t.equal(f.count, 0)
  t.equal(await ids.next(), 1000)
  t.equal(ids.leases, 1)
})

t.test('ids increase through blocks, with the next block leased ahead of need', async (t) => {
  const f = fakeLeases(10, true)
  const ids = createIdAllocator(f.lease, { prefetchWhenLeft: 5 })
  const first = ids.next()
  t.equal(f.calls.length, 1)
  f.calls[0].resolve()
  t.equal(await first, 1000)
  // after 1000..1003, 6 ids are left; taking 1004 leaves 5, which asks for the next block
  for (let i = 1; i <= 3; i++) t.equal(await ids.next(), 1000 + i)
  t.equal(f.calls.length, 1, 'no prefetch while more than 5 are left')
  t.equal(await ids.next(), 1004)
  t.equal(f.calls.length, 2, 'prefetch once 5 are left')
  // taking more while the prefetch is in flight does not lease again
  for (let i = 5; i <= 9; i++) t.equal(await ids.next(), 1000 + i)
  t.equal(f.calls.length, 2)
  f.calls[1].resolve()
  await new Promise((r) => setImmediate(r))
  // the block ran out; the next id comes from the block leased ahead, without waiting
  t.equal(await ids.next(), 1010)
  t.equal(ids.leases, 2)
  t.equal(f.calls.length, 2)
})

t.test('a steady caller never waits for a lease after the first', async (t) => {
  const f = fakeLeases(10)
  let waited = 0
  const lease = async () => { waited++; return f.lease() }
  const ids = createIdAllocator(lease, { prefetchWhenLeft: 5 })
  const got: number[] = [await ids.next()]
  let slow = 0
  for (let i = 1; i < 100; i++) {
    await new Promise((r) => setImmediate(r)) // the lease in flight has time to land
    // an id from a block in hand is there within a couple of microtasks, without any lease
    let id: number | undefined
    const p = ids.next().then((x) => { id = x })
    await Promise.resolve(); await Promise.resolve()
    if (id === undefined) slow++
    await p
    got.push(id!)
  }
  t.same(got, Array.from({ length: 100 }, (_, i) => 1000 + i))
  t.equal(slow, 0, 'no call after the first waited for a lease')
  t.equal(waited, 11, 'ten blocks used and one leased ahead')
})

t.test('concurrent callers share one lease and get distinct ids', async (t) => {
  const f = fakeLeases(10, true)
  const ids = createIdAllocator(f.lease, { prefetchWhenLeft: 3 })
  const pending = Array.from({ length: 25 }, () => ids.next())
  t.equal(f.calls.length, 1, 'one lease for all the waiting callers')
  // release leases as they are asked for until everyone has an id
  const all = Promise.all(pending)
  for (let i = 0; i < 10 && f.calls.length > i; i++) {
    f.calls[i].resolve()
    await new Promise((r) => setImmediate(r))
  }
  const got = await all
  t.equal(new Set(got).size, 25)
  t.same([...got].sort((a, b) => a - b), Array.from({ length: 25 }, (_, i) => 1000 + i))
})

t.test('a failed lease is an error to the caller, and is tried again on the next call', async (t) => {
  const f = fakeLeases(10)
  const ids = createIdAllocator(f.lease, { prefetchWhenLeft: 5 })
  f.fail(1)
  await t.rejects(ids.next(), /broker hiccup/)
  t.equal(await ids.next(), 1000)
})

t.test('a failed prefetch is reported; the caller that needs the block tries again', async (t) => {
  const f = fakeLeases(10)
  const errors: unknown[] = []
  const ids = createIdAllocator(f.lease, { prefetchWhenLeft: 5, onPrefetchError: (e) => errors.push(e) })
  t.equal(await ids.next(), 1000)
  f.fail(1)
  for (let i = 1; i <= 5; i++) await ids.next()
  await new Promise((r) => setImmediate(r))
  t.equal(errors.length, 1, 'the prefetch failed')
  for (let i = 6; i <= 9; i++) t.equal(await ids.next(), 1000 + i)
  t.equal(await ids.next(), 1010, 'the block is leased when needed')
  f.fail(5)
  for (let i = 11; i <= 19; i++) await ids.next().catch(() => {})
  // everything failing: the caller gets the error, not an id
  const f2 = fakeLeases(10)
  f2.fail(1)
  const dead = createIdAllocator(f2.lease)
  await t.rejects(dead.next(), /broker hiccup/)
})

t.test('a block below the previous one is refused', async (t) => {
  const blocks = [idBlock(5, 0, 10), idBlock(3, 0, 10)]
  const ids = createIdAllocator(async () => blocks.shift()!, { prefetchWhenLeft: 0 })
  for (let i = 0; i < 10; i++) t.equal(await ids.next(), 50 + i)
  await t.rejects(ids.next(), RangeError)
})

t.test('stopped: no more ids', async (t) => {
  const f = fakeLeases(10)
  const ids = createIdAllocator(f.lease)
  await ids.next()
  await ids.stop()
  await t.rejects(ids.next(), /stopped/)
})

t.test('a Kafka lease that keeps failing is a DependencyError after its retries', async (t) => {
  const cfg = loadConfig({ ...process.env, LOG_LEVEL: 'silent' })
  let sends = 0
  const producer = {
    connect: async () => {},
    disconnect: async () => {},
    send: async () => { sends++; throw new Error('Connection error: ECONNREFUSED') },
  }
  const kafka = { producer: () => producer } as unknown as Kafka
  const ids = kafkaIdAllocator({ cfg, kafka, log: createLogger(cfg) }, 'x.ids', { retries: 2, minTimeout: 1, attemptMs: 500 })
  const err = await ids.next().catch((e: unknown) => e)
  t.ok(err instanceof DependencyError, 'a DependencyError (the API answers 503)')
  t.match((err as Error).message, /Kafka .* did not lease a block of ids on x\.ids after 3 attempts/)
  t.equal(sends, 3)
  await ids.stop()
})

t.test('a Kafka lease rides out a hiccup and a send that hangs', async (t) => {
  const cfg = loadConfig({ ...process.env, LOG_LEVEL: 'silent' })
  let sends = 0
  const sent: unknown[] = []
  const producer = {
    connect: async () => {},
    disconnect: async () => {},
    send: async (r: { topic: string; acks: number; messages: Array<{ partition: number }> }) => {
      sends++
      if (sends === 1) throw new Error('Connection error')
      if (sends === 2) return new Promise(() => {}) // never answers: the attempt's deadline ends it
      sent.push(r)
      return [{ topicName: r.topic, partition: 0, errorCode: 0, baseOffset: '7' }]
    },
  }
  const kafka = { producer: () => producer } as unknown as Kafka
  const ids = kafkaIdAllocator({ cfg, kafka, log: createLogger(cfg) }, 'x.ids', { retries: 3, minTimeout: 1, attemptMs: 100 })
  t.equal(await ids.next(), ID_BASE + 7 * ID_BLOCK_SIZE)
  t.equal(sends, 3)
  t.match(sent[0], { topic: 'x.ids', acks: -1, messages: [{ partition: 0 }] })
  await ids.stop()
})
