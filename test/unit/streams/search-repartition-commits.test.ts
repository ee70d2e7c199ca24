/**
 * The repartition stage goes on with a batch only once the indexer group has committed past its
 * keys: commits of this process wake the wait at once, other instances' are read from the broker.
 */
import t from 'tap'
import type { Kafka } from 'kafkajs'
import { createCommitWatch } from '../../../streams/search/commit-watch.js'

/** A broker whose group offsets the test sets; counts the fetches. */
function fakeBroker() {
  const offsets = new Map<number, string>()
  let fetches = 0
  const admin = {
    connect: async () => {}, disconnect: async () => {},
    fetchOffsets: async ({ topics }: { groupId: string; topics: string[] }) => {
      fetches++
      return [{ topic: topics[0], partitions: [...offsets].map(([partition, offset]) => ({ partition, offset })) }]
    },
  }
  return { kafka: { admin: () => admin } as unknown as Pick<Kafka, 'admin'>, offsets, fetches: () => fetches }
}

t.test('not reached until every partition is committed up to its end; a local commit wakes the wait', async (t) => {
  const b = fakeBroker()
  const w = createCommitWatch(b.kafka, 'g', 'docs')
  t.teardown(() => w.stop())
  const ends = new Map([[0, 5n], [1, 3n]])
  t.equal(await w.reached(ends, 150), false, 'nothing committed: not reached within the slice')
  b.offsets.set(1, '3')
  b.offsets.set(0, '-1')
  t.equal(await w.reached(ends, 150), false, 'one partition of two')
  const waiting = w.reached(ends, 10_000)
  const started = Date.now()
  setTimeout(() => w.committed(0, 5n), 30)
  t.equal(await waiting, true, "this process's commit completes it")
  t.ok(Date.now() - started < 2_000, 'without waiting out the slice')
})

t.test("another instance's commit is read from the broker", async (t) => {
  const b = fakeBroker()
  const w = createCommitWatch(b.kafka, 'g', 'docs')
  t.teardown(() => w.stop())
  setTimeout(() => b.offsets.set(2, '10'), 50)
  t.equal(await w.reached(new Map([[2, 10n]]), 5_000), true)
  t.ok(b.fetches() >= 2, 'asked again until it was there')
  t.equal(await w.reached(new Map([[2, 11n]]), 120), false, 'an end beyond the commit is not reached')
})
