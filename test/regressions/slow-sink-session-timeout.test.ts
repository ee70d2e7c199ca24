/**
 * A batch that waits longer than the consumer's session timeout (the search indexer waits up to
 * 60 s for the table sink; the alert sources wait for their tables and call the records gateway)
 * kept the member silent: KafkaJS heartbeats only when the handler asks it to, so the broker
 * evicted the member, its commit failed, the group rebalanced and the batch was consumed again,
 * in a loop on a slow sink. The runner now heartbeats while the sink runs, and waits made with
 * keepAlive give a stale batch up.
 *
 * The consumers here run with a 6 s session timeout (the broker's minimum) and their batch is held
 * for 20 s: without heartbeats the member is certainly evicted; with them it is never.
 */
import t, { type Test } from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { testStack, waitFor } from '../helpers/stack.js'
import { startStream, keepAlive, BatchGivenUp, type StreamDef, type ConsumerTimeouts } from '../../streams/runner.js'
import { startSearchIndexer } from '../../streams/search/indexer.js'
import { startTableSink } from '../../streams/table-sink.js'
import { openPublisher } from '../../core/events/publisher.js'
import { ensureTopics, plainTopic } from '../../core/kafka.js'
import { commandTopic, dlqTopic, entityTopic, groupId } from '../../schemas/events/index.js'
import { startArchiveFetcher } from '../../streams/alerts/archive-fetch.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import type { RecordsGateway } from '../../clients/records-gateway.js'
import type { Runtime } from '../../bin/runtime.js'
import { recordsGatewayOf } from '../../clients/records-gateway.js'
import { sql, ident } from '../../core/sql.js'
import { archiveFetchStack, documentFetch } from '../helpers/source-stack.js'

/** A plain topic of the test's own holding `count` events (0, 1, …), its group's name, and an admin client. */
async function topicWithEvents(t: Test, rt: Runtime, name: string, count: number) {
  const topic = commandTopic(rt.cfg, name)
  const group = `${rt.cfg.topicPrefix}${name}`
  const admin = rt.kafka.admin()
  await admin.connect()
  t.teardown(() => admin.disconnect())
  await ensureTopics(admin, [plainTopic(topic)])
  const producer = rt.kafka.producer()
  await producer.connect()
  await producer.send({ topic, messages: Array.from({ length: count }, (_, i) => ({ key: String(i), value: String(i) })) })
  await producer.disconnect()
  return { topic, group, admin }
}

const SHORT: ConsumerTimeouts = { sessionTimeout: 6_000, heartbeatInterval: 500, rebalanceTimeout: 12_000 }
/** Well over the session timeout. */
const HOLD_MS = 20_000

t.test('a sink slower than the session timeout keeps its membership and commits its batch once', async (t) => {
  const rt = await testStack(t)
  const { topic, group, admin } = await topicWithEvents(t, rt, 'slow-sink', 10)

  const written: number[] = []
  let calls = 0
  const def: StreamDef<number, number[]> = {
    name: 'slow-sink', groupId: group, topics: [topic], dlqTopic: dlqTopic(rt.cfg, 'slow-sink'), timeouts: SHORT,
    decode: async (m) => Number(m.message.value!.toString()), transform: (events) => events.map((e) => e.event),
    async sink(xs) {
      if (calls++ === 0) await sleep(HOLD_MS)
      written.push(...xs)
    },
  }
  const stream = await startStream(def, rt)
  t.teardown(() => stream.stop())
  let joins = 0
  let crashes = 0
  stream.consumer.on(stream.consumer.events.GROUP_JOIN, () => { joins++ })
  stream.consumer.on(stream.consumer.events.CRASH, () => { crashes++ })
  // The first join may have happened before the listener: count the ones after the slow batch began.
  await waitFor(async () => calls > 0, 'the first batch in the sink')
  const joinsBefore = joins
  await waitFor(async () => (await admin.fetchOffsets({ groupId: group, topics: [topic] }))[0].partitions[0].offset === '10', 'offset 10 committed', HOLD_MS + 30_000)
  t.same([...written].sort((a, b) => a - b), Array.from({ length: 10 }, (_, i) => i), 'every event written')
  t.equal(written.length, 10, 'the slow batch was written once: not consumed again after an eviction')
  t.equal(joins - joinsBefore, 0, 'the member did not join the group again')
  t.equal(crashes, 0, 'no crash')
})

t.test('a wait made with keepAlive gives its batch up once the group rebalances, and the batch is consumed again', async (t) => {
  const rt = await testStack(t)
  const { topic, group, admin } = await topicWithEvents(t, rt, 'stale-wait', 5)

  // The first member's wait never ends by itself; a second member joining makes its batch stale.
  let givenUp = 0
  let released = false
  const written: number[] = []
  const def = (name: string): StreamDef<number, number[]> => ({
    name, groupId: group, topics: [topic], dlqTopic: dlqTopic(rt.cfg, 'stale-wait'), timeouts: SHORT,
    decode: async (m) => Number(m.message.value!.toString()), transform: (events) => events.map((e) => e.event),
    async sink(xs, batch) {
      try {
        await keepAlive(batch, 10 * 60_000, async (ms) => { await sleep(ms); return released }, 'a test gate')
      } catch (err) { if (err instanceof BatchGivenUp) givenUp++; throw err }
      written.push(...xs)
    },
  })
  let waiting = 0
  const first = await startStream({ ...def('stale-wait-1'), sink: async (xs, batch) => { waiting++; return def('stale-wait-1').sink(xs, batch) } }, rt)
  t.teardown(() => first.stop())
  await waitFor(async () => waiting > 0, 'the first member waiting in its batch')
  const second = await startStream(def('stale-wait-2'), rt)
  t.teardown(() => second.stop())
  await waitFor(async () => givenUp > 0, 'the waiting batch given up', 60_000)
  released = true
  await waitFor(async () => (await admin.fetchOffsets({ groupId: group, topics: [topic] }))[0].partitions[0].offset === '5', 'offset 5 committed', 60_000)
  t.same([...written].sort((a, b) => a - b), [0, 1, 2, 3, 4], 'the given-up batch was consumed again and written')
})

t.test('the search indexer waiting for a table sink slower than its session timeout is not evicted', async (t) => {
  const rt = await testStack(t)
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const ts = new Date().toISOString()
  const indexer = await startSearchIndexer({ ...rt, consumerTimeouts: SHORT })
  t.teardown(() => indexer.stop())
  let joins = 0
  let crashes = 0
  let batches = 0
  indexer.consumer.on(indexer.consumer.events.GROUP_JOIN, () => { joins++ })
  indexer.consumer.on(indexer.consumer.events.CRASH, () => { crashes++ })
  indexer.consumer.on(indexer.consumer.events.START_BATCH_PROCESS, () => { batches++ })
  // No table sink runs yet: the indexer's batch waits for it.
  await pub.upsert('dockets', { id: 1, court_id: 'nysd', case_name: 'Doe v. Acme', source: 0, date_created: ts, date_modified: ts })
  await pub.flush()
  await waitFor(async () => batches > 0, 'the indexer consuming the docket')
  const joinsBefore = joins
  await sleep(HOLD_MS)
  const sink = await startTableSink(rt)
  t.teardown(() => sink.stop())
  const topic = entityTopic(rt.cfg, 'dockets')
  const admin = rt.kafka.admin()
  await admin.connect()
  t.teardown(() => admin.disconnect())
  await waitFor(async () => {
    const [{ partitions }] = await admin.fetchOffsets({ groupId: groupId(rt.cfg, 'search-indexer'), topics: [topic] })
    return partitions.some((p) => p.offset === '1')
  }, 'the docket indexed and committed', 60_000)
  t.equal(joins - joinsBefore, 0, 'the indexer did not join its group again while it waited')
  t.equal(crashes, 0, 'no crash')
})

t.test('the archive fetcher waiting on a gateway slower than its session timeout is not evicted, and buys once', async (t) => {
  const { rt, stops, ts, pub, userId, documentId, records } = await archiveFetchStack(t, 8)
  await pub.flush()

  // The gateway answers after HOLD_MS.
  const real = recordsGatewayOf(rt.cfg)!
  let fetching = 0
  const gateway: RecordsGateway = {
    async fetchDocument(...args) { fetching++; await sleep(HOLD_MS); return real.fetchDocument(...args) },
    fetchDocket: (...args) => real.fetchDocket(...args),
    login: (...args) => real.login(...args),
  }
  const queue = await openWebhookQueue(rt)
  stops.push(() => queue.stop())
  const fetcher = await startArchiveFetcher({ ...rt, publisher: pub, queue, mailer: undefined, gateway, consumerTimeouts: SHORT })
  stops.push(() => fetcher.stop())
  let joins = 0
  let crashes = 0
  fetcher.consumer.on(fetcher.consumer.events.GROUP_JOIN, () => { joins++ })
  fetcher.consumer.on(fetcher.consumer.events.CRASH, () => { crashes++ })

  await pub.upsert('archive-fetch', documentFetch(3001, userId, documentId, ts))
  await pub.flush()
  await waitFor(async () => fetching > 0, 'the fetcher calling the gateway')
  const joinsBefore = joins
  const db = ident(rt.cfg.clickhouseDatabase)
  const done = await waitFor(async () => (await rt.db.query<{ status: number }>(sql`SELECT status FROM ${db}.archive_fetch FINAL WHERE id = 3001 AND status NOT IN (1, 4)`))[0], 'the request completed', HOLD_MS + 30_000)
  t.equal(Number(done.status), 2, 'the fetch succeeded')
  // Its batch is committed (the request's offsets and the fetcher's own writes coming back).
  const admin = rt.kafka.admin()
  await admin.connect()
  t.teardown(() => admin.disconnect())
  const topic = entityTopic(rt.cfg, 'archive-fetch')
  await waitFor(async () => {
    const [ends, [{ partitions }]] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId: groupId(rt.cfg, 'archive-fetcher'), topics: [topic] })])
    return ends.every((e) => e.high === '0' || partitions.find((p) => p.partition === e.partition)?.offset === e.high)
  }, 'the fetcher committed all of its topic')
  t.equal(fetching, 1, 'the gateway was asked once')
  t.equal(records.requests.filter((r) => r.path.endsWith('/documents/fetch')).length, 1, 'the document was bought once')
  t.equal(joins - joinsBefore, 0, 'the fetcher did not join its group again while it waited')
  t.equal(crashes, 0, 'no crash')
})
