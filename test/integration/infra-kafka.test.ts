/**
 * The local Kafka and schema registry, through the clients the application uses (KafkaJS and
 * @kafkajs/confluent-schema-registry). Assumes `npx tsx infra/cli.ts up` ran; calls infraUp
 * anyway (idempotent: well under a second when both run).
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { Kafka, Partitioners, logLevel } from 'kafkajs'
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry'
import { loadConfig } from '../../core/config.js'
import { infraUp } from '../../infra/cli.js'
import { deleteSubject, registryAuth } from '../../core/registry.js'
import { ensureTopics, retryRetriable } from '../../core/kafka.js'

const cfg = loadConfig()
const run = randomBytes(4).toString('hex')
const kafka = new Kafka({ clientId: `infra-test-${run}`, brokers: [...cfg.kafkaBrokers], logLevel: logLevel.NOTHING })

t.before(async () => {
  await infraUp(cfg, (m) => t.comment(m), ['kafka', 'registry'])
})

t.test('kafka: idempotent produce, consume in a group, committed offsets', async (t) => {
  const topic = `${cfg.topicPrefix}infra-test-${run}`
  const groupId = `${topic}-group`
  const admin = kafka.admin()
  await admin.connect()
  t.teardown(async () => {
    await admin.deleteTopics({ topics: [topic] }).catch(() => {})
    await admin.deleteGroups([groupId]).catch(() => {})
    await admin.disconnect()
  })
  const cluster = await admin.describeCluster()
  t.equal(cluster.brokers.length, 1, 'one broker')
  // ensureTopics, as the application creates topics: under load the broker's metadata can answer
  // "unknown topic" for a moment right after the create, which KafkaJS's own wait rejects with.
  await ensureTopics(admin, [{ topic, numPartitions: 2 }])
  t.equal((await retryRetriable(() => admin.fetchTopicMetadata({ topics: [topic] }))).topics[0].partitions.length, 2, 'topic created with 2 partitions')

  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner })
  await producer.connect()
  const sent = Array.from({ length: 20 }, (_, i) => ({ key: `k${i % 5}`, value: `v${i}` }))
  const acks = await producer.send({ topic, acks: -1, messages: sent })
  await producer.disconnect()
  t.ok(acks.every((a) => a.errorCode === 0), 'acknowledged by all in-sync replicas')

  const consumer = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 1_000 })
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
  const received: string[] = []
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`received ${received.length} of ${sent.length} messages in 20 s`)), 20_000)
    consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        received.push(String(message.value))
        await consumer.commitOffsets([{ topic, partition, offset: String(Number(message.offset) + 1) }])
        if (received.length === sent.length) { clearTimeout(timer); resolve() }
      },
    }).catch(reject)
  })
  await consumer.disconnect()
  t.same([...received].sort(), sent.map((m) => m.value).sort(), 'every message consumed once')

  const committed = await admin.fetchOffsets({ groupId, topics: [topic] })
  const total = committed[0].partitions.reduce((n, p) => n + Number(p.offset), 0)
  t.equal(total, sent.length, 'committed offsets cover every message')
})

t.test('kafka: compacted topic', async (t) => {
  const topic = `${cfg.topicPrefix}infra-test-${run}-compact`
  const admin = kafka.admin()
  await admin.connect()
  t.teardown(async () => {
    await admin.deleteTopics({ topics: [topic] }).catch(() => {})
    await admin.disconnect()
  })
  await ensureTopics(admin, [{ topic, numPartitions: 1, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }])
  const { resources } = await retryRetriable(() => admin.describeConfigs({ resources: [{ type: 2 /* TOPIC */, name: topic, configNames: ['cleanup.policy'] }], includeSynonyms: false }))
  t.equal(resources[0].configEntries.find((e) => e.configName === 'cleanup.policy')?.configValue, 'compact')
})

t.test('schema registry: register, encode, decode (Confluent client on the ccompat API)', async (t) => {
  const registry = new SchemaRegistry({ host: cfg.schemaRegistryUrl, auth: registryAuth(cfg) })
  const subject = `${cfg.topicPrefix}infra-test-${run}-value`
  t.teardown(async () => {
    await deleteSubject(cfg, subject).catch(() => {})
  })
  const avsc = {
    type: 'record', name: 'InfraProbe', namespace: `org.lds.test.r${run}`,
    fields: [{ name: 'id', type: 'long' }, { name: 'name', type: 'string' }],
  }
  const { id } = await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(avsc) }, { subject })
  t.ok(Number.isInteger(id) && id > 0, `schema id ${id}`)
  t.equal((await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(avsc) }, { subject })).id, id, 'registering again returns the same id')

  const encoded = await registry.encode(id, { id: 42, name: 'Marbury' })
  t.equal(encoded[0], 0, 'Confluent wire format: magic byte')
  t.equal(encoded.readInt32BE(1), id, 'Confluent wire format: schema id')
  t.same({ ...(await registry.decode(encoded)) }, { id: 42, name: 'Marbury' }, 'decoded')

  const v2 = { ...avsc, fields: [...avsc.fields, { name: 'court', type: ['null', 'string'], default: null }] }
  const { id: id2 } = await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(v2) }, { subject })
  t.not(id2, id, 'a backward-compatible change gets a new id')
  t.equal(await registry.getLatestSchemaId(subject), id2)
  await t.rejects(
    registry.register({ type: SchemaType.AVRO, schema: JSON.stringify({ ...avsc, fields: [{ name: 'id', type: 'string' }] }) }, { subject }),
    'an incompatible change is refused (global BACKWARD rule)',
  )
})

t.test('schema registry: anyone reads, only the service writes', async (t) => {
  const subject = `${cfg.topicPrefix}infra-access-${run}-value`
  const schema = JSON.stringify({ type: 'record', name: 'AccessProbe', namespace: `org.lds.test.r${run}`, fields: [{ name: 'id', type: 'long' }] })
  const service = new SchemaRegistry({ host: cfg.schemaRegistryUrl, auth: registryAuth(cfg) })
  t.teardown(async () => {
    await deleteSubject(cfg, subject).catch(() => {})
  })
  const post = (headers: Record<string, string>) => fetch(`${cfg.schemaRegistryUrl}/subjects/${encodeURIComponent(subject)}/versions`, {
    method: 'POST', headers: { 'content-type': 'application/vnd.schemaregistry.v1+json', ...headers }, body: JSON.stringify({ schema }),
  })
  t.equal((await post({})).status, 401, 'a write without the service login is refused')
  const wrong = { authorization: `Basic ${Buffer.from('lds:not-the-password').toString('base64')}` }
  t.equal((await post(wrong)).status, 401, 'a wrong password is refused')
  const { id } = await service.register({ type: SchemaType.AVRO, schema }, { subject })
  const anonymous = new SchemaRegistry({ host: cfg.schemaRegistryUrl })
  t.equal(await anonymous.getLatestSchemaId(subject), id, 'a reader without a login finds the subject')
  t.same({ ...(await anonymous.decode(await service.encode(id, { id: 7 }))) }, { id: 7 }, 'and decodes with it')
  const del = await fetch(`${cfg.schemaRegistryUrl}/subjects/${encodeURIComponent(subject)}`, { method: 'DELETE' })
  t.equal(del.status, 401, 'a delete without the login is refused')
  t.equal(await anonymous.getLatestSchemaId(subject), id, 'and changed nothing')
})
