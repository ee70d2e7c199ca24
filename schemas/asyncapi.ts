/**
 * The AsyncAPI 3.0 description of the public feed, as a pure function of the catalogue and the
 * deployment's addresses: one channel per public entity topic (schemas/events/feeds.ts) with its
 * key, its Avro event schema and registry subject, compaction and partitioning, and one `receive`
 * operation each. Internal topics (accounts, webhooks, alerts, dead letters, watermarks) are not
 * described: outside consumers have no business with them.
 */
import { createHash } from 'node:crypto'
import type { Catalogue } from './catalogue/index.js'
import type { ResourceDef } from './define.js'
import { toAvro } from './avro.js'
import { entityTopic, valueSubject } from './events/names.js'
import { publicFeedResources } from './events/feeds.js'

export interface AsyncApiOptions {
  /** Bootstrap brokers a consumer connects to. */
  brokers: readonly string[]
  /** The Confluent-compatible registry the payloads' schema ids resolve against. */
  schemaRegistryUrl: string
  /** The deployment's topic prefix (core/config.ts). */
  topicPrefix: string
  /** Partitions of an entity topic created by this deployment. */
  partitions: number
  /** The SASL/SCRAM listener's port on the first broker's host, where outside consumers connect (`lds consumers create`). */
  saslPort?: number
}

export type AsyncApiDocument = Record<string, unknown> & {
  channels: Record<string, { address: string; messages: Record<string, unknown>; [k: string]: unknown }>
  operations: Record<string, unknown>
  components: { messages: Record<string, Record<string, unknown>>; [k: string]: unknown }
}

const AVRO_FORMAT = 'application/vnd.apache.avro;version=1.9.0'
const KAFKA_BINDING = '0.5.0'

const pascal = (s: string) => s.split(/[-_]/).map((p) => p[0].toUpperCase() + p.slice(1)).join('')
const messageName = (r: ResourceDef) => `${pascal(r.name)}Event`

const FEED_DESCRIPTION = [
  'The public feed: every change to a public resource, as Avro events on compacted Kafka topics.',
  '',
  '* **Key**: the entity id as UTF-8 text. Every event of one key lands in one partition (the default partitioner), so a consumer sees one entity\'s changes in the order they were made.',
  '* **Value**: the schema registry wire format (magic byte 0, a 4-byte schema id, the Avro body). The registry subject of a topic is `<topic>-value` (topic name strategy).',
  '* **Envelope**: `op` (`upsert` or `delete`), `version` (grows for a key; the highest version wins, so an event seen twice is harmless), `key`, and `entity` (the whole entity for an upsert, null for a delete).',
  '* **Compression**: record batches are LZ4-compressed. librdkafka-based clients and the Java client read them as they are; KafkaJS needs an LZ4 codec registered (examples/node/follow-dockets.mjs shows one).',
  '* **Deletes** are events with `op: delete`, not Kafka tombstones: compaction keeps them as the key\'s last state, so a consumer reading from the beginning learns of deletions too.',
  '* **Delivery** is at least once. Read from the earliest offset to get the complete current state (compaction keeps the last event per key; events younger than a minute are never compacted), then follow. Commit offsets in your own consumer group to resume where you stopped.',
].join('\n')

/** A short fingerprint of the public schemas: it changes exactly when a consumer-visible schema does. */
function schemaFingerprint(schemas: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(schemas)).digest('hex').slice(0, 12)
}

export function toAsyncApi(cat: Catalogue, o: AsyncApiOptions): AsyncApiDocument {
  const resources = publicFeedResources(cat)
  const avro = resources.map((r) => toAvro(cat, r))
  const [broker = '127.0.0.1:9092'] = o.brokers
  const registryBinding = { kafka: { schemaRegistryUrl: o.schemaRegistryUrl, schemaRegistryVendor: 'confluent', bindingVersion: KAFKA_BINDING } }
  const channels: AsyncApiDocument['channels'] = {}
  const operations: Record<string, unknown> = {}
  const messages: Record<string, Record<string, unknown>> = {}
  resources.forEach((r, i) => {
    const topic = entityTopic(o, r)
    const name = messageName(r)
    messages[name] = {
      name,
      title: `${r.label} change`,
      summary: `An upsert or delete of one ${r.label}.`,
      contentType: 'avro/binary',
      payload: { schemaFormat: AVRO_FORMAT, schema: avro[i] },
      bindings: {
        kafka: {
          key: { type: 'string', description: `The ${r.label}'s id.` },
          schemaIdLocation: 'payload',
          schemaIdPayloadEncoding: 'confluent',
          schemaLookupStrategy: 'TopicIdStrategy',
          bindingVersion: KAFKA_BINDING,
        },
      },
      'x-registry-subject': valueSubject(topic),
    }
    channels[r.name] = {
      address: topic,
      title: r.label,
      description: r.description,
      messages: { [name]: { $ref: `#/components/messages/${name}` } },
      bindings: {
        kafka: {
          topic,
          partitions: o.partitions,
          topicConfiguration: { 'cleanup.policy': ['compact'], 'min.compaction.lag.ms': 60_000, 'max.message.bytes': 16 * 1024 * 1024 },
          bindingVersion: KAFKA_BINDING,
        },
      },
    }
    operations[`receive${pascal(r.name)}`] = {
      action: 'receive',
      title: `Follow ${r.plural}`,
      channel: { $ref: `#/channels/${r.name}` },
      messages: [{ $ref: `#/channels/${r.name}/messages/${name}` }],
    }
  })
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Legal data service: the public feed',
      version: `1.0.0+${schemaFingerprint(avro)}`,
      description: FEED_DESCRIPTION,
    },
    defaultContentType: 'avro/binary',
    servers: {
      kafka: {
        host: broker,
        protocol: 'kafka',
        description: o.saslPort === undefined ? 'The Kafka cluster of this deployment.' : 'The Kafka cluster of this deployment, its internal listener (no authentication; the service\'s own).',
        bindings: registryBinding,
      },
      ...(o.saslPort === undefined ? {} : {
        'kafka-sasl': {
          host: `${broker.replace(/:\d+$/, '')}:${o.saslPort}`,
          protocol: 'kafka',
          description: 'The listener for outside consumers: SASL/SCRAM-SHA-512 without TLS, with credentials from `lds consumers create <name>`, which may read the public topics and commit offsets in groups named `<name>.…`.',
          security: [{ $ref: '#/components/securitySchemes/scram' }],
          bindings: registryBinding,
        },
      }),
    },
    channels,
    operations,
    components: {
      messages,
      ...(o.saslPort === undefined ? {} : { securitySchemes: { scram: { type: 'scramSha512', description: 'A consumer\'s username and password, printed once by `lds consumers create`.' } } }),
    },
  }
}
