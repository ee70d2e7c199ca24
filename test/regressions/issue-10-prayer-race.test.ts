/**
 * Issue 10, the prayer granter: it raced what it reads. A prayer created just before its document
 * became available could be missing from ClickHouse when the table sink had not applied it yet (the
 * prayer silently never granted), and an endpoint created just before missing from the granter's
 * in-memory webhooks table (the PRAY_AND_PAY event lost). The granter now waits, bounded, until
 * both have caught up with what the topics held when it consumed the document.
 *
 * Each race is made certain instead of likely: the granter's webhooks table cannot decode an
 * endpoint (its schema look-up is held) and the table sink does not read prayers (its consumer is
 * paused), until the granter shows it is waiting for them (it asks for the webhooks topic's end
 * offsets; it waits on the sink's watermarks) or, without the fix, has finished the document's batch.
 */
import t from 'tap'
import { waitFor } from '../helpers/stack.js'
import { raceGates } from '../helpers/race-gates.js'
import { startWebhookReceiver, ok, type Delivery } from '../helpers/webhook-receiver.js'
import { startTableSink } from '../../streams/table-sink.js'
import { startWebhookDelivery } from '../../streams/webhooks/delivery.js'
import { startPrayerGranter } from '../../streams/alerts/prayers.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import { newWebhookSecret, EVENT_TYPES } from '../../domain/webhooks/index.js'
import { PRAYER_STATUS } from '../../domain/alerts/prayers.js'
import { sql, ident } from '../../core/sql.js'
import { createUser } from '../../bin/users.js'
import { sourceStack } from '../helpers/source-stack.js'

t.test('issue 10: a prayer and an endpoint created just before a document became available get its PRAY_AND_PAY', async (t) => {
  const receiver = await startWebhookReceiver({ default: ok() })
  t.teardown(() => receiver.close())
  const { rt, stops, ts, pub } = await sourceStack(t, { LDS_WEBHOOKS_ALLOW_INSECURE: '1' })
  const { id: userId } = await createUser(rt, 'ann')
  const sink = await startTableSink(rt)
  stops.push(() => sink.stop())

  // The granter's webhooks table decodes no endpoint until the granter asks for the webhooks
  // topic's end offsets; the sink can hold back prayers until the granter waits on its watermarks.
  const gates = await raceGates(rt, sink, 'webhooks')
  stops.push(() => gates.stop())

  const queue = await openWebhookQueue(rt)
  stops.push(() => queue.stop())
  const delivery = await startWebhookDelivery({ ...rt, publisher: pub, queue, mailer: undefined })
  stops.push(() => delivery.stop())
  // Started before any endpoint exists: its webhooks table is ready without decoding one.
  const granter = await startPrayerGranter({ ...rt, kafka: gates.kafka, registry: gates.registry, publisher: pub, queue, mailer: undefined, watermarks: gates.watermarks })
  stops.push(() => granter.stop())
  gates.arm()
  // Without the fix nothing waits: what was held is let go once the granter is done with the document.
  granter.consumer.on(granter.consumer.events.END_BATCH_PROCESS, () => gates.release())

  const grantsOf = (prayer: number) => receiver.deliveries.filter((d: Delivery) => d.json?.webhook?.event_type === EVENT_TYPES.PRAY_AND_PAY.id && d.json.payload.id === prayer)
  const prayer = (id: number, doc: number) => ({ id, user_id: userId, date_created: ts, status: PRAYER_STATUS.WAITING, archive_document_id: doc })
  const available = (id: number) => ({ id, docket_entry_id: 500, docket_id: 1, document_number: String(id), is_available: true, description: 'Complaint', date_created: ts, date_modified: ts })
  const inTable = async (id: number) => (await rt.db.query(sql`SELECT id FROM ${ident(rt.cfg.clickhouseDatabase)}.prayers FINAL WHERE id = ${id}`)).length > 0

  // First: the held schema look-up is the table's first endpoint (its decoder caches schemas).
  t.test('an endpoint the webhooks table has not read yet', async (t) => {
    await pub.upsert('prayers', prayer(1, 50))
    await pub.flush()
    await waitFor(() => inTable(1), 'prayer 1 in ClickHouse')
    await pub.upsert('webhooks', { id: 1, user_id: userId, event_type: EVENT_TYPES.PRAY_AND_PAY.id, url: receiver.url, version: 2, enabled: true, failure_count: 0, secret: newWebhookSecret(), deliver_updates: false, date_created: ts, date_modified: ts })
    await pub.flush()
    await pub.upsert('archive-documents', available(50))
    await pub.flush()
    const [d] = await waitFor(async () => grantsOf(1).length && grantsOf(1), 'the PRAY_AND_PAY of prayer 1')
    t.match(d.json.payload, { id: 1, status: PRAYER_STATUS.GRANTED, archive_document: 50 }, 'the event reached the new endpoint')
  })

  t.test('a prayer the table sink has not applied yet', async (t) => {
    gates.holdSink('prayers')
    await pub.upsert('prayers', prayer(2, 51))
    await pub.flush()
    await pub.upsert('archive-documents', available(51))
    await pub.flush()
    const [d] = await waitFor(async () => grantsOf(2).length && grantsOf(2), 'the PRAY_AND_PAY of prayer 2')
    t.match(d.json.payload, { id: 2, status: PRAYER_STATUS.GRANTED, archive_document: 51 }, 'the prayer was granted')
  })
})
