/**
 * Digests of daily, weekly and monthly search alerts: scheduler jobs (streams/alerts/scheduler.ts)
 * that, once per period of their rate, send each alert's hits the percolator recorded and not yet
 * sent: one SEARCH_ALERT event per alert (its results as the search API shows them, highlighted
 * with the alert's query) and one e-mail per user listing all of that user's alerts with hits.
 * Sent hits are marked before the job's run is recorded, so a crash repeats at most the marking.
 */
import { sql, ident } from '../../core/sql.js'
import { SEARCH_ALERT_HITS, SEARCH_RESULTS } from '../../schemas/internal/search.js'
import { createVersioner } from '../../schemas/events/index.js'
import { searchAlertPayload, EVENT_TYPES, type SearchAlertType } from '../../domain/webhooks/index.js'
import { DIGEST_PERIODS_MS, type AlertRate, type AlertType } from '../../domain/alerts/index.js'
import { highlighter, presentResult } from '../../domain/search/index.js'
import { searchAlertMail } from '../../clients/mail.js'
import { asShown, type SourceDeps, type Row } from '../alerts/context.js'
import type { Job } from '../alerts/scheduler.js'
import { compileAlert, mailRow } from './percolator.js'

/** Results per alert in one digest (the reference caps alert e-mails too). */
const MAX_RESULTS = 20

export function digestJobs(deps: SourceDeps): Job[] {
  const { db, cfg } = deps
  const t = (name: string) => sql`${ident(db.database)}.${ident(name)}`
  const version = createVersioner()
  const rates: AlertRate[] = ['dly', 'wly', 'mly']
  return rates.map((rate) => ({
    name: `search-alert-digest-${rate}`,
    periodMs: DIGEST_PERIODS_MS[rate]!,
    async run(now, ctx) {
      const alerts = (await db.query<Row>(sql`SELECT * EXCEPT (_version, _deleted) FROM ${t('alerts')} FINAL WHERE rate = ${rate}`))
        .map((row) => compileAlert(row)).filter((a) => a !== null)
      if (!alerts.length) return
      const hits = await db.withKeys<{ alert_id: number; document_id: number; type: string }>(alerts.map((a) => a.id), 'Int64', (k) => sql`
        SELECT alert_id, document_id, type FROM ${t(SEARCH_ALERT_HITS)} FINAL WHERE alert_id IN ${k} AND sent = 0 ORDER BY hit_at`)
      if (!hits.length) return
      const iso = new Date(now).toISOString()
      const perUser = new Map<number, { alert: Row; alertType: AlertType; results: Row[] }[]>()
      for (const alert of alerts) {
        const mine = hits.filter((h) => Number(h.alert_id) === alert.id).slice(0, MAX_RESULTS)
        if (!mine.length) continue
        const stored = await db.withKeys<{ id: number; result: string; date_created: string | null; indexed_at: string }>(mine.map((h) => Number(h.document_id)), 'Int64', (k) => sql`
          SELECT id, result, date_created, indexed_at FROM ${t(SEARCH_RESULTS)} FINAL WHERE type = ${alert.type} AND id IN ${k}`)
        const h = highlighter(alert.query.query)
        const results = stored.map((s) => presentResult(JSON.parse(s.result) as Row, { type: alert.type, score: 0, timestamp: s.indexed_at, dateCreated: s.date_created, highlighter: h, highlight: true, query: alert.query.query }))
        if (!results.length) continue
        const shown = asShown({ ...alert.row, user: alert.userId })
        await ctx.emitter.emit({ userId: alert.userId, eventType: EVENT_TYPES.SEARCH_ALERT.id, payload: (v) => searchAlertPayload({ version: v, alertType: alert.type as SearchAlertType, alert: shown, results }) })
        await deps.publisher.upsert('alerts', { ...alert.row, date_last_hit: iso })
        const list = perUser.get(alert.userId) ?? []
        list.push({ alert: alert.row, alertType: alert.type as AlertType, results })
        perUser.set(alert.userId, list)
      }
      for (const [userId, list] of perUser) {
        await ctx.mail(userId, searchAlertMail({
          siteUrl: cfg.publicBaseUrl, rate,
          alerts: list.map((x) => ({ alert: { name: String(x.alert.name ?? ''), alert_type: x.alertType, query: String(x.alert.query ?? '') }, results: x.results.map(mailRow) })),
        }))
      }
      await deps.publisher.flush()
      const v = version()
      await db.insert(SEARCH_ALERT_HITS, hits.map((h) => ({ alert_id: Number(h.alert_id), document_id: Number(h.document_id), type: h.type, sent: 1, hit_at: iso, _version: v, _deleted: 0 })))
    },
  }))
}
