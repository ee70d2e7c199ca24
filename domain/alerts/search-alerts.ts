/**
 * Search alerts: rates, types and the create/update rules, as pure functions that return the
 * error to answer with (an LdsError in the reference shape) instead of throwing.
 *
 * Order of checks, as in the reference serializer:
 *   1. fields: name (≤75), query (≤2500), rate (a known choice), on create all three required;
 *   2. match-all query → 400 {"query": ["You can't create a match-all alert..."]};
 *   3. type from the query's `type` param (absent → o); archive queries (r, d) need an
 *      `alert_type` of r or d in the body; on update the type may change only between r and d;
 *   4. quotas → 403 (quotas.ts);
 *   5. only when `query` was sent: the frequency estimate. The caller counts the query's hits
 *      over the last ALERT_ESTIMATION_DAYS days and passes them to checkAlertFrequency:
 *      hits // 100 > 30 → 400 {"estimated_hits": n, "detail": "..."}; otherwise the response
 *      carries `estimated_hits`.
 * Deciding whether a query matches everything belongs to the search query compiler; it is
 * passed in as `isMatchAll`.
 */
import { FieldErrors, LdsError } from '../../core/errors.js'
import { checkAlertQuota, type ExistingAlertSummary, type QuotaUser } from './quotas.js'

export const ALERT_RATES = {
  rt: 'Real Time',
  dly: 'Daily',
  wly: 'Weekly',
  mly: 'Monthly',
  off: 'Off',
} as const
export type AlertRate = keyof typeof ALERT_RATES

export const ALERT_TYPES = {
  o: 'Opinions',
  r: 'Archive (cases and filings)',
  d: 'Archive dockets (cases only)',
  oa: 'Oral Arguments',
} as const
export type AlertType = keyof typeof ALERT_TYPES

/** Types whose alerts must say in the body whether they follow cases only (d) or filings too (r). */
export const ARCHIVE_QUERY_TYPES: ReadonlySet<string> = new Set(['r', 'd'])

export const MAX_ALERT_NAME_LENGTH = 75
export const MAX_ALERT_QUERY_LENGTH = 2500
export const ALERT_ESTIMATION_DAYS = 100
export const MAX_ALERT_RESULTS_PER_DAY = 30

export const ALERT_MESSAGES = {
  required: 'This field is required.',
  maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
  invalidChoice: (v: string) => `"${v}" is not a valid choice.`,
  matchAll: "You can't create a match-all alert. Please try narrowing your query.",
  unsupportedType: 'Unsupported alert type.',
  archiveTypeMissing: 'Please provide an alert type for your archive search query. For notifications on cases only, use the d type. For notifications on both cases and filings, use the r type.',
  archiveTypeInvalid: 'The specified alert type is not valid for the given archive search query.',
  typeChange: 'The alert type can only be changed between r and d.',
  invalidQuery: "This query is invalid and can't be used for an alert.",
  tooBroad: (perDay: number) => `This query averages about ${perDay} results per day, which is more than our system can support. Please narrow your query to have fewer results per day.`,
} as const

export function isAlertRate(v: unknown): v is AlertRate {
  return typeof v === 'string' && Object.hasOwn(ALERT_RATES, v)
}

export function isAlertType(v: unknown): v is AlertType {
  return typeof v === 'string' && Object.hasOwn(ALERT_TYPES, v)
}

/** The `type` param of an alert's query string (`q=...&type=r`), or null when absent. */
export function queryType(query: string): string | null {
  const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query)
  const t = params.get('type')
  return t ? t : null
}

/** What the request body carries (POST: all of it; PATCH: a part). */
export interface SearchAlertInput {
  name?: unknown
  query?: unknown
  rate?: unknown
  alert_type?: unknown
}

/** The stored alert, on update. */
export interface StoredSearchAlert {
  id: number
  name: string
  query: string
  rate: AlertRate
  alert_type: AlertType
}

export interface SearchAlertContext {
  /** The search compiler's verdict on a query string. */
  isMatchAll(query: string): boolean
  user: QuotaUser
  /** The user's alerts as stored (for quotas). */
  userAlerts: readonly ExistingAlertSummary[]
}

export interface ResolvedSearchAlert {
  name: string
  query: string
  rate: AlertRate
  alert_type: AlertType
  /** The query was sent: run the estimate, then checkAlertFrequency. */
  needsEstimate: boolean
}

export type AlertCheck<T> = { ok: true; value: T } | { ok: false; error: LdsError }

/**
 * Validates a create (`existing` undefined) or an update (PATCH/PUT over `existing`). Returns the
 * fields to store, or the error to answer with.
 */
export function checkSearchAlert(input: SearchAlertInput, ctx: SearchAlertContext, existing?: StoredSearchAlert): AlertCheck<ResolvedSearchAlert> {
  // 1. fields
  const errors: Record<string, string[]> = {}
  const text = (key: 'name' | 'query', max: number): string | undefined => {
    const v = input[key]
    if (v === undefined || v === null) {
      if (!existing) errors[key] = [ALERT_MESSAGES.required]
      return undefined
    }
    const s = String(v)
    if (s.trim() === '') errors[key] = ['This field may not be blank.']
    else if (s.length > max) errors[key] = [ALERT_MESSAGES.maxLength(max)]
    return s
  }
  const name = text('name', MAX_ALERT_NAME_LENGTH)
  const query = text('query', MAX_ALERT_QUERY_LENGTH)
  let rate: AlertRate | undefined
  if (input.rate === undefined || input.rate === null) {
    if (!existing) errors.rate = [ALERT_MESSAGES.required]
  } else if (!isAlertRate(input.rate)) {
    errors.rate = [ALERT_MESSAGES.invalidChoice(String(input.rate))]
  } else {
    rate = input.rate
  }
  if (Object.keys(errors).length) return fail(errors)

  const effectiveQuery = query ?? existing?.query ?? ''
  const effectiveRate = (rate ?? existing?.rate)!
  let alertType: AlertType = existing?.alert_type ?? 'o'

  // 2–3. match-all and type
  if (effectiveQuery) {
    if (ctx.isMatchAll(effectiveQuery)) return fail({ query: [ALERT_MESSAGES.matchAll] })
    // On update an archive alert keeps its stored r/d when the body does not name one (the
    // reference would refuse a PATCH that only renames an archive alert; we do not).
    const bodyType = input.alert_type ?? (existing && ARCHIVE_QUERY_TYPES.has(existing.alert_type) ? existing.alert_type : undefined)
    const resolved = resolveAlertType(effectiveQuery, bodyType)
    if (!resolved.ok) return resolved
    alertType = resolved.value
    if (existing && existing.alert_type !== alertType && !(ARCHIVE_QUERY_TYPES.has(existing.alert_type) && ARCHIVE_QUERY_TYPES.has(alertType))) {
      return fail({ alert_type: [ALERT_MESSAGES.typeChange] })
    }
  }

  // 4. quotas
  const quota = checkAlertQuota(ctx.user, effectiveRate, alertType, ctx.userAlerts, existing?.id)
  if (quota) return { ok: false, error: quota }

  return {
    ok: true,
    value: { name: (name ?? existing?.name)!, query: effectiveQuery, rate: effectiveRate, alert_type: alertType, needsEstimate: query !== undefined },
  }
}

/** The alert type of a query: its `type` param (absent → o); for archive queries, the body's alert_type (r or d). */
export function resolveAlertType(query: string, bodyType: unknown): AlertCheck<AlertType> {
  const fromQuery = queryType(query)
  if (fromQuery === null) return { ok: true, value: 'o' }
  if (!ARCHIVE_QUERY_TYPES.has(fromQuery)) {
    if (!isAlertType(fromQuery)) return fail({ alert_type: [ALERT_MESSAGES.unsupportedType] })
    return { ok: true, value: fromQuery } // the body's alert_type is ignored for these
  }
  if (bodyType === undefined || bodyType === null || bodyType === '') return fail({ alert_type: [ALERT_MESSAGES.archiveTypeMissing] })
  if (typeof bodyType !== 'string' || !ARCHIVE_QUERY_TYPES.has(bodyType)) return fail({ alert_type: [ALERT_MESSAGES.archiveTypeInvalid] })
  return { ok: true, value: bodyType as AlertType }
}

/**
 * The frequency rule. `totalHits` is the query's hit count over the last ALERT_ESTIMATION_DAYS
 * days, or null when the search form refused the query. On success the value is the
 * `estimated_hits` to add to the response.
 */
export function checkAlertFrequency(totalHits: number | null): AlertCheck<number> {
  if (totalHits === null) return fail({ query: [ALERT_MESSAGES.invalidQuery] })
  const perDay = Math.floor(totalHits / ALERT_ESTIMATION_DAYS)
  if (perDay > MAX_ALERT_RESULTS_PER_DAY) {
    const detail = ALERT_MESSAGES.tooBroad(perDay)
    return { ok: false, error: new LdsError('LDS_ERR_BAD_REQUEST', { detail, body: { estimated_hits: totalHits, detail } }) }
  }
  return { ok: true, value: totalHits }
}

function fail(fields: Record<string, string[]>): { ok: false; error: LdsError } {
  return { ok: false, error: new FieldErrors(fields) }
}
