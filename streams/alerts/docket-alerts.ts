/**
 * The docket alert sender. Reads docket entries as they arrive; for an entry new to a docket that
 * users follow (an active docket alert), each follower gets a DOCKET_ALERT webhook event (entries
 * with `docket` as an integer id, no resource_uri, no tags) on its enabled endpoints and an
 * e-mail, and its alert's date_last_hit moves. A changed entry (seen before) is sent only to
 * endpoints that asked for updates (`deliver_updates`, our addition). The entries it has seen are
 * recorded before it commits, so a replay is not mistaken for new filings.
 *
 * An alert created just before an entry on its docket, and the entry's documents and docket, may
 * not have reached the alerts table (read from its topic) or ClickHouse (by the table sink) when
 * the entry is consumed. So each batch first fetches the end offsets of the topics it reads (one
 * request per batch, shared by concurrent batches) and waits, bounded, until the alerts table has
 * read that far; when the batch has followers, also until the users and webhooks tables have and
 * the sink has applied the archive-documents and dockets topics that far. Those topics are keyed
 * by their own ids, not by entry or docket, so every partition is waited for, not only the entry's.
 * After CATCH_UP_MS the batch goes on with a warning: a stopped table sink delays alerts, it
 * does not stop them.
 *
 * Moving an alert's date_last_hit rewrites the whole alert row, and a user may change the alert
 * (PATCH: its type, say) while the batch sends. So the sender never writes from the copy it read at
 * the start of the batch: once the batch has sent, it catches the alerts table up with what the
 * topic holds then, takes each alert's latest row (none if deleted: a deleted alert is not brought
 * back) and writes it with only date_last_hit changed, at that row's version + 1. A user's change it
 * has read is kept in the row; one published after it read (a version from a later clock) is
 * higher, and wins over the sender's write.
 */
import { sql, ident } from '../../core/sql.js'
import { useWatermarks } from '../../core/events/watermark-reader.js'
import { entityTopic, dlqTopic, groupId, createDecoder, validateEntityEvent, createVersioner, type EntityEvent } from '../../schemas/events/index.js'
import { ALERT_ENTRIES_SEEN } from '../../schemas/internal/alerts.js'
import { docketAlertPayload, EVENT_TYPES } from '../../domain/webhooks/index.js'
import { docketAlertMail } from '../../clients/mail.js'
import { startStream, type StreamDef, type BatchContext } from '../runner.js'
import { openEntityTable } from '../lib/entity-table.js'
import { createPublisher } from '../../core/events/publisher.js'
import { openSourceContext, asShown, type SourceDeps, type Row } from './context.js'
import { createEndOffsets, catchUp, sinkCatchUp, tableCatchUp } from '../lib/catch-up.js'

export const DOCKET_ALERT_SENDER = 'docket-alert-sender'

/** How long a batch waits for the tables it reads to catch up (heartbeating meanwhile: see context.ts catchUp). */
const CATCH_UP_MS = 10_000

export async function startDocketAlertSender(deps: SourceDeps) {
  const { cfg, db, clock } = deps
  const log = deps.log.child({ stream: DOCKET_ALERT_SENDER })
  const ctx = await openSourceContext(deps, DOCKET_ALERT_SENDER)
  const alerts = openEntityTable(deps, 'docket-alerts')
  await alerts.start()
  await alerts.ready()
  const { watermarks, release: releaseWatermarks } = await useWatermarks(deps)
  const sinkTopics = [entityTopic(cfg, 'archive-documents'), entityTopic(cfg, 'dockets')]
  const offsets = createEndOffsets(deps, [alerts.topic, ctx.users.topic, ctx.webhooks.topic, ...sinkTopics])
  const decode = createDecoder(deps.registry)
  const version = createVersioner()
  // The date_last_hit writes carry a version of their own choosing: the alert's latest + 1.
  let hitVersion = 0
  const hits = createPublisher({ ...deps, version: () => hitVersion })
  await hits.start()
  const table = (name: string) => sql`${ident(db.database)}.${ident(name)}`

  /** Users following a docket with an active alert, and their alerts. */
  const followers = (docketId: number): Row[] => [...alerts.values()].filter((a) => Number(a.docket_id) === docketId && Number(a.alert_type) === 1)

  /** date_last_hit = `now` on the latest row of each alert, at its version + 1 (see the top of the file). */
  async function markHit(ids: ReadonlySet<number>, now: string): Promise<void> {
    if (!ids.size) return
    // What the topic holds now: a change made while the batch sent is read first.
    const ends = await offsets.fetch()
    if (!await alerts.waitUntil(ends.get(alerts.topic)!, CATCH_UP_MS)) log.warn({ waitedMs: CATCH_UP_MS }, 'docket alerts: date_last_hit set on the alerts as last read; a change made meanwhile wins over it')
    for (const id of ids) {
      const latest = alerts.get(id)
      const v = alerts.versionOf(id)
      if (!latest || v === undefined) continue
      const row = { ...latest, date_last_hit: now }
      hitVersion = v + 1
      await hits.write('docket-alerts', { upsert: row })
      alerts.set(id, row, v + 1)
    }
  }

  async function process(events: EntityEvent[], batch?: BatchContext): Promise<void> {
    const entries = new Map<number, Row>()
    for (const e of events) if (e.op === 'upsert' && e.entity) entries.set(Number(e.key), e.entity)
    if (!entries.size) return
    // Fetched now, after the batch was consumed: they cover every alert and document published before its entries.
    const ends = await offsets.fetch()
    const deadline = Date.now() + CATCH_UP_MS
    const lagging = await catchUp(batch, CATCH_UP_MS, [tableCatchUp(alerts, ends.get(alerts.topic)!)])
    const seen = new Set((await db.withKeys<{ id: number }>([...entries.keys()], 'Int64', (k) => sql`SELECT id FROM ${table(ALERT_ENTRIES_SEEN)} FINAL WHERE id IN ${k}`)).map((r) => Number(r.id)))
    const byDocket = new Map<number, { fresh: Row[]; changed: Row[] }>()
    for (const [id, entry] of entries) {
      const docketId = Number(entry.docket_id)
      if (!followers(docketId).length) continue
      const slot = byDocket.get(docketId) ?? { fresh: [], changed: [] }
      ;(seen.has(id) ? slot.changed : slot.fresh).push(entry)
      byDocket.set(docketId, slot)
    }
    if (byDocket.size) {
      const left = Math.max(0, deadline - Date.now())
      lagging.push(...await catchUp(batch, left, [...[ctx.users, ctx.webhooks].map((t) => tableCatchUp(t, ends.get(t.topic)!)), ...sinkTopics.map((t) => sinkCatchUp(watermarks, t, ends.get(t)!))]))
    }
    if (lagging.length) log.warn({ lagging, waitedMs: CATCH_UP_MS }, 'docket alerts: sent without waiting longer for what these topics held; an alert or document published just before an entry may be missing')
    if (byDocket.size) {
      const all = [...byDocket.values()].flatMap((s) => [...s.fresh, ...s.changed])
      const docs = await ctx.rowsWhere('archive-documents', 'docket_entry_id', all.map((e) => Number(e.id)))
      const dockets = new Map((await ctx.rowsWhere('dockets', 'id', [...byDocket.keys()])).map((d) => [Number(d.id), d]))
      const shape = (entry: Row) => ({ ...asShown(entry), docket: Number(entry.docket_id), archive_documents: docs.filter((d) => Number(d.docket_entry_id) === Number(entry.id)).map(asShown) })
      const now = new Date(clock.now()).toISOString()
      const hitAlerts = new Set<number>()
      for (const [docketId, { fresh, changed }] of byDocket) {
        for (const alert of followers(docketId)) {
          const userId = Number(alert.user_id)
          if (fresh.length) {
            const payload = docketAlertPayload(fresh.map(shape))
            await ctx.emitter.emit({ userId, eventType: EVENT_TYPES.DOCKET_ALERT.id, payload: () => payload })
            const docket = dockets.get(docketId)
            await ctx.mail(userId, docketAlertMail({
              siteUrl: cfg.publicBaseUrl,
              docket: { id: docketId, case_name: String(docket?.case_name ?? `Docket ${docketId}`), docket_number: (docket?.docket_number as string) ?? null, court: (docket?.court_id as string) ?? null, absolute_url: `/docket/${docketId}/${String(docket?.slug ?? 'case')}/` },
              entries: fresh.map((e) => ({ entry_number: (e.entry_number as number) ?? null, date_filed: (e.date_filed as string) || null, description: String(e.description ?? '') })),
            }))
            hitAlerts.add(Number(alert.id))
          }
          if (changed.length) {
            // Updates go only to endpoints that asked for them.
            const wanting = [...ctx.webhooks.values()].filter((w) => Number(w.user_id) === userId && Number(w.event_type) === EVENT_TYPES.DOCKET_ALERT.id && w.deliver_updates && w.enabled)
            const payload = docketAlertPayload(changed.map(shape))
            for (const w of wanting) await ctx.emitter.emit({ userId, eventType: EVENT_TYPES.DOCKET_ALERT.id, webhookId: Number(w.id), payload: () => payload })
          }
        }
      }
      await deps.publisher.flush()
      await markHit(hitAlerts, now)
    }
    const v = version()
    await db.insert(ALERT_ENTRIES_SEEN, [...entries.values()].filter((e) => !seen.has(Number(e.id))).map((e) => ({ id: Number(e.id), docket_id: Number(e.docket_id), _version: v, _deleted: 0 })))
    log.debug({ entries: entries.size, dockets: byDocket.size }, 'docket entries checked for alerts')
  }

  const def: StreamDef<EntityEvent, EntityEvent[]> = {
    name: DOCKET_ALERT_SENDER,
    groupId: groupId(cfg, DOCKET_ALERT_SENDER),
    topics: [entityTopic(cfg, 'docket-entries')],
    dlqTopic: dlqTopic(cfg, DOCKET_ALERT_SENDER),
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
      await Promise.all([alerts.stop(), ctx.stop(), offsets.stop(), hits.stop(), releaseWatermarks()])
    },
  }
}
