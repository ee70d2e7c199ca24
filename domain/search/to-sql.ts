/**
 * The ClickHouse side of search: a postings layout, chosen by bench/search-machinery.ts (a text
 * index answers matching fast, but BM25 then reads every candidate's tokens, which costs seconds
 * at 1M documents; postings carry tf and positions, so ranking reads only the query's terms) and
 * tuned by bench/search.ts (1M opinions, against PostgreSQL full-text search).
 *
 * Tables of a search type (names from fields.ts `table`, e.g. search_o; searchTables):
 * - `<table>`: one row per document: the non-text fields (Nullable scalars, arrays when
 *   multi-valued) and `<column>_len` per text field; ReplacingMergeTree(version, is_deleted);
 * - `<table>_postings`: one row per (field, term) per indexed batch, ordered by (field, term),
 *   with the batch's postings as parallel arrays (ids, versions, tfs, dls = field lengths, poss =
 *   positions). Few, wide rows (a batch of 5,000 opinions writes ~400,000 rows instead of 2
 *   million), hence small granules (64 rows, 256 KiB) so a term reads little beside its own rows.
 *   Besides the tokens of each text field, field `<column>~2` holds its common grams: every
 *   adjacent pair with a common word (COMMON_WORDS: "the court", "f 3d"), so a phrase through
 *   frequent words reads the pair's postings, not the words' long position lists;
 * - `<table>_ingest`: a Null table the indexer inserts one row per document into (toIndexRows:
 *   its document columns and its postings grouped per field and term, computed in JS); one
 *   materialized view copies the document row, another groups the batch's postings by (field,
 *   term). One insert carries a batch;
 * - `<table>_live`: a dictionary id → current version + 1 (0 when deleted or absent), loaded
 *   from the documents (FINAL), reloaded by refreshSql (the indexer does after its inserts: the
 *   embedded server runs no periodic dictionary updates) and otherwise by a server that does within
 *   1-5 s of a change (LIFETIME, INVALIDATE_QUERY on the highest version: versions only grow, while
 *   the row count can return to where it was once a merge drops a replaced row). A posting counts only when its version is its
 *   document's current one, so replaced and deleted documents never show (their stale postings
 *   stay until a rebuild, not built yet) and text queries never join the documents table to know
 *   it. Text queries see a change when the dictionary does; queries without text read the
 *   documents with FINAL.
 *
 * A query is one aggregation over the postings of its text leaves (ARRAY JOIN of the selected
 * key ranges, current versions only), grouped by id, giving one flag per text leaf and the BM25
 * score. Its shape decides what else is read (body): nothing for text alone ordered by score; the
 * documents the filters keep, as a semi-join restricting the postings (court, dates, …); the
 * documents the text matches, for an order by a document column (dateFiled); the documents joined
 * when text and document clauses mix under OR/NOT (LEFT when a match needs no postings: NOT x,
 * x OR court_id:y). N and the average field lengths can be cached by the caller (corpusStatsSql,
 * then `corpus` for statsSql), so per query only df is read.
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
import { VALUE_GAP, type AnalyzedDoc } from './document.js'
import { searchType, type FieldKind, type SearchField, type SearchType, type SearchTypeSpec } from './fields.js'
import { fieldOf, textFieldsOf } from './matcher.js'
import { B, K1, dfKey, scoringPlan, weights, type SearchStats } from './bm25.js'

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
  /** n and avgdl cached by the caller (corpusStatsSql): statsSql then reads only df */
  readonly corpus?: CorpusStats
}

/** The corpus half of SearchStats (corpusStatsSql). */
export interface CorpusStats {
  readonly n: number
  readonly avgdl: Readonly<Record<string, number>>
}

const CH_TYPE: Record<Exclude<FieldKind, 'text'>, string> = { keyword: 'String', int: 'Int64', date: 'Date32', bool: 'Bool' }

const lenColumn = (f: SearchField) => `${f.column}_len`
const isKey = (f: SearchField) => f.column === 'id'

/** Table names of a type's layout. */
export function searchTables(type: SearchType, o: TableOptions = {}): { docs: string; postings: string; ingest: string; live: string } {
  const base = o.table ?? searchType(type).table
  return { docs: base, postings: `${base}_postings`, ingest: `${base}_ingest`, live: `${base}_live` }
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

/**
 * Tokens so frequent in U.S. court text that a phrase through them would read postings of nearly
 * every document (function words, "v", reporter abbreviations: "F.3d" → "f 3d"). A pair of
 * adjacent tokens of which one is common is also indexed as a gram (Lucene's CommonGrams): a
 * posting of field `<column>~2` whose term is "a b", at the position of a. A phrase then reads the
 * grams of its common pairs, far rarer than their tokens, instead of the tokens' positions.
 * Changing this list needs a re-index (grams are written at indexing time).
 */
export const COMMON_WORDS: ReadonlySet<string> = new Set(`a an and as at be by for from in is it of on or that the this to was
  which with v s f 2d 3d u ct supp`.split(/\s+/))

/** Field name of the grams of a text column in the postings. */
export const gramField = (column: string): string => `${column}~2`
const isCommonPair = (a: string, b: string) => COMMON_WORDS.has(a) || COMMON_WORDS.has(b)

/** The ingest columns that carry a document's postings, flattened: field number, term, positions. */
const POSTING_COLUMNS = [
  { name: 'p_field', type: 'Array(UInt8)' },
  { name: 'p_term', type: 'Array(String)' },
  { name: 'p_pos', type: 'Array(Array(UInt32))' },
] as const

/** The statements that create a type's tables and views, in order (idempotent). */
export function searchTableDdl(type: SearchType, o: TableOptions = {}): Sql[] {
  const spec = searchType(type)
  const t = searchTables(type, o)
  const cols = docColumns(spec)
  const def = (c: { name: string; type: string }) => sql`${ident(c.name)} ${raw(c.type)}`
  const names = join(cols.map((c) => sql`${ident(c.name)}`), ', ')
  // identifiers only ([A-Za-z0-9_], checked by ident), safe inside the dictionary's quoted source query
  const docsName = `${o.database ? `${ident(o.database).name}.` : ''}${ident(t.docs).name}`
  // field number i (1-based) → name; grams of the k-th text field are number T + k
  const textCols = spec.textFields.map((f) => ident(f.column).name)
  const fieldNames = [...textCols, ...textCols.map(gramField)].map((n) => `'${n}'`).join(', ')
  const lens = spec.textFields.map((f) => `\`${ident(lenColumn(f)).name}\``).join(', ')
  const T = textCols.length
  return [
    sql`CREATE TABLE IF NOT EXISTS ${ref(o, t.docs)} (${join(cols.map(def), ', ')})
      ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY id`,
    sql`CREATE TABLE IF NOT EXISTS ${ref(o, t.postings)} (field LowCardinality(String), term String,
      ids Array(Int64), versions Array(UInt64), tfs Array(UInt32), dls Array(UInt32), poss Array(Array(UInt32)))
      ENGINE = MergeTree ORDER BY (field, term) SETTINGS index_granularity = 64, index_granularity_bytes = 262144`,
    sql`CREATE TABLE IF NOT EXISTS ${ref(o, t.ingest)} (${join([...cols, ...POSTING_COLUMNS].map(def), ', ')}) ENGINE = Null`,
    sql`CREATE MATERIALIZED VIEW IF NOT EXISTS ${ref(o, `${t.docs}_docs_mv`)} TO ${ref(o, t.docs)} AS SELECT ${names} FROM ${ref(o, t.ingest)}`,
    sql`CREATE MATERIALIZED VIEW IF NOT EXISTS ${ref(o, `${t.docs}_postings_mv`)} TO ${ref(o, t.postings)} AS
      SELECT ${raw(`arrayElement([${fieldNames}], fi)`)} AS field, term, groupArray(id) AS ids, groupArray(version) AS versions,
        groupArray(toUInt32(length(pos))) AS tfs, groupArray(${raw(`toUInt32(arrayElement([${lens}], (fi - 1) % ${T} + 1))`)}) AS dls, groupArray(pos) AS poss
      FROM ${ref(o, t.ingest)} ARRAY JOIN p_field AS fi, p_term AS term, p_pos AS pos WHERE is_deleted = 0
      GROUP BY field, term`,
    // id → current version + 1 (deleted: absent, 0), through a view so that the dictionary's source
    // (a table name, resolved in the dictionary's database) needs no database name
    sql`CREATE VIEW IF NOT EXISTS ${ref(o, `${t.live}_src`)} AS SELECT id, version + 1 AS live FROM ${ref(o, t.docs)} FINAL`,
    sql`CREATE DICTIONARY IF NOT EXISTS ${ref(o, t.live)} (id Int64, live UInt64) PRIMARY KEY id
      SOURCE(CLICKHOUSE(TABLE ${raw(`'${ident(`${t.live}_src`).name}'`)}${raw(o.database ? ` DB '${ident(o.database).name}' INVALIDATE_QUERY 'SELECT max(version) FROM ${docsName}'` : '')}))
      LAYOUT(HASHED()) LIFETIME(MIN 1 MAX 5)`,
  ]
}

/** Columns of the ingest table in the order of the values toIndexRows gives (JSONCompactEachRow). */
export function indexColumns(type: SearchType): string[] {
  return [...docColumns(searchType(type)).map((c) => c.name), ...POSTING_COLUMNS.map((c) => c.name)]
}

/**
 * The ingest row of one analyzed document: its document columns and its postings, grouped per
 * (field, term) here (a map per field, cheap beside the analysis) so that ClickHouse only groups
 * the batch by (field, term): p_field (number of the text field, grams after the fields), p_term,
 * p_pos (ascending positions). A deleted document has no postings.
 */
export function toIndexRows(type: SearchType, doc: AnalyzedDoc, version = 0, deleted = false): Record<string, unknown>[] {
  const spec = searchType(type)
  const row: Record<string, unknown> = { id: doc.id, version, is_deleted: deleted ? 1 : 0 }
  const pField: number[] = []
  const pTerm: string[] = []
  const pPos: number[][] = []
  const T = spec.textFields.length
  let k = 0
  for (const f of spec.fields) {
    if (isKey(f)) continue
    if (f.kind !== 'text') {
      const v = doc.values[f.column] ?? []
      row[f.column] = f.multi ? [...v] : (v[0] ?? null)
      continue
    }
    k++
    const a = doc.text[f.column]
    row[lenColumn(f)] = a ? a.length : 0
    if (!a || deleted || a.tokens.length === 0) continue
    // distinct tokens first (index per position), then the grams keyed by the pair of indexes:
    // numbers hash faster than strings, and a gram's string is made once
    const toks = a.tokens
    const index = new Map<string, number>()
    const terms: string[] = []
    const pos: number[][] = []
    const common: boolean[] = []
    const at = new Int32Array(toks.length)
    for (let i = 0; i < toks.length; i++) {
      const x = toks[i]
      if (x === VALUE_GAP) { at[i] = -1; continue }
      let u = index.get(x)
      if (u === undefined) {
        u = terms.length
        index.set(x, u)
        terms.push(x)
        pos.push([i])
        common.push(COMMON_WORDS.has(x))
      } else pos[u].push(i)
      at[i] = u
    }
    for (let u = 0; u < terms.length; u++) { pField.push(k); pTerm.push(terms[u]); pPos.push(pos[u]) }
    const grams = new Map<number, number[]>()
    for (let i = 0; i + 1 < toks.length; i++) {
      const u = at[i]
      const v = at[i + 1]
      if (u < 0 || v < 0 || !(common[u] || common[v])) continue
      const key = u * 1048576 + v
      const g = grams.get(key)
      if (g) g.push(i)
      else grams.set(key, [i])
    }
    for (const [key, p] of grams) {
      pField.push(T + k)
      pTerm.push(`${terms[Math.floor(key / 1048576)]} ${terms[key % 1048576]}`)
      pPos.push(p)
    }
  }
  row.p_field = pField
  row.p_term = pTerm
  row.p_pos = pPos
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

const fields = (spec: SearchTypeSpec, leaf: TextLeaf) => textFieldsOf(spec, leaf.field).map((f) => f.column)
const fieldIn = (cols: string[]) => (cols.length === 1 ? sql`field = ${cols[0]}` : sql`field IN ${cols}`)

/** The postings rows a leaf reads: a key range of the postings table (before ARRAY JOIN). */
function leafKeys(spec: SearchTypeSpec, leaf: TextLeaf): Sql {
  const cols = fields(spec, leaf)
  switch (leaf.kind) {
    case 'term': return sql`(${fieldIn(cols)} AND term = ${leaf.token})`
    case 'phrase': return sql`(${fieldIn(cols)} AND term IN ${[...new Set(leaf.tokens)]})`
    case 'prefix': return sql`(${fieldIn(cols)} AND term >= ${leaf.prefix} AND startsWith(term, ${leaf.prefix}))`
  }
}

/** The dictionary name as dictGet takes it. */
function liveName(o: TableOptions, type: SearchType): Sql {
  const name = ident(searchTables(type, o).live).name
  return sql`${raw(`'${o.database ? `${ident(o.database).name}.` : ''}${name}'`)}`
}

/** The posting (or document row) `id`, `version` is its document's current version (dictionary `<table>_live`). */
const isLive = (live: Sql, id: Sql, version: Sql) => sql`dictGetOrDefault(${live}, 'live', ${id}, toUInt64(0)) = ${version} + 1`

interface Ctx { spec: SearchTypeSpec; type: SearchType; o: SearchSqlOptions; postings: Sql; live: Sql; checked: boolean }

/** What a phrase asks of one document: `term` at start + `offset` (a gram: the pair at that position). */
interface Constraint { term: string; gram: boolean; offset: number; size: number }

/**
 * An exact phrase as position constraints: a gram for each adjacent pair with a common token (its
 * postings are far smaller than the common token's), a single token for every token no gram
 * covers. The phrase is at start s iff every constraint holds at s + offset.
 */
function constraints(c: Ctx, cols: string[], toks: readonly string[], exact: boolean): Constraint[] {
  const df = (t: string) => (c.o.stats ? cols.reduce((n, col) => n + (c.o.stats?.df[dfKey(col, t)] ?? 0), 0) : 0)
  const out: Constraint[] = []
  const covered = new Array<boolean>(toks.length).fill(false)
  if (exact) {
    for (let i = 0; i + 1 < toks.length; i++) {
      if (!isCommonPair(toks[i], toks[i + 1])) continue
      out.push({ term: `${toks[i]} ${toks[i + 1]}`, gram: true, offset: i, size: Math.min(df(toks[i]), df(toks[i + 1])) })
      covered[i] = covered[i + 1] = true
    }
  }
  toks.forEach((t, j) => { if (!covered[j]) out.push({ term: t, gram: false, offset: j, size: df(t) }) })
  return out
}

/**
 * The (id) of the documents where a phrase or proximity group matches: the postings of its
 * constraints (grams and tokens) joined on (id, version, field), positions compared row by row
 * (no aggregation). ClickHouse builds a hash table of each right-hand side, so the largest
 * constraint (by df, when the statistics are known) is read on the left and the others joined to it.
 */
function phraseSet(c: Ctx, leaf: Extract<TextLeaf, { kind: 'phrase' }>): Sql {
  const cols = fields(c.spec, leaf)
  const exact = leaf.slop === undefined
  const cs = constraints(c, cols, leaf.tokens, exact)
  const alias = (k: number) => ident(`t${k}`)
  const live = c.checked ? sql` WHERE ${isLive(c.live, sql`id`, sql`version`)}` : empty
  const rel = (k: number, first: boolean) => {
    const x = cs[k]
    // the column the constraints join on: the text field (a gram's without its suffix); not named
    // `field`, which the PREWHERE reads
    const base = x.gram ? sql`replaceOne(toString(field), '~2', '')` : sql`toString(field)`
    return sql`(SELECT ${base} AS f, id, version, pos FROM ${c.postings}
    ARRAY JOIN ids AS id, versions AS version, poss AS pos PREWHERE ${fieldIn(x.gram ? cols.map(gramField) : cols)} AND term = ${x.term}${first ? live : empty}) AS ${alias(k)}`
  }
  const pos = (k: number) => sql`${alias(k)}.pos`
  const order = cs.map((_, k) => k).sort((a, b) => cs[b].size - cs[a].size || a - b)
  const [head, ...rest] = order
  const joins = rest.map((k) => sql` INNER JOIN ${rel(k, false)} ON ${alias(k)}.id = ${alias(head)}.id AND ${alias(k)}.version = ${alias(head)}.version AND ${alias(k)}.f = ${alias(head)}.f`)
  let cond: Sql
  if (exact) {
    cond = rest.length ? sql`arrayExists(p -> ${join(rest.map((k) => sql`has(${pos(k)}, p + ${cs[k].offset - cs[head].offset})`), ' AND ')}, ${pos(head)})` : sql`1`
  } else {
    const width = (leaf.slop ?? 0) + leaf.tokens.length - 1
    const inWindow = cs.map((_, k) => sql`arrayExists(x -> x >= p AND x <= p + ${width}, ${pos(k)})`)
    cond = sql`arrayExists(p -> ${join(inWindow, ' AND ')}, arrayConcat(${join(cs.map((_, k) => pos(k)), ', ')}))`
  }
  return sql`SELECT ${alias(head)}.id AS id FROM ${rel(head, true)}${join(joins, '')} WHERE ${cond}`
}

/** Column of the postings rows: the row's document is one the i-th (phrase) leaf matches. */
const inPhrase = (i: number) => ident(`ph${i}`)
/** Column of the postings rows (computed once per postings row): the row is in leaf i's key range. */
const inLeaf = (i: number) => ident(`m${i}`)

/** A postings row is read by leaf i: in its key range and, for a phrase, in a document it matches. */
const readBy = (leaf: TextLeaf, i: number) => (leaf.kind === 'phrase' ? sql`(${inLeaf(i)} AND ${inPhrase(i)})` : sql`${inLeaf(i)}`)

/** Scoring keys beyond this many: deduplicated by a set of (key, value) instead of a bit mask. */
const MASK_KEYS = 64

/**
 * Σ w(field, term) · tfNorm over the distinct postings (field, term) read for a document
 * (bm25.ts). A document indexed twice (at-least-once delivery) has each of its postings the same
 * number m of times (all of a document's postings come from one insert), so the sum over the rows
 * read is divided by m = rows / distinct keys, the distinct keys counted in a bit mask.
 */
function scoreParts(ast: Node, spec: SearchTypeSpec, stats: SearchStats): { pre: Sql[]; agg: Sql } | null {
  const sp = scoringPlan(ast, spec)
  if (sp.terms.length === 0) return null
  const w = weights(sp, stats)
  const keys = param(sp.terms.map((t) => t.key), 'Array(String)')
  const ws = param(sp.terms.map((t) => w.get(t.key) ?? 0), 'Array(Float64)')
  const cols = param(sp.columns, 'Array(String)')
  const avg = param(sp.columns.map((c) => stats.avgdl[c] || 1), 'Array(Float64)')
  const pre = [
    sql`indexOf(${keys}, concat(field, ':', term)) AS k`,
    sql`transform(toString(field), ${cols}, ${avg}, toFloat64(1)) AS a`,
  ]
  const c = sql`arrayElement(${ws}, k) * tf * ${param(K1 + 1, 'Float64')} / (tf + ${param(K1, 'Float64')} * (${param(1 - B, 'Float64')} + ${param(B, 'Float64')} * dl / a))`
  if (sp.terms.length > MASK_KEYS) {
    return { pre, agg: sql`arraySum(x -> x.2, groupUniqArrayIf((k, ${c}), rd AND k > 0))` }
  }
  return {
    pre,
    agg: sql`if(countIf(rd AND k > 0) = 0, toFloat64(0), sumIf(${c}, rd AND k > 0) * bitCount(groupBitOrIf(bitShiftLeft(toUInt64(1), k - 1), rd AND k > 0)) / countIf(rd AND k > 0))`,
  }
}

/**
 * One row per current document with postings of the query's text leaves: `id`, flag `l<i>` per
 * text leaf, `score`. Reads the key ranges of the leaves (PREWHERE), per postings row computes
 * which leaves it belongs to and its scoring key, ARRAY JOINs, keeps the current versions
 * (dictionary), groups by id.
 */
function aggregate(c: Ctx, p: Plan, ast: Node, score: boolean, only?: Sql): Sql {
  const { spec } = c
  const keys = join(p.text.map((leaf) => leafKeys(spec, leaf)), ' OR ')
  const sp = score && c.o.stats ? scoreParts(ast, spec, c.o.stats) : null
  const pre = [...p.text.map((leaf, i) => sql`${leafKeys(spec, leaf)} AS ${inLeaf(i)}`), ...(sp?.pre ?? [])]
  const perRow = p.text.flatMap((leaf, i) => (leaf.kind === 'phrase' ? [sql`id IN (${phraseSet(c, leaf)}) AS ${inPhrase(i)}`] : []))
  const rd = sql`(${join(p.text.map(readBy), ' OR ')}) AS rd`
  const conds = [...(only ? [sql`id IN (${only})`] : []), ...(c.checked ? [isLive(c.live, sql`id`, sql`version`)] : [])]
  const live = conds.length ? sql` WHERE ${join(conds, ' AND ')}` : empty
  const rows = sql`SELECT id, tf, dl, ${join([...perRow, rd], ', ')}${join(p.text.map((_, i) => sql`, ${inLeaf(i)}`), '')}${sp ? sql`, k, a` : empty}
    FROM (SELECT ids, versions, tfs, dls, ${join(pre, ', ')} FROM ${c.postings} PREWHERE ${keys})
    ARRAY JOIN ids AS id, versions AS version, tfs AS tf, dls AS dl${live}`
  const flags = p.text.map((leaf, i) => sql`max(${readBy(leaf, i)}) AS ${ident(`l${i}`)}`)
  return sql`SELECT id, ${join(flags, ', ')}, ${sp ? sp.agg : sql`toFloat64(0)`} AS score FROM (${rows}) WHERE rd GROUP BY id`
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

const zero = sql`toFloat64(0)`

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
 *     such clauses the documents table is not read at all);
 *   - ordered by a document column only: the current documents the clauses keep whose id the
 *     text part matches (the semi-join the other way), one row per id;
 * - otherwise: the current rows of the documents (dictionary, one per id) with the columns the
 *   clauses and the order read, joined to the aggregate (INNER when every match has postings, the
 *   documents then pruned to the ids the postings name).
 */
function body(ast: Node, type: SearchType, o: SearchSqlOptions, score: boolean, orderColumns: readonly string[]): Body {
  const spec = searchType(type)
  const q = o.filters ? and([ast, o.filters]) : ast
  const p = plan(q, spec)
  const t = searchTables(type, o)
  if (p.text.length === 0) return { from: sql`${ref(o, t.docs)} AS d${finalOf(o)}`, where: whereSql(q, p), id: sql`d.id`, score: zero, docs: true, dedupe: false }
  const c: Ctx = { spec, type, o, postings: ref(o, t.postings), live: liveName(o, type), checked: o.final !== false }
  const inner = satisfiableWithoutText(q, spec) === false
  const live = c.checked ? [isLive(c.live, sql`id`, sql`version`)] : []
  const parts = inner ? split(q, spec) : null
  if (parts && orderColumns.length === 0) {
    const docWhere = parts.docs.map((n) => whereSql(n, p))
    const only = docWhere.length ? sql`SELECT id FROM ${ref(o, t.docs)} AS d WHERE ${join([...docWhere, ...live], ' AND ')}` : undefined
    return { from: sql`(${aggregate(c, p, ast, score, only)}) AS s`, where: whereSql(and(parts.text), p), id: sql`s.id`, score: sql`s.score`, docs: false, dedupe: false }
  }
  if (parts && !score) {
    const matched = sql`SELECT s.id FROM (${aggregate(c, p, ast, false)}) AS s WHERE ${whereSql(and(parts.text), p)}`
    const where = join([...parts.docs.map((n) => whereSql(n, p)), sql`d.id IN (${matched})`, ...live], ' AND ')
    return { from: sql`${ref(o, t.docs)} AS d`, where, id: sql`d.id`, score: zero, docs: true, dedupe: c.checked }
  }
  const agg = aggregate(c, p, ast, score)
  const cols = [...new Set([...docColumnsOf(q, spec), ...orderColumns])]
  const conds: Sql[] = []
  // every match has postings: the ids they name prune the documents' primary key
  if (inner) conds.push(sql`id IN (SELECT id FROM ${c.postings} ARRAY JOIN ids AS id PREWHERE ${join(p.text.map((leaf) => leafKeys(spec, leaf)), ' OR ')})`)
  conds.push(...live)
  const select = join([sql`id`, ...cols.map((col) => sql`${ident(col)}`)], ', ')
  const where = conds.length ? sql` WHERE ${join(conds, ' AND ')}` : empty
  const dedupe = c.checked ? sql` LIMIT 1 BY id` : empty
  const docs = sql`(SELECT ${select} FROM ${ref(o, t.docs)} AS d${where}${dedupe}) AS d`
  return { from: sql`${docs} ${raw(inner ? 'INNER' : 'LEFT')} JOIN (${agg}) AS s ON s.id = d.id`, where: whereSql(q, p), id: sql`d.id`, score: sql`s.score`, docs: true, dedupe: false }
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
  const orderFields: SearchField[] = []
  for (const k of order) {
    if (k.field === 'score') continue
    const f = fieldOf(spec, k.field)
    if (f.kind === 'text' || f.multi) throw new Error(`cannot order by ${k.field}`)
    if (!isKey(f)) orderFields.push(f)
  }
  const { from, where, id, score, docs, dedupe } = body(ast, type, o, byScore, orderFields.map((f) => f.column))
  const keys: Sql[] = []
  for (const k of order) {
    const dir = raw(k.dir === 'asc' ? 'ASC' : 'DESC')
    if (k.field === 'score') { keys.push(sql`score ${dir}`); continue }
    const f = fieldOf(spec, k.field)
    keys.push(sql`${ident(f.column)} ${dir} NULLS LAST`)
  }
  const tie = raw(order[0].dir === 'asc' && order[0].field !== 'score' ? 'ASC' : 'DESC')
  if (!order.some((k) => k.field === 'id')) keys.push(sql`id ${tie}`)
  const select = [sql`${id} AS id`, sql`${score} AS score`, ...(docs ? orderFields.map((f) => sql`d.${ident(f.column)} AS ${ident(f.column)}`) : [])]
  const limit = o.limit === undefined ? empty : sql` LIMIT ${param(o.limit, 'UInt64')}`
  const offset = o.offset ? sql` OFFSET ${param(o.offset, 'UInt64')}` : empty
  // a document row delivered twice (the same version, not merged yet) counts once
  const once = dedupe ? sql` LIMIT 1 BY id` : empty
  return sql`SELECT ${join(select, ', ')} FROM ${from} WHERE ${where} ORDER BY ${join(keys, ', ')}${once}${limit}${offset}`
}

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
  return sql`SELECT count() AS n, ${avg} AS avgdl FROM ${ref(o, t.docs)}${o.final === false ? empty : sql` FINAL`}`
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
  const toks = [...new Set(sp.terms.map((x) => x.token))]
  const keys = sp.terms.map((x) => x.key)
  const df = sp.terms.length
    ? sql`(SELECT CAST((groupArray(k), groupArray(c)), 'Map(String, UInt64)') FROM (SELECT concat(field, ':', term) AS k, sum(length(ids)) AS c
        FROM ${ref(o, t.postings)} WHERE field IN ${cols} AND term IN ${toks} AND k IN ${keys} GROUP BY k))`
    : sql`CAST(map(), 'Map(String, UInt64)')`
  if (o.corpus) {
    const avg = param(Object.fromEntries(cols.map((col) => [col, o.corpus?.avgdl[col] ?? 0])), 'Map(String, Float64)')
    return sql`SELECT ${param(o.corpus.n, 'UInt64')} AS n, ${avg} AS avgdl, ${df} AS df`
  }
  const avg = cols.length
    ? sql`map(${join(cols.map((c) => sql`${c}, avg(${ident(`${c}_len`)})`), ', ')})`
    : sql`CAST(map(), 'Map(String, Float64)')`
  return sql`SELECT count() AS n, ${avg} AS avgdl, ${df} AS df FROM ${ref(o, t.docs)}${finalOf(o)}`
}

/**
 * Makes what was just indexed visible to text queries now, instead of within the dictionary's
 * lifetime (LIFETIME(MIN 1 MAX 5) seconds): reloads `<table>_live`. For tests and for writes that
 * must be searchable when acknowledged; a stream processor need not call it per batch.
 */
export function refreshSql(type: SearchType, o: TableOptions = {}): Sql {
  return sql`SYSTEM RELOAD DICTIONARY ${ref(o, searchTables(type, o).live)}`
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
