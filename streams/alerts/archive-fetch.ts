/**
 * The archive fetch processor. A queued request (status 1) is marked in progress (4), sent to the
 * court-records gateway in the user's own session (the one the API opened with the credentials
 * the request carried: clients/records-sessions.ts; without one, the service's account if it
 * has one, else the request needs the user's credentials again, status 7), and completed: success (2, date_completed, a message) makes the document
 * available in the archive (is_available, its file, pages and hash), which is what grants prayers;
 * failure (3, or 6/7 as the gateway says, date_completed null, the gateway's message). Either way
 * the owner gets an ARCHIVE_FETCH webhook event. Users who asked to be auto-subscribed follow a
 * docket they fetched (a docket alert is made for them).
 * A request found in progress when it is read again (the processor stopped mid-fetch) is failed
 * with a message asking to request it again: fetching twice could buy twice. After a restart the
 * replayed batch may hold the request's queued and in-progress states together, the latter last:
 * an in-progress state this process did not write itself is such a request, and is read again.
 *
 * What it reads trails the topics: the request's last state, its document, docket and the docket
 * alerts are read from ClickHouse (the table sink's), the user and endpoints from in-memory tables.
 * A document or docket published just before the request (the API checks it exists in its own read
 * model, not in ClickHouse) would fail the fetch or lose its court; an alert created just before
 * would be duplicated by auto-subscribe; a request already done, read again after a restart while
 * the sink lags, would be fetched (bought) twice. So each batch with queued requests first fetches
 * the end offsets of those topics and waits, bounded, until the sink has applied them that far and
 * the users and webhooks tables have read theirs. They are keyed by their own ids: every partition
 * is waited for. After CATCH_UP_MS the batch goes on with a warning.
 * The docket alerts it makes get their ids from the process's id allocator (core/ids.ts).
 */
import { entityTopic, dlqTopic, groupId, createDecoder, validateEntityEvent, type EntityEvent } from '../../schemas/events/index.js'
import { archiveFetchPayload, EVENT_TYPES } from '../../domain/webhooks/index.js'
import type { RecordsGateway } from '../../clients/records-gateway.js'
import type { RecordsSessions } from '../../clients/records-sessions.js'
import { startStream, type StreamDef, type BatchContext } from '../runner.js'
import { useWatermarks } from '../../core/events/watermark-reader.js'
import { openSourceContext, asShown, type SourceDeps, type Row } from './context.js'
import { createEndOffsets, catchUp, sinkCatchUp, tableCatchUp } from '../lib/catch-up.js'
import type { IdSource } from '../../core/ids.js'

export const ARCHIVE_FETCHER = 'archive-fetcher'
const STATUS = { QUEUED: 1, SUCCEEDED: 2, FAILED: 3, IN_PROGRESS: 4 } as const

/**
 * How long a batch waits for what it reads to catch up. The runner heartbeats while a batch waits
 * and while it fetches (a slow gateway does not get the member evicted); the wait gives a stale
 * batch up (context.ts catchUp). A fetch once started is finished, stale or not: it may buy.
 */
const CATCH_UP_MS = 10_000

export async function startArchiveFetcher(deps: SourceDeps & { ids: IdSource; gateway?: RecordsGateway; sessions?: RecordsSessions }) {
  const { cfg, clock } = deps
  const log = deps.log.child({ stream: ARCHIVE_FETCHER })
  const ctx = await openSourceContext(deps, ARCHIVE_FETCHER)
  const { watermarks, release: releaseWatermarks } = await useWatermarks(deps)
  const sinkTopics = (['archive-fetch', 'archive-documents', 'dockets', 'docket-alerts'] as const).map((r) => entityTopic(cfg, r))
  const offsets = createEndOffsets(deps, [...sinkTopics, ctx.users.topic, ctx.webhooks.topic])
  const decode = createDecoder(deps.registry)
  const iso = () => new Date(clock.now()).toISOString()
  /** Requests this process marked in progress: their in-progress state coming back is its own. */
  const mine = new Set<number>()

  async function complete(req: Row, change: Row): Promise<Row> {
    const done: Row = { ...req, ...change, date_modified: iso() }
    await deps.publisher.write('archive-fetch', { upsert: done })
    await ctx.emitter.emit({ userId: Number(req.user_id), eventType: EVENT_TYPES.ARCHIVE_FETCH.id, payload: () => archiveFetchPayload(asShown({ ...done, court: done.court_id, docket: done.docket_id, archive_document: done.archive_document_id })) })
    return done
  }

  /** `subscribed`: the user/docket pairs this batch has subscribed, which ClickHouse cannot show yet. */
  async function fetchOne(req: Row, subscribed: Set<string>): Promise<void> {
    // Its last state: ClickHouse's (the batch waited for the sink), else the event's own.
    const current = (await ctx.rowsWhere('archive-fetch', 'id', [Number(req.id)]))[0] ?? req
    if (Number(current.status) !== STATUS.QUEUED && Number(current.status) !== STATUS.IN_PROGRESS) return // already done
    if (Number(current.status) === STATUS.IN_PROGRESS) {
      await complete(req, { status: STATUS.FAILED, date_completed: null, message: 'The fetch was interrupted; nothing was bought. Please request it again.' })
      return
    }
    if (!deps.gateway) {
      await complete(req, { status: STATUS.FAILED, date_completed: null, message: 'No court-records gateway is configured for this service.' })
      return
    }
    // The id of the docket alert auto-subscribe may make, leased before anything is bought: a
    // lease that fails (Kafka unreachable) fails the request with nothing bought, rather than a
    // bought fetch with its subscription missing.
    const alertId = ctx.users.get(Number(req.user_id))?.auto_subscribe ? await deps.ids.next() : undefined
    mine.add(Number(req.id))
    await deps.publisher.write('archive-fetch', { upsert: { ...req, status: STATUS.IN_PROGRESS, date_modified: iso() } })
    // the user's own records-system session, which the API kept when the request was made
    const as = { session: await deps.sessions?.take(Number(req.id)) }
    const type = Number(req.request_type)
    if (type === 1) {
      const docket = req.docket_id ? (await ctx.rowsWhere('dockets', 'id', [Number(req.docket_id)]))[0] : undefined
      const got = await deps.gateway.fetchDocket({
        court: String(req.court_id ?? docket?.court_id ?? ''), records_case_id: (req.records_case_id as string) || (docket?.records_case_id as string) || null,
        docket_number: (req.docket_number as string) || (docket?.docket_number as string) || null, de_date_start: req.de_date_start as string | null, de_date_end: req.de_date_end as string | null,
        de_number_start: req.de_number_start as number | null, de_number_end: req.de_number_end as number | null,
        show_parties_and_counsel: !!req.show_parties_and_counsel, show_terminated_parties: !!req.show_terminated_parties, show_list_of_member_cases: !!req.show_list_of_member_cases,
      }, as)
      if (!got.ok) { await complete(req, { status: got.failure.fetchStatus, date_completed: null, message: got.failure.message }); return }
      await complete(req, { status: STATUS.SUCCEEDED, date_completed: iso(), message: `Successfully completed fetch and save: docket ${got.value.docket_number}.` })
      if (docket && alertId !== undefined) await autoSubscribe(Number(req.user_id), Number(docket.id), subscribed, alertId)
      return
    }
    const doc = (await ctx.rowsWhere('archive-documents', 'id', [Number(req.archive_document_id)]))[0]
    if (!doc) { await complete(req, { status: STATUS.FAILED, date_completed: null, message: 'The document is not in the archive.' }); return }
    const docket = doc.docket_id ? (await ctx.rowsWhere('dockets', 'id', [Number(doc.docket_id)]))[0] : undefined
    const got = await deps.gateway.fetchDocument({
      court: String(docket?.court_id ?? ''), records_case_id: String(docket?.records_case_id ?? ''), records_doc_id: String(doc.records_doc_id ?? ''),
      document_number: (doc.document_number as string) ?? null, attachment_number: (doc.attachment_number as number) ?? null,
    }, as)
    if (!got.ok) { await complete(req, { status: got.failure.fetchStatus, date_completed: null, message: got.failure.message }); return }
    // The document is now in the archive: this is what grants the prayers waiting for it.
    await deps.publisher.write('archive-documents', { upsert: {
      ...doc, is_available: true, sha1: got.value.sha1, file_size: got.value.fileSize, page_count: got.value.pageCount ?? doc.page_count ?? null,
      filepath_local: `archive/${String(docket?.court_id ?? 'court')}/${String(doc.id)}.pdf`, date_upload: iso(), date_modified: iso(),
    } })
    await complete(req, { status: STATUS.SUCCEEDED, date_completed: iso(), message: 'Successfully completed fetch and save.' })
    if (docket && alertId !== undefined) await autoSubscribe(Number(req.user_id), Number(docket.id), subscribed, alertId)
  }

  /** A user with auto-subscribe follows the docket it fetched (unless it already has an alert on it); `id` is the alert's. */
  async function autoSubscribe(userId: number, docketId: number, subscribed: Set<string>, id: number): Promise<void> {
    if (subscribed.has(`${userId}/${docketId}`)) return
    subscribed.add(`${userId}/${docketId}`)
    const existing = await ctx.rowsWhere('docket-alerts', 'docket_id', [docketId])
    if (existing.some((a) => Number(a.user_id) === userId)) return
    const now = iso()
    await deps.publisher.write('docket-alerts', { upsert: {
      id, user_id: userId, docket_id: docketId, alert_type: 1,
      secret_key: [...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, '0')).join(''),
      date_created: now, date_modified: now, date_last_hit: null,
    } })
  }

  async function process(events: EntityEvent[], batch?: BatchContext): Promise<void> {
    const latest = new Map<number, Row>()
    for (const e of events) if (e.op === 'upsert' && e.entity) latest.set(Number(e.key), e.entity)
    // Queued requests, and in-progress ones another run of the fetcher left (read again, they fail).
    const queued = [...latest.values()].filter((req) => Number(req.status) === STATUS.QUEUED || (Number(req.status) === STATUS.IN_PROGRESS && !mine.has(Number(req.id))))
    if (!queued.length) return // its own in-progress and completed writes coming back: nothing to read
    // Fetched now, after the batch was consumed: they cover every row published before its requests.
    const ends = await offsets.fetch()
    const lagging = await catchUp(batch, CATCH_UP_MS, [...sinkTopics.map((t) => sinkCatchUp(watermarks, t, ends.get(t)!)), ...[ctx.users, ctx.webhooks].map((t) => tableCatchUp(t, ends.get(t.topic)!))])
    if (lagging.length) log.warn({ lagging, waitedMs: CATCH_UP_MS }, 'archive fetch: fetching without waiting longer for what these topics held; a document, docket, alert or endpoint published just before a request may be missing')
    const subscribed = new Set<string>()
    for (const req of queued) {
      try { await fetchOne(req, subscribed) } catch (err) {
        log.warn({ request: req.id, err: (err as Error).message }, 'fetch request failed')
        await complete(req, { status: STATUS.FAILED, date_completed: null, message: 'The fetch failed unexpectedly; nothing was bought. Please try again later.' })
      }
    }
    await deps.publisher.flush()
  }

  const def: StreamDef<EntityEvent, EntityEvent[]> = {
    name: ARCHIVE_FETCHER,
    groupId: groupId(cfg, ARCHIVE_FETCHER),
    topics: [entityTopic(cfg, 'archive-fetch')],
    dlqTopic: dlqTopic(cfg, ARCHIVE_FETCHER),
    async decode(m) { return validateEntityEvent(await decode(m.message.value)) },
    transform: (events) => events.map((e) => e.event),
    sink: process,
    timeouts: deps.consumerTimeouts,
  }
  const stream = await startStream(def, deps)
  return {
    consumer: stream.consumer,
    async stop() {
      await stream.stop()
      await Promise.all([ctx.stop(), offsets.stop(), releaseWatermarks()])
    },
  }
}
