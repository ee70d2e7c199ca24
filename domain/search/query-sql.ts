/**
 * The search query compiler: a query (AST, ast.ts) → the ClickHouse statements of a search page,
 * its count, its BM25 statistics and its prefix expansions, as Sql values built with core/sql.ts
 * (every value a bound parameter). Pure: callers (api/search/engine.ts, the benchmarks) run them.
 * The postings reads are text-sql.ts's; the tables are schemas/internal/search-layout.ts's.
 *
 * A query is one aggregation over the postings of its text leaves (ARRAY JOIN of the selected
 * key ranges, current versions only), grouped by id, giving one flag per text leaf and the BM25
 * score. Its shape decides what else is read (body): nothing for text alone ordered by score; the
 * documents the filters keep, as a semi-join restricting the postings (court, dates, …); the
 * documents the text matches, for an order by a document column (dateFiled); the documents joined
 * when text and document clauses mix under OR/NOT (LEFT when a match needs no postings: NOT x,
 * x OR court_id:y). N and the average field lengths can be cached by the caller (corpusStatsSql,
 * then `corpus` for statsSql), so per query only df is read. Text queries see a change when the
 * live-version dictionary does; queries without text read the documents with FINAL. Where a text
 * query reads document rows (filters, column orders), it reads the row at the current version or,
 * while a newer one waits for the reload, that one (isLiveRow: a merge may drop the current row
 * first).
 * Key ranges of the postings are given in WHERE, not PREWHERE: the server moves them to PREWHERE
 * itself. On layout 3's table (3 times the rows) an explicit PREWHERE beside an ARRAY JOIN cost
 * about 10 ms more per read at 1M documents (a one-key read: 7 ms, against 13-20 ms); on the
 * current layout at 1M the two measured the same (bench queries interleaved).
 * Semantics are matcher.ts's, clause for clause (test/integration/search-agreement.test.ts):
 * - term: a posting (field in the leaf's fields, term = t);
 * - phrase: in one field, positions p, p+1, … of the tokens: grams and tokens joined on
 *   (id, version, field) and their positions compared (phraseSet);
 * - proximity: in one field, a window [p, p + n + k - 1] starting at a position of one of the
 *   tokens holds every token;
 * - prefix: a posting whose term starts with the prefix: a range of the postings key, read
 *   directly, so no expansion list is needed and nothing is truncated (expansionSql lists the
 *   terms, up to maxExpansions + 1, for callers that want to refuse very broad prefixes);
 * - value/range: on the document row; an absent value compares false (NOT matches it).
 */
import { sql, ident, join, param, raw, empty, type Sql } from '../../core/sql.js'
import { and, type Node, type Scalar } from './ast.js'
import { searchType, type FieldKind, type SearchField, type SearchType, type SearchTypeSpec } from './fields.js'
import { fieldOf } from './matcher.js'
import { scoringPlan, scores, type SearchStats } from './bm25.js'
import { CH_TYPE, isKey, lenColumn, liveDictionary, searchTables, tableRef, type TableOptions } from './tables.js'
import { aggregate, fields, isLive, leafKeys, isLiveRow, isTextLeaf, phraseSet, plan, postingIds, zero, type Ctx, type Plan } from './text-sql.js'

export type { SearchStats } from './bm25.js'
export type { TableOptions } from './tables.js'

export const DEFAULT_MAX_EXPANSIONS = 1024

export interface SearchSqlOptions extends TableOptions {
  /** request filters (court, dates, …) as AST, ANDed with the query; they never score */
  readonly filters?: Node
  /** default [{field: 'score', dir: 'desc'}]; `field` is a query-syntax name, 'score' or `random_<seed>` (shuffled, stable per seed) */
  readonly order?: readonly { readonly field: string; readonly dir: 'asc' | 'desc' }[]
  readonly limit?: number
  readonly offset?: number
  /** required when ordering by score (statsSql) */
  readonly stats?: SearchStats
  /** read the documents with FINAL (replaced and deleted rows hidden); default true */
  readonly final?: boolean
  readonly maxExpansions?: number
  /** n and avgdl cached by the caller (corpusStatsSql): statsSql then reads only df */
  readonly corpus?: CorpusStats
  /**
   * Ordered by score alone: only the documents after this (score, id) in that order (a cursor's
   * next page: search_after, so documents indexed meanwhile do not shift it). Scores are rounded
   * to 9 decimals, so the same document scores the same in every query (the server adds a
   * document's terms in no fixed order).
   */
  readonly afterScore?: { readonly score: number; readonly id: number }
  /**
   * searchSql: also a column `total`, the number of matching documents (what countSql counts),
   * computed over the page query's own rows, where they are one per document (not when ordered by
   * a document column: those rows are made unique after). Saves a second run of the query's work.
   */
  readonly total?: boolean
}

/** The corpus half of SearchStats (corpusStatsSql). */
export interface CorpusStats {
  readonly n: number
  readonly avgdl: Readonly<Record<string, number>>
}

/** Three-valued: can the query be true when every text leaf is false? (false → only documents with postings) */
function satisfiableWithoutText(n: Node, spec: SearchTypeSpec): boolean | null {
  switch (n.kind) {
    case 'all': return true
    case 'none': return false
    case 'and': {
      let r: boolean | null = true
      for (const c of n.children) { const v = satisfiableWithoutText(c, spec); if (v === false) return false; if (v === null) r = null }
      return r
    }
    case 'or': {
      let r: boolean | null = false
      for (const c of n.children) { const v = satisfiableWithoutText(c, spec); if (v === true) return true; if (v === null) r = null }
      return r
    }
    case 'not': { const v = satisfiableWithoutText(n.child, spec); return v === null ? null : !v }
    default: return isTextLeaf(spec, n) ? false : null
  }
}

/** The document columns a node reads (value, range and keyword-prefix clauses). */
function docColumnsOf(n: Node, spec: SearchTypeSpec, out: Set<string> = new Set()): Set<string> {
  switch (n.kind) {
    case 'and': case 'or': n.children.forEach((c) => docColumnsOf(c, spec, out)); break
    case 'not': docColumnsOf(n.child, spec, out); break
    case 'value': case 'range': out.add(fieldOf(spec, n.field).column); break
    case 'prefix': if (n.field !== null && fieldOf(spec, n.field).kind !== 'text') out.add(fieldOf(spec, n.field).column); break
    default: break
  }
  return out
}

function typed(f: SearchField, v: Scalar): unknown {
  return param(f.kind === 'int' ? Number(v) : v, CH_TYPE[f.kind as Exclude<FieldKind, 'text'>])
}

/** `x` is an element of the field: compare a scalar (NULL → false) or any element of an array. */
function onValues(f: SearchField, test: (x: Sql) => Sql): Sql {
  const c = sql`d.${ident(f.column)}`
  return f.multi ? sql`arrayExists(x -> ${test(sql`x`)}, ${c})` : sql`ifNull(${test(c)}, false)`
}

/** A leaf's flag; a document without postings has 0 (ifNull: also under join_use_nulls). */
const flag = (i: number): Sql => sql`ifNull(s.${ident(`l${i}`)}, 0)`

/** The boolean over document columns and leaf flags (s.l<i>). */
function whereSql(n: Node, p: Plan): Sql {
  switch (n.kind) {
    case 'all': return sql`${raw('1')}`
    case 'none': return sql`${raw('0')}`
    case 'and': return sql`(${join(n.children.map((c) => whereSql(c, p)), ' AND ')})`
    case 'or': return sql`(${join(n.children.map((c) => whereSql(c, p)), ' OR ')})`
    case 'not': return sql`NOT ${whereSql(n.child, p)}`
    case 'term': case 'phrase': return flag(p.index.get(n) as number)
    case 'prefix': {
      const i = p.index.get(n)
      if (i !== undefined) return flag(i)
      return onValues(fieldOf(p.spec, n.field as string), (x) => sql`startsWith(${x}, ${n.prefix})`)
    }
    case 'value': {
      const f = fieldOf(p.spec, n.field)
      return onValues(f, (x) => sql`${x} = ${typed(f, n.value)}`)
    }
    case 'range': {
      const f = fieldOf(p.spec, n.field)
      return onValues(f, (x) => {
        const parts: Sql[] = []
        if (n.lower !== null) parts.push(sql`${x} ${raw(n.includeLower ? '>=' : '>')} ${typed(f, n.lower)}`)
        if (n.upper !== null) parts.push(sql`${x} ${raw(n.includeUpper ? '<=' : '<')} ${typed(f, n.upper)}`)
        return parts.length ? join(parts, ' AND ') : sql`isNotNull(${x})`
      })
    }
  }
}

/**
 * A query as (text part) AND (clauses on documents alone), when it splits so: each top-level
 * conjunct reads either no text leaf or no document column.
 */
function split(q: Node, spec: SearchTypeSpec): { text: Node[]; docs: Node[] } | null {
  const parts = q.kind === 'and' ? q.children : [q]
  const text: Node[] = []
  const docs: Node[] = []
  for (const n of parts) {
    if (plan(n, spec).text.length === 0) docs.push(n)
    else if (docColumnsOf(n, spec).size === 0) text.push(n)
    else return null
  }
  return { text, docs }
}

/**
 * A text part that any one posting decides (a term or prefix leaf, or an OR of them, no phrase):
 * a document matches iff the leaves' key ranges hold a current posting of it, so the matching ids
 * need no aggregation per document (postingIds).
 */
function anyPosting(n: Node, spec: SearchTypeSpec): boolean {
  if (n.kind === 'or') return n.children.every((c) => anyPosting(c, spec))
  return (n.kind === 'term' || n.kind === 'prefix') && isTextLeaf(spec, n)
}


function finalOf(o: SearchSqlOptions): Sql { return o.final === false ? empty : sql` FINAL` }

interface Body {
  from: Sql
  where: Sql
  /** the id and score columns; docs: the order columns are read from `d` */
  id: Sql
  score: Sql
  docs: boolean
  /** rows of the documents table without FINAL: one per id (LIMIT 1 BY id) */
  dedupe: boolean
}

/**
 * FROM … WHERE …: shared by searchSql and countSql. By shape:
 * - no text leaf: the documents (FINAL) alone;
 * - every match has postings and the query is (text part) AND (clauses on documents alone):
 *   - not ordered by a document column (by score or id, or counting): the postings aggregate
 *     alone, its rows restricted to the current documents the clauses keep (a semi-join; without
 *     such clauses the documents table is not read at all). The clauses' documents are read
 *     first: for a court and a date range, the server reads them as a key range of the documents'
 *     projection by (court_id, date_filed) (schemas/internal/search-layout.ts) when that reads
 *     fewer marks than the table, so the set is a few granules, not every row; unscored, a text part that one
 *     posting decides (anyPosting: terms, prefixes, OR of them) is the distinct ids of its current
 *     postings, and one phrase the distinct ids of its set (phraseSet): no aggregate;
 *   - ordered by a document column only: the current documents the clauses keep whose id the
 *     text part matches (the semi-join the other way), one row per id; for a text part one
 *     posting decides, the ids of its current postings (no aggregate); for one phrase, its set;
 * - otherwise: the current rows of the documents (dictionary, one per id) with the columns the
 *   clauses and the order read, joined to the aggregate (INNER when every match has postings, the
 *   documents then pruned to the ids the postings name).
 */
function body(ast: Node, type: SearchType, o: SearchSqlOptions, score: boolean, orderColumns: readonly string[]): Body {
  const spec = searchType(type)
  const q = o.filters ? and([ast, o.filters]) : ast
  const p = plan(q, spec)
  const t = searchTables(type, o)
  if (p.text.length === 0) return { from: sql`${tableRef(o, t.docs)} AS d${finalOf(o)}`, where: whereSql(q, p), id: sql`d.id`, score: zero, docs: true, dedupe: false }
  const c: Ctx = { spec, type, o, postings: tableRef(o, t.postings), live: liveDictionary(o, type), checked: o.final !== false }
  const inner = satisfiableWithoutText(q, spec) === false
  const live = c.checked ? [isLiveRow(c.live)] : []
  const parts = inner ? split(q, spec) : null
  const direct = parts !== null && parts.text.length === 1 && anyPosting(parts.text[0], spec)
  // a text part that is one phrase: its documents are phraseSet's (current versions already)
  const single = parts !== null && parts.text.length === 1 && parts.text[0].kind === 'phrase' ? parts.text[0] : null
  if (parts && orderColumns.length === 0) {
    const docWhere = parts.docs.map((n) => whereSql(n, p))
    const only = docWhere.length ? sql`SELECT id FROM ${tableRef(o, t.docs)} AS d WHERE ${join([...docWhere, ...live], ' AND ')}` : undefined
    if (direct && !score) {
      // unscored (a count, an order by id): the distinct ids of the current postings, no aggregate
      const conds = [...(only ? [sql`id IN (${only})`] : []), ...(c.checked ? [isLive(c.live, sql`id`, sql`version`)] : [])]
      return { from: sql`(SELECT DISTINCT id FROM (${postingIds(c, p, conds)})) AS s`, where: sql`${raw('1')}`, id: sql`s.id`, score: zero, docs: false, dedupe: false }
    }
    if (single && !score) {
      // unscored, one phrase: the distinct ids of its set, no postings of its tokens read for scoring
      const w = only ? sql` WHERE id IN (${only})` : empty
      return { from: sql`(SELECT DISTINCT id FROM (${phraseSet(c, single)})${w}) AS s`, where: sql`${raw('1')}`, id: sql`s.id`, score: zero, docs: false, dedupe: false }
    }
    return { from: sql`(${aggregate(c, p, ast, score, only)}) AS s`, where: whereSql(and(parts.text), p), id: sql`s.id`, score: sql`s.score`, docs: false, dedupe: false }
  }
  if (parts && !score) {
    // a text part one posting decides: the ids of its current postings (no aggregate; the set
    // first, so the dictionary is asked only for the rows it keeps); else the aggregate
    const inText = direct
      ? sql`d.id IN (SELECT id FROM (${postingIds(c, p, c.checked ? [isLive(c.live, sql`id`, sql`version`)] : [])}))`
      : single
        ? sql`d.id IN (${phraseSet(c, single)})`
        : sql`d.id IN (SELECT s.id FROM (${aggregate(c, p, ast, false)}) AS s WHERE ${whereSql(and(parts.text), p)})`
    const where = join([...parts.docs.map((n) => whereSql(n, p)), inText, ...live], ' AND ')
    return { from: sql`${tableRef(o, t.docs)} AS d`, where, id: sql`d.id`, score: zero, docs: true, dedupe: c.checked }
  }
  const agg = aggregate(c, p, ast, score)
  const cols = [...new Set([...docColumnsOf(q, spec), ...orderColumns])]
  const conds: Sql[] = []
  // every match has postings: the ids they name prune the documents' primary key
  if (inner) conds.push(sql`id IN (SELECT id FROM ${c.postings} ARRAY JOIN ids AS id WHERE ${join(p.text.map((leaf) => leafKeys(spec, leaf)), ' OR ')})`)
  conds.push(...live)
  const select = join([sql`id`, ...cols.map((col) => sql`${ident(col)}`)], ', ')
  const where = conds.length ? sql` WHERE ${join(conds, ' AND ')}` : empty
  const dedupe = c.checked ? sql` LIMIT 1 BY id` : empty
  const docs = sql`(SELECT ${select} FROM ${tableRef(o, t.docs)} AS d${where}${dedupe}) AS d`
  return { from: sql`${docs} ${raw(inner ? 'INNER' : 'LEFT')} JOIN (${agg}) AS s ON s.id = d.id`, where: whereSql(q, p), id: sql`d.id`, score: sql`s.score`, docs: true, dedupe: false }
}

/** An order key `random_<seed>`: documents shuffled by a hash of (id, seed), stable for a seed. */
const isRandom = (field: string) => field.startsWith('random_')

/**
 * The page of matching documents: columns `id`, `score` (BM25, 0 when not ordered by score) and one
 * column per order key (named after the field's column). Ties are broken by id.
 */
export function searchSql(ast: Node, type: SearchType, o: SearchSqlOptions = {}): Sql {
  // in one query: the exact form (searchPageSql's may need a second read)
  const p = searchPageSql(ast, type, o)
  return p.fallback?.sql ?? p.sql
}

/**
 * searchSql, and whether its rows carry `total` (asked for by `o.total`, and possible for this
 * query). With `fallback`, a page whose rows `needed` says may be incomplete is read again with
 * its sql (PagedSql).
 */
export interface PagedSql {
  sql: Sql
  total: boolean
  fallback?: { sql: Sql; needed(rows: readonly Record<string, unknown>[]): boolean }
}

export function searchPageSql(ast: Node, type: SearchType, o: SearchSqlOptions = {}): PagedSql {
  const spec = searchType(type)
  const order = o.order?.length ? o.order : [{ field: 'score', dir: 'desc' as const }]
  const byScore = order.some((k) => k.field === 'score')
  if (byScore && !o.stats && scores(scoringPlan(ast, spec))) throw new Error('ordering by score needs stats (statsSql)')
  const orderFields: SearchField[] = []
  for (const k of order) {
    if (k.field === 'score' || isRandom(k.field)) continue
    const f = fieldOf(spec, k.field)
    if (f.kind === 'text' || f.multi) throw new Error(`cannot order by ${k.field}`)
    if (!isKey(f)) orderFields.push(f)
  }
  const { from, where: whereBody, id, score, docs, dedupe } = body(ast, type, o, byScore, orderFields.map((f) => f.column))
  const keys: Sql[] = []
  for (const k of order) {
    const dir = raw(k.dir === 'asc' ? 'ASC' : 'DESC')
    if (k.field === 'score') { keys.push(sql`score ${dir}`); continue }
    if (isRandom(k.field)) { keys.push(sql`sipHash64(id, ${k.field}) ${dir}`); continue }
    const f = fieldOf(spec, k.field)
    keys.push(sql`${ident(f.column)} ${dir} NULLS LAST`)
  }
  const tie = raw(order[0].dir === 'asc' && order[0].field !== 'score' ? 'ASC' : 'DESC')
  if (!order.some((k) => k.field === 'id')) keys.push(sql`id ${tie}`)
  const rounded = byScore ? sql`round(${score}, 9)` : score
  const select = [sql`${id} AS id`, sql`${rounded} AS score`, ...(docs ? orderFields.map((f) => sql`d.${ident(f.column)} AS ${ident(f.column)}`) : [])]
  let where = whereBody
  if (o.afterScore) {
    if (order.length !== 1 || order[0].field !== 'score') throw new Error('afterScore needs an order by score alone')
    const [s, i] = [param(o.afterScore.score, 'Float64'), param(o.afterScore.id, 'Int64')]
    const past = order[0].dir === 'desc' ? sql`(${rounded} < ${s} OR (${rounded} = ${s} AND ${id} < ${i}))` : sql`(${rounded} > ${s} OR (${rounded} = ${s} AND ${id} < ${i}))`
    where = sql`${whereBody} AND ${past}`
  }
  const total = Boolean(o.total) && !dedupe
  if (total) select.push(sql`count() OVER () AS total`)
  const limit = o.limit === undefined ? empty : sql` LIMIT ${param(o.limit, 'UInt64')}`
  const offset = o.offset ? sql` OFFSET ${param(o.offset, 'UInt64')}` : empty
  // a document row delivered twice (the same version, not merged yet) counts once
  const once = dedupe ? sql` LIMIT 1 BY id` : empty
  const full = sql`SELECT ${join(select, ', ')} FROM ${from} WHERE ${where} ORDER BY ${join(keys, ', ')}${once}${limit}${offset}`
  if (!dedupe || o.limit === undefined) return { sql: full, total }
  // LIMIT 1 BY id sorts every matching row (hundreds of ms for a common word); a sorted prefix of
  // the rows is enough whenever it holds the page's documents: the first k distinct ids of a
  // prefix are those of the whole sorted list. Duplicate rows are rare (a row delivered twice and
  // not merged yet), so a prefix a few times the page almost always does; when it might not (it
  // came back full and gave a short page), the caller runs `fallback`.
  const prefix = ((o.offset ?? 0) + o.limit) * PREFIX_FACTOR + PREFIX_SLACK
  const inner = sql`SELECT ${join(select, ', ')} FROM ${from} WHERE ${where} ORDER BY ${join(keys, ', ')} LIMIT ${param(prefix, 'UInt64')}`
  const outer = sql`SELECT *, count() OVER () AS prefix_rows FROM (${inner}) ORDER BY ${join(keys, ', ')} LIMIT 1 BY id${limit}${offset}`
  const pageSize = o.limit
  return {
    sql: outer, total,
    fallback: { sql: full, needed: (rows) => rows.length < pageSize && (rows.length === 0 || Number(rows[0].prefix_rows) >= prefix) },
  }
}

/** The sorted prefix a deduplicated page reads: this many times (offset + limit) rows, plus PREFIX_SLACK. */
const PREFIX_FACTOR = 4
const PREFIX_SLACK = 64

/** The number of matching documents: one row, column `count`. */
export function countSql(ast: Node, type: SearchType, o: SearchSqlOptions = {}): Sql {
  const { from, where, dedupe } = body(ast, type, o, false, [])
  return sql`SELECT ${raw(dedupe ? 'uniqExact(d.id)' : 'count()')} AS count FROM ${from} WHERE ${where}`
}

/**
 * The corpus half of the statistics, for a caller that caches it (it changes slowly and costs a
 * scan of the documents): one row {n, avgdl: {column: avg}} over every text column of the type.
 * Pass it as `corpus` to statsSql, which then reads only the document frequencies.
 */
export function corpusStatsSql(type: SearchType, o: TableOptions & { final?: boolean } = {}): Sql {
  const spec = searchType(type)
  const t = searchTables(type, o)
  const avg = sql`map(${join(spec.textFields.map((f) => sql`${f.column}, avg(${ident(lenColumn(f))})`), ', ')})`
  return sql`SELECT count() AS n, ${avg} AS avgdl FROM ${tableRef(o, t.docs)}${o.final === false ? empty : sql` FINAL`}`
}

/**
 * The statistics BM25 needs for this query: one row {n, avgdl: {column: avg}, df: {"column:token": n}}.
 * n and avgdl come from the current documents, or from `o.corpus` when the caller has them
 * (corpusStatsSql; then the documents are not read); df sums postings, so until a rebuild of the
 * postings a replaced document (or a batch delivered twice) counts again: a small over-estimate
 * that only shifts idf slightly (matching is exact regardless).
 */
export function statsSql(ast: Node, type: SearchType, o: SearchSqlOptions = {}): Sql {
  const spec = searchType(type)
  const sp = scoringPlan(ast, spec)
  const t = searchTables(type, o)
  const cols = sp.columns
  const toks = [...new Set(sp.keys.map((x) => x.token))]
  const keys = sp.keys.map((x) => x.key)
  const perKey = sql`SELECT concat(field, ':', term) AS k, sum(length(ids)) AS c
        FROM ${tableRef(o, t.postings)} WHERE field IN ${cols} AND term IN ${toks} AND k IN ${keys} GROUP BY k`
  const dfMap = sql`CAST((groupArray(k), groupArray(c)), 'Map(String, UInt64)')`
  const df = sp.keys.length ? sql`(SELECT ${dfMap} FROM (${perKey}))` : sql`CAST(map(), 'Map(String, UInt64)')`
  if (o.corpus) {
    const avg = param(Object.fromEntries(cols.map((col) => [col, o.corpus?.avgdl[col] ?? 0])), 'Map(String, Float64)')
    const n = param(o.corpus.n, 'UInt64')
    // the frequencies as the statement's own aggregate (one row, an empty map when no key has
    // postings), not a scalar subquery: the server runs a scalar subquery while it plans the
    // statement, then plans the outer one, which cost about 2 ms of the 8-10 ms this takes at
    // 100,000 documents (docs/decisions/search.md, issue 27)
    if (sp.keys.length) return sql`SELECT ${n} AS n, ${avg} AS avgdl, ${dfMap} AS df FROM (${perKey})`
    return sql`SELECT ${n} AS n, ${avg} AS avgdl, ${df} AS df`
  }
  const avg = cols.length
    ? sql`map(${join(cols.map((c) => sql`${c}, avg(${ident(`${c}_len`)})`), ', ')})`
    : sql`CAST(map(), 'Map(String, Float64)')`
  return sql`SELECT count() AS n, ${avg} AS avgdl, ${df} AS df FROM ${tableRef(o, t.docs)}${finalOf(o)}`
}


/**
 * For callers that refuse very broad prefixes: rows {key: "column:prefix", terms} with at most
 * maxExpansions + 1 distinct terms each (more than maxExpansions = too broad). Null without
 * prefixes. The search itself never needs it (a prefix is a key range of the postings).
 */
export function expansionSql(ast: Node, type: SearchType, o: SearchSqlOptions = {}): Sql | null {
  const spec = searchType(type)
  const max = o.maxExpansions ?? DEFAULT_MAX_EXPANSIONS
  const p = plan(o.filters ? and([ast, o.filters]) : ast, spec)
  const parts: Sql[] = []
  const seen = new Set<string>()
  for (const leaf of p.text) {
    if (leaf.kind !== 'prefix') continue
    for (const c of fields(spec, leaf)) {
      const key = `${c}:${leaf.prefix}`
      if (seen.has(key)) continue
      seen.add(key)
      parts.push(sql`SELECT ${key} AS key, groupArray(term) AS terms FROM (SELECT DISTINCT term FROM ${tableRef(o, searchTables(type, o).postings)}
        WHERE field = ${c} AND term >= ${leaf.prefix} AND startsWith(term, ${leaf.prefix}) LIMIT ${param(max + 1, 'UInt64')})`)
    }
  }
  return parts.length ? join(parts, ' UNION ALL ') : null
}
