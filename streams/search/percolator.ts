/**
 * The search-alert percolator: every batch of documents the indexer writes is matched against
 * the stored search alerts by the query index of domain/search/percolate.ts. Each alert is compiled
 * from the same query tree as its search (so it fires for exactly what its search would show)
 * into a small program over the batch's term bitsets, and only the words, prefixes and values some
 * alert asks for are indexed. A match is recorded in
 * search_alert_hits before anything is sent, so a document changed again, or a batch replayed
 * after a crash, is never sent twice:
 *  - rt alerts: SEARCH_ALERT to the owner's endpoints (v1 and v2 shapes) and an e-mail, at once;
 *  - dly, wly, mly: the hit waits for the digest (digests.ts); off: nothing.
 */
import { sql, ident } from '../../core/sql.js'
import { SEARCH_ALERT_HITS } from '../../schemas/internal/search.js'
import { createVersioner } from '../../schemas/events/index.js'
import { searchRequest, requestAst, compileMatcher, highlighter, presentResult, createQueryIndex, type SearchType, type Matcher, type Node } from '../../domain/search/index.js'
import { utcDay } from '../../domain/search/relative-date.js'
import { searchAlertPayload, EVENT_TYPES, type SearchAlertType } from '../../domain/webhooks/index.js'
import { isAlertRate, type AlertRate, type AlertType } from '../../domain/alerts/index.js'
import { searchAlertMail } from '../../clients/mail.js'
import { openEntityTable } from '../lib/entity-table.js'
import { openSourceContext, asShown, type SourceDeps, type Row } from '../alerts/context.js'
import type { IndexedDocument } from './indexer.js'

export const SEARCH_ALERT_SENDER = 'search-alert-sender'

export interface CompiledAlert {
  id: number
  userId: number
  type: SearchType
  rate: AlertRate
  row: Row
  ast: Node
  matches: Matcher
  query: ReturnType<typeof searchRequest>
}

/** The search type an alert's documents are: its query's `type`, r/d as the alert says. */
function alertSearchType(row: Row, queryType: SearchType): SearchType | null {
  const declared = String(row.alert_type ?? '')
  if (queryType === 'r' || queryType === 'd') return declared === 'd' ? 'd' : 'r'
  return queryType === 'o' || queryType === 'oa' ? queryType : null
}

/**
 * An alert as the percolator matches it. `now` is when it runs: relative dates of its query
 * (`filed_after=past 7 days`) are counted back from that day, and `query.relativeTo` tells that the
 * compiled alert holds that day's dates (the percolator compiles it again on a later day).
 */
export function compileAlert(row: Row, now: number = Date.now()): CompiledAlert | null {
  const rate = String(row.rate ?? '')
  if (!isAlertRate(rate) || rate === 'off') return null
  let query: ReturnType<typeof searchRequest>
  try { query = searchRequest(new URLSearchParams(String(row.query ?? '').replace(/^\?/, '')), now) } catch { return null }
  const type = alertSearchType(row, query.type)
  if (!type) return null
  const typed = type === query.type ? query : { ...query, type }
  const ast = requestAst(typed)
  return { id: Number(row.id), userId: Number(row.user_id), type, rate, row, ast, matches: compileMatcher(ast, type), query: typed }
}

/** A document an alert matched. */
export interface AlertHit { alert: CompiledAlert; doc: IndexedDocument }

/**
 * Matching and delivery are two steps so the indexer keeps only what matched: it matches each chunk
 * of documents as it builds it, and delivers a batch's hits once its documents are searchable.
 */
export interface Percolator {
  /** The alerts these documents match (in memory, at once). */
  match(docs: readonly IndexedDocument[]): AlertHit[]
  /** Records the hits and sends real-time alerts; hits recorded before (a replay) are not sent again. */
  deliver(hits: readonly AlertHit[]): Promise<void>
  /** Alerts currently compiled (for measurements). */
  readonly size: number
  stop(): Promise<void>
}

/** An alert's result row as payloads and mails show it: highlights of its own query, no score. */
export function alertResult(alert: CompiledAlert, doc: IndexedDocument): Row {
  return presentResult(doc.built.result, {
    type: doc.type, score: 0, timestamp: new Date().toISOString(), dateCreated: doc.built.created,
    highlighter: highlighter(alert.query.query), highlight: true, query: alert.query.query,
  })
}

export async function startPercolator(deps: SourceDeps): Promise<Percolator> {
  const { db, cfg } = deps
  const log = deps.log.child({ stream: SEARCH_ALERT_SENDER })
  const ctx = await openSourceContext(deps, SEARCH_ALERT_SENDER)
  const alerts = openEntityTable(deps, 'alerts')
  const index = createQueryIndex<CompiledAlert>()
  const version = createVersioner()
  const table = sql`${ident(db.database)}.${ident(SEARCH_ALERT_HITS)}`
  /** Alerts with relative dates, compiled with the dates of their `query.relativeTo` day. */
  const relative = new Map<number, CompiledAlert>()
  const place = (id: number, row: Row | null, now: number) => {
    index.remove(id)
    relative.delete(id)
    const a = row ? compileAlert(row, now) : null
    if (!a) return
    index.add(a)
    if (a.query.relativeTo !== undefined) relative.set(a.id, a)
  }
  /** Relative dates mean "from today": alerts compiled on an earlier day are compiled again. */
  const refreshRelative = () => {
    if (!relative.size) return
    const now = deps.clock.now()
    const today = utcDay(now)
    for (const a of [...relative.values()]) if (a.query.relativeTo !== today) place(a.id, a.row, now)
  }
  alerts.onChange((id, _before, after) => place(Number(id), after ?? null, deps.clock.now()))
  await alerts.start()
  await alerts.ready()

  return {
    get size() { return index.size },
    match(docs) {
      const hits: AlertHit[] = []
      refreshRelative()
      if (!index.size) return hits
      // Matched a type at a time, all its documents at once (percolate-batch.ts).
      const byType = new Map<IndexedDocument['type'], IndexedDocument[]>()
      for (const doc of docs) {
        const list = byType.get(doc.type)
        if (list) list.push(doc)
        else byType.set(doc.type, [doc])
      }
      for (const [type, ofType] of byType) {
        index.matchBatch(type, ofType.map((d) => d.analyzed)).forEach((alerts, i) => { for (const alert of alerts) hits.push({ alert, doc: ofType[i] }) })
      }
      return hits
    },
    async deliver(hits) {
      if (!hits.length) return
      // Hits already recorded (a document changed again, a replayed batch) are not new.
      const alertIds = [...new Set(hits.map((h) => h.alert.id))]
      const docIds = [...new Set(hits.map((h) => h.doc.id))]
      const seen = new Set((await db.withKeys<{ alert_id: number; document_id: number }>(alertIds, 'Int64', (k) => sql`
        SELECT alert_id, document_id FROM ${table} FINAL WHERE alert_id IN ${k} AND document_id IN ${docIds}`)).map((r) => `${Number(r.alert_id)}:${Number(r.document_id)}`))
      const fresh = hits.filter((h) => !seen.has(`${h.alert.id}:${h.doc.id}`))
      if (!fresh.length) return
      const now = new Date(deps.clock.now()).toISOString()
      const v = version()
      await db.insert(SEARCH_ALERT_HITS, fresh.map((h) => ({ alert_id: h.alert.id, document_id: h.doc.id, type: h.doc.type, sent: h.alert.rate === 'rt' ? 1 : 0, hit_at: now, _version: v, _deleted: 0 })))
      // Real-time alerts: one event and one mail per alert with its new documents.
      const byAlert = new Map<number, { alert: CompiledAlert; docs: IndexedDocument[] }>()
      for (const h of fresh) if (h.alert.rate === 'rt') {
        const e = byAlert.get(h.alert.id) ?? { alert: h.alert, docs: [] }
        e.docs.push(h.doc)
        byAlert.set(h.alert.id, e)
      }
      for (const { alert, docs: matched } of byAlert.values()) await sendAlert(alert, matched.map((d) => alertResult(alert, d)), now)
      if (byAlert.size) await deps.publisher.flush()
      log.debug({ hits: fresh.length, realTime: byAlert.size }, 'search alert hits delivered')
    },
    async stop() { await alerts.stop(); await ctx.stop() },
  }

  async function sendAlert(alert: CompiledAlert, results: Row[], now: string): Promise<void> {
    const shown = asShown({ ...alert.row, user: alert.userId })
    await ctx.emitter.emit({
      userId: alert.userId, eventType: EVENT_TYPES.SEARCH_ALERT.id,
      payload: (v) => searchAlertPayload({ version: v, alertType: alert.type as SearchAlertType, alert: shown, results }),
    })
    await ctx.mail(alert.userId, searchAlertMail({
      siteUrl: cfg.publicBaseUrl, rate: alert.rate,
      alerts: [{ alert: { name: String(alert.row.name ?? ''), alert_type: alert.type as AlertType, query: String(alert.row.query ?? '') }, results: results.map(mailRow) }],
    }))
    await deps.publisher.upsert('alerts', { ...alert.row, date_last_hit: now })
  }
}

/** What a mail shows of a result: title, link, date, and the first snippet. */
export function mailRow(r: Row): { caseName?: string; absolute_url: string; snippet?: string; dateFiled?: string | null } {
  const nested = (r.opinions ?? r.archive_documents) as Row[] | undefined
  const snippet = (r.snippet as string | undefined) ?? (nested?.[0]?.snippet as string | undefined)
  return {
    caseName: String(r.caseName ?? r.name ?? ''), absolute_url: String(r.absolute_url ?? r.docket_absolute_url ?? '/'),
    snippet: snippet?.replace(/<mark>/g, '<strong>').replace(/<\/mark>/g, '</strong>'), dateFiled: (r.dateFiled as string | null | undefined) ?? null,
  }
}
