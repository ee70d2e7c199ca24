/**
 * A search request as users write it (the query string of `/search/`, or a search alert's stored
 * query) → what to match and how to order: the query AND the filters as one AST, so the
 * ClickHouse search and the in-memory matcher of the alert percolator evaluate the same thing.
 *
 * Filters that name a field the type lacks are ignored (the reference's forms ignore fields of
 * other types); bad values are collected as field errors (400 in the reference's shape).
 */
import { and, or, not, ALL, NONE, type Node } from './ast.js'
import { searchType, isSearchType, type SearchType } from './fields.js'
import { parseQuery, dateSpan } from './parse.js'
import { normalizeKeyword } from './analyzer.js'
import { FieldErrors } from '../../core/errors.js'
import { resolveRelativeDate, relativeDays, utcDay } from './relative-date.js'

export interface OrderKey { readonly field: string; readonly dir: 'asc' | 'desc' }

export interface SearchRequest {
  readonly type: SearchType
  /** the `q` query alone (scored, highlighted) */
  readonly query: Node
  /** the filters alone (never scored) */
  readonly filters: Node
  readonly order: readonly OrderKey[]
  /** the order_by value as asked (or the type's default) */
  readonly orderBy: string
  readonly highlight: boolean
  /**
   * Set when a date filter was relative (`filed_after=past 7 days`): the UTC day they were
   * counted back from. The filters hold absolute dates, so a request kept past that day (a stored
   * alert) must be read again to keep meaning what it says.
   */
  readonly relativeTo?: string
}

/** Bad parameters: a 400 keyed by parameter, as the reference's search form answers. */
export class SearchRequestError extends FieldErrors {}

/** order_by choices of the reference, each as order keys (query-syntax field names). */
const ORDERS: Record<string, OrderKey[]> = {
  'score desc': [{ field: 'score', dir: 'desc' }],
  'dateFiled desc': [{ field: 'dateFiled', dir: 'desc' }],
  'dateFiled asc': [{ field: 'dateFiled', dir: 'asc' }],
  'citeCount desc': [{ field: 'citeCount', dir: 'desc' }],
  'citeCount asc': [{ field: 'citeCount', dir: 'asc' }],
  'dateArgued desc': [{ field: 'dateArgued', dir: 'desc' }],
  'dateArgued asc': [{ field: 'dateArgued', dir: 'asc' }],
  'entry_date_filed desc': [{ field: 'entry_date_filed', dir: 'desc' }],
  'entry_date_filed asc': [{ field: 'entry_date_filed', dir: 'asc' }],
  'name_reverse asc': [{ field: 'name_reverse', dir: 'asc' }],
  'dob desc,name_reverse asc': [{ field: 'dob', dir: 'desc' }, { field: 'name_reverse', dir: 'asc' }],
  'dob asc,name_reverse asc': [{ field: 'dob', dir: 'asc' }, { field: 'name_reverse', dir: 'asc' }],
  'dod desc,name_reverse asc': [{ field: 'dod', dir: 'desc' }, { field: 'name_reverse', dir: 'asc' }],
}

export const DEFAULT_ORDER: Record<SearchType, string> = { o: 'score desc', r: 'score desc', d: 'score desc', rd: 'score desc', p: 'name_reverse asc', oa: 'dateArgued desc' }

/** Text filters: parameter → the field its words must be in. */
const TEXT_FILTERS: Record<string, string[]> = {
  case_name: ['caseName'], judge: ['judge'], docket_number: ['docketNumber'], description: ['description'],
  nature_of_suit: ['suitNature'], cause: ['cause'], assigned_to: ['assignedTo'], referred_to: ['referredTo'],
  party_name: ['party'], atty_name: ['attorney'], firm_name: ['firm'], citation: ['citation'], neutral_cite: ['neutralCite'],
  name: ['name'], dob_city: ['dob_city'], school: ['school'], appointer: ['appointer'],
}

/** Keyword filters: parameter → field (values separated by spaces or commas, any of them). */
const KEYWORD_FILTERS: Record<string, string> = {
  dob_state: 'dob_state', selection_method: 'selection_method', political_affiliation: 'political_affiliation', document_number: 'document_number',
}

/** Date ranges: parameter → [field, which end]. */
const DATE_FILTERS: Record<string, [string, 'after' | 'before']> = {
  filed_after: ['dateFiled', 'after'], filed_before: ['dateFiled', 'before'],
  argued_after: ['dateArgued', 'after'], argued_before: ['dateArgued', 'before'],
  entry_date_filed_after: ['entry_date_filed', 'after'], entry_date_filed_before: ['entry_date_filed', 'before'],
  born_after: ['dob', 'after'], born_before: ['dob', 'before'],
}

const ON = new Set(['on', 'true', '1', 'yes', 'True'])

/** Replaces "the default fields" by one field: a filter's words must be in that field. */
function restrict(n: Node, field: string): Node {
  switch (n.kind) {
    case 'term': case 'phrase': case 'prefix': return n.field === null ? { ...n, field } : n
    case 'and': return and(n.children.map((c) => restrict(c, field)))
    case 'or': return or(n.children.map((c) => restrict(c, field)))
    case 'not': return not(restrict(n.child, field))
    default: return n
  }
}

/**
 * MM/DD/YYYY or YYYY-MM-DD (also a year or a month: its first or last day), or a relative date
 * (relative-date.ts: `past 30 days`, `-2y`, `1 year ago`) counted back from the day of `now`.
 */
function dateOf(v: string, end: 'after' | 'before', now: number): string | null {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v.trim())
  const iso = us ? `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}` : resolveRelativeDate(v, now) ?? v.trim()
  const span = dateSpan(iso)
  return span ? (end === 'after' ? span.first : span.last) : null
}

const many = (values: string[]) => values.flatMap((v) => v.split(/[\s,]+/)).map((v) => v.trim()).filter(Boolean)

/**
 * Reads a search request; throws SearchRequestError (400) or the query's SearchSyntaxError.
 * `now` (ms since the epoch, the caller's clock) is what relative dates count back from.
 */
export function searchRequest(params: URLSearchParams, now: number = Date.now()): SearchRequest {
  const errors: Record<string, string[]> = {}
  const rawType = params.get('type') ?? 'o'
  if (!isSearchType(rawType)) throw new SearchRequestError({ type: [`Select a valid choice. ${rawType} is not one of the available choices.`] })
  const type = rawType
  const spec = searchType(type)
  const has = (field: string) => spec.byName.has(field)
  const q = (params.get('q') ?? '').trim()
  const query = q ? parseQuery(q, type) : ALL
  const filters: Node[] = []
  let relative = false

  for (const [param, fields] of Object.entries(TEXT_FILTERS)) {
    const v = params.get(param)?.trim()
    const field = fields.find(has)
    if (!v || !field) continue
    filters.push(restrict(parseQuery(v, type), field))
  }
  for (const [param, field] of Object.entries(KEYWORD_FILTERS)) {
    const values = many(params.getAll(param))
    if (!values.length || !has(field)) continue
    filters.push(or(values.map((value) => ({ kind: 'value', field, value: normalizeKeyword(value) }))))
  }
  // Courts: `court=scotus ca1`, `court=scotus,ca1`, `court=scotus&court=ca1` and `court_scotus=on`.
  const courts = many(params.getAll('court'))
  for (const [k, v] of params) if (k.startsWith('court_') && k !== 'court_id' && ON.has(v)) courts.push(k.slice('court_'.length))
  const courtField = has('court_id') ? 'court_id' : null
  if (courts.length && courtField) filters.push(or(courts.map((c) => ({ kind: 'value', field: courtField, value: normalizeKeyword(c) }))))

  for (const [param, [field, end]] of Object.entries(DATE_FILTERS)) {
    const v = params.get(param)?.trim()
    if (!v || !has(field)) continue
    const d = dateOf(v, end, now)
    if (!d) { errors[param] = ['Enter a valid date.']; continue }
    if (relativeDays(v) !== null) relative = true
    filters.push({ kind: 'range', field, lower: end === 'after' ? d : null, upper: end === 'before' ? d : null, includeLower: true, includeUpper: true })
  }
  for (const [param, bound] of [['cited_gt', 'lower'], ['cited_lt', 'upper']] as const) {
    const v = params.get(param)?.trim()
    if (!v || !has('citeCount')) continue
    if (!/^\d{1,9}$/.test(v)) { errors[param] = ['Enter a whole number.']; continue }
    const n = Number(v)
    filters.push({ kind: 'range', field: 'citeCount', lower: bound === 'lower' ? n : null, upper: bound === 'upper' ? n : null, includeLower: true, includeUpper: true })
  }
  const attachment = params.get('attachment_number')?.trim()
  if (attachment && has('attachment_number')) {
    if (!/^\d{1,9}$/.test(attachment)) errors.attachment_number = ['Enter a whole number.']
    else filters.push({ kind: 'value', field: 'attachment_number', value: Number(attachment) })
  }
  if (has('is_available') && ON.has(params.get('available_only') ?? '')) filters.push({ kind: 'value', field: 'is_available', value: true })
  // Precedential status toggles (`stat_Published=on`): any of those turned on; none: every status.
  const statuses = [...params].filter(([k, v]) => k.startsWith('stat_') && ON.has(v)).map(([k]) => k.slice('stat_'.length))
  if (statuses.length && has('status')) filters.push(or(statuses.map((s) => ({ kind: 'value', field: 'status', value: normalizeKeyword(s) }))))

  const orderBy = params.get('order_by')?.trim() || DEFAULT_ORDER[type]
  let order: OrderKey[] | undefined
  const random = /^(random_\w+)(?: (asc|desc))?$/.exec(orderBy)
  // `random_<seed>`: a shuffled order, the same for the same seed (so it pages), another for another
  if (random) order = [{ field: random[1], dir: random[2] === 'asc' ? 'asc' : 'desc' }]
  else {
    order = ORDERS[orderBy]
    const orderable = (field: string) => { const f = spec.byName.get(field); return !!f && f.kind !== 'text' && !f.multi }
    if (!order || order.some((k) => k.field !== 'score' && !orderable(k.field))) { errors.order_by = [`Select a valid choice. ${orderBy} is not one of the available choices.`]; order = [] }
  }
  if (Object.keys(errors).length) throw new SearchRequestError(errors)
  const hl = params.get('highlight')
  return { type, query, filters: filters.length ? and(filters) : ALL, order, orderBy, highlight: hl !== null && ON.has(hl), ...(relative ? { relativeTo: utcDay(now) } : {}) }
}

/** The query and filters as one tree (what a document must satisfy). */
export function requestAst(r: SearchRequest): Node {
  return and([r.query, r.filters])
}

export { NONE }
