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
import { startArchiveFetcher } from '../../streams/alerts/archive-fetch.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import { sql, ident } from '../../core/sql.js'
import { recordsGatewayOf } from '../../clients/records-gateway.js'
import { archiveFetchStack, documentFetch } from '../helpers/source-stack.js'

t.test('issue 10: a fetch left in progress by a stopped fetcher is failed when it is read again', async (t) => {
  const { rt, stops, ts, pub, userId, documentId, records } = await archiveFetchStack(t, 7)
  const request = documentFetch(2001, userId, documentId, ts)
  // What a fetcher that stopped mid-fetch leaves: the request queued, then marked in progress.
  await pub.upsert('archive-fetch', request)
  await pub.upsert('archive-fetch', { ...request, status: 4 })
  await pub.flush()

  const queue = await openWebhookQueue(rt)
  stops.push(() => queue.stop())
  const fetcher = await startArchiveFetcher({ ...rt, publisher: pub, queue, mailer: undefined, gateway: recordsGatewayOf(rt.cfg) })
  stops.push(() => fetcher.stop())

  const db = ident(rt.cfg.clickhouseDatabase)
  const state = async () => (await rt.db.query<{ status: number; message: string }>(sql`SELECT status, message FROM ${db}.archive_fetch FINAL WHERE id = 2001`))[0]
  const done = await waitFor(async () => { const s = await state(); return s && Number(s.status) !== 4 && s }, 'the request left in progress is settled', 30_000)
  t.equal(Number(done.status), 3, 'failed')
  t.match(done.message, /interrupted/, 'with the message asking to request it again')
  t.notOk(records.requests.some((r) => r.path.endsWith('/documents/fetch')), 'nothing was bought again')
})
