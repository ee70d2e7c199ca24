/**
 * Granting prayers. Reads archive documents as they change; when one becomes available, every
 * prayer waiting for it turns Granted (2), each requester gets a PRAY_AND_PAY webhook event (the
 * prayer object) and an e-mail. Grants are recorded before the processor commits, so a replay sends
 * nothing twice.
 *
 * A prayer created just before its document became available may not have been applied to
 * ClickHouse by the table sink yet (it would never be granted), nor a just-created endpoint or
 * address read by the users and webhooks tables (the event or mail would be lost). So each batch
 * with available documents first fetches the end offsets of those topics and waits, bounded, until
 * the sink has applied the prayers topic that far and the tables have read theirs. Prayers are keyed
 * by their own ids, not by document: every partition is waited for. After CATCH_UP_MS the batch goes
 * on with a warning: a stopped table sink delays grants, it does not stop them.
 */
import { sql, ident } from '../../core/sql.js'
import { entityTopic, dlqTopic, groupId, createDecoder, validateEntityEvent, createVersioner, type EntityEvent } from '../../schemas/events/index.js'
import { PRAYER_GRANTS } from '../../schemas/internal/alerts.js'
import { prayAndPayPayload, EVENT_TYPES } from '../../domain/webhooks/index.js'
import { PRAYER_STATUS } from '../../domain/alerts/prayers.js'
import { prayerGrantedMail } from '../../clients/mail.js'
import { startStream, type StreamDef, type BatchContext } from '../runner.js'
import { useWatermarks } from '../../core/events/watermark-reader.js'
import { openSourceContext, asShown, type SourceDeps, type Row } from './context.js'
import { createEndOffsets, catchUp, sinkCatchUp, tableCatchUp } from '../lib/catch-up.js'

export const PRAYER_GRANTER = 'prayer-granter'

/** How long a batch waits for what it reads to catch up (heartbeating meanwhile: see context.ts catchUp). */
const CATCH_UP_MS = 10_000

export async function startPrayerGranter(deps: SourceDeps) {
  const { cfg, db } = deps
  const log = deps.log.child({ stream: PRAYER_GRANTER })
  const ctx = await openSourceContext(deps, PRAYER_GRANTER)
  const { watermarks, release: releaseWatermarks } = await useWatermarks(deps)
  const prayersTopic = entityTopic(cfg, 'prayers')
  const offsets = createEndOffsets(deps, [prayersTopic, ctx.users.topic, ctx.webhooks.topic])
  const decode = createDecoder(deps.registry)
  const version = createVersioner()

  async function process(events: EntityEvent[], batch?: BatchContext): Promise<void> {
    const available = new Map<number, Row>()
    for (const e of events) if (e.op === 'upsert' && e.entity?.is_available === true) available.set(Number(e.key), e.entity)
    if (!available.size) return
    // Fetched now, after the batch was consumed: they cover every prayer and endpoint published before its documents.
    const ends = await offsets.fetch()
    const lagging = await catchUp(batch, CATCH_UP_MS, [sinkCatchUp(watermarks, prayersTopic, ends.get(prayersTopic)!), ...[ctx.users, ctx.webhooks].map((t) => tableCatchUp(t, ends.get(t.topic)!))])
    if (lagging.length) log.warn({ lagging, waitedMs: CATCH_UP_MS }, 'prayers: granted without waiting longer for what these topics held; a prayer or endpoint published just before a document became available may be missing')
    const waiting = (await ctx.rowsWhere('prayers', 'archive_document_id', [...available.keys()])).filter((p) => Number(p.status) === PRAYER_STATUS.WAITING)
    if (!waiting.length) return
    const done = new Set((await db.withKeys<{ prayer_id: number }>(waiting.map((p) => Number(p.id)), 'Int64', (k) => sql`
      SELECT prayer_id FROM ${ident(db.database)}.${ident(PRAYER_GRANTS)} FINAL WHERE prayer_id IN ${k}`)).map((r) => Number(r.prayer_id)))
    const grants = waiting.filter((p) => !done.has(Number(p.id)))
    const count = new Map<number, number>()
    for (const p of waiting) count.set(Number(p.archive_document_id), (count.get(Number(p.archive_document_id)) ?? 0) + 1)
    for (const p of grants) {
      const granted: Row = { ...p, status: PRAYER_STATUS.GRANTED }
      await deps.publisher.upsert('prayers', granted)
      const shown = asShown({ id: granted.id, date_created: granted.date_created, status: granted.status, archive_document: Number(granted.archive_document_id) })
      await ctx.emitter.emit({ userId: Number(p.user_id), eventType: EVENT_TYPES.PRAY_AND_PAY.id, payload: () => prayAndPayPayload(shown) })
      const doc = available.get(Number(p.archive_document_id))!
      await ctx.mail(Number(p.user_id), prayerGrantedMail({
        siteUrl: cfg.publicBaseUrl, prayerCount: count.get(Number(p.archive_document_id)),
        document: { description: String(doc.description ?? ''), absolute_url: `/archive-document/${String(doc.id)}/`, document_number: (doc.document_number as string) ?? null },
      }))
    }
    await deps.publisher.flush()
    const v = version()
    await db.insert(PRAYER_GRANTS, grants.map((p) => ({ prayer_id: Number(p.id), archive_document_id: Number(p.archive_document_id), _version: v, _deleted: 0 })))
    log.info({ documents: available.size, granted: grants.length }, 'prayers granted')
  }

  const def: StreamDef<EntityEvent, EntityEvent[]> = {
    name: PRAYER_GRANTER,
    groupId: groupId(cfg, PRAYER_GRANTER),
    topics: [entityTopic(cfg, 'archive-documents')],
    dlqTopic: dlqTopic(cfg, PRAYER_GRANTER),
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
