/**
 * The AsyncAPI document of the public feed: valid AsyncAPI 3.0 with Avro payloads (checked by the
 * AsyncAPI project's own parser and its Avro schema parser), one channel per public entity topic
 * and none for what is internal, each channel's payload the very schema the topic is written with.
 */
import t from 'tap'
import { Parser } from '@asyncapi/parser'
import { AvroSchemaParser } from '@asyncapi/avro-schema-parser'
import { catalogue, buildCatalogue, RESOURCES } from '../../../schemas/catalogue/index.js'
import { toAsyncApi } from '../../../schemas/asyncapi.js'
import { toAvro } from '../../../schemas/avro.js'
import { feedOf, publicFeedResources } from '../../../schemas/events/feeds.js'

const opts = { brokers: ['kafka.test:9092'], schemaRegistryUrl: 'http://registry.test/apis/ccompat/v7', topicPrefix: 'p1.', partitions: 4 }
const doc = toAsyncApi(catalogue, opts)

t.test('the document is valid AsyncAPI 3.0, Avro payloads included', async (t) => {
  const parser = new Parser()
  parser.registerSchemaParser(AvroSchemaParser())
  const { document, diagnostics } = await parser.parse(JSON.stringify(doc))
  const errors = diagnostics.filter((d) => d.severity === 0)
  t.same(errors.map((d) => `${d.path.join('.')}: ${d.message}`), [], 'no error diagnostics')
  t.ok(document, 'the parser gives a document')
  t.equal(document!.channels().length, publicFeedResources(catalogue).length)
  const dockets = document!.channels().get('dockets')!
  t.equal(dockets.address(), 'p1.entity.dockets')
  t.equal(document!.operations().filterByReceive().length, publicFeedResources(catalogue).length, 'one receive operation per channel')
})

t.test('public data is described; accounts, tokens, webhooks, alerts and private tags are not', async (t) => {
  for (const name of ['dockets', 'clusters', 'opinions', 'people', 'courts', 'audio', 'financial-disclosures', 'parentheticals']) {
    t.ok(doc.channels[name], `${name} is a public channel`)
  }
  for (const name of ['users', 'webhooks', 'webhook-events', 'alerts', 'docket-alerts', 'prayers', 'archive-fetch', 'tags', 'docket-tags', 'visualizations']) {
    t.equal(doc.channels[name], undefined, `${name} is internal`)
    t.equal(feedOf(catalogue.get(name)), 'internal')
  }
  const topics = Object.values(doc.channels).map((c) => c.address)
  t.notOk(topics.some((a) => /dlq|watermark|webhook|ids$/.test(a)), 'no internal topic is addressed')
})

t.test('each message carries the topic\'s own Avro schema, key, subject and compaction', async (t) => {
  const messages = doc.components.messages
  const clusters = catalogue.get('clusters')
  const m = messages.ClustersEvent as Record<string, any>
  t.same(m.payload.schema, toAvro(catalogue, clusters), 'the payload is the schema the publisher registers')
  t.equal(m['x-registry-subject'], 'p1.entity.clusters-value')
  t.equal(m.bindings.kafka.key.type, 'string')
  const binding = (doc.channels.clusters.bindings as any).kafka
  t.same(binding.topicConfiguration['cleanup.policy'], ['compact'])
  t.equal(binding.partitions, 4)
  t.match((doc.servers as any).kafka, { host: 'kafka.test:9092', protocol: 'kafka', bindings: { kafka: { schemaRegistryUrl: opts.schemaRegistryUrl } } })
})

t.test('the version follows the public schemas, not the addresses', async (t) => {
  const version = (doc.info as { version: string }).version
  t.match(version, /^1\.0\.0\+[0-9a-f]{12}$/)
  t.equal((toAsyncApi(catalogue, { ...opts, topicPrefix: 'other.', partitions: 1 }).info as { version: string }).version, version, 'another deployment: same version')
  const fewer = buildCatalogue(RESOURCES.filter((r) => r.name !== 'parentheticals'))
  t.not((toAsyncApi(fewer, opts).info as { version: string }).version, version, 'a public topic less: another version')
})
