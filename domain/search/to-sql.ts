/**
 * The ClickHouse side of search: a postings layout, chosen by bench/search-machinery.ts (a text
 * index answers matching fast, but BM25 then reads every candidate's tokens, which costs seconds
 * at 1M documents; postings carry tf and positions, so ranking reads only the query's terms).
 *
 * Tables of a search type (names from fields.ts `table`, e.g. search_o):
 * - `<table>`: one row per document: the non-text fields (Nullable scalars, arrays when
 *   multi-valued) and `<column>_len` per text field; ReplacingMergeTree(version, is_deleted),
 *   read with FINAL;
 * - `<table>_postings`: one row per (field, term) per indexed batch, ordered by (field, term),
 *   with the batch's postings as parallel arrays (ids, versions, tfs, dls = field lengths, poss =
 *   positions). Few, wide rows: a batch of 20,000 opinions writes ~50,000 rows instead of 4
 *   million, which is what makes indexing affordable. A posting counts only when its (id,
 *   version) is the document's current one (join on both), so replaced and deleted documents
 *   never show; their stale postings stay until a rebuild (not built yet);
 * - `<table>_ingest`: a Null table the indexer inserts one row per document into (its document
 *   columns and each text field's tokens space-joined: toIndexRows); one materialized view
 *   copies the document row, another computes the postings (fieldPostings) and groups the batch
 *   by (field, term). One insert carries a batch.
 *
 * A query is one aggregation over the postings of its text leaves (ARRAY JOIN of the selected
 * key ranges), grouped by (id, version), giving one flag per text leaf and the BM25 score,
 * joined to the documents, where the boolean structure, keyword/date/int/bool clauses, filters
 * and ordering are evaluated. When the query cannot match without some text leaf the join is
 * INNER; otherwise (NOT x, filters alone, x OR court_id:y) every document is a candidate.
 * Semantics are matcher.ts's, clause for clause (test/integration/search-agreement.test.ts):
 * - term: a posting (field in the leaf's fields, term = t);
 * - phrase: in one field, positions p, p+1, … of the tokens: the tokens' postings joined on
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
import type { AnalyzedDoc } from './document.js'
import { searchType, type FieldKind, type SearchField, type SearchType, type SearchTypeSpec } from './fields.js'
import { fieldOf, textFieldsOf } from './matcher.js'
import { B, K1, scoringPlan, weights, type SearchStats } from './bm25.js'

export type { SearchStats } from './bm25.js'

export const DEFAULT_MAX_EXPANSIONS = 1024

export interface TableOptions {
  /** database of the search tables (default: the session's) */
  readonly database?: string
  /** base table name (default: the type's table, fields.ts) */
  readonly table?: string
}

export interface SearchSqlOptions extends TableOptions {
  /** request filters (court, dates, …) as AST, ANDed with the query; they never score */
  readonly filters?: Node
  /** default [{field: 'score', dir: 'desc'}]; `field` is a query-syntax name or 'score' */
  readonly order?: readonly { readonly field: string; readonly dir: 'asc' | 'desc' }[]
  readonly limit?: number
  readonly offset?: number
  /** required when ordering by score (statsSql) */
  readonly stats?: SearchStats
  /** read the documents with FINAL (replaced and deleted rows hidden); default true */
  readonly final?: boolean
  readonly maxExpansions?: number
}

const CH_TYPE: Record<Exclude<FieldKind, 'text'>, string> = { keyword: 'String', int: 'Int64', date: 'Date32', bool: 'Bool' }

const lenColumn = (f: SearchField) => `${f.column}_len`
const isKey = (f: SearchField) => f.column === 'id'

/** Table names of a type's layout. */
export function searchTables(type: SearchType, o: TableOptions = {}): { docs: string; postings: string; ingest: string } {
  const base = o.table ?? searchType(type).table
  return { docs: base, postings: `${base}_postings`, ingest: `${base}_ingest` }
}

function ref(o: TableOptions, name: string): Sql {
  return o.database ? sql`${ident(o.database)}.${ident(name)}` : sql`${ident(name)}`
}

// ---------------------------------------------------------------- layout

function docColumns(spec: SearchTypeSpec): { name: string; type: string }[] {
  const out = [{ name: 'id', type: 'Int64' }, { name: 'version', type: 'UInt64' }, { name: 'is_deleted', type: 'UInt8' }]
  for (const f of spec.fields) {
    if (isKey(f)) continue
    if (f.kind === 'text') out.push({ name: lenColumn(f), type: 'UInt32' })
    else out.push({ name: f.column, type: f.multi ? `Array(${CH_TYPE[f.kind]})` : `Nullable(${CH_TYPE[f.kind]})` })
  }
  return out
}

const srcColumn = (f: SearchField) => `${f.column}_src`

/**
 * The postings of one text field of an ingest row, computed by ClickHouse from the space-joined
 * tokens: positions sorted by (token, position), split where the token changes; the empty token
 * (the gap between values) is dropped. An array of (field, term, positions, field length).
 */
function fieldPostings(f: SearchField): Sql {
  const name = ident(f.column).name // a catalogue column: [a-z_0-9]+, safe as a literal
  const toks = `splitByChar(' ', \`${srcColumn(f)}\`)`
  const sorted = `arraySort(${toks})`
  const prev = `arrayPushFront(arrayPopBack(${sorted}), '')`
  const terms = `arrayMap(g -> g[1], arraySplit((t, pr) -> t != pr, ${sorted}, ${prev}))`
  const groups = `arraySplit((p, t, pr) -> t != pr, arraySort((p, t) -> (t, p), range(toUInt32(length(${toks}))), ${toks}), ${sorted}, ${prev})`
  return sql`${raw(`arrayFilter(x -> x.2 != '', arrayMap((t, g) -> ('${name}', t, g, \`${lenColumn(f)}\`), ${terms}, ${groups}))`)}`
}

/** The statements that create a type's tables and views, in order (idempotent). */
export function searchTableDdl(type: SearchType, o: TableOptions = {}): Sql[] {
  const spec = searchType(type)
  const t = searchTables(type, o)
  const cols = docColumns(spec)
  const def = (c: { name: string; type: string }) => sql`${ident(c.name)} ${raw(c.type)}`
  const names = join(cols.map((c) => sql`${ident(c.name)}`), ', ')
  const sources = spec.textFields.map((f) => ({ name: srcColumn(f), type: 'String' }))
  return [
    sql`CREATE TABLE IF NOT EXISTS ${ref(o, t.docs)} (${join(cols.map(def), ', ')})
      ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY id`,
    sql`CREATE TABLE IF NOT EXISTS ${ref(o, t.postings)} (field LowCardinality(String), term String,
      ids Array(Int64), versions Array(UInt64), tfs Array(UInt32), dls Array(UInt32), poss Array(Array(UInt32)))
      ENGINE = MergeTree ORDER BY (field, term)`,
    sql`CREATE TABLE IF NOT EXISTS ${ref(o, t.ingest)} (${join([...cols, ...sources].map(def), ', ')}) ENGINE = Null`,
    sql`CREATE MATERIALIZED VIEW IF NOT EXISTS ${ref(o, `${t.docs}_docs_mv`)} TO ${ref(o, t.docs)} AS SELECT ${names} FROM ${ref(o, t.ingest)}`,
    sql`CREATE MATERIALIZED VIEW IF NOT EXISTS ${ref(o, `${t.docs}_postings_mv`)} TO ${ref(o, t.postings)} AS
      SELECT p.1 AS field, p.2 AS term, groupArray(id) AS ids, groupArray(version) AS versions,
        groupArray(toUInt32(length(p.3))) AS tfs, groupArray(p.4) AS dls, groupArray(p.3) AS poss
      FROM (SELECT id, version, arrayConcat(${join(spec.textFields.map(fieldPostings), ', ')}) AS ps FROM ${ref(o, t.ingest)} WHERE is_deleted = 0)
      ARRAY JOIN ps AS p GROUP BY field, term`,
  ]
}

/** Columns of the ingest table in the order of the values toIndexRows gives (JSONCompactEachRow). */
export function indexColumns(type: SearchType): string[] {
  const spec = searchType(type)
  return [...docColumns(spec).map((c) => c.name), ...spec.textFields.map(srcColumn)]
}

/**
 * The ingest row of one analyzed document: its document columns and, per text field, its tokens
 * space-joined (the empty gap token becomes two spaces); ClickHouse turns those into postings
 * (fieldPostings), which costs less than building and sending them from here.
 */
export function toIndexRows(type: SearchType, doc: AnalyzedDoc, version = 0, deleted = false): Record<string, unknown>[] {
  const spec = searchType(type)
  const row: Record<string, unknown> = { id: doc.id, version, is_deleted: deleted ? 1 : 0 }
  for (const f of spec.fields) {
    if (isKey(f)) continue
    if (f.kind === 'text') {
      const a = doc.text[f.column]
      row[lenColumn(f)] = a ? a.length : 0
      row[srcColumn(f)] = a && !deleted ? a.tokens.join(' ') : ''
    } else {
      const v = doc.values[f.column] ?? []
      row[f.column] = f.multi ? [...v] : (v[0] ?? null)
    }
  }
  return [row]
}

// ---------------------------------------------------------------- compiling a query

type TextLeaf = Extract<Node, { kind: 'term' | 'phrase' | 'prefix' }>

interface Plan {
  spec: SearchTypeSpec
  /** text leaves, in AST order; flag column l<i> */
  text: TextLeaf[]
  index: Map<Node, number>
}

const isTextLeaf = (spec: SearchTypeSpec, n: Node): n is TextLeaf =>
  n.kind === 'term' || n.kind === 'phrase' || (n.kind === 'prefix' && (n.field === null || fieldOf(spec, n.field).kind === 'text'))

function plan(ast: Node, spec: SearchTypeSpec): Plan {
  const p: Plan = { spec, text: [], index: new Map() }
  const walk = (n: Node): void => {
    if (n.kind === 'and' || n.kind === 'or') n.children.forEach(walk)
    else if (n.kind === 'not') walk(n.child)
    else if (isTextLeaf(spec, n) && !p.index.has(n)) { p.index.set(n, p.text.length); p.text.push(n) }
  }
  walk(ast)
  return p
}

/** Three-valued: can the query be true when every text leaf is false? (false → INNER JOIN) */
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

const fields = (spec: SearchTypeSpec, leaf: TextLeaf) => textFieldsOf(spec, leaf.field).map((f) => f.column)
const fieldIn = (cols: string[]) => (cols.length === 1 ? sql`field = ${cols[0]}` : sql`field IN ${cols}`)

/** The postings blocks a leaf reads: a key range of the postings table (before ARRAY JOIN). */
function leafKeys(spec: SearchTypeSpec, leaf: TextLeaf): Sql {
  const cols = fields(spec, leaf)
  switch (leaf.kind) {
    case 'term': return sql`(${fieldIn(cols)} AND term = ${leaf.token})`
    case 'phrase': return sql`(${fieldIn(cols)} AND term IN ${[...new Set(leaf.tokens)]})`
    case 'prefix': return sql`(${fieldIn(cols)} AND term >= ${leaf.prefix} AND startsWith(term, ${leaf.prefix}))`
  }
}

/** One row per posting: (field, term, id, version, tf, dl, pos), for the blocks selected by `keys`. */
const postingRows = (postings: Sql, keys: Sql, extra: readonly Sql[] = []) =>
  sql`SELECT field, term, id, version, tf, dl, pos${join(extra.map((e) => sql`, ${e}`), '')} FROM ${postings}
    ARRAY JOIN ids AS id, versions AS version, tfs AS tf, dls AS dl, poss AS pos PREWHERE ${keys}`

/**
 * The (id, version) of the documents where a phrase or proximity group matches: the postings of
 * its tokens joined on (id, version, field), positions compared row by row (no aggregation).
 */
function phraseSet(spec: SearchTypeSpec, leaf: Extract<TextLeaf, { kind: 'phrase' }>, postings: Sql): Sql {
  const cols = fields(spec, leaf)
  const toks = leaf.tokens
  const alias = (k: number) => ident(`t${k}`)
  const rel = (k: number) => sql`(SELECT field, id, version, pos FROM ${postings}
    ARRAY JOIN ids AS id, versions AS version, poss AS pos PREWHERE ${fieldIn(cols)} AND term = ${toks[k]}) AS ${alias(k)}`
  const pos = (k: number) => sql`${alias(k)}.pos`
  const joins = toks.slice(1).map((_, i) => {
    const k = i + 1
    return sql` INNER JOIN ${rel(k)} ON ${alias(k)}.id = t0.id AND ${alias(k)}.version = t0.version AND ${alias(k)}.field = t0.field`
  })
  let cond: Sql
  if (leaf.slop === undefined) {
    cond = sql`arrayExists(p -> ${join(toks.slice(1).map((_, i) => sql`has(${pos(i + 1)}, p + ${i + 1})`), ' AND ')}, t0.pos)`
  } else {
    const width = leaf.slop + toks.length - 1
    const inWindow = toks.map((_, k) => sql`arrayExists(x -> x >= p AND x <= p + ${width}, ${pos(k)})`)
    cond = sql`arrayExists(p -> ${join(inWindow, ' AND ')}, arrayConcat(${join(toks.map((_, k) => pos(k)), ', ')}))`
  }
  return sql`SELECT t0.id AS id, t0.version AS version FROM ${rel(0)}${join(joins, '')} WHERE ${cond}`
}

/** Column of the postings rows: the row's document is one the i-th (phrase) leaf matches. */
const inPhrase = (i: number) => ident(`ph${i}`)

/** The postings a leaf reads, after ARRAY JOIN: a phrase reads only the documents it matches. */
function leafRows(spec: SearchTypeSpec, leaf: TextLeaf, i: number): Sql {
  if (leaf.kind !== 'phrase') return leafKeys(spec, leaf)
  return sql`(${leafKeys(spec, leaf)} AND ${inPhrase(i)})`
}

/** The per-document flag of a leaf, as an aggregate over the postings rows read. */
function leafFlag(spec: SearchTypeSpec, leaf: TextLeaf, i: number): Sql {
  const cols = fields(spec, leaf)
  switch (leaf.kind) {
    case 'term': return sql`max(${fieldIn(cols)} AND term = ${leaf.token})`
    case 'prefix': return sql`max(${fieldIn(cols)} AND startsWith(term, ${leaf.prefix}))`
    case 'phrase': return sql`max(${leafRows(spec, leaf, i)})`
  }
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
 * Σ w(field, term) · tfNorm over the distinct postings (field, term, tf, dl) of the scoring pairs
 * (bm25.ts); distinct, so a batch indexed twice (at-least-once delivery) never counts twice.
 */
function scoreSql(ast: Node, spec: SearchTypeSpec, stats: SearchStats): Sql {
  const sp = scoringPlan(ast, spec)
  if (sp.terms.length === 0) return sql`toFloat64(0)`
  const w = weights(sp, stats)
  const keys = param(sp.terms.map((t) => t.key), 'Array(String)')
  const ws = param(sp.terms.map((t) => w.get(t.key) ?? 0), 'Array(Float64)')
  const cols = param(sp.columns, 'Array(String)')
  const avg = param(sp.columns.map((c) => stats.avgdl[c] || 1), 'Array(Float64)')
  const key = (f: Sql, t: Sql) => sql`concat(${f}, ':', ${t})`
  const tfn = (tf: Sql, dl: Sql, f: Sql) => sql`${tf} * ${param(K1 + 1, 'Float64')} / (${tf} + ${param(K1, 'Float64')} * (${param(1 - B, 'Float64')} + ${param(B, 'Float64')} * ${dl} / transform(${f}, ${cols}, ${avg}, toFloat64(1))))`
  return sql`arraySum(x -> transform(${key(sql`x.1`, sql`x.2`)}, ${keys}, ${ws}, toFloat64(0)) * ${tfn(sql`x.3`, sql`x.4`, sql`x.1`)},
    groupUniqArrayIf((toString(field), term, tf, dl), has(${keys}, ${key(sql`field`, sql`term`)})))`
}

function finalOf(o: SearchSqlOptions): Sql { return o.final === false ? empty : sql` FINAL` }

/** FROM … [JOIN postings aggregate] WHERE …: shared by searchSql and countSql. */
function body(ast: Node, type: SearchType, o: SearchSqlOptions, score: boolean): { from: Sql; where: Sql } {
  const spec = searchType(type)
  const q = o.filters ? and([ast, o.filters]) : ast
  const p = plan(q, spec)
  const t = searchTables(type, o)
  const docs = sql`${ref(o, t.docs)} AS d${finalOf(o)}`
  if (p.text.length === 0) return { from: docs, where: whereSql(q, p) }
  const postings = ref(o, t.postings)
  const flags = p.text.map((leaf, i) => sql`${leafFlag(spec, leaf, i)} AS ${ident(`l${i}`)}`)
  const scoreCol = score && o.stats ? scoreSql(ast, spec, o.stats) : sql`toFloat64(0)`
  const keys = join(p.text.map((leaf) => leafKeys(spec, leaf)), ' OR ')
  const rows = join(p.text.map((leaf, i) => leafRows(spec, leaf, i)), ' OR ')
  // each phrase's matching documents, computed once per query (phraseSet), as a column of the rows
  const phrases = p.text.flatMap((leaf, i) => (leaf.kind === 'phrase' ? [sql`(id, version) IN (${phraseSet(spec, leaf, postings)}) AS ${inPhrase(i)}`] : []))
  const where = phrases.length ? sql` WHERE ${rows}` : empty
  const agg = sql`SELECT id, version, ${join(flags, ', ')}, ${scoreCol} AS score FROM (${postingRows(postings, keys, phrases)})${where} GROUP BY id, version`
  if (satisfiableWithoutText(q, spec) !== false) {
    return { from: sql`${docs} LEFT JOIN (${agg}) AS s ON s.id = d.id AND s.version = d.version`, where: whereSql(q, p) }
  }
  // every match has postings: the ids they name prune the documents' primary key before the join
  const ids = sql`d.id IN (SELECT id FROM ${postings} ARRAY JOIN ids AS id PREWHERE ${keys})`
  return { from: sql`${docs} INNER JOIN (${agg}) AS s ON s.id = d.id AND s.version = d.version`, where: sql`${ids} AND ${whereSql(q, p)}` }
}

/**
 * The page of matching documents: columns `id`, `score` (BM25, 0 when not ordered by score) and one
 * column per order key (named after the field's column). Ties are broken by id.
 */
export function searchSql(ast: Node, type: SearchType, o: SearchSqlOptions = {}): Sql {
  const spec = searchType(type)
  const order = o.order?.length ? o.order : [{ field: 'score', dir: 'desc' as const }]
  const byScore = order.some((k) => k.field === 'score')
  if (byScore && !o.stats && scoringPlan(ast, spec).terms.length > 0) throw new Error('ordering by score needs stats (statsSql)')
  const { from, where } = body(ast, type, o, byScore)
  const keys: Sql[] = []
  const cols: Sql[] = []
  for (const k of order) {
    const dir = raw(k.dir === 'asc' ? 'ASC' : 'DESC')
    if (k.field === 'score') { keys.push(sql`score ${dir}`); continue }
    const f = fieldOf(spec, k.field)
    if (f.kind === 'text' || f.multi) throw new Error(`cannot order by ${k.field}`)
    if (!isKey(f)) cols.push(sql`d.${ident(f.column)} AS ${ident(f.column)}`)
    keys.push(sql`${ident(f.column)} ${dir} NULLS LAST`)
  }
  const tie = raw(order[0].dir === 'asc' && order[0].field !== 'score' ? 'ASC' : 'DESC')
  if (!order.some((k) => k.field === 'id')) keys.push(sql`id ${tie}`)
  const hasText = plan(o.filters ? and([ast, o.filters]) : ast, spec).text.length > 0
  const score = hasText ? sql`s.score` : sql`toFloat64(0)`
  const select = [sql`d.id AS id`, sql`${score} AS score`, ...cols]
  const limit = o.limit === undefined ? empty : sql` LIMIT ${param(o.limit, 'UInt64')}`
  const offset = o.offset ? sql` OFFSET ${param(o.offset, 'UInt64')}` : empty
  return sql`SELECT ${join(select, ', ')} FROM ${from} WHERE ${where} ORDER BY ${join(keys, ', ')}${limit}${offset}`
}

/** The number of matching documents: one row, column `count`. */
export function countSql(ast: Node, type: SearchType, o: SearchSqlOptions = {}): Sql {
  const { from, where } = body(ast, type, o, false)
  return sql`SELECT count() AS count FROM ${from} WHERE ${where}`
}

/**
 * The statistics BM25 needs for this query: one row {n, avgdl: {column: avg}, df: {"column:token": n}}.
 * n and avgdl come from the current documents; df sums postings, so until a rebuild of the
 * postings a replaced document (or a batch delivered twice) counts again: a small over-estimate
 * that only shifts idf slightly (matching is exact regardless).
 */
export function statsSql(ast: Node, type: SearchType, o: SearchSqlOptions = {}): Sql {
  const spec = searchType(type)
  const sp = scoringPlan(ast, spec)
  const t = searchTables(type, o)
  const avg = sp.columns.length
    ? sql`map(${join(sp.columns.map((c) => sql`${c}, avg(${ident(`${c}_len`)})`), ', ')})`
    : sql`CAST(map(), 'Map(String, Float64)')`
  const cols = sp.columns
  const toks = [...new Set(sp.terms.map((x) => x.token))]
  const keys = sp.terms.map((x) => x.key)
  const df = sp.terms.length
    ? sql`(SELECT CAST((groupArray(k), groupArray(c)), 'Map(String, UInt64)') FROM (SELECT concat(field, ':', term) AS k, sum(length(ids)) AS c
        FROM ${ref(o, t.postings)} WHERE field IN ${cols} AND term IN ${toks} AND k IN ${keys} GROUP BY k))`
    : sql`CAST(map(), 'Map(String, UInt64)')`
  return sql`SELECT count() AS n, ${avg} AS avgdl, ${df} AS df FROM ${ref(o, t.docs)}${finalOf(o)}`
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
      parts.push(sql`SELECT ${key} AS key, groupArray(term) AS terms FROM (SELECT DISTINCT term FROM ${ref(o, searchTables(type, o).postings)}
        WHERE field = ${c} AND term >= ${leaf.prefix} AND startsWith(term, ${leaf.prefix}) LIMIT ${param(max + 1, 'UInt64')})`)
    }
  }
  return parts.length ? join(parts, ' UNION ALL ') : null
}
