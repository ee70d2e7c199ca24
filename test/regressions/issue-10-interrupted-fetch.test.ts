/**
 * Issue 10, the archive fetcher: a fetch interrupted after it was marked in progress must be failed
 * (nothing was bought; fetching again could buy twice), and it was only when the restarted fetcher
 * read the queued and in-progress states in different batches. Replayed together, the batch kept
 * the request's last state, in progress, which the fetcher took for its own write coming back: the
 * request stayed in progress for ever. Here both states are on the topic before the fetcher starts,
 * so they are read in one batch.
 */
import t from 'tap'
import { waitFor } from '../helpers/stack.js'
import { startFakeRecords } from '../helpers/fake-records.js'
import { startTableSink } from '../../streams/table-sink.js'
import { startArchiveFetcher } from '../../streams/alerts/archive-fetch.js'
import { openWebhookQueue } from '../../schemas/events/webhook-queue.js'
import { sql, ident } from '../../core/sql.js'
import { createUser } from '../../bin/users.js'
import { gatewayOf } from '../../bin/runtime.js'
import { sourceStack } from '../helpers/source-stack.js'

t.test('issue 10: a fetch left in progress by a stopped fetcher is failed when it is read again', async (t) => {
  const records = await startFakeRecords({ username: 'svc', password: 'secret' })
  t.teardown(() => records.close())
  const { rt, stops, ts, pub } = await sourceStack(t, { LDS_RECORDS_URL: records.url, LDS_RECORDS_USERNAME: 'svc', LDS_RECORDS_PASSWORD: 'secret' })
  const { id: userId } = await createUser(rt, 'ann')
  const sink = await startTableSink(rt)
  stops.push(() => sink.stop())

  records.addDocument({ court: 'nysd', records_case_id: '77', records_doc_id: '0777', pageCount: 2 })
  await pub.upsert('dockets', { id: 7, court_id: 'nysd', case_name: 'Doe v. Acme', records_case_id: '77', docket_number: '1:26-cv-7', source: 0, date_created: ts, date_modified: ts })
  await pub.upsert('archive-documents', { id: 70, docket_entry_id: 700, docket_id: 7, document_number: '1', records_doc_id: '0777', is_available: false, description: 'Complaint', date_created: ts, date_modified: ts })
  const request = {
    id: 2001, user_id: userId, date_created: ts, date_modified: ts, date_completed: null, status: 1, message: '', request_type: 2,
    court_id: null, docket_id: null, archive_document_id: 70, records_username: '', records_password: '', client_code: '',
    records_case_id: '', docket_number: '', de_date_start: null, de_date_end: null, de_number_start: null, de_number_end: null,
    show_parties_and_counsel: false, show_terminated_parties: false, show_list_of_member_cases: false,
  }
  // What a fetcher that stopped mid-fetch leaves: the request queued, then marked in progress.
  await pub.upsert('archive-fetch', request)
  await pub.upsert('archive-fetch', { ...request, status: 4 })
  await pub.flush()

  const queue = await openWebhookQueue(rt)
  stops.push(() => queue.stop())
  const fetcher = await startArchiveFetcher({ ...rt, publisher: pub, queue, mailer: undefined, gateway: gatewayOf(rt.cfg) })
  stops.push(() => fetcher.stop())

  const db = ident(rt.cfg.clickhouseDatabase)
  const state = async () => (await rt.db.query<{ status: number; message: string }>(sql`SELECT status, message FROM ${db}.archive_fetch FINAL WHERE id = 2001`))[0]
  const done = await waitFor(async () => { const s = await state(); return s && Number(s.status) !== 4 && s }, 'the request left in progress is settled', 30_000)
  t.equal(Number(done.status), 3, 'failed')
  t.match(done.message, /interrupted/, 'with the message asking to request it again')
  t.notOk(records.requests.some((r) => r.path.endsWith('/documents/fetch')), 'nothing was bought again')
})
