/**
 * The part of a compiled search query that reads the postings (query-sql.ts puts it into a
 * statement): which rows of the postings table each text leaf reads, the occurrences of phrases
 * and proximity groups, and the one aggregation per document that gives a flag per text leaf and
 * the BM25 score (bm25.ts). Only current postings count: their version is their document's current
 * text version, read from the live-version dictionary (schemas/internal/search-layout.ts).
 */
import { sql, ident, join, param, raw, empty, type Sql } from '../../core/sql.js'
import type { Node } from './ast.js'
import { type SearchType, type SearchTypeSpec } from './fields.js'
import { fieldOf, textFieldsOf } from './matcher.js'
import { B, K1, dfKey, scoringPlan, weights, phraseWeights, type ScoringPlan, type SearchStats } from './bm25.js'
import { gramField, isCommonPair } from './common-grams.js'
import type { SearchSqlOptions } from './query-sql.js'

export type TextLeaf = Extract<Node, { kind: 'term' | 'phrase' | 'prefix' }>

/** A query's text leaves, numbered: leaf i's flag column is l<i>. */
export interface Plan {
  spec: SearchTypeSpec
  /** text leaves, in AST order; flag column l<i> */
  text: TextLeaf[]
  index: Map<Node, number>
}

export const isTextLeaf = (spec: SearchTypeSpec, n: Node): n is TextLeaf =>
  n.kind === 'term' || n.kind === 'phrase' || (n.kind === 'prefix' && (n.field === null || fieldOf(spec, n.field).kind === 'text'))

/** The text leaves of a query, each once, in AST order. */
export function plan(ast: Node, spec: SearchTypeSpec): Plan {
  const p: Plan = { spec, text: [], index: new Map() }
  const walk = (n: Node): void => {
    if (n.kind === 'and' || n.kind === 'or') n.children.forEach(walk)
    else if (n.kind === 'not') walk(n.child)
    else if (isTextLeaf(spec, n) && !p.index.has(n)) { p.index.set(n, p.text.length); p.text.push(n) }
  }
  walk(ast)
  return p
}


/** The text columns a leaf reads (its field, or the type's default fields). */
export const fields = (spec: SearchTypeSpec, leaf: TextLeaf) => textFieldsOf(spec, leaf.field).map((f) => f.column)
const fieldIn = (cols: string[]) => (cols.length === 1 ? sql`field = ${cols[0]}` : sql`field IN ${cols}`)

/** The postings rows a leaf reads: a key range of the postings table (before ARRAY JOIN). */
export function leafKeys(spec: SearchTypeSpec, leaf: TextLeaf): Sql {
  const cols = fields(spec, leaf)
  switch (leaf.kind) {
    case 'term': return sql`(${fieldIn(cols)} AND term = ${leaf.token})`
    case 'phrase': return sql`(${fieldIn(cols)} AND term IN ${[...new Set(leaf.tokens)]})`
    case 'prefix': return sql`(${fieldIn(cols)} AND term >= ${leaf.prefix} AND startsWith(term, ${leaf.prefix}))`
  }
}

/** The posting `id`, `version` is its document's current text version (dictionary `<table>_live_v2`). */
export const isLive = (live: Sql, id: Sql, version: Sql) => sql`dictGetOrDefault(${live}, 'live', ${id}, toUInt64(0)) = ${version} + 1`

/**
 * A document row to read for a current document (the dictionary knows it): the row at its current
 * version, or a newer one not deleted. Not the current row alone: the documents table is a
 * ReplacingMergeTree, and once the indexer has inserted a document's next version, a merge may
 * drop the current row before the indexer's reload of the dictionary makes the next one current;
 * the document would then vanish from every query that reads its row (court, dates, an order by
 * a column) until the reload. So for that moment the newer row stands in (its postings are not
 * read until the reload; the text still matches at the current version). Every reader of these
 * rows keeps one per id (a semi-join, LIMIT 1 BY id, uniqExact).
 */
export const isLiveRow = (live: Sql) => sql`dictGetOrDefault(${live}, 'live', id, toUInt64(0)) >= 1 AND version >= dictGetOrDefault(${live}, 'row_version', id, toUInt64(0)) AND is_deleted = 0`

/** One query's compilation: its type, options, postings table and live-version dictionary; `checked`: current versions only. */
export interface Ctx { spec: SearchTypeSpec; type: SearchType; o: SearchSqlOptions; postings: Sql; live: Sql; checked: boolean }

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
 * A phrase's or proximity group's occurrences: the postings of its constraints (grams and tokens)
 * joined on (id, version, field), one row per (document, field) where they all occur. `freq`
 * counts the group's occurrences in a row (0: the words are there, not in place); `cond` is
 * freq > 0 (null: always, one constraint). ClickHouse builds a hash table of each right-hand side,
 * so the largest constraint (by df, when the statistics are known) is read on the left and the
 * others joined to it. `only`: the documents to look at (request filters). With one constraint
 * (one word, or one gram) its frequency is the posting's tf and no positions are read.
 */
function phraseJoin(c: Ctx, leaf: Extract<TextLeaf, { kind: 'phrase' }>, o: { only?: Sql; dl?: boolean } = {}): { from: Sql; head: ReturnType<typeof ident>; freq: Sql; cond: Sql | null } {
  const cols = fields(c.spec, leaf)
  const exact = leaf.slop === undefined
  const cs = constraints(c, cols, leaf.tokens, exact)
  const alias = (k: number) => ident(`t${k}`)
  const headConds = [...(c.checked ? [isLive(c.live, sql`id`, sql`version`)] : []), ...(o.only ? [sql`id IN (${o.only})`] : [])]
  const single = cs.length === 1
  const rel = (k: number, first: boolean) => {
    const x = cs[k]
    // the column the constraints join on: the text field (a gram's without its suffix); not named
    // `field`, which the key condition reads
    const base = x.gram ? sql`replaceOne(toString(field), '~2', '')` : sql`toString(field)`
    const more = first ? join(headConds.map((h) => sql` AND ${h}`), '') : empty
    const cols2 = [single ? sql`tf` : sql`pos`, ...(first && o.dl ? [sql`dl`] : [])]
    const arrays = [single ? sql`tfs AS tf` : sql`poss AS pos`, ...(first && o.dl ? [sql`dls AS dl`] : [])]
    return sql`(SELECT ${base} AS f, id, version, ${join(cols2, ', ')} FROM ${c.postings}
    ARRAY JOIN ids AS id, ${join(arrays, ', ')} WHERE ${fieldIn(x.gram ? cols.map(gramField) : cols)} AND term = ${x.term}${more}) AS ${alias(k)}`
  }
  const pos = (k: number) => sql`${alias(k)}.pos`
  const order = cs.map((_, k) => k).sort((a, b) => cs[b].size - cs[a].size || a - b)
  const [head, ...rest] = order
  const joins = rest.map((k) => sql` INNER JOIN ${rel(k, false)} ON ${alias(k)}.id = ${alias(head)}.id AND ${alias(k)}.version = ${alias(head)}.version AND ${alias(k)}.f = ${alias(head)}.f`)
  const from = sql`${rel(head, true)}${join(joins, '')}`
  if (single) return { from, head: alias(head), freq: sql`${alias(head)}.tf`, cond: null }
  let test: Sql
  let over: Sql
  if (exact) {
    test = join(rest.map((k) => sql`has(${pos(k)}, p + ${cs[k].offset - cs[head].offset})`), ' AND ')
    over = pos(head)
  } else {
    const width = (leaf.slop ?? 0) + leaf.tokens.length - 1
    test = join(cs.map((_, k) => sql`arrayExists(x -> x >= p AND x <= p + ${width}, ${pos(k)})`), ' AND ')
    over = sql`arrayConcat(${join(cs.map((_, k) => pos(k)), ', ')})`
  }
  return { from, head: alias(head), freq: sql`arrayCount(p -> ${test}, ${over})`, cond: sql`arrayExists(p -> ${test}, ${over})` }
}

/** The (id) of the documents where a phrase or proximity group matches (not deduplicated). */
export function phraseSet(c: Ctx, leaf: Extract<TextLeaf, { kind: 'phrase' }>): Sql {
  const j = phraseJoin(c, leaf)
  return sql`SELECT ${j.head}.id AS id FROM ${j.from} WHERE ${j.cond ?? sql`1`}`
}

/**
 * One row (id, score) per current document where a phrase or proximity group matches: its BM25
 * score (bm25.ts: the frequency of the group in each field where it occurs, weighted by the sum of
 * its tokens' idf there), or 0 without `weights`. A batch delivered twice repeats every row of
 * its documents the same number of times, so a document's sum is divided by its rows per field
 * (the fields counted in a bit mask, as scoreParts does; cheaper than grouping by field first).
 */
function phraseScored(c: Ctx, leaf: Extract<TextLeaf, { kind: 'phrase' }>, weights: Map<string, number> | null, only?: Sql): Sql {
  if (!weights || !c.o.stats) {
    const j = phraseJoin(c, leaf, { only })
    return sql`SELECT DISTINCT ${j.head}.id AS id, toFloat64(0) AS score FROM ${j.from}${j.cond ? sql` WHERE ${j.cond}` : empty}`
  }
  const j = phraseJoin(c, leaf, { only, dl: true })
  const cols = fields(c.spec, leaf)
  const ws = param(cols.map((col) => weights.get(col) ?? 0), 'Array(Float64)')
  const avg = param(cols.map((col) => c.o.stats?.avgdl[col] || 1), 'Array(Float64)')
  const s = sql`arrayElement(${ws}, fk) * fq * ${param(K1 + 1, 'Float64')} / (fq + ${param(K1, 'Float64')} * (${param(1 - B, 'Float64')} + ${param(B, 'Float64')} * fq_dl / arrayElement(${avg}, fk)))`
  const fieldsSeen = cols.length < MASK_KEYS ? sql`bitCount(groupBitOr(bitShiftLeft(toUInt64(1), fk)))` : sql`uniqExact(fk)`
  const h = j.head
  return sql`SELECT id, sum(${s}) * ${fieldsSeen} / count() AS score FROM (
      SELECT ${h}.id AS id, indexOf(${param(cols, 'Array(String)')}, ${h}.f) AS fk, ${h}.dl AS fq_dl, ${j.freq} AS fq FROM ${j.from}) WHERE fq > 0 GROUP BY id`
}

/** Column of the postings rows (computed once per postings row): the row is in leaf i's key range. */
const inLeaf = (i: number) => ident(`m${i}`)

/** Scoring keys beyond this many: deduplicated by a set of (key, value) instead of a bit mask. */
const MASK_KEYS = 64

/**
 * Σ w(field, term) · tfNorm over the distinct postings (field, term) read for a document
 * (bm25.ts). A document indexed twice (at-least-once delivery) has each of its postings the same
 * number m of times (all of a document's postings come from one insert), so the sum over the rows
 * read is divided by m = rows / distinct keys, the distinct keys counted in a bit mask. The
 * server may compute an -If aggregate's argument on rows its condition leaves out (k = 0: a row of
 * a phrase or prefix leaf), so the shift is kept non-negative there too: `k - 1` failed such
 * queries now and then, depending on how the server ran them.
 */
function scoreParts(sp: ScoringPlan, stats: SearchStats): { pre: Sql[]; agg: Sql } | null {
  if (sp.terms.length === 0) return null
  const w = weights(sp, stats)
  const keys = param(sp.terms.map((t) => t.key), 'Array(String)')
  const ws = param(sp.terms.map((t) => w.get(t.key) ?? 0), 'Array(Float64)')
  const columns = [...new Set(sp.terms.map((t) => t.column))]
  const cols = param(columns, 'Array(String)')
  const avg = param(columns.map((c) => stats.avgdl[c] || 1), 'Array(Float64)')
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
    agg: sql`if(countIf(rd AND k > 0) = 0, toFloat64(0), sumIf(${c}, rd AND k > 0) * bitCount(groupBitOrIf(bitShiftLeft(toUInt64(1), greatest(k, 1) - 1), rd AND k > 0)) / countIf(rd AND k > 0))`,
  }
}

/**
 * One row per current document that a text leaf of the query matches: `id`, flag `l<i>` per text
 * leaf, `score`. Terms and prefixes: their key ranges of the postings, per postings row which
 * leaves it belongs to and its scoring key, ARRAY JOIN, current versions only (dictionary),
 * grouped by id. Phrases: their occurrences (phraseScored), scored there. The parts are put
 * together by id.
 */
export function aggregate(c: Ctx, p: Plan, ast: Node, score: boolean, only?: Sql): Sql {
  const { spec } = c
  const sp = score && c.o.stats ? scoringPlan(ast, spec) : null
  const flagCols = (set: (i: number) => Sql) => join(p.text.map((_, i) => sql`${set(i)} AS ${ident(`l${i}`)}`), ', ')
  const parts: Sql[] = []
  const postingLeaves = p.text.flatMap((leaf, i) => (leaf.kind === 'phrase' ? [] : [i]))
  if (postingLeaves.length) {
    const keys = join(postingLeaves.map((i) => leafKeys(spec, p.text[i])), ' OR ')
    const sc = sp && c.o.stats ? scoreParts(sp, c.o.stats) : null
    const pre = [...postingLeaves.map((i) => sql`${leafKeys(spec, p.text[i])} AS ${inLeaf(i)}`), ...(sc?.pre ?? [])]
    const rd = sql`(${join(postingLeaves.map((i) => sql`${inLeaf(i)}`), ' OR ')}) AS rd`
    const conds = [...(only ? [sql`id IN (${only})`] : []), ...(c.checked ? [isLive(c.live, sql`id`, sql`version`)] : [])]
    const live = conds.length ? sql` WHERE ${join(conds, ' AND ')}` : empty
    const rows = sql`SELECT id, tf, dl, ${rd}${join(postingLeaves.map((i) => sql`, ${inLeaf(i)}`), '')}${sc ? sql`, k, a` : empty}
    FROM (SELECT ids, version, tfs, dls, ${join(pre, ', ')} FROM ${c.postings} WHERE ${keys})
    ARRAY JOIN ids AS id, tfs AS tf, dls AS dl${live}`
    const flags = flagCols((i) => (postingLeaves.includes(i) ? sql`max(${inLeaf(i)})` : sql`toUInt8(0)`))
    parts.push(sql`SELECT id, ${flags}, ${sc ? sc.agg : zero} AS score FROM (${rows}) WHERE rd GROUP BY id`)
  }
  p.text.forEach((leaf, i) => {
    if (leaf.kind !== 'phrase') return
    const scored = sp?.phrases.find((x) => x.leaf === leaf)
    const w = scored && c.o.stats ? phraseWeights(scored, c.o.stats) : null
    parts.push(sql`SELECT id, ${flagCols((k) => sql`toUInt8(${raw(k === i ? '1' : '0')})`)}, score FROM (${phraseScored(c, leaf, w, only)})`)
  })
  if (parts.length === 1) return parts[0]
  const flags = join(p.text.map((_, i) => sql`max(${ident(`l${i}`)}) AS ${ident(`l${i}`)}`), ', ')
  return sql`SELECT id, ${flags}, sum(score) AS score FROM (${join(parts, ' UNION ALL ')}) GROUP BY id`
}

/** The ids (with their posting's version, not deduplicated) in the key ranges of the text leaves. */
export function postingIds(c: Ctx, p: Plan, conds: Sql[]): Sql {
  const where = conds.length ? sql` AND ${join(conds, ' AND ')}` : empty
  return sql`SELECT id, version FROM ${c.postings} ARRAY JOIN ids AS id WHERE (${join(p.text.map((leaf) => leafKeys(c.spec, leaf)), ' OR ')})${where}`
}

/** The score of an unscored row. */
export const zero = sql`toFloat64(0)`
