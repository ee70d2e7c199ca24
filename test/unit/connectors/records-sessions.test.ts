import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { memoryRecordsSessions, redisRecordsSessions, MAX_KEEP_MS, type RecordsSessions } from '../../../clients/records-sessions.js'
import { startRedis } from '../../../infra/redis.js'

/** What both stores must do: a token is taken once, and not after its time. */
async function behaves(t: Test, s: RecordsSessions, advance: (ms: number) => Promise<void>) {
  await s.put(1, 'tok-1', 60_000)
  await s.put(2, 'tok-2', 200)
  t.equal(await s.take(1), 'tok-1')
  t.equal(await s.take(1), undefined, 'taken once: a second read finds nothing')
  t.equal(await s.take(3), undefined, 'never put')
  await advance(400)
  t.equal(await s.take(2), undefined, 'expired')
}

t.test('in the process', async (t) => {
  let now = 1_000_000
  const s = memoryRecordsSessions(() => now)
  await behaves(t, s, async (ms) => { now += ms })
  await s.put(4, 'tok-4', 10 * MAX_KEEP_MS)
  now += MAX_KEEP_MS + 1
  t.equal(await s.take(4), undefined, 'kept at most MAX_KEEP_MS, whatever the records system says')
})

t.test('in Redis: what one process puts, another takes', async (t) => {
  const redis = await startRedis()
  t.teardown(() => redis.stop())
  const a = new Redis(redis.url)
  const b = new Redis(redis.url)
  t.teardown(() => { a.disconnect(); b.disconnect() })
  const api = redisRecordsSessions(a, { prefix: `t-${process.pid}:` })
  const fetcher = redisRecordsSessions(b, { prefix: `t-${process.pid}:` })
  await api.put(7, 'tok-7', 60_000)
  t.equal(await fetcher.take(7), 'tok-7')
  t.equal(await api.take(7), undefined, 'taken once, across processes')
  t.ok(Number(await a.pttl(`t-${process.pid}:7`)) < 0, 'nothing left behind')
  await api.put(8, 'tok-8', 10 * MAX_KEEP_MS)
  t.ok(Number(await a.pttl(`t-${process.pid}:8`)) <= MAX_KEEP_MS, 'kept at most MAX_KEEP_MS')
  await behaves(t, fetcher, (ms) => new Promise((r) => setTimeout(r, ms)))
})
