/**
 * The stream runner when its sink fails: a failing write is retried and nothing is lost, and
 * while writes fail no offset is committed, so a restart resumes from the last good batch. And
 * when it stops: the batch it was writing is finished and committed.
 */
import t from 'tap'
import { testStack, waitFor } from '../helpers/stack.js'
import { startStream, type StreamDef } from '../../streams/runner.js'
import { ensureTopics, plainTopic } from '../../core/kafka.js'
import { commandTopic, dlqTopic } from '../../schemas/events/index.js'

async function setup(t: Parameters<typeof testStack>[0], n: number) {
  const rt = await testStack(t)
  const topic = commandTopic(rt.cfg, 'runner-test')
  const admin = rt.kafka.admin()
  await admin.connect()
  await ensureTopics(admin, [plainTopic(topic)])
  const producer = rt.kafka.producer()
  await producer.connect()
  await producer.send({ topic, messages: Array.from({ length: n }, (_, i) => ({ key: String(i), value: String(i) })) })
  await producer.disconnect()
  return { rt, topic, admin }
}

function def(rt: Awaited<ReturnType<typeof setup>>['rt'], topic: string, sink: (xs: number[]) => Promise<void>): StreamDef<number, number[]> {
  return {
    name: 'runner-test', groupId: `${rt.cfg.topicPrefix}runner-test`, topics: [topic], dlqTopic: dlqTopic(rt.cfg, 'runner-test'),
    decode: async (m) => Number(m.message.value!.toString()), transform: (events) => events.map((e) => e.event), sink,
  }
}

t.test('a sink that fails twice is retried and every event is written once', async (t) => {
  const { rt, topic, admin } = await setup(t, 50)
  t.teardown(() => admin.disconnect())
  let calls = 0
  const written: number[] = []
  const stream = await startStream(def(rt, topic, async (xs) => {
    calls++
    if (calls <= 2) throw new Error('ClickHouse is restarting')
    written.push(...xs)
  }), rt)
  t.teardown(() => stream.stop())
  await waitFor(async () => written.length >= 50, 'all events written', 30_000)
  t.same([...written].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i), 'each event once, none lost')
  t.ok(calls >= 3, `${calls} sink calls: two failures, then success`)
  await waitFor(async () => (await admin.fetchOffsets({ groupId: `${rt.cfg.topicPrefix}runner-test`, topics: [topic] }))[0].partitions[0].offset === '50', 'offset 50 committed')
  t.pass('committed only after the successful write')
})

t.test('while the sink keeps failing, no offset is committed', async (t) => {
  const { rt, topic, admin } = await setup(t, 20)
  t.teardown(() => admin.disconnect())
  let calls = 0
  const stream = await startStream(def(rt, topic, async () => { calls++; throw new Error('ClickHouse is down') }), rt)
  await waitFor(async () => calls >= 3, 'several failed writes', 30_000)
  await stream.stop()
  const [{ partitions }] = await admin.fetchOffsets({ groupId: `${rt.cfg.topicPrefix}runner-test`, topics: [topic] })
  t.equal(partitions[0].offset, '-1', 'nothing committed: a restart reads the batch again')
})

t.test('a stop while a batch is written finishes the batch and commits it', async (t) => {
  const { rt, topic, admin } = await setup(t, 30)
  t.teardown(() => admin.disconnect())
  let writing = () => {}
  const started = new Promise<void>((resolve) => { writing = resolve })
  let stopAsked = () => {}
  const stopping = new Promise<void>((resolve) => { stopAsked = resolve })
  const written: number[] = []
  const stream = await startStream(def(rt, topic, async (xs) => {
    writing()
    // the write ends only once the stop has begun (the consumer no longer running)
    await stopping
    await new Promise((r) => setTimeout(r, 200))
    written.push(...xs)
  }), rt)
  await started
  const stopped = stream.stop()
  stopAsked()
  await stopped
  t.ok(written.length > 0, `the batch in flight was written (${written.length} events)`)
  const [{ partitions }] = await admin.fetchOffsets({ groupId: `${rt.cfg.topicPrefix}runner-test`, topics: [topic] })
  t.equal(partitions[0].offset, String(written.length), 'and committed up to its last event: a restart does not apply it again')
})
