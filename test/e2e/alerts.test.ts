/**
 * The event side end to end, on the real stack with a local webhook receiver, an SMTP sink and a
 * fake court-records system, in both webhook versions: a new docket entry (fed with `lds publish`)
 * → DOCKET_ALERT; a fetch request → the gateway → ARCHIVE_FETCH, and the document it made available
 * → the waiting prayer Granted → PRAY_AND_PAY; the weekly job → OLD_DOCKET_ALERTS_REPORT with
 * old_alerts and disabled_alerts.
 */
import t from 'tap'
import { Readable } from 'node:stream'
import { testStack, testUser, waitFor } from '../helpers/stack.js'
import { startWebhookReceiver, ok, type Delivery } from '../helpers/webhook-receiver.js'
import { startSmtpSink } from '../helpers/smtp-sink.js'
import { startFakeRecords } from '../helpers/fake-records.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../schemas/events/publisher.js'
import { publishLines } from '../../connectors/drivers/publish.js'

/** A scheduled day is 0.5 s: the weekly job runs every 3.5 s, and "180 days idle" is 90 s ago. */
const SCALE = 172_800
const DAY = 86_400_000 / SCALE

t.test('events end to end', async (t) => {
  const receiver = await startWebhookReceiver({ default: ok() })
  t.teardown(() => receiver.close())
  const sink = await startSmtpSink()
  t.teardown(() => sink.close())
  const records = await startFakeRecords({ username: 'svc', password: 'secret' })
  t.teardown(() => records.close())
  const rt = await testStack(t, {
    LDS_TIME_SCALE: String(SCALE), LDS_WEBHOOKS_ALLOW_INSECURE: '1', SMTP_HOST: sink.host, SMTP_PORT: String(sink.port),
    LDS_RECORDS_URL: records.url, LDS_RECORDS_USERNAME: 'svc', LDS_RECORDS_PASSWORD: 'secret',
  })
  const streams = await startProcessors(rt, ['table-sink', 'webhook-delivery', 'docket-alerts', 'archive-fetch', 'prayers', 'scheduler'])
  t.teardown(() => stopAll(rt, streams))
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())

  const ts = new Date().toISOString()
  const longAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString()
  await pub.upsert('courts', { id: 'nysd', full_name: 'S.D.N.Y.', short_name: 'SDNY', jurisdiction: 'FD', position: 2, date_modified: ts })
  await pub.upsert('dockets', { id: 1, court_id: 'nysd', case_name: 'Doe v. Acme', records_case_id: '123', docket_number: '1:26-cv-1', source: 0, date_created: ts, date_modified: ts })
  for (const id of [2, 3]) await pub.upsert('dockets', { id, court_id: 'nysd', case_name: `Old ${id}`, source: 0, date_created: ts, date_modified: ts, date_terminated: longAgo(400).slice(0, 10) })
  await pub.upsert('docket-entries', { id: 500, docket_id: 1, entry_number: 1, description: 'Complaint', date_created: ts, date_modified: ts })
  await pub.upsert('archive-documents', { id: 50, docket_entry_id: 500, docket_id: 1, document_number: '1', records_doc_id: '0456', is_available: false, description: 'Complaint', date_created: ts, date_modified: ts })
  await pub.flush()
  records.addDocument({ court: 'nysd', records_case_id: '123', records_doc_id: '0456', pageCount: 12 })

  const alice = await testUser(rt, 'alice', { app, email: 'alice@example.org' })
  const bob = await testUser(rt, 'bob', { app, email: 'bob@example.org' })
  const as = (token: string) => ({ authorization: `Token ${token}`, host: 'x.test' })
  const post = async (token: string, url: string, payload: unknown) => {
    const r = await app.inject({ method: 'POST', url, headers: as(token), payload: payload as never })
    if (r.statusCode !== 201) throw new Error(`${url}: ${r.statusCode} ${r.body}`)
    return r.json()
  }
  await waitFor(async () => app.readModel!.store.get('archive-documents', 50) !== undefined, 'the seed in the read model')
  const hooks: Record<string, number> = {}
  for (const [token, who, type, version] of [[alice, 'alice', 1, 2], [alice, 'alice', 3, 1], [alice, 'alice', 4, 2], [bob, 'bob', 1, 1], [bob, 'bob', 5, 2]] as const) {
    hooks[`${who}:${type}`] = (await post(token, '/api/rest/v4/webhooks/', { url: `${receiver.url}?who=${who}`, event_type: type, version, enabled: true })).id
  }
  await post(alice, '/api/rest/v4/docket-alerts/', { docket: 1 })
  await post(bob, '/api/rest/v4/docket-alerts/', { docket: 1 })
  const aliceId = app.readModel!.store.get('webhooks', hooks['alice:1'])!.user_id as number
  // Two old subscriptions of alice on dockets that ended long ago: one idle 182 days, one 200.
  for (const [id, docket, idle] of [[71, 2, 182], [72, 3, 200]] as const) {
    await pub.upsert('docket-alerts', { id, user_id: aliceId, docket_id: docket, alert_type: 1, secret_key: 'k'.repeat(40), date_created: longAgo(idle), date_modified: longAgo(idle), date_last_hit: null })
  }
  await pub.flush()
  const of = (who: string, type: number) => receiver.deliveries.filter((d) => d.path.includes(`who=${who}`) && d.json?.webhook?.event_type === type)

  t.test('a new docket entry: DOCKET_ALERT to each follower, in its version', async (t) => {
    const report = await publishLines(rt, 'docket-entries', Readable.from([
      JSON.stringify({ id: 9001, docket: 1, entry_number: 7, description: 'Motion to dismiss', date_filed: ts.slice(0, 10) }) + '\n',
      'not json\n',
    ]))
    t.same([report.published, report.refused], [1, [{ line: 2, reason: report.refused[0]?.reason }]], 'the bad line is reported with its number')
    const [a] = await waitFor(async () => of('alice', 1).length && of('alice', 1), 'alice\'s docket alert')
    t.match(a.json, { webhook: { event_type: 1, version: 2, deprecation_date: null }, payload: { results: [{ id: 9001, docket: 1, entry_number: 7, description: 'Motion to dismiss', archive_documents: [] }] } })
    t.notOk('resource_uri' in a.json.payload.results[0], 'no resource_uri')
    t.notOk('tags' in a.json.payload.results[0], 'no tags')
    const [b] = await waitFor(async () => of('bob', 1).length && of('bob', 1), 'bob\'s docket alert')
    t.match(b.json, { webhook: { version: 1, deprecation_date: '2024-11-18T00:00:00+00:00' }, payload: { results: [{ id: 9001, docket: 1 }] } })
    await waitFor(async () => sink.messages.some((m) => m.to.includes('alice@example.org') && /Motion to dismiss/.test(m.text)), 'the alert mail')
    const hit = await waitFor(async () => { const r = (await app.inject({ url: '/api/rest/v4/docket-alerts/?docket=1', headers: as(alice) })).json(); return r.results?.[0]?.date_last_hit && r.results[0] }, 'date_last_hit set')
    t.ok(hit.date_last_hit, 'the alert records the hit')
    // A changed entry is not a new filing: no event for endpoints that did not ask for updates.
    await pub.upsert('docket-entries', { id: 9001, docket_id: 1, entry_number: 7, description: 'Motion to dismiss (amended)', date_created: ts, date_modified: new Date().toISOString() })
    await pub.flush()
    await new Promise((r) => setTimeout(r, 1500))
    t.equal(of('alice', 1).length, 1, 'no second docket alert for an edit')
  })

  t.test('a fetch: ARCHIVE_FETCH, the document available, the prayer granted: PRAY_AND_PAY', async (t) => {
    const prayer = await post(bob, '/api/rest/v4/prayers/', { archive_document: 50 })
    t.equal(prayer.status, 1)
    const fetch = await post(alice, '/api/rest/v4/archive-fetch/', { request_type: 2, archive_document: 50, records_username: 'ignored', records_password: 'ignored' })
    const [f] = await waitFor(async () => of('alice', 3).length && of('alice', 3), 'ARCHIVE_FETCH')
    t.match(f.json, { webhook: { event_type: 3, version: 1 }, payload: { id: fetch.id, status: 2, archive_document: 50, request_type: 2, message: /Successfully/ } })
    t.ok(f.json.payload.date_completed, 'completed')
    const [p] = await waitFor(async () => of('bob', 5).length && of('bob', 5), 'PRAY_AND_PAY')
    t.same(p.json.payload, { id: prayer.id, date_created: prayer.date_created, status: 2, archive_document: 50 })
    await waitFor(async () => sink.messages.some((m) => m.to.includes('bob@example.org') && !/Motion/.test(m.text)), 'the prayer mail')
    const doc = await waitFor(async () => { const r = (await app.inject({ url: '/api/rest/v4/archive-documents/50/', headers: as(alice) })).json(); return r.is_available && r }, 'the document available')
    t.equal(doc.page_count, 12)
    const fetched = (await app.inject({ url: `/api/rest/v4/archive-fetch/${fetch.id}/`, headers: as(alice) })).json()
    t.match(fetched, { status: 2, date_completed: String })
    t.ok(records.requests.some((r) => r.path.endsWith('/documents/fetch')), 'the gateway was asked')
  })

  t.test('the weekly job: OLD_DOCKET_ALERTS_REPORT with old and disabled alerts', async (t) => {
    const reports = await waitFor(async () => { const r = of('alice', 4).filter((d: Delivery) => d.json.payload.old_alerts.length + d.json.payload.disabled_alerts.length > 0); return r.length && r }, 'the report', 30_000)
    const { payload } = reports[0].json
    t.same(payload.old_alerts.map((a: { id: number }) => a.id), [71], 'idle about 180 days: warned')
    t.same(payload.disabled_alerts.map((a: { id: number }) => a.id), [72], 'idle longer: disabled')
    t.match(payload.disabled_alerts[0], { docket: 3, alert_type: 0 })
    const stored = await waitFor(async () => { const r = app.readModel!.store.get('docket-alerts', 72); return r && Number(r.alert_type) === 0 && r }, 'the alert turned off')
    t.equal(stored.alert_type, 0)
  })
})
