/**
 * Issue 10, the archive fetcher: it raced what it reads. The API accepts a fetch request once the
 * document is in its own read model, but the fetcher reads the document and its docket from
 * ClickHouse: when the table sink had not applied them yet the fetch failed ("not in the archive").
 * An endpoint created just before the request could be missing from the fetcher's webhooks table
 * (the ARCHIVE_FETCH event lost), and a docket alert created just before could be missing from
 * ClickHouse (auto-subscribe made a second alert on the docket). The fetcher now waits, bounded,
 * until they have caught up with what the topics held when it consumed the request.
 *
 * Each race is made certain instead of likely: the fetcher's webhooks table cannot decode an
 * endpoint (its schema look-up is held) and the table sink does not read the topics held (its
 * consumer is paused), until the fetcher shows it is waiting for them (it asks for the webhooks
 * topic's end offsets; it waits on the sink's watermarks) or, without the fix, has finished the
 * batch that holds the request.
 */
import t from 'tap'
import { waitFor } from '../helpers/stack.js'
import { raceGates } from '../helpers/race-gates.js'
import { startWebhookReceiver, ok, type Delivery } from '../helpers/webhook-receiver.js'
import { startFakeRecords } from '../helpers/fake-records.js'
import { startTableSink } from '../../streams/table-sink.js'
import { startWebhookDelivery } from '../../streams/webhooks/delivery.js'
import { startArchiveFetcher } from '../../streams/alerts/archive-fetch.js'
import type { Written } from '../../core/events/publisher.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import { entityTopic } from '../../schemas/events/index.js'
import { newWebhookSecret, EVENT_TYPES } from '../../domain/webhooks/index.js'
import { sql, ident } from '../../core/sql.js'
import { createUser } from '../../bin/users.js'
import { recordsGatewayOf } from '../../clients/records-gateway.js'
import { sourceStack, documentFetch } from '../helpers/source-stack.js'

t.test('issue 10: what was published just before a fetch request is seen by the fetcher', async (t) => {
  const receiver = await startWebhookReceiver({ default: ok() })
  t.teardown(() => receiver.close())
  const records = await startFakeRecords({ username: 'svc', password: 'secret' })
  t.teardown(() => records.close())
  const { rt, stops, ts, pub } = await sourceStack(t, { LDS_PARTITIONS: '4', LDS_WEBHOOKS_ALLOW_INSECURE: '1', LDS_RECORDS_URL: records.url, LDS_RECORDS_USERNAME: 'svc', LDS_RECORDS_PASSWORD: 'secret' })
  const { id: userId } = await createUser(rt, 'ann', { autoSubscribe: true })
  await pub.upsert('courts', { id: 'nysd', full_name: 'S.D.N.Y.', short_name: 'SDNY', jurisdiction: 'FD', position: 2, date_modified: ts })
  await pub.flush()
  const sink = await startTableSink(rt)
  stops.push(() => sink.stop())

  // The fetcher's webhooks table decodes no endpoint until the fetcher asks for the webhooks
  // topic's end offsets; the sink can hold back topics until the fetcher waits on its watermarks.
  const gates = await raceGates(rt, sink, 'webhooks')
  stops.push(() => gates.stop())

  const queue = await openWebhookQueue(rt)
  stops.push(() => queue.stop())
  const delivery = await startWebhookDelivery({ ...rt, publisher: pub, queue, mailer: undefined })
  stops.push(() => delivery.stop())
  // Started before any endpoint exists: its webhooks table is ready without decoding one.
  const fetcher = await startArchiveFetcher({ ...rt, kafka: gates.kafka, registry: gates.registry, publisher: pub, queue, mailer: undefined, watermarks: gates.watermarks, gateway: recordsGatewayOf(rt.cfg) })
  stops.push(() => fetcher.stop())
  gates.arm()

  // The fetcher's batches (its own writes come back to it too) and the request a test waits on.
  const ended: { topic: string; partition: number; firstOffset: string; lastOffset: string }[] = []
  let request: Written | undefined
  const requestDone = () => !!request && ended.some((b) => b.topic === request!.topic && b.partition === request!.partition && BigInt(b.firstOffset) <= BigInt(request!.offset) && BigInt(request!.offset) <= BigInt(b.lastOffset))
  // Without the fix nothing waits: what was held is let go once the fetcher is done with the request.
  const releaseIfDone = () => { if (requestDone()) gates.release() }
  fetcher.consumer.on(fetcher.consumer.events.END_BATCH_PROCESS, ({ payload }) => { ended.push(payload); releaseIfDone() })
  const requestFetch = async (id: number, doc: number) => {
    request = await pub.write('archive-fetch', { upsert: documentFetch(id, userId, doc, ts) })
    releaseIfDone()
  }

  const db = ident(rt.cfg.clickhouseDatabase)
  const count = async (table: string, where: ReturnType<typeof sql>) => Number((await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${db}.${ident(table)} FINAL WHERE ${where}`))[0].n)
  const seed = async (docket: number, doc: number, caseId: string, docId: string) => {
    records.addDocument({ court: 'nysd', records_case_id: caseId, records_doc_id: docId, pageCount: 3 })
    await pub.upsert('dockets', { id: docket, court_id: 'nysd', case_name: `Doe ${docket} v. Acme`, records_case_id: caseId, docket_number: `1:26-cv-${docket}`, source: 0, date_created: ts, date_modified: ts })
    await pub.upsert('archive-documents', { id: doc, docket_entry_id: doc * 10, docket_id: docket, document_number: '1', records_doc_id: docId, is_available: false, description: 'Complaint', date_created: ts, date_modified: ts })
    await pub.flush()
  }
  const applied = async (docket: number, doc: number) => {
    await waitFor(async () => await count('dockets', sql`id = ${docket}`) > 0 && await count('archive_documents', sql`id = ${doc}`) > 0, `docket ${docket} and document ${doc} in ClickHouse`)
  }
  const fetchesOf = (id: number) => receiver.deliveries.filter((d: Delivery) => d.json?.webhook?.event_type === EVENT_TYPES.ARCHIVE_FETCH.id && d.json.payload.id === id)

  // First: the held schema look-up is the table's first endpoint (its decoder caches schemas).
  t.test('an endpoint the webhooks table has not read yet', async (t) => {
    await seed(1, 50, '123', '0456')
    await applied(1, 50)
    await pub.upsert('webhooks', { id: 1, user_id: userId, event_type: EVENT_TYPES.ARCHIVE_FETCH.id, url: receiver.url, version: 2, enabled: true, failure_count: 0, secret: newWebhookSecret(), deliver_updates: false, date_created: ts, date_modified: ts })
    await pub.flush()
    await requestFetch(1001, 50)
    const [d] = await waitFor(async () => fetchesOf(1001).length && fetchesOf(1001), 'the ARCHIVE_FETCH of request 1001')
    t.match(d.json.payload, { id: 1001, status: 2, archive_document: 50 }, 'the event reached the new endpoint')
  })

  t.test('a document and docket the table sink has not applied yet', async (t) => {
    gates.holdSink('archive-documents', 'dockets')
    await seed(2, 60, '456', '0789')
    await requestFetch(1002, 60)
    const [d] = await waitFor(async () => fetchesOf(1002).length && fetchesOf(1002), 'the ARCHIVE_FETCH of request 1002')
    t.match(d.json.payload, { id: 1002, status: 2, archive_document: 60, message: /Successfully/ }, 'the document was fetched')
    t.ok(records.requests.some((r) => r.path.endsWith('/documents/fetch') && r.body?.records_doc_id === '0789'), 'the gateway was asked for it, with its docket')
  })

  t.test('a docket alert the table sink has not applied yet is not made twice', async (t) => {
    await seed(3, 70, '789', '0999')
    await applied(3, 70)
    gates.holdSink('docket-alerts')
    await pub.upsert('docket-alerts', { id: 7, user_id: userId, docket_id: 3, alert_type: 1, secret_key: 'k'.repeat(40), date_created: ts, date_modified: ts, date_last_hit: null })
    await pub.flush()
    await requestFetch(1003, 70)
    const [d] = await waitFor(async () => fetchesOf(1003).length && fetchesOf(1003), 'the ARCHIVE_FETCH of request 1003')
    t.match(d.json.payload, { id: 1003, status: 2 }, 'the document was fetched')
    // Auto-subscribe has written (or not) by the end of the request's batch; then all it wrote is applied.
    await waitFor(async () => requestDone(), 'the end of the batch of request 1003')
    const admin = rt.kafka.admin()
    await admin.connect()
    const ends = await admin.fetchTopicOffsets(entityTopic(rt.cfg, 'docket-alerts')).finally(() => admin.disconnect())
    for (const p of ends) if (BigInt(p.high) > 0n) t.ok(await gates.real.waitUntilApplied(entityTopic(rt.cfg, 'docket-alerts'), p.partition, String(BigInt(p.high) - 1n), 30_000), `docket alerts partition ${p.partition} applied`)
    t.equal(await count('docket_alerts', sql`docket_id = 3 AND user_id = ${userId}`), 1, 'one alert on the docket: the one the user had')
  })
})
