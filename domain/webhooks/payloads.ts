/**
 * Payload shapers: from the rows the rest of the service holds (API resource objects, v4 search
 * results) to the `payload` of each event type and version. Field lists are data; a shaper
 * copies the listed keys in order (absent keys become null) and renames nothing it does not have
 * to. v1 and v2 differ only in search alert results for case law and archive types.
 */
import { PRAYER_STATUS } from '../alerts/prayers.js'
import type { WebhookVersion } from './event-types.js'

type Row = Record<string, unknown>

// ---------------------------------------------------------------------------------------------
// Field lists

/** Archive document keys in a docket alert: the archive-documents resource minus resource_uri, tags, plain_text. */
export const ARCHIVE_DOCUMENT_KEYS = [
  'id', 'absolute_url', 'date_created', 'date_modified', 'date_upload', 'document_type', 'document_number',
  'attachment_number', 'records_doc_id', 'is_available', 'is_free_on_records', 'is_sealed', 'sha1', 'page_count',
  'file_size', 'filepath_local', 'filepath_ia', 'ia_upload_failure_count', 'thumbnail', 'thumbnail_status',
  'ocr_status', 'description', 'acms_document_guid',
] as const

/** Docket entry keys in a docket alert: the docket-entries resource minus resource_uri and tags; docket is an id. */
export const DOCKET_ENTRY_KEYS = [
  'id', 'docket', 'date_created', 'date_modified', 'date_filed', 'time_filed', 'entry_number',
  'archive_sequence_number', 'records_sequence_number', 'description', 'archive_documents',
] as const

/** The search alert object in a search alert event: the alert minus resource_uri, user as an id. */
export const SEARCH_ALERT_KEYS = [
  'id', 'user', 'date_created', 'date_modified', 'date_last_hit', 'name', 'query', 'rate', 'alert_type', 'secret_key',
] as const

/** The archive fetch request object, all its fields. */
export const ARCHIVE_FETCH_KEYS = [
  'id', 'court', 'docket', 'archive_document', 'date_created', 'date_modified', 'date_completed', 'status',
  'request_type', 'message', 'records_case_id', 'docket_number', 'de_date_start', 'de_date_end', 'de_number_start',
  'de_number_end', 'show_parties_and_counsel', 'show_terminated_parties', 'show_list_of_member_cases',
] as const

/** A docket alert object (old docket alerts report). */
export const DOCKET_ALERT_KEYS = ['id', 'date_created', 'date_modified', 'date_last_hit', 'docket', 'secret_key', 'alert_type'] as const

/** A prayer object (pray-and-pay). */
export const PRAYER_KEYS = ['id', 'date_created', 'status', 'archive_document'] as const

/** Archive fetch statuses that end a request and trigger an ARCHIVE_FETCH event. */
export const ARCHIVE_FETCH_STATUS = { SUCCESSFUL: 2, FAILED: 3, INVALID_CONTENT: 6, NEEDS_INFO: 7 } as const
const FETCH_EVENT_STATUSES: ReadonlySet<number> = new Set(Object.values(ARCHIVE_FETCH_STATUS))


// ---------------------------------------------------------------------------------------------
// Helpers

function pick(row: Row, keys: readonly string[]): Row {
  const out: Row = {}
  for (const k of keys) out[k] = row[k] ?? null
  return out
}

/** A related object as its integer id: 12, "12", or a hyperlink ".../dockets/12/" → 12. */
export function toId(v: unknown): number | null {
  if (v === null || v === undefined) return null
  if (typeof v === 'number') return v
  if (typeof v === 'object' && 'id' in (v as Row)) return toId((v as Row).id)
  const m = /(\d+)\/?$/.exec(String(v))
  return m ? Number(m[1]) : null
}

// ---------------------------------------------------------------------------------------------
// 1 DOCKET_ALERT

export interface DocketAlertPayload { results: Row[] }

/** `{"results": [entry...]}`: entries without resource_uri/tags, docket as an id, documents without resource_uri/tags/plain_text. */
export function docketAlertPayload(entries: readonly Row[]): DocketAlertPayload {
  return {
    results: entries.map((e) => {
      const out = pick(e, DOCKET_ENTRY_KEYS)
      out.docket = toId(e.docket)
      const docs = Array.isArray(e.archive_documents) ? (e.archive_documents as Row[]) : []
      out.archive_documents = docs.map((d) => pick(d, ARCHIVE_DOCUMENT_KEYS))
      return out
    }),
  }
}

// ---------------------------------------------------------------------------------------------
// 2 SEARCH_ALERT

export type SearchAlertType = 'o' | 'r' | 'd' | 'oa'

export interface SearchAlertPayload { results: Row[]; alert: Row }

/** The alert object of a search alert event (no resource_uri; user as an id). */
export function searchAlertObject(alert: Row): Row {
  const out = pick(alert, SEARCH_ALERT_KEYS)
  out.user = toId(alert.user)
  return out
}

/**
 * `{"results": [...], "alert": {...}}` from v4 search result rows (the search API's shape).
 *
 * | type | v2                                                           | v1                                 |
 * |------|--------------------------------------------------------------|------------------------------------|
 * | o    | cluster rows, nested `opinions`; meta {timestamp, date_created} | flat v3 rows, one per opinion   |
 * | r    | docket rows, nested `archive_documents`; meta + more_docs     | flat v3 rows, one per document     |
 * | d    | docket rows; meta {timestamp, date_created}                   | v3 rows (meta → timestamp)         |
 * | oa   | v3-style rows (identical in both versions)                    | same                               |
 *
 * Scores never appear in alert results, and highlights use <strong> instead of <mark>.
 * "v3 rows" carry a top-level `timestamp` instead of `meta`, and datetimes instead of dates
 * (`YYYY-MM-DD` → `YYYY-MM-DDT00:00:00+00:00`) on the date fields of SEARCH_DATE_FIELDS.
 */
export function searchAlertPayload(args: { version: WebhookVersion; alertType: SearchAlertType; alert: Row; results: readonly Row[] }): SearchAlertPayload {
  const { version, alertType } = args
  const rows = args.results.map(strongHighlights)
  let results: Row[]
  if (alertType === 'oa') results = rows.map((r) => toV3Row(r))
  else if (version === 2) results = rows.map((r) => v2Row(r, alertType))
  else results = rows.flatMap((r) => v1Rows(r, alertType))
  return { results, alert: searchAlertObject(args.alert) }
}

const NESTED_KEY: Record<SearchAlertType, string | null> = { o: 'opinions', r: 'archive_documents', d: null, oa: null }

/** Date fields of search rows that v3 rendered as datetimes. */
export const SEARCH_DATE_FIELDS = ['dateArgued', 'dateFiled', 'dateReargued', 'dateReargumentDenied', 'dateTerminated', 'entry_date_filed'] as const

function alertMeta(meta: unknown, withMoreDocs: boolean): Row {
  const m = (meta ?? {}) as Row
  const out: Row = { timestamp: m.timestamp ?? null, date_created: m.date_created ?? null }
  if (withMoreDocs) out.more_docs = m.more_docs ?? false
  return out
}

function v2Row(row: Row, type: SearchAlertType): Row {
  const nestedKey = NESTED_KEY[type]
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) {
    if (k === 'meta' || k === 'score') continue
    if (k === nestedKey && Array.isArray(v)) {
      out[k] = (v as Row[]).map((child) => {
        const c: Row = {}
        for (const [ck, cv] of Object.entries(child)) if (ck !== 'meta' && ck !== 'score') c[ck] = cv
        c.meta = alertMeta(child.meta, false)
        return c
      })
    } else if (type === 'd' && k === 'archive_documents') {
      continue
    } else {
      out[k] = v
    }
  }
  out.meta = alertMeta(row.meta, type === 'r')
  return out
}

function toV3Row(row: Row, extra: Row = {}): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) {
    if (k === 'meta' || k === 'score') continue
    out[k] = v
  }
  Object.assign(out, extra)
  for (const f of SEARCH_DATE_FIELDS) {
    const v = out[f]
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) out[f] = `${v}T00:00:00+00:00`
  }
  if ('court_id' in out && !('court_exact' in out)) out.court_exact = out.court_id
  out.timestamp = ((row.meta ?? {}) as Row).timestamp ?? null
  return out
}

function v1Rows(row: Row, type: SearchAlertType): Row[] {
  const nestedKey = NESTED_KEY[type]
  const parent: Row = {}
  for (const [k, v] of Object.entries(row)) if (k !== nestedKey && k !== 'archive_documents') parent[k] = v
  const children = nestedKey && Array.isArray(row[nestedKey]) ? (row[nestedKey] as Row[]) : []
  if (children.length === 0) return [toV3Row(parent)]
  return children.map((child) => {
    const c: Row = {}
    for (const [k, v] of Object.entries(child)) if (k !== 'meta') c[k] = v
    return toV3Row(parent, c)
  })
}

/** The v3 search API's rows of a v4 result: flat for o and r (one per opinion or document), v3 dates. */
export function v3SearchRows(row: Row, type: string): Row[] {
  return type === 'o' || type === 'r' ? v1Rows(row, type) : [toV3Row(row)]
}

/** Alert e-mails and payloads highlight with <strong>, the search API with <mark>. */
function strongHighlights<T>(v: T): T {
  if (typeof v === 'string') return v.replace(/<mark>/g, '<strong>').replace(/<\/mark>/g, '</strong>') as T
  if (Array.isArray(v)) return v.map(strongHighlights) as T
  if (v && typeof v === 'object') {
    const out: Row = {}
    for (const [k, x] of Object.entries(v as Row)) out[k] = strongHighlights(x)
    return out as T
  }
  return v
}

// ---------------------------------------------------------------------------------------------
// 3 ARCHIVE_FETCH

/** Whether a fetch request in this status ends with an ARCHIVE_FETCH event. */
export function isArchiveFetchEventStatus(status: number): boolean {
  return FETCH_EVENT_STATUSES.has(status)
}

export function archiveFetchPayload(request: Row): Row {
  const out = pick(request, ARCHIVE_FETCH_KEYS)
  out.court = toCourtId(request.court)
  out.docket = toId(request.docket)
  out.archive_document = toId(request.archive_document)
  return out
}

/** Court ids are strings ("nysd"); a hyperlink ".../courts/nysd/" gives its last segment. */
function toCourtId(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null
  if (typeof v === 'object' && 'id' in (v as Row)) return toCourtId((v as Row).id)
  const s = String(v)
  return s.includes('/') ? s.replace(/\/+$/, '').split('/').pop() ?? null : s
}

// ---------------------------------------------------------------------------------------------
// 4 OLD_DOCKET_ALERTS_REPORT

export interface OldDocketAlertsPayload { old_alerts: Row[]; disabled_alerts: Row[] }

export function docketAlertObject(alert: Row): Row {
  const out = pick(alert, DOCKET_ALERT_KEYS)
  out.docket = toId(alert.docket)
  return out
}

export function oldDocketAlertsPayload(report: { old_alerts: readonly Row[]; disabled_alerts: readonly Row[] }): OldDocketAlertsPayload {
  return { old_alerts: report.old_alerts.map(docketAlertObject), disabled_alerts: report.disabled_alerts.map(docketAlertObject) }
}

// ---------------------------------------------------------------------------------------------
// 5 PRAY_AND_PAY

/** The prayer object; only a granted prayer makes an event (throws otherwise). */
export function prayAndPayPayload(prayer: Row): Row {
  if (prayer.status !== PRAYER_STATUS.GRANTED) throw new Error('PRAY_AND_PAY events are sent only for granted prayers')
  const out = pick(prayer, PRAYER_KEYS)
  out.archive_document = toId(prayer.archive_document)
  return out
}
