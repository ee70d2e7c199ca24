/**
 * connector → Kafka (Avro via the registry) → table sink → ClickHouse → HTTP, on the real stack.
 */
import t from 'tap'
import { testStack, waitFor, testUser } from '../helpers/stack.js'
import { startProcessors } from '../../bin/runtime.js'
import { openPublisher } from '../../core/events/publisher.js'
import { buildApp } from '../../api/app.js'
import { entityTopic, dlqTopic, PROCESSORS } from '../../schemas/events/index.js'
import { sql, ident } from '../../core/sql.js'
import avro from 'avsc'
import { registerEntitySchemas } from '../../core/schema-registration.js'
import { toAvro } from '../../schemas/avro.js'
import { createEntityCodec } from '../../schemas/events/entity-codec.js'
import { wireEncode } from '../../schemas/events/index.js'

const court = { id: 'scotus', full_name: 'Supreme Court of the United States', short_name: 'Supreme Court', citation_string: 'SCOTUS', jurisdiction: 'F', position: 1, in_use: true, date_modified: '2024-01-01T00:00:00+00:00' }
const docket = (caseName: string) => ({
  id: 42, court_id: 'scotus', case_name: caseName, docket_number: '21-1234', slug: 'smith-v-jones', source: 2,
  date_filed: '2021-10-01', date_created: '2021-10-01T12:00:00+00:00', date_modified: '2021-10-02T12:00:00+00:00', blocked: false,
})

t.test('a docket change travels from the connector to the API within seconds', async (t) => {
  const rt = await testStack(t, { LDS_PARTITIONS: '4' })
  const streams = await startProcessors(rt)
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const token = await testUser(rt, 'tester', { app })
  const auth = { authorization: `Token ${token}` }
  const get = (url: string) => app.inject({ url, headers: auth })

  t.equal((await app.inject('/api/rest/v4/dockets/42/')).statusCode, 401, 'dockets need authentication')
  await pub.upsert('courts', court)
  await pub.upsert('dockets', docket('Smith v. Jones'))
  await pub.flush()
  const started = Date.now()
  const first = await waitFor(async () => {
    const res = await app.inject({ url: '/api/rest/v4/dockets/42/', headers: { ...auth, host: 'api.test' } })
    return res.statusCode === 200 && res.json()
  }, 'docket 42 in the API', 20_000)
  t.equal(first.case_name, 'Smith v. Jones')
  t.equal(first.court, 'http://api.test/api/rest/v4/courts/scotus/', 'related objects are absolute URLs')
  t.equal(first.court_id, 'scotus')
  t.equal(first.resource_uri, 'http://api.test/api/rest/v4/dockets/42/')
  t.equal(first.date_created, '2021-10-01T12:00:00+00:00', 'timestamps carry a numeric offset')
  t.ok(Date.now() - started < 20_000)

  await pub.upsert('dockets', docket('Smith v. Jones, Inc.'))
  await pub.flush()
  await waitFor(async () => (await get('/api/rest/v4/dockets/42/')).json().case_name === 'Smith v. Jones, Inc.', 'the update')

  const list = (await get('/api/rest/v3/dockets/?court=scotus')).json()
  t.equal(list.count, 1, 'one row per key after an update (FINAL)')

  await pub.delete('dockets', 42)
  await pub.flush()
  await waitFor(async () => (await get('/api/rest/v4/dockets/42/')).statusCode === 404, 'the delete')
  t.same((await get('/api/rest/v4/dockets/42/')).json(), { detail: 'No Docket matches the given query.' })
})

t.test('malformed events land in the dead-letter topic with a reason; the sink keeps going', async (t) => {
  const rt = await testStack(t, { LDS_PARTITIONS: '4' })
  const streams = await startProcessors(rt)
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const producer = rt.kafka.producer()
  await producer.connect()
  t.teardown(() => producer.disconnect())
  // Events of the registered schema, as the sink reads them without decoding to objects: one cut
  // short, and one whose name is not UTF-8 (stored as the generic decoder reads it, bad bytes replaced).
  const ids = await registerEntitySchemas(rt.cfg, rt.registry, rt.catalogue)
  const type = avro.Type.forSchema(toAvro(rt.catalogue, rt.catalogue.get('dockets')) as avro.Schema)
  const entity = (id: number, caseName: string) => ({ ...createEntityCodec(rt.catalogue, rt.catalogue.get('dockets')).toEntity({ ...docket(caseName), id }) })
  const whole = wireEncode(ids.get('dockets')!, type.toBuffer({ op: 'upsert', version: 5, key: '3', entity: entity(3, 'Cut short') }))
  const latin1 = wireEncode(ids.get('dockets')!, type.toBuffer({ op: 'upsert', version: 5, key: '44', entity: entity(44, 'Caf\u00e9 v. Bar') }))
  latin1[latin1.indexOf(Buffer.from('Caf\u00e9')) + 3] = 0xe9 // é's first byte made its Latin-1 byte: a broken UTF-8 sequence
  await producer.send({ topic: entityTopic(rt.cfg, 'dockets'), messages: [
    { key: '1', value: Buffer.from('this is not avro') },
    { key: '2', value: Buffer.from([0, 0, 0, 0x7f, 0x7f, 1, 2, 3]) },
    { key: '3', value: whole.subarray(0, whole.length - 10) },
    { key: '44', value: latin1 },
  ] })
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  await pub.upsert('courts', court)
  await pub.upsert('dockets', docket('After the garbage'))
  await pub.flush()

  const consumer = rt.kafka.consumer({ groupId: `${rt.cfg.topicPrefix}dlq-reader` })
  await consumer.connect()
  t.teardown(() => consumer.disconnect())
  await consumer.subscribe({ topic: dlqTopic(rt.cfg, PROCESSORS.tableSink), fromBeginning: true })
  const dead: { reason: string; offset: string; key: string }[] = []
  await consumer.run({ eachMessage: async ({ message }) => { dead.push(JSON.parse(message.value!.toString())) } })
  await waitFor(async () => dead.length >= 3, 'three dead letters')
  // The keys may sit in different partitions: dead letters arrive in any order.
  const byKey = Object.fromEntries(dead.map((d) => [d.key, d]))
  t.match(byKey['1'], { offset: '0', reason: /magic byte|wire format/ })
  t.match(byKey['2'], { reason: /schema id|registry/ })
  t.match(byKey['3'], { reason: /truncated/ })
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  await waitFor(async () => (await app.inject('/api/rest/v4/courts/scotus/')).statusCode === 200, 'the valid events after the bad ones')
  const [row] = await rt.db.query<{ case_name: string }>(sql`SELECT case_name FROM ${ident(rt.cfg.clickhouseDatabase)}.dockets FINAL WHERE id = 42`)
  t.equal(row?.case_name, 'After the garbage')
  const [bad] = await rt.db.query<{ case_name: string }>(sql`SELECT case_name FROM ${ident(rt.cfg.clickhouseDatabase)}.dockets FINAL WHERE id = 44`)
  t.equal(bad?.case_name, 'Caf\ufffd v. Bar', 'a text that is not UTF-8 is stored with its bad byte replaced')
  t.equal(dead.length, 3, 'nothing else dead-lettered')
})
