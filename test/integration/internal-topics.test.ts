/**
 * A deployment made before the service's own entity topics were named apart from the public feed
 * (`<prefix>entity.users` then, `<prefix>internal.entity.users` now): `prepare` moves each such
 * topic, every event in order, and its users still log in.
 */
import t from 'tap'
import { rmSync } from 'node:fs'
import { testStack, testConfig } from '../helpers/stack.js'
import { createRuntime, prepare, removeDeployment } from '../../bin/runtime.js'
import { createLogger } from '../../core/logger.js'
import { createUser } from '../../bin/users.js'
import { buildApp } from '../../api/app.js'
import { readModelPath } from '../../api/read-model/consumer.js'
import { copyTopic } from '../../core/events/internal-topics.js'
import { ensureTopics, compactedTopic, endOffsets, stoppableConsumer } from '../../core/kafka.js'
import { entityTopic, formerEntityTopic } from '../../schemas/events/names.js'
import type { Kafka } from 'kafkajs'

/** Every message of a topic as `key → [values in order]`. */
async function contents(kafka: Kafka, topic: string): Promise<Map<string, string[]>> {
  const admin = kafka.admin()
  await admin.connect()
  const ends = (await endOffsets(admin, [topic]).finally(() => admin.disconnect())).get(topic)!
  const out = new Map<string, string[]>()
  const left = new Map([...ends].filter(([, e]) => e > 0n))
  if (!left.size) return out
  const consumer = stoppableConsumer(kafka, { groupId: `${topic}.read-${Date.now()}` })
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
  await new Promise<void>((resolve) => {
    void consumer.run({
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) {
          const k = m.key!.toString('hex')
          out.set(k, [...(out.get(k) ?? []), m.value!.toString('hex')])
        }
        if (BigInt(batch.lastOffset()) + 1n >= (left.get(batch.partition) ?? 0n)) left.delete(batch.partition)
        if (!left.size) resolve()
      },
    })
  })
  await consumer.disconnect()
  return out
}

t.test('an internal entity topic under its former name is moved, and its users still log in', async (t) => {
  // Users made by a deployment of today, their events then placed where an older version kept them.
  const source = await testStack(t)
  const tokens = []
  for (const name of ['ada', 'grace', 'edsger']) tokens.push((await createUser(source, name)).token)
  const users = source.catalogue.get('users')

  const cfg = testConfig()
  const rt = createRuntime(cfg, createLogger(cfg))
  t.teardown(async () => { await removeDeployment(rt); await rt.close(); rmSync(readModelPath(cfg), { recursive: true, force: true }) })
  const former = formerEntityTopic(cfg, users)
  t.not(former, entityTopic(cfg, users), 'the names differ')
  const admin = rt.kafka.admin()
  await admin.connect()
  await ensureTopics(admin, [compactedTopic(former, cfg.partitions)]).finally(() => admin.disconnect())
  const sourceTopic = entityTopic(source.cfg, users)
  const sourceEnds = await (async () => { const a = source.kafka.admin(); await a.connect(); return (await endOffsets(a, [sourceTopic]).finally(() => a.disconnect())).get(sourceTopic)! })()
  await copyTopic(rt.kafka, sourceTopic, former, sourceEnds)
  const before = await contents(rt.kafka, former)
  t.equal(before.size, 3, 'three users under the former name')

  await prepare(rt)
  const after = await contents(rt.kafka, entityTopic(cfg, users))
  t.same(after, before, 'every event moved, each key\'s in order')
  const check = rt.kafka.admin()
  await check.connect()
  t.notOk((await check.listTopics().finally(() => check.disconnect())).includes(former), 'the former topic is gone')

  await prepare(rt)
  t.same(await contents(rt.kafka, entityTopic(cfg, users)), before, 'a second prepare moves nothing again')

  const app = await buildApp(rt)
  t.teardown(() => app.close())
  for (const token of tokens) {
    let status = 0
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await app.inject({ url: '/api/rest/v4/courts/', headers: { authorization: `Token ${token}` } })).statusCode
      if (status !== 200) await new Promise((r) => setTimeout(r, 200))
    }
    t.equal(status, 200, 'a moved user\'s token is accepted')
  }
})
