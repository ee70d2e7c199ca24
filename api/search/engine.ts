/**
 * Search against ClickHouse: a request (domain/search/request.ts) → a page of matching document
 * ids with scores (the postings layout of schemas/internal/search-layout.ts), the total, and the stored
 * result objects of the page. Corpus statistics (document count, average field lengths) and
 * document frequencies change slowly, so each type's are kept for a short while: a query whose
 * frequencies were read lately runs its page alone, one round trip.
 *
 * A request's page and count usually run together: the page query also counts the matches
 * (searchSql `total`), and the count takes that number instead of running the query again.
 *
 * Pages: ordered by a single field or by score, the next page continues after the last row's
 * (value, id) (search_after), so documents indexed meanwhile do not shift it; multi-key and random
 * orders page by offset.
 */
import type { Db } from '../../core/clickhouse.js'
import { sql, ident } from '../../core/sql.js'
import { SEARCH_RESULTS } from '../../schemas/internal/search.js'
import { and, or, not, searchType, scoringPlan, scores, countSql, statsSql, requestAst, type Node, type SearchRequest, type SearchStats, type SearchType } from '../../domain/search/index.js'
import { corpusStatsSql, searchPageSql, type CorpusStats } from '../../domain/search/query-sql.js'

export interface After { value: string | number | null; id: number }

export interface PageRequest {
  limit: number; offset: number; after?: After
  /** The statistics to score with (a cursor's, frozen at its first page) instead of the index's now. */
  stats?: SearchStats
}

export interface Hit { id: number; score: number; key: string | number | null }

export interface StoredResult { result: Record<string, unknown>; dateCreated: string | null; indexedAt: string }

/** Placeholder statistics: only to ask searchPageSql whether a page can count, never run. */
const NO_STATS: SearchStats = { n: 0, avgdl: {}, df: {} }

/** How long corpus statistics and document frequencies are reused. */
const CORPUS_TTL_MS = 30_000
/** Document frequencies kept at most, the least recently asked dropped first. */
const DF_ENTRIES = 100_000

export interface SearchEngine {
  page(r: SearchRequest, p: PageRequest): Promise<Hit[]>
  count(r: SearchRequest, type?: SearchType): Promise<number>
  /** The statistics a score-ordered page of the request scores with now (undefined: it does not score). */
  stats(r: SearchRequest): Promise<SearchStats | undefined>
  results(type: SearchType, ids: number[]): Promise<Map<number, StoredResult>>
}

/** The single order key that search_after can continue from (a field, or the score), or null (several keys, random). */
export function afterField(r: SearchRequest): { field: string; column: string; dir: 'asc' | 'desc' } | null {
  if (r.order.length !== 1) return null
  if (r.order[0].field === 'score') return { field: 'score', column: 'score', dir: r.order[0].dir }
  const f = searchType(r.type).byName.get(r.order[0].field)
  return f ? { field: f.name, column: f.column, dir: r.order[0].dir } : null
}

/**
 * Whether a cursor's (value, id) can continue this request's order: a number for the score, a
 * value of the order field's kind (or null: past the rows without one). A cursor made for another
 * order, or edited, is refused rather than sent to the database.
 */
export function validAfter(r: SearchRequest, a: After): boolean {
  const af = afterField(r)
  if (!af || !Number.isSafeInteger(a.id)) return false
  if (af.field === 'score') return typeof a.value === 'number' && Number.isFinite(a.value)
  if (a.value === null) return true
  switch (searchType(r.type).byName.get(af.field)?.kind) {
    case 'date': return typeof a.value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(a.value) && !Number.isNaN(Date.parse(a.value))
    case 'int': return typeof a.value === 'number' && Number.isSafeInteger(a.value)
    case 'keyword': return typeof a.value === 'string'
    default: return false
  }
}

/**
 * Whether a cursor's frozen statistics fit this request: the corpus size, average lengths of the
 * query's text columns only, document frequencies of its (column, token) pairs only, all finite
 * and not negative. Edited ones that do not are refused, as edited keys are.
 */
export function validStats(r: SearchRequest, s: SearchStats): boolean {
  const sp = scoringPlan(r.query, searchType(r.type))
  const columns = new Set(sp.columns)
  const keys = new Set(sp.keys.map((k) => k.key))
  const count = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
  const plain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
  return typeof s === 'object' && s !== null && count(s.n) && plain(s.avgdl) && plain(s.df)
    && Object.entries(s.avgdl).every(([c, v]) => columns.has(c) && typeof v === 'number' && Number.isFinite(v) && v >= 0)
    && Object.entries(s.df).every(([k, v]) => keys.has(k) && count(v))
}

/** Rows after (value, id) in the order (NULLs last, ties by id in the order's direction). */
function afterNode(field: string, dir: 'asc' | 'desc', a: After): Node {
  const present: Node = { kind: 'range', field, lower: null, upper: null, includeLower: true, includeUpper: true }
  const idBeyond: Node = dir === 'asc'
    ? { kind: 'range', field: 'id', lower: a.id, upper: null, includeLower: false, includeUpper: true }
    : { kind: 'range', field: 'id', lower: null, upper: a.id, includeLower: true, includeUpper: false }
  if (a.value === null) return and([not(present), idBeyond])
  const beyond: Node = dir === 'asc'
    ? { kind: 'range', field, lower: a.value, upper: null, includeLower: false, includeUpper: true }
    : { kind: 'range', field, lower: null, upper: a.value, includeLower: true, includeUpper: false }
  return or([beyond, and([{ kind: 'value', field, value: a.value }, idBeyond]), not(present)])
}

/** Whether the request's pages are ranked by BM25 (ordered by score, and its query scores). */
const rankedByScore = (r: SearchRequest): boolean => r.order.some((k) => k.field === 'score') && scores(scoringPlan(r.query, searchType(r.type)))

export function createSearchEngine(db: Db): SearchEngine {
  const corpus = new Map<SearchType, { at: number; stats: Promise<CorpusStats> }>()
  const corpusOf = (type: SearchType): Promise<CorpusStats> => {
    const hit = corpus.get(type)
    if (hit && Date.now() - hit.at < CORPUS_TTL_MS) return hit.stats
    const stats = db.query<{ n: number; avgdl: Record<string, number> }>(corpusStatsSql(type, { database: db.database }))
      .then(([row]) => ({ n: Number(row?.n ?? 0), avgdl: row?.avgdl ?? {} }))
    stats.catch(() => corpus.delete(type))
    corpus.set(type, { at: Date.now(), stats })
    return stats
  }

  // document frequencies move with the index as slowly as the corpus statistics do, so they are
  // kept as long: a query whose (column, token) pairs were all asked lately (a popular term, the
  // next page of a query) needs no statistics round trip before its page
  const dfSeen = new Map<string, { at: number; df: number }>()
  const dfKnown = (type: SearchType, keys: readonly string[], now: number): Record<string, number> | null => {
    const df: Record<string, number> = {}
    for (const k of keys) {
      const hit = dfSeen.get(`${type}\n${k}`)
      if (!hit || now - hit.at >= CORPUS_TTL_MS) return null
      if (hit.df > 0) df[k] = hit.df // as statsSql answers: a pair without postings is absent
    }
    return df
  }
  const dfLearn = (type: SearchType, keys: readonly string[], df: Record<string, number>, at: number) => {
    for (const k of keys) {
      const key = `${type}\n${k}`
      dfSeen.delete(key) // re-inserted last: the Map's order is then oldest first
      dfSeen.set(key, { at, df: df[k] ?? 0 })
    }
    for (const old of dfSeen.keys()) { if (dfSeen.size <= DF_ENTRIES) break; dfSeen.delete(old) }
  }

  // a request's BM25 statistics, read once for its page and its count (a phrase's join order needs them too)
  const statsOf = new WeakMap<SearchRequest, Promise<SearchStats>>()
  const statsFor = (r: SearchRequest): Promise<SearchStats> => {
    let stats = statsOf.get(r)
    if (!stats) {
      const sp = scoringPlan(r.query, searchType(r.type))
      const keys = sp.keys.map((k) => k.key)
      stats = corpusOf(r.type).then(async (corpus) => {
        const now = Date.now()
        const avgdl = Object.fromEntries(sp.columns.map((c) => [c, corpus.avgdl[c] ?? 0]))
        const known = dfKnown(r.type, keys, now)
        if (known) return { n: corpus.n, avgdl, df: known }
        const [row] = await db.query<SearchStats>(statsSql(r.query, r.type, { database: db.database, corpus }))
        const df = Object.fromEntries(Object.entries(row.df ?? {}).map(([k, v]) => [k, Number(v)]))
        dfLearn(r.type, keys, df, now)
        return { n: Number(row.n), avgdl: row.avgdl, df }
      })
      statsOf.set(r, stats)
    }
    return stats
  }
  const hasPhrase = (n: Node): boolean =>
    n.kind === 'phrase' || ((n.kind === 'and' || n.kind === 'or') && n.children.some(hasPhrase)) || (n.kind === 'not' && hasPhrase(n.child))

  // a request's total as its page query computed it (searchSql `total`), for its count to take
  // instead of running the query's work again; null when that page could not tell
  const totals = new WeakMap<SearchRequest, Promise<number | null>>()

  return {
    async page(r, p) {
      const af = afterField(r)
      const continued = Boolean(p.after && af)
      const byScore = af?.field === 'score'
      const filters = continued && !byScore && p.after && af ? and([r.filters, afterNode(af.field, af.dir, p.after)]) : r.filters
      const afterScore = continued && byScore && p.after ? { score: Number(p.after.value), id: p.after.id } : undefined
      const offset = p.after ? 0 : p.offset
      const o = { database: db.database, filters, order: r.order, limit: p.limit, offset, afterScore }
      // Whether this page can count, known before the statistics (the query's shape decides). A
      // page continued after a key sees only the rows past it: its total is not the request's.
      let tell: ((n: number | null) => void) | undefined
      if (!continued && !totals.has(r) && searchPageSql(r.query, r.type, { ...o, total: true, stats: NO_STATS }).total) {
        totals.set(r, new Promise((resolve) => { tell = resolve }))
      }
      try {
        const stats = rankedByScore(r) ? (p.stats ?? await statsFor(r)) : undefined
        const paged = searchPageSql(r.query, r.type, { ...o, stats, total: Boolean(tell) })
        let rows = await db.query<Record<string, unknown>>(paged.sql)
        if (paged.fallback?.needed(rows)) rows = await db.query<Record<string, unknown>>(paged.fallback.sql)
        tell?.(rows.length ? Number(rows[0].total) : offset === 0 ? 0 : null)
        return rows.map((x) => ({ id: Number(x.id), score: Number(x.score ?? 0), key: af ? ((x[af.column] ?? null) as string | number | null) : null }))
      } catch (err) {
        tell?.(null)
        throw err
      }
    },
    async count(r, type = r.type) {
      const known = type === r.type ? await totals.get(r) : undefined
      if (known !== undefined && known !== null) return known
      // a phrase joins its words' occurrences largest first, which its words' document frequencies tell
      const stats = type === r.type && hasPhrase(r.query) && scores(scoringPlan(r.query, searchType(r.type))) ? await statsFor(r) : undefined
      const [row] = await db.query<{ count: number }>(countSql(requestAst(r), type, { database: db.database, stats }))
      return Number(row?.count ?? 0)
    },
    async stats(r) {
      return rankedByScore(r) ? statsFor(r) : undefined
    },
    async results(type, ids) {
      if (!ids.length) return new Map()
      const rows = await db.withKeys<{ id: number; result: string; date_created: string | null; indexed_at: string }>(ids, 'Int64', (k) => sql`
        SELECT id, result, date_created, indexed_at FROM ${ident(db.database)}.${ident(SEARCH_RESULTS)} FINAL WHERE type = ${type} AND id IN ${k}`)
      return new Map(rows.map((x) => [Number(x.id), { result: JSON.parse(x.result) as Record<string, unknown>, dateCreated: x.date_created, indexedAt: x.indexed_at }]))
    },
  }
}
