/**
 * The docket alert sender moves an alert's date_last_hit by writing the whole alert row again. It
 * wrote the copy it had read when the batch began, at a newer version: a change the user made while
 * the batch sent (a PATCH of the alert's type) was overwritten, and an alert deleted meanwhile came
 * back. It now writes date_last_hit on the alert's latest row, read once the batch has sent, at
 * that row's version + 1.
 *
 * The race is held open: the sender's mail of the new entry does not return until the test has
 * changed (or deleted) the alert; the sender has read the alert before it mails.
 */
import t from 'tap'
import { waitFor } from '../helpers/stack.js'
import { raceGates } from '../helpers/race-gates.js'
import { startTableSink } from '../../streams/table-sink.js'
import { startDocketAlertSender } from '../../streams/alerts/docket-alerts.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import { entityTopic } from '../../schemas/events/index.js'
import type { Mailer, OutgoingMail } from '../../clients/mail.js'
import { sql, ident } from '../../core/sql.js'
import { createUser } from '../../bin/users.js'
import { sourceStack } from '../helpers/source-stack.js'

t.test('a change made to a docket alert while the sender sends its hit is not lost', async (t) => {
  const { rt, stops, ts, pub } = await sourceStack(t, { LDS_PARTITIONS: '4' })
  const { id: userId } = await createUser(rt, 'ann', { email: 'ann@example.org' })
  const sink = await startTableSink(rt)
  stops.push(() => sink.stop())
  // Only the sink's watermarks are used here (nothing is gated but the mail).
  const gates = await raceGates(rt, sink, 'docket-alerts')
  stops.push(() => gates.stop())
  gates.release()

  // Each mail waits until the test lets it go.
  const mailed: OutgoingMail[] = []
  let letGo = () => {}
  const mailer: Mailer = {
    async send(mail) {
      mailed.push(mail)
      await new Promise<void>((r) => { letGo = r })
      return { messageId: String(mailed.length), accepted: [mail.to as string], rejected: [] }
    },
    async verify() {},
    async close() {},
  }
  const alert = (id: number, docket: number) => ({ id, user_id: userId, docket_id: docket, alert_type: 1, secret_key: 'k'.repeat(40), date_created: ts, date_modified: ts, date_last_hit: null })
  for (const docket of [1, 2]) {
    await pub.upsert('dockets', { id: docket, court_id: 'nysd', case_name: `Doe ${docket} v. Acme`, source: 0, date_created: ts, date_modified: ts })
    await pub.upsert('docket-alerts', alert(docket, docket))
  }
  await pub.flush()

  const queue = await openWebhookQueue(rt)
  stops.push(() => queue.stop())
  const sender = await startDocketAlertSender({ ...rt, publisher: pub, queue, mailer, watermarks: gates.watermarks })
  stops.push(() => sender.stop())
  let ended = 0
  sender.consumer.on(sender.consumer.events.END_BATCH_PROCESS, () => { ended++ })

  const db = ident(rt.cfg.clickhouseDatabase)
  const rowOf = async (id: number) => (await rt.db.query<{ alert_type: number; date_last_hit: string | null; _deleted: number }>(sql`
    SELECT alert_type, date_last_hit, _deleted FROM ${db}.docket_alerts FINAL WHERE id = ${id}`))[0]
  /** The sender's batch is done (mailed, written) and the sink has applied all it wrote. */
  const settled = async (endedBefore: number) => {
    await waitFor(async () => ended > endedBefore, 'the end of the sender\'s batch')
    const admin = rt.kafka.admin()
    await admin.connect()
    const topic = entityTopic(rt.cfg, 'docket-alerts')
    const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect())
    for (const p of ends) if (BigInt(p.high) > 0n) t.ok(await gates.real.waitUntilApplied(topic, p.partition, String(BigInt(p.high) - 1n), 30_000), `docket alerts partition ${p.partition} applied`)
  }
  /** Publishes an entry on `docket`, does `meanwhile` while its mail is held, then lets the mail go. */
  const race = async (entry: number, docket: number, meanwhile: () => Promise<void>) => {
    const before = mailed.length
    await pub.upsert('docket-entries', { id: entry, docket_id: docket, entry_number: 1, description: 'Motion', date_created: ts, date_modified: ts })
    await pub.flush()
    await waitFor(async () => mailed.length > before, `the mail of entry ${entry}`)
    const endedBefore = ended
    await meanwhile()
    letGo()
    await settled(endedBefore)
  }

  await t.test('a PATCH of the alert while its hit is sent', async (t) => {
    await race(500, 1, async () => {
      await pub.upsert('docket-alerts', { ...alert(1, 1), alert_type: 0, date_modified: new Date().toISOString() })
      await pub.flush()
    })
    const row = await waitFor(() => rowOf(1), 'alert 1 in ClickHouse')
    t.equal(Number(row.alert_type), 0, 'the user\'s change is kept')
    t.ok(row.date_last_hit, 'and the hit is recorded on it')
  })

  await t.test('a delete of the alert while its hit is sent', async (t) => {
    await race(501, 2, async () => {
      await pub.delete('docket-alerts', 2)
      await pub.flush()
    })
    const row = await rowOf(2)
    t.ok(!row || Number(row._deleted) === 1, 'the deleted alert does not come back')
  })
})
