/**
 * The event side end to end, on the real stack with a local webhook receiver, an SMTP sink and a
 * fake court-records system, in both webhook versions: a new docket entry (fed with `lds publish`)
 * → DOCKET_ALERT; a new opinion matching search alerts → SEARCH_ALERT at once (rt) and in the daily
 * digest (dly); a fetch request → the gateway → ARCHIVE_FETCH, and the document it made available
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
import { openPublisher } from '../../core/events/publisher.js'
import { publishLines } from '../../bin/commands/publish.js'
import { entityTopic, PROCESSORS } from '../../schemas/events/index.js'
import { queueTopic } from '../../core/events/webhook-queue.js'
import { DOCKET_ALERT_SENDER } from '../../streams/alerts/docket-alerts.js'
import { DELIVERY_PROCESSOR } from '../../streams/webhooks/delivery.js'
import { SEARCH_INDEXER } from '../../streams/search/indexer.js'
import { SEARCH_SOURCES } from '../../streams/search/documents.js'
import type { Percolator } from '../../streams/search/percolator.js'
import { consumedAll } from '../helpers/consumed.js'

/** A scheduled day is 0.5 s: the weekly job runs every 3.5 s, and "180 days idle" is 90 s ago. */
const SCALE = 172_800
const DAY = 86_400_000 / SCALE

t.test('events end to end', async (t) => {
  const receiver = await startWebhookReceiver({ default: ok() })
  t.teardown(() => receiver.close())
  const sink = await startSmtpSink()
  t.teardown(() => sink.close())
  // the service's own account, and alice's: a purchase must be made in the account of the user who asked
  const records = await startFakeRecords({ username: 'svc', password: 'secret', accounts: { 'alice-records': 'alice-pw' } })
  t.teardown(() => records.close())
  const rt = await testStack(t, {
    LDS_PARTITIONS: '4', LDS_TIME_SCALE: String(SCALE), LDS_WEBHOOKS_ALLOW_INSECURE: '1', SMTP_HOST: sink.host, SMTP_PORT: String(sink.port),
    LDS_RECORDS_URL: records.url, LDS_RECORDS_USERNAME: 'svc', LDS_RECORDS_PASSWORD: 'secret',
  })
  const streams = await startProcessors(rt, ['table-sink', 'search-index', 'webhook-delivery', 'docket-alerts', 'archive-fetch', 'prayers', 'scheduler'])
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
  for (const [token, who, type, version] of [[alice, 'alice', 1, 2], [alice, 'alice', 2, 2], [alice, 'alice', 3, 1], [alice, 'alice', 4, 2], [bob, 'bob', 1, 1], [bob, 'bob', 2, 1], [bob, 'bob', 5, 2]] as const) {
    hooks[`${who}:${type}`] = (await post(token, '/api/rest/v4/webhooks/', { url: `${receiver.url}?who=${who}`, event_type: type, version, enabled: true })).id
  }
  await post(alice, '/api/rest/v4/docket-alerts/', { docket: 1 })
  await post(bob, '/api/rest/v4/docket-alerts/', { docket: 1 })
  const aliceId = app.readModel!.store.get('webhooks', hooks['alice:1'])!.user_id as number
  // Two old subscriptions of alice on dockets that ended long ago: idle 183 and 200 days at the
  // weekly job's next run. The job runs at the start of each scheduled week (scheduler.ts), and the
  // "old" band is one week wide, so the ages are set against that run, at least a second ahead (the
  // alerts must be in ClickHouse by then), not against now: a run 4 days later would already disable
  // the first. The job reads ClickHouse, so the alerts are set again against a later run until the
  // table sink has written them before the run they were set for (a loaded machine can take longer
  // than a scheduled week).
  const WEEK = 7 * DAY
  for (let attempt = 1; ; attempt++) {
    let runAt = Math.ceil(Date.now() / WEEK) * WEEK
    if (runAt - Date.now() < 1_000) runAt += WEEK
    const idleAtRun = (days: number) => new Date(runAt - days * DAY).toISOString()
    for (const [id, docket, idle] of [[71, 2, 183], [72, 3, 200]] as const) {
      await pub.upsert('docket-alerts', { id, user_id: aliceId, docket_id: docket, alert_type: 1, secret_key: 'k'.repeat(40), date_created: idleAtRun(idle), date_modified: idleAtRun(idle), date_last_hit: null })
    }
    await pub.flush()
    await consumedAll(rt, PROCESSORS.tableSink, [entityTopic(rt.cfg, 'docket-alerts'), entityTopic(rt.cfg, 'dockets')], 'the old alerts in ClickHouse')
    if (Date.now() < runAt - 100) break
    if (attempt === 5) throw new Error('the table sink never wrote the old alerts before the weekly run they were set for')
  }
  /** Every webhook event queued so far delivered (and answered): the delivery group committed the queue's end offsets. */
  const delivered = (what: string) => consumedAll(rt, DELIVERY_PROCESSOR, [queueTopic(rt.cfg)], what)
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
    // The sender has handled the edit (committed past it, so any event it made is queued), and the
    // delivery has sent what was queued by then.
    await consumedAll(rt, DOCKET_ALERT_SENDER, [entityTopic(rt.cfg, 'docket-entries')], 'the edit checked for alerts')
    await delivered('the events of the edit, if any')
    t.equal(of('alice', 1).length, 1, 'no second docket alert for an edit')
  })

  t.test('a fetch: ARCHIVE_FETCH, the document available, the prayer granted: PRAY_AND_PAY', async (t) => {
    const prayer = await post(bob, '/api/rest/v4/prayers/', { archive_document: 50 })
    t.equal(prayer.status, 1)
    const refused = await app.inject({ method: 'POST', url: '/api/rest/v4/archive-fetch/', headers: { ...as(alice), 'content-type': 'application/json' }, payload: { request_type: 2, archive_document: 50, records_username: 'alice-records', records_password: 'wrong' } })
    t.equal(refused.statusCode, 400, 'credentials the records system refuses: 400 at once')
    t.same(refused.json(), { non_field_errors: ['The records system rejected this username and password.'] })
    const fetch = await post(alice, '/api/rest/v4/archive-fetch/', { request_type: 2, archive_document: 50, records_username: 'alice-records', records_password: 'alice-pw' })
    const [f] = await waitFor(async () => of('alice', 3).length && of('alice', 3), 'ARCHIVE_FETCH')
    t.match(f.json, { webhook: { event_type: 3, version: 1 }, payload: { id: fetch.id, status: 2, archive_document: 50, request_type: 2, message: /Successfully/ } })
    t.ok(f.json.payload.date_completed, 'completed')
    const [p] = await waitFor(async () => of('bob', 5).length && of('bob', 5), 'PRAY_AND_PAY')
    t.same(p.json.payload, { id: prayer.id, date_created: prayer.date_created, status: 2, archive_document: 50 })
    await waitFor(async () => sink.messages.some((m) => m.to.includes('bob@example.org') && !/Motion/.test(m.text)), 'the prayer mail')
    const doc = await waitFor(async () => { const r = (await app.inject({ url: '/api/rest/v4/archive-documents/50/', headers: as(alice) })).json(); return r.is_available && r }, 'the document available')
    t.equal(doc.page_count, 12)
    // the fetch's own row comes through another topic than the document's: the read model can show one before the other
    const fetched = await waitFor(async () => { const r = (await app.inject({ url: `/api/rest/v4/archive-fetch/${fetch.id}/`, headers: as(alice) })).json(); return r.status === 2 && r }, 'the fetch completed in the read model')
    t.match(fetched, { status: 2, date_completed: String })
    const bought = records.requests.filter((r) => r.path.endsWith('/documents/fetch'))
    t.same(bought.map((r) => r.account), ['alice-records'], 'bought once, in alice\'s own records account (not the service\'s)')
    t.notOk(JSON.stringify(fetched).includes('alice-pw'), 'the password is not shown back')
  })

  t.test('the weekly job: OLD_DOCKET_ALERTS_REPORT with old and disabled alerts', async (t) => {
    // The run the ages were set for reports 71 as old; 72 is disabled by it or by the run before.
    type Report = { old_alerts: { id: number }[]; disabled_alerts: { id: number; docket: number; alert_type: number }[] }
    const payloads = (): Report[] => of('alice', 4).map((d: Delivery) => d.json.payload as Report).filter((p) => p.old_alerts.length + p.disabled_alerts.length > 0)
    const all = await waitFor(async () => { const r = payloads(); return r.some((p) => p.old_alerts.some((a) => a.id === 71)) && r }, 'the report', 30_000)
    // Up to that run: at scaled time later runs go on, and one of them disables 71 in its turn.
    const reports = all.slice(0, all.findIndex((p) => p.old_alerts.some((a) => a.id === 71)) + 1)
    t.same([...new Set(reports.flatMap((p) => p.old_alerts.map((a) => a.id)))], [71], 'idle about 180 days: warned')
    const disabled = reports.flatMap((p) => p.disabled_alerts)
    t.same([...new Set(disabled.map((a) => a.id))], [72], 'idle longer: disabled')
    t.match(disabled[0], { docket: 3, alert_type: 0 })
    const stored = await waitFor(async () => { const r = app.readModel!.store.get('docket-alerts', 72); return r && Number(r.alert_type) === 0 && r }, 'the alert turned off')
    t.equal(stored.alert_type, 0)
  })
  t.test('a matching opinion: SEARCH_ALERT at once for rt alerts, in the digest for daily ones', async (t) => {
    // Real-time alerts are for members.
    const bobId = app.readModel!.store.get('webhooks', hooks['bob:1'])!.user_id as number
    for (const [id, user] of [[1, aliceId], [2, bobId]] as const) await pub.upsert('memberships', { id, user_id: user, level: 'tier-1', is_active: true, date_start: '2024-01-01', date_end: null, date_created: ts, date_modified: ts })
    await pub.flush()
    // both: the read model applies partitions apart, so one membership can show before the other
    await waitFor(async () => app.readModel!.store.get('memberships', 1) !== undefined && app.readModel!.store.get('memberships', 2) !== undefined, 'the memberships in the read model')
    const rtAlert = await post(alice, '/api/rest/v4/alerts/', { name: 'Privacy', query: 'q=privacy&type=o', rate: 'rt' })
    t.equal(rtAlert.estimated_hits, 0, 'the frequency estimate answers with the create')
    await post(bob, '/api/rest/v4/alerts/', { name: 'Privacy v1', query: 'q=privacy%20AND%20court_id:nysd', rate: 'rt' })
    const daily = await post(bob, '/api/rest/v4/alerts/', { name: 'Daily privacy', query: 'q=privacy', rate: 'dly' })
    const refused = await app.inject({ method: 'POST', url: '/api/rest/v4/alerts/', headers: as(alice), payload: { name: 'All', query: 'type=o&order_by=dateFiled%20desc', rate: 'rt' } })
    t.match(refused.json(), { query: [/match-all/] }, 'a match-all alert is refused')
    await waitFor(async () => app.readModel!.store.get('alerts', daily.id) !== undefined, 'the alerts in the read model')
    // The percolator has compiled the three alerts (its alerts table read them) before the documents arrive.
    const percolator = streams.find((s): s is Percolator => 'deliver' in s)!
    await waitFor(async () => percolator.size >= 3, 'the alerts in the percolator')
    await pub.upsert('clusters', { id: 40, docket_id: 1, case_name: 'Doe v. Acme', date_filed: ts.slice(0, 10), precedential_status: 'Published', slug: 'doe-v-acme', date_created: ts, date_modified: ts })
    await pub.upsert('opinions', { id: 400, cluster_id: 40, type: '010combined', plain_text: 'The right to privacy protects the home.', date_created: ts, date_modified: ts })
    await pub.upsert('clusters', { id: 41, docket_id: 2, case_name: 'Old 2', date_filed: ts.slice(0, 10), precedential_status: 'Published', date_created: ts, date_modified: ts })
    await pub.upsert('opinions', { id: 410, cluster_id: 41, type: '010combined', plain_text: 'Nothing of interest here.', date_created: ts, date_modified: ts })
    await pub.flush()
    const [a] = await waitFor(async () => of('alice', 2).length && of('alice', 2), 'alice\'s search alert (v2)', 60_000)
    t.match(a.json, { webhook: { event_type: 2, version: 2 }, payload: { alert: { id: rtAlert.id, name: 'Privacy', rate: 'rt' }, results: [{ cluster_id: 40, caseName: 'Doe v. Acme', opinions: [{ id: 400, snippet: /<strong>privacy<\/strong>/ }] }] } })
    t.notOk('score' in a.json.payload.results[0].meta, 'alerts carry no score')
    const [b] = await waitFor(async () => of('bob', 2).length && of('bob', 2), 'bob\'s search alert (v1)', 60_000)
    t.match(b.json.payload.results, [{ id: 400, cluster_id: 40, caseName: 'Doe v. Acme', court_exact: 'nysd' }], 'v1: one flat row per opinion')
    await waitFor(async () => sink.messages.some((m) => m.to.includes('alice@example.org') && /New hits for your alert: Privacy/.test(m.subject)), 'the real-time mail')
    const digest = await waitFor(async () => sink.messages.find((m) => m.to.includes('bob@example.org') && /daily alerts/.test(m.subject)), 'the daily digest mail', 60_000)
    t.match(digest.text, /Doe v\. Acme/)
    const digests = await waitFor(async () => { const d = of('bob', 2).filter((x: Delivery) => x.json.payload.alert.id === daily.id); return d.length && d }, 'the digest event')
    t.equal(digests.length, 1, 'one digest')
    // The same document changed again is not a new hit.
    await pub.upsert('opinions', { id: 400, cluster_id: 40, type: '010combined', plain_text: 'The right to privacy protects the home and the family.', date_created: ts, date_modified: new Date().toISOString() })
    await pub.flush()
    // The indexer has indexed and percolated the change (it commits after percolating), and the
    // delivery has sent what was queued by then.
    const indexed = [...new Set(Object.values(SEARCH_SOURCES).flat())].filter((r) => rt.catalogue.has(r)).map((r) => entityTopic(rt.cfg, r))
    await consumedAll(rt, SEARCH_INDEXER, indexed, 'the change indexed and percolated')
    await delivered('the events of the change, if any')
    t.equal(of('alice', 2).length, 1, 'no second event for a changed document')
  })
})
