#!/usr/bin/env node
/**
 * An outside consumer of the public feed: follows the dockets topic from its beginning and keeps
 * a local copy in a JSON file, resuming after a restart without losing a change.
 *
 * The copy is saved before the consumer group's offsets are committed, so a crash between the two
 * replays a few events on restart; replays are harmless because an event only replaces what the
 * copy holds when its `version` is higher (the feed's rule: the highest version wins).
 *
 *   lds consumers create alice --json > alice.json     # once: a login for the public topics
 *   CONSUMER_SETTINGS=alice.json SCHEMA_REGISTRY_URL=http://127.0.0.1:8081/apis/ccompat/v7 \
 *   TOPIC=entity.dockets STORE=dockets.json node follow-dockets.mjs
 *
 * CONSUMER_SETTINGS: the one line `lds consumers create <name> --json` printed (brokers of the
 * SASL/SCRAM listener, login); the consumer group is then `<name>.follow-dockets`, the groups the
 * login may use. Without it, KAFKA_BROKERS names a listener without login (the service's own).
 *
 * EXIT_WHEN_CAUGHT_UP=1: exit once the copy holds everything the topic held (for scripts and tests;
 * default: follow forever).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import kafkajs from 'kafkajs'
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry'
import { compressFrame, decompressFrame } from 'lz4-napi'

const { Kafka, logLevel, CompressionCodecs, CompressionTypes } = kafkajs
// The entity topics are LZ4-compressed; kafkajs reads LZ4 once a codec is registered
// (librdkafka-based clients, such as the Python example's, read it as they are).
CompressionCodecs[CompressionTypes.LZ4] = () => ({
  compress: async (encoder) => compressFrame(encoder.buffer),
  decompress: async (buffer) => decompressFrame(buffer),
})

const env = process.env
// kafkajs takes the settings' brokers, sasl and ssl as they are.
const settings = env.CONSUMER_SETTINGS ? JSON.parse(readFileSync(env.CONSUMER_SETTINGS, 'utf8')) : null
const brokers = settings?.brokers ?? (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')
const registryUrl = env.SCHEMA_REGISTRY_URL ?? 'http://127.0.0.1:8081/apis/ccompat/v7'
const topic = env.TOPIC ?? 'entity.dockets'
const storePath = env.STORE ?? 'dockets.json'
const groupId = env.CONSUMER_GROUP ?? (settings ? `${settings.sasl.username}.follow-dockets` : 'example-follow-dockets')
const exitWhenCaughtUp = env.EXIT_WHEN_CAUGHT_UP === '1'

/** The local copy: each docket's latest version (deleted ones keep their version, so an older replay cannot revive them). */
function loadStore() {
  try { return JSON.parse(readFileSync(storePath, 'utf8')) } catch { return { dockets: {} } }
}
function saveStore(store) {
  writeFileSync(`${storePath}.tmp`, JSON.stringify(store))
  renameSync(`${storePath}.tmp`, storePath) // atomic: a crash leaves the old copy or the new one
}

function apply(store, event) {
  const held = store.dockets[event.key]
  if (held && held.version >= event.version) return false
  store.dockets[event.key] = event.op === 'delete'
    ? { version: event.version, deleted: true }
    : { version: event.version, entity: event.entity }
  return true
}

const store = loadStore()
const registry = new SchemaRegistry({ host: registryUrl })
const kafka = new Kafka({ clientId: 'follow-dockets-example', brokers, ...(settings ? { sasl: settings.sasl, ssl: settings.ssl } : {}), logLevel: logLevel.WARN })
const consumer = kafka.consumer({ groupId })
let applied = 0

await consumer.connect()
await consumer.subscribe({ topic, fromBeginning: true })
await consumer.run({
  autoCommit: false,
  eachBatch: async ({ batch }) => {
    for (const message of batch.messages) {
      // The value is the registry's wire format: the client fetches the writer's schema by its id.
      if (apply(store, await registry.decode(message.value))) applied++
    }
    saveStore(store)
    const next = (BigInt(batch.lastOffset()) + 1n).toString()
    await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: next }])
    process.stderr.write(`follow-dockets: ${applied} changes applied, ${Object.keys(store.dockets).length} dockets held\n`)
  },
})

const stop = async (code) => { await consumer.disconnect(); process.exit(code) }
process.on('SIGTERM', () => void stop(0))
process.on('SIGINT', () => void stop(0))

/** Every partition's committed offset has reached its end: the saved copy holds the whole topic. */
async function caughtUp(admin) {
  const ends = await admin.fetchTopicOffsets(topic)
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] })
  const at = new Map(committed.partitions.map((p) => [p.partition, BigInt(p.offset)]))
  return ends.every((p) => p.high === p.low || (at.get(p.partition) ?? -1n) >= BigInt(p.high))
}

if (exitWhenCaughtUp) {
  const admin = kafka.admin()
  await admin.connect()
  const check = async () => {
    if (await caughtUp(admin)) { await admin.disconnect(); await stop(0) }
    setTimeout(check, 500)
  }
  setTimeout(check, 500)
}
