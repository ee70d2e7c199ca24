/**
 * Issue 10: the docket alert sender raced what it reads. An alert created just before an entry on
 * its docket could be missing from the sender's in-memory alerts table (the alert silently lost),
 * and the entry's archive documents missing from ClickHouse when the table sink had not applied
 * them yet (the event sent without them). The sender now waits, bounded, until both have caught up
 * with what the topics held when it consumed the entry.
 *
 * Each race is made certain instead of likely: the sender's alerts table cannot decode a docket
 * alert (its schema look-up is held) and the table sink does not read documents or dockets (its
 * consumer is paused), until the sender shows it is waiting for them (it asks for the alerts
 * topic's end offsets; it waits on the sink's watermarks) or, without the fix, has finished the
 * entry's batch.
 */
import t from 'tap'
import { waitFor } from '../helpers/stack.js'
import { raceGates } from '../helpers/race-gates.js'
import { startWebhookReceiver, ok, type Delivery } from '../helpers/webhook-receiver.js'
import { startTableSink } from '../../streams/table-sink.js'
import { startWebhookDelivery } from '../../streams/webhooks/delivery.js'
import { startDocketAlertSender } from '../../streams/alerts/docket-alerts.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import { newWebhookSecret, EVENT_TYPES } from '../../domain/webhooks/index.js'
import { createUser } from '../../bin/users.js'
import { sourceStack } from '../helpers/source-stack.js'

t.test('issue 10: an alert and documents published just before an entry are in its DOCKET_ALERT', async (t) => {
  const receiver = await startWebhookReceiver({ default: ok() })
  t.teardown(() => receiver.close())
  const { rt, stops, ts, pub } = await sourceStack(t, { LDS_WEBHOOKS_ALLOW_INSECURE: '1' })
  const { id: userId } = await createUser(rt, 'ann')
  await pub.upsert('webhooks', { id: 1, user_id: userId, event_type: EVENT_TYPES.DOCKET_ALERT.id, url: receiver.url, version: 2, enabled: true, failure_count: 0, secret: newWebhookSecret(), deliver_updates: false, date_created: ts, date_modified: ts })
  await pub.flush()
  const sink = await startTableSink(rt)
  stops.push(() => sink.stop())

  // The alerts table decodes no docket alert until the sender asks for the alerts topic's end
  // offsets; the sink can hold back documents and dockets until the sender waits on its watermarks.
  const gates = await raceGates(rt, sink, 'docket-alerts')
  stops.push(() => gates.stop())

  const queue = await openWebhookQueue(rt)
  stops.push(() => queue.stop())
  const delivery = await startWebhookDelivery({ ...rt, publisher: pub, queue, mailer: undefined })
  stops.push(() => delivery.stop())
  const sender = await startDocketAlertSender({ ...rt, kafka: gates.kafka, registry: gates.registry, publisher: pub, queue, mailer: undefined, watermarks: gates.watermarks })
  stops.push(() => sender.stop())
  gates.arm()
  // Without the fix nothing waits: what was held is let go once the sender is done with the entry.
  sender.consumer.on(sender.consumer.events.END_BATCH_PROCESS, () => gates.release())

  const alertsOf = (entry: number) => receiver.deliveries.filter((d: Delivery) => d.json?.webhook?.event_type === EVENT_TYPES.DOCKET_ALERT.id && d.json.payload.results.some((r: { id: number }) => r.id === entry))
  const alert = (id: number, docket: number) => ({ id, user_id: userId, docket_id: docket, alert_type: 1, secret_key: 'k'.repeat(40), date_created: ts, date_modified: ts, date_last_hit: null })

  // First: the held schema look-up is the table's first docket alert (its decoder caches schemas).
  t.test('an alert the alerts table has not read yet', async (t) => {
    await pub.upsert('docket-alerts', alert(2, 2))
    await pub.flush()
    await pub.upsert('docket-entries', { id: 600, docket_id: 2, entry_number: 1, description: 'Motion', date_created: ts, date_modified: ts })
    await pub.flush()
    const [d] = await waitFor(async () => alertsOf(600).length && alertsOf(600), 'the DOCKET_ALERT of entry 600')
    t.match(d.json.payload.results, [{ id: 600, docket: 2, description: 'Motion' }], 'the alert was not missed')
  })

  t.test('documents the table sink has not applied yet', async (t) => {
    gates.holdSink('archive-documents', 'dockets')
    await pub.upsert('dockets', { id: 1, court_id: 'nysd', case_name: 'Doe v. Acme', source: 0, date_created: ts, date_modified: ts })
    await pub.upsert('archive-documents', { id: 50, docket_entry_id: 500, docket_id: 1, document_number: '1', is_available: false, description: 'Complaint', date_created: ts, date_modified: ts })
    await pub.upsert('docket-alerts', alert(1, 1))
    await pub.flush()
    await pub.upsert('docket-entries', { id: 500, docket_id: 1, entry_number: 1, description: 'Complaint', date_created: ts, date_modified: ts })
    await pub.flush()
    const [d] = await waitFor(async () => alertsOf(500).length && alertsOf(500), 'the DOCKET_ALERT of entry 500')
    t.match(d.json.payload.results, [{ id: 500, docket: 1, archive_documents: [{ id: 50, document_number: '1', description: 'Complaint' }] }], 'the document is in the event')
  })
})
