/**
 * The ClickHouse side of search: a postings layout, chosen by bench/search-machinery.ts (a text
 * index answers matching fast, but BM25 then reads every candidate's tokens, which costs seconds
 * at 1M documents; postings carry tf and positions, so ranking reads only the query's terms) and
 * tuned by bench/search.ts (1M opinions, against PostgreSQL full-text search).
 *
 * Tables of a search type (names from fields.ts `table`, e.g. search_o; searchTables):
 * - `<table>`: one row per document: the non-text fields (Nullable scalars, arrays when
 *   multi-valued) and `<column>_len` per text field; ReplacingMergeTree(version, is_deleted);
 * - `<table>_postings_v2` (layout 2): one row per (field, term, version) per indexed batch,
 *   ordered by (field, term), with the batch's postings as parallel arrays (ids, tfs, dls = field
 *   lengths, poss = positions); the indexer gives a batch one version, so a row has one. Few, wide
 *   rows (a batch of 5,000 opinions writes ~350,000 rows instead of 2 million), hence small
 *   granules (64 rows, 256 KiB) so a term reads little beside its own rows.
 *   Besides the tokens of each text field, field `<column>~2` holds its common grams: every
 *   adjacent pair with a common word (COMMON_WORDS: "the court", "f 3d"), so a phrase through
 *   frequent words reads the pair's postings, not the words' long position lists;
 * - no ingest table: the indexer groups a batch's postings itself (toIndexRows) and inserts them
 *   as a Native block into the postings table, and the document rows into the documents table
 *   (layout 1 sent one row per document through a Null table whose materialized views grouped
 *   the postings: 5-8 times slower; searchTableDdl migrates it);
 * - `<table>_live_v2`: a dictionary id → current text version + 1 (0 when deleted or absent) and
 *   the current row's version, loaded from the documents (FINAL), reloaded by refreshSql (the
 *   indexer does after its inserts: the embedded server runs no periodic dictionary updates) and
 *   otherwise by a server that does within 1-5 s of a change (LIFETIME, INVALIDATE_QUERY on the
 *   highest version: versions only grow, while the row count can return to where it was once a
 *   merge drops a replaced row). A document row's text version is the version whose postings hold
 *   its text (TEXT_VERSION_COLUMNS: a change that leaves the text as it was writes no postings).
 *   A posting counts only when its version is its document's current text version, so replaced
 *   and deleted documents never show (their stale postings stay until a compaction, compactSql)
 *   and text queries never join the documents table to know it. Text queries see a change when the dictionary does; queries without text read the
 *   documents with FINAL. Where a text query reads document rows (filters, column orders), it
 *   reads the row at the current version or, while a newer one waits for the reload, that one
 *   (isLiveRow: a merge may drop the current row first).
 *
 * A query is one aggregation over the postings of its text leaves (ARRAY JOIN of the selected
 * key ranges, current versions only), grouped by id, giving one flag per text leaf and the BM25
 * score. Its shape decides what else is read (body): nothing for text alone ordered by score; the
 * documents the filters keep, as a semi-join restricting the postings (court, dates, …); the
 * documents the text matches, for an order by a document column (dateFiled); the documents joined
 * when text and document clauses mix under OR/NOT (LEFT when a match needs no postings: NOT x,
 * x OR court_id:y). N and the average field lengths can be cached by the caller (corpusStatsSql,
 * then `corpus` for statsSql), so per query only df is read.
 * Key ranges of the postings are given in WHERE, not PREWHERE: the server moves them to PREWHERE
 * itself. On layout 3's table (3 times the rows, reverted) an explicit PREWHERE beside an ARRAY
 * JOIN cost about 10 ms more per read at 1M documents (a one-key read: 7 ms, against 13-20 ms);
 * on this layout at 1M the two measured the same (bench queries interleaved).
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
import { type AnalyzedDoc } from './document.js'
import { TokenTable } from './analyzer.js'
import { searchType, type FieldKind, type SearchField, type SearchType, type SearchTypeSpec } from './fields.js'
import { fieldOf, textFieldsOf } from './matcher.js'
import { B, K1, dfKey, scoringPlan, scores, weights, phraseWeights, type ScoringPlan, type SearchStats } from './bm25.js'

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

const CH_TYPE: Record<Exclude<FieldKind, 'text'>, string> = { keyword: 'String', int: 'Int64', date: 'Date32', bool: 'Bool' }

const lenColumn = (f: SearchField) => `${f.column}_len`
const isKey = (f: SearchField) => f.column === 'id'

/** Table names of a type's layout. */
export function searchTables(type: SearchType, o: TableOptions = {}): { docs: string; postings: string; ingest: string; live: string; latest: string } {
  const base = o.table ?? searchType(type).table
  // layout 2 (postings_v2) has no ingest table: the indexer writes the documents and postings
  // tables directly; `ingest` names the postings table, the last part a layout-1 database lacks
  const postings = `${base}_postings_v2`
  return { docs: base, postings, ingest: postings, live: `${base}_live_v2`, latest: `${base}_latest` }
}

/** Postings tables of older layouts (1 and 3) that searchTableDdl moves into the current one. */
export function searchLegacyTables(type: SearchType, o: TableOptions = {}): string[] {
  const base = o.table ?? searchType(type).table
  return [`${base}_postings`, `${base}_postings_v3`]
}

function ref(o: TableOptions, name: string): Sql {
  return o.database ? sql`${ident(o.database)}.${ident(name)}` : sql`${ident(name)}`
}

// ---------------------------------------------------------------- layout

function docColumns(spec: SearchTypeSpec): { name: string; type: string }[] {
  const out = [{ name: 'id', type: 'Int64' }, { name: 'version', type: 'UInt64' }, { name: 'is_deleted', type: 'UInt8' }, ...TEXT_VERSION_COLUMNS]
  for (const f of spec.fields) {
    if (isKey(f)) continue
    if (f.kind === 'text') out.push({ name: lenColumn(f), type: 'UInt32' })
    else out.push({ name: f.column, type: f.multi ? `Array(${CH_TYPE[f.kind]})` : `Nullable(${CH_TYPE[f.kind]})` })
  }
  return out
}

/**
 * A row's text version: the version whose postings hold its text (its own version when the text
 * changed, else the text version of the row before it), and a hash of that text. A change that
 * leaves the text as it was (a citation count, the links of an opinion's HTML) writes the document
 * row alone, no postings (toIndexRows). Rows written before these columns existed read as their
 * own version, hash 0 (no text matches it, so their next change writes postings).
 */
const TEXT_VERSION_COLUMNS = [{ name: 'text_version', type: 'UInt64 DEFAULT version' }, { name: 'text_hash', type: 'UInt64' }]

/**
 * Tokens so frequent in U.S. court text that a phrase through them would read postings of nearly
 * every document (function words, "v", reporter abbreviations: "F.3d" → "f 3d"). A pair of
 * adjacent tokens of which one is common is also indexed as a gram (Lucene's CommonGrams): a
 * posting of field `<column>~2` whose term is "a b", at the position of a. A phrase then reads the
 * grams of its common pairs, far rarer than their tokens, instead of the tokens' positions.
 * Changing this list needs a re-index (grams are written at indexing time).
 * Not every pair: indexing all adjacent pairs (tried in 602d8ca, reverted) gave the postings table
 * 3 times the rows, halved the index rate and slowed term, field, filtered and ordered queries by
 * 20-30 %, without making phrases faster: most of a scored phrase's time is reading its words'
 * postings for BM25 and the statistics, not finding the documents that hold it.
 */
export const COMMON_WORDS: ReadonlySet<string> = new Set(`a an and as at be by for from in is it of on or that the this to was
  which with v s f 2d 3d u ct supp`.split(/\s+/))

/** Field name of the grams of a text column in the postings. */
export const gramField = (column: string): string => `${column}~2`
const isCommonPair = (a: string, b: string) => COMMON_WORDS.has(a) || COMMON_WORDS.has(b)

/** The postings table's columns (toIndexRows encodes them as String, UInt64, Array(Int64), …). */
const POSTINGS_COLUMNS = [
  { name: 'field', type: 'LowCardinality(String)' },
  { name: 'term', type: 'String' },
  { name: 'version', type: 'UInt64' },
  // ids ascend within a row (a batch's documents in order): deltas are small and compress well
  { name: 'ids', type: 'Array(Int64) CODEC(Delta, LZ4)' },
  { name: 'tfs', type: 'Array(UInt32)' },
  { name: 'dls', type: 'Array(UInt32)' },
  { name: 'poss', type: 'Array(Array(UInt32))' },
]

/**
 * The statements that create a type's tables and dictionary, in order (idempotent). They also
 * migrate layout 1 in place (postings in `<table>_postings` with a version per posting, filled
 * through a Null table `<table>_ingest` and two materialized views): the views and the Null table
 * are dropped, the postings copied into the layout-2 table when it is created (rows whose postings
 * share one version, which is every row the indexer wrote, as they are; others regrouped per
 * version), and the old table dropped. On a fresh database the old table is created empty first,
 * so the copy has a source.
 * They also move back a layout-3 index (`<table>_postings_v3`, a gram for every adjacent pair; the
 * layout of 602d8ca, reverted: see COMMON_WORDS), which a database migrated while it was current
 * has: its rows are copied into the layout-2 table when it is created, but for the grams of two
 * uncommon words, which layout 2 does not read, and the table is dropped.
 */
export function searchTableDdl(type: SearchType, o: TableOptions = {}): Sql[] {
  const spec = searchType(type)
  const t = searchTables(type, o)
  const base = o.table ?? spec.table
  const cols = docColumns(spec)
  const def = (c: { name: string; type: string }) => sql`${ident(c.name)} ${raw(c.type)}`
  // identifiers only ([A-Za-z0-9_], checked by ident), safe inside the dictionary's quoted source query
  const docsName = `${o.database ? `${ident(o.database).name}.` : ''}${ident(t.docs).name}`
  const [legacyName, layout3Name] = searchLegacyTables(type, o)
  const legacy = ref(o, legacyName)
  const copy = sql`SELECT field, term, versions[1] AS version, ids, tfs, dls, poss FROM ${legacy} WHERE arrayAll(v -> v = versions[1], versions)
    UNION ALL SELECT field, term, version, groupArray(id), groupArray(tf), groupArray(dl), groupArray(pos) FROM ${legacy}
      ARRAY JOIN ids AS id, versions AS version, tfs AS tf, dls AS dl, poss AS pos WHERE NOT arrayAll(v -> v = versions[1], versions) GROUP BY field, term, version`
  const layout3 = ref(o, layout3Name)
  // inlined, not a parameter (DDL takes none): COMMON_WORDS are [a-z0-9] only, checked here
  const words = [...COMMON_WORDS]
  if (!words.every((w) => /^[a-z0-9]+$/.test(w))) throw new Error('COMMON_WORDS must be [a-z0-9]')
  const common = raw(`[${words.map((w) => `'${w}'`).join(', ')}]`)
  const back = sql`SELECT field, term, version, ids, tfs, dls, poss FROM ${layout3} WHERE NOT endsWith(toString(field), '~2') OR hasAny(splitByChar(' ', term), ${common})`
  return [
    sql`CREATE TABLE IF NOT EXISTS ${ref(o, t.docs)} (${join(cols.map(def), ', ')})
      ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY id`,
    // the text-version columns, into a table created before them (constant names and types)
    sql`ALTER TABLE ${ref(o, t.docs)} ${raw(TEXT_VERSION_COLUMNS.map((c, i) => `ADD COLUMN IF NOT EXISTS ${c.name} ${c.type} AFTER ${i ? TEXT_VERSION_COLUMNS[i - 1].name : 'is_deleted'}`).join(', '))}`,
    sql`DROP VIEW IF EXISTS ${ref(o, `${base}_postings_mv`)}`,
    sql`DROP VIEW IF EXISTS ${ref(o, `${base}_docs_mv`)}`,
    sql`DROP TABLE IF EXISTS ${ref(o, `${base}_ingest`)}`,
    sql`CREATE TABLE IF NOT EXISTS ${legacy} (field LowCardinality(String), term String,
      ids Array(Int64), versions Array(UInt64), tfs Array(UInt32), dls Array(UInt32), poss Array(Array(UInt32))) ENGINE = MergeTree ORDER BY (field, term)`,
    sql`CREATE TABLE IF NOT EXISTS ${layout3} (${join(POSTINGS_COLUMNS.map(def), ', ')}) ENGINE = MergeTree ORDER BY (field, term)`,
    // granules of 1,024 rows: at 64 (until 2026-11-25) the server spent twice the CPU merging parts
    // (a batch writes ~70 rows per document, most of them grams) and a fifth more inserting, and
    // queries measured the same either way (bench/search.ts, 300,000 documents, interleaved).
    // A table created before keeps its granules (the setting cannot be altered).
    sql`CREATE TABLE IF NOT EXISTS ${ref(o, t.postings)} (${join(POSTINGS_COLUMNS.map(def), ', ')})
      ENGINE = MergeTree ORDER BY (field, term) SETTINGS index_granularity = 1024, index_granularity_bytes = 10485760 AS ${copy} UNION ALL ${back}`,
    sql`DROP TABLE IF EXISTS ${legacy}`,
    sql`DROP TABLE IF EXISTS ${layout3}`,
    // the dictionary before text versions (id → version + 1)
    sql`DROP DICTIONARY IF EXISTS ${ref(o, `${base}_live`)}`,
    sql`DROP VIEW IF EXISTS ${ref(o, `${base}_live_src`)}`,
    // id → current text version + 1 (deleted: absent, 0) and the current row's version, through a
    // view so that the dictionary's source (a table name, resolved in the dictionary's database)
    // needs no database name
    sql`CREATE VIEW IF NOT EXISTS ${ref(o, `${t.live}_src`)} AS SELECT id, text_version + 1 AS live, version AS row_version FROM ${ref(o, t.docs)} FINAL`,
    sql`CREATE DICTIONARY IF NOT EXISTS ${ref(o, t.live)} (id Int64, live UInt64, row_version UInt64) PRIMARY KEY id
      SOURCE(CLICKHOUSE(TABLE ${raw(`'${ident(`${t.live}_src`).name}'`)}${raw(o.database ? ` DB '${ident(o.database).name}' INVALIDATE_QUERY 'SELECT max(version) FROM ${docsName}'` : '')}))
      LAYOUT(HASHED()) LIFETIME(MIN 1 MAX 5)`,
    // id → newest text version of any row, deleted ones included (a delete's is its own version),
    // for the compaction (compactSql); loaded only when a compaction reloads it, so a server that
    // never compacts holds nothing
    sql`CREATE OR REPLACE VIEW ${ref(o, `${t.latest}_src`)} AS SELECT id, max(text_version) AS latest FROM ${ref(o, t.docs)} GROUP BY id`,
    sql`CREATE DICTIONARY IF NOT EXISTS ${ref(o, t.latest)} (id Int64, latest UInt64) PRIMARY KEY id
      SOURCE(CLICKHOUSE(TABLE ${raw(`'${ident(`${t.latest}_src`).name}'`)}${raw(o.database ? ` DB '${ident(o.database).name}'` : '')}))
      LAYOUT(HASHED()) LIFETIME(0)`,
  ]
}

/** Columns of the documents table in the order of toIndexRows' `docs` rows (JSONCompactEachRow). */
export function indexColumns(type: SearchType): string[] {
  return docColumns(searchType(type)).map((c) => c.name)
}

/** The statement that takes toIndexRows' `postings` as its body. */
export function postingsInsertSql(type: SearchType, o: TableOptions = {}): Sql {
  return sql`INSERT INTO ${ref(o, searchTables(type, o).postings)} FORMAT Native`
}

/** A document to index: analyzed, at its version; a deleted one has no postings. */
export interface IndexDoc {
  readonly doc: AnalyzedDoc
  readonly version: number
  readonly deleted?: boolean
  /**
   * The version whose postings hold this document's text (TEXT_VERSION_COLUMNS): `version` (the
   * default) writes its postings; an older one, given when the text is the same as that version's,
   * writes the document row alone.
   */
  readonly textVersion?: number
  /** textHash() of the document's text, kept in the row to tell the next change whether it changed it. */
  readonly textHash?: number
}

/** What one insert of a batch writes: documents table rows, and the postings as a Native block. */
export interface IndexRows {
  /** rows of the documents table, values in the order of indexColumns */
  readonly docs: unknown[][]
  /** the postings rows, one per (field, term, version), as chunks of one ClickHouse Native block */
  readonly postings: Uint8Array[]
  readonly postingRows: number
  /**
   * Lends the postings' arrays to the next toIndexRows call: only once the insert has finished
   * with them (writeIndexRows does). Not calling it is fine (they are then collected).
   */
  release(): void
}

/**
 * The index rows of a batch of analyzed documents. The postings are grouped here, per (field,
 * term, version) over the whole batch, and encoded in ClickHouse's Native (columnar) format, so
 * that the server only sorts the rows by (field, term) and writes them: no JSON to parse, no ARRAY
 * JOIN or GROUP BY (layout 1 did those per batch in a materialized view, at 5-8 times the cost of
 * the analysis). Rows hold the batch's postings of a term in document order: ids, tfs, dls (the
 * field's length in the document, for BM25), poss (ascending positions). Field `<column>~2`
 * holds the common grams of `<column>`. A document given twice at one version has its postings
 * twice (as when a batch is delivered again; the queries count it once).
 */
export function toIndexRows(type: SearchType, docs: readonly IndexDoc[]): IndexRows {
  const spec = searchType(type)
  const byVersion = new Map<number, { docs: AnalyzedDoc[]; rows: unknown[][] }>()
  const rows: unknown[][] = []
  for (const { doc, version, deleted, textVersion, textHash } of docs) {
    const postings = !deleted && (textVersion ?? version) === version
    // a document with postings gets its field lengths from their scan (filled in below)
    const row = docRow(spec, doc, version, deleted === true, deleted ? version : textVersion ?? version, deleted ? 0 : textHash ?? 0, !postings)
    rows.push(row)
    if (!postings) continue
    const group = byVersion.get(version)
    if (group) { group.docs.push(doc); group.rows.push(row) } else byVersion.set(version, { docs: [doc], rows: [row] })
  }
  const groups: FieldPostings[] = []
  const lengthAt = textLengthColumns(type, spec)
  for (const [version, group] of byVersion) {
    const dls = new Int32Array(group.docs.length)
    for (const f of spec.textFields) {
      const { tokens, grams } = fieldPostings(group.docs, f.column, version, dls)
      groups.push(tokens, grams)
      const at = lengthAt.get(f.column)!
      for (let i = 0; i < dls.length; i++) group.rows[i][at] = dls[i]
    }
  }
  const { chunks, arrays, bytes } = encodePostings(groups)
  for (const g of groups) g.release()
  let released = false
  const release = () => { if (!released) { released = true; arrays.forEach(give); bytes.forEach(bytePool.give) } }
  return { docs: rows, postings: chunks, postingRows: groups.reduce((n, g) => n + g.terms.length, 0), release }
}

/** A document row: with `lengths` false, its text fields' lengths are left 0 for the caller to set. */
function docRow(spec: SearchTypeSpec, doc: AnalyzedDoc, version: number, deleted: boolean, textVersion: number, textHash: number, lengths: boolean): unknown[] {
  const row: unknown[] = [doc.id, version, deleted ? 1 : 0, textVersion, textHash]
  for (const f of spec.fields) {
    if (isKey(f)) continue
    if (f.kind === 'text') { row.push(lengths ? doc.text[f.column]?.length ?? 0 : 0); continue }
    const v = doc.values[f.column] ?? []
    row.push(f.multi ? [...v] : (v[0] ?? null))
  }
  return row
}

/** Per text column, the index of its length in docRow's rows (the documents table's columns). */
function textLengthColumns(type: SearchType, spec: SearchTypeSpec): Map<string, number> {
  const columns = indexColumns(type)
  return new Map(spec.textFields.map((f) => [f.column, columns.indexOf(lenColumn(f))]))
}

/** A growable typed array of unsigned 32-bit integers. */
class U32 {
  a = take(1024)
  n = 0
  push(v: number): void {
    if (this.n === this.a.length) this.reserve(1)
    this.a[this.n++] = v
  }
  /** Room for k more values. */
  reserve(k: number): void {
    if (this.n + k <= this.a.length) return
    const b = take(Math.max(this.n + k, this.a.length * 2))
    b.set(this.a.subarray(0, this.n))
    give(this.a)
    this.a = b
  }
  release(): void { give(this.a) }
}

/**
 * Scratch buffers reused from one toIndexRows call to the next (it is synchronous, so they are
 * never shared): a batch's intermediate postings would otherwise allocate some 50 MB of array
 * buffers, and its String columns megabytes more, and V8 answers that much new external memory
 * with full collections of the heap. `take` lends the smallest kept buffer that is long enough.
 * What is kept is bounded in count and in bytes: without the byte bound a catch-up of long
 * opinions kept about 800 MB of buffers sized for its largest chunks.
 */
function scratchPool<T extends { length: number; byteLength: number }>(limit: number, limitBytes: number, make: (n: number) => T) {
  const kept: T[] = []
  let bytes = 0
  return {
    take(n: number): T {
      let best = -1
      for (let i = 0; i < kept.length; i++) if (kept[i].length >= n && (best < 0 || kept[i].length < kept[best].length)) best = i
      if (best < 0) return make(n)
      const a = kept[best]
      kept[best] = kept[kept.length - 1]
      kept.pop()
      bytes -= a.byteLength
      return a
    },
    give(a: T): void {
      if (kept.length >= limit || bytes + a.byteLength > limitBytes) return
      kept.push(a)
      bytes += a.byteLength
    },
  }
}

const arrayPool = scratchPool<Uint32Array>(256, 192 << 20, (n) => new Uint32Array(n))
const bytePool = scratchPool<Buffer>(16, 64 << 20, (n) => Buffer.allocUnsafeSlow(Math.max(n, 4096)))
const take = arrayPool.take
const give = arrayPool.give

function takeBytes(n: number, lent: Buffer[]): Buffer {
  const b = bytePool.take(n)
  lent.push(b)
  return b
}

/**
 * The postings of one field (a text column or its grams) of a batch's documents at one version,
 * by term number: for each document, its term numbers per position (-1: none) are counted and a
 * posting appended per distinct term, its positions after it (all in typed arrays: a batch has
 * millions of postings).
 */
class FieldPostings {
  readonly seconds: string[] = []
  private count = new Int32Array(1024)
  /** per posting: term number, document (index into ids), tf, dl */
  readonly pTerm = new U32()
  readonly pDoc = new U32()
  readonly pTf = new U32()
  readonly pDl = new U32()
  readonly pos = new U32()
  readonly ids: number[] = []
  private readonly touched = new U32()

  /**
   * `terms`: per term number, the term (for grams its first token, the second in `seconds`: the
   * gram's string is never made); for tokens, the TokenTable's list, which numbers them
   */
  constructor(readonly field: string, readonly version: number, readonly terms: string[] = []) {}

  /** Returns the scratch arrays (after encoding). */
  release(): void { for (const a of [this.pTerm, this.pDoc, this.pTf, this.pDl, this.pos, this.touched]) a.release() }

  /** A new term number: of `term`, or of the gram "term second". */
  add(term: string, second?: string): number {
    const g = this.terms.length
    this.terms.push(term)
    if (second !== undefined) this.seconds.push(second)
    return g
  }

  /** One document: `at[i]` is the term number at position i (-1: none), for i < n. */
  doc(id: number, dl: number, at: Int32Array, n: number): void {
    if (this.count.length < this.terms.length) {
      const c = new Int32Array(Math.max(2 * this.count.length, this.terms.length))
      c.set(this.count)
      this.count = c
    }
    const { count, touched } = this
    touched.n = 0
    for (let i = 0; i < n; i++) {
      const g = at[i]
      if (g >= 0 && count[g]++ === 0) touched.push(g)
    }
    const k = touched.n
    if (k === 0) return
    const d = this.ids.length
    this.ids.push(id)
    this.pTerm.reserve(k); this.pDoc.reserve(k); this.pTf.reserve(k); this.pDl.reserve(k)
    // the positions of the document's distinct terms in turn; count[] becomes each one's write cursor
    let end = this.pos.n
    for (let j = 0; j < k; j++) {
      const g = touched.a[j]
      const p = this.pTerm.n++
      this.pTerm.a[p] = g
      this.pDoc.a[p] = d
      this.pTf.a[p] = count[g]
      this.pDl.a[p] = dl
      const c = count[g]
      count[g] = end
      end += c
    }
    this.pos.reserve(end - this.pos.n)
    this.pDoc.n = this.pTf.n = this.pDl.n = this.pTerm.n
    const pos = this.pos.a
    for (let i = 0; i < n; i++) {
      const g = at[i]
      if (g >= 0) pos[count[g]++] = i
    }
    this.pos.n = end
    for (let j = 0; j < k; j++) count[touched.a[j]] = 0
  }
}

/**
 * Term numbers of pairs of term numbers (a field's common grams): open addressing over typed
 * arrays (a Map keyed by u·2²⁶+v boxes every key beyond the small-integer range).
 */
class PairTable {
  private keys = new Int32Array(2 * 4096).fill(-1)
  private values = new Int32Array(4096)
  private size = 0
  private mask = 4095

  /** Empties the table, keeping its arrays (a batch's grams grow them to megabytes). */
  clear(): void {
    this.keys.fill(-1)
    this.size = 0
  }

  private static slot(u: number, v: number, mask: number): number {
    let h = Math.imul(u, 0x9e3779b1) + v
    h ^= h >>> 15
    h = Math.imul(h, 0x85ebca6b)
    h ^= h >>> 13
    return h & mask
  }

  get(u: number, v: number): number {
    const keys = this.keys
    for (let i = PairTable.slot(u, v, this.mask); ; i = (i + 1) & this.mask) {
      const k = keys[2 * i]
      if (k === -1) return -1
      if (k === u && keys[2 * i + 1] === v) return this.values[i]
    }
  }

  set(u: number, v: number, value: number): void {
    if (2 * (this.size + 1) > this.mask + 1) this.rehash()
    const keys = this.keys
    let i = PairTable.slot(u, v, this.mask)
    while (keys[2 * i] !== -1) i = (i + 1) & this.mask
    keys[2 * i] = u
    keys[2 * i + 1] = v
    this.values[i] = value
    this.size++
  }

  private rehash(): void {
    const { keys, values } = this
    const n = this.mask + 1
    this.keys = new Int32Array(4 * n).fill(-1)
    this.values = new Int32Array(2 * n)
    this.mask = 2 * n - 1
    this.size = 0
    for (let i = 0; i < n; i++) if (keys[2 * i] !== -1) this.set(keys[2 * i], keys[2 * i + 1], values[i])
  }
}

/** Reused by fieldPostings from one field to the next (it is synchronous): their arrays grow to megabytes. */
const tokenTable = new TokenTable()
const pairTable = new PairTable()

/**
 * Token and common-gram postings of one text column over a batch's documents (one version). The
 * tokens are numbered straight from the field's values (TokenTable: no string per token).
 */
function fieldPostings(docs: readonly AnalyzedDoc[], column: string, version: number, dls: Int32Array): { tokens: FieldPostings; grams: FieldPostings } {
  const table = tokenTable
  table.clear()
  const tokens = new FieldPostings(column, version, table.terms)
  const grams = new FieldPostings(gramField(column), version)
  const common: boolean[] = []
  const gramOf = pairTable
  gramOf.clear()
  let pair = new Int32Array(1024)
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d]
    dls[d] = 0
    const a = doc.text[column]
    if (!a) continue
    table.reset()
    const dl = table.scanValues(a.sources)
    dls[d] = dl
    const n = table.n
    if (n === 0) continue
    const at = table.out
    for (let t = common.length; t < table.terms.length; t++) common.push(COMMON_WORDS.has(table.terms[t]))
    if (n > pair.length) pair = new Int32Array(2 * n)
    tokens.doc(doc.id, dl, at, n)
    let any = false
    for (let i = 0; i + 1 < n; i++) {
      const u = at[i]
      const v = at[i + 1]
      pair[i] = -1
      if (u < 0 || v < 0 || !(common[u] || common[v])) continue
      let g = gramOf.get(u, v)
      if (g < 0) {
        g = grams.add(table.terms[u], table.terms[v])
        gramOf.set(u, v, g)
      }
      pair[i] = g
      any = true
    }
    if (any) grams.doc(doc.id, dl, pair, n - 1)
  }
  return { tokens, grams }
}

const TWO32 = 4294967296

/**
 * The postings rows of the groups in ClickHouse's Native format: one row per (field, term,
 * version), in the order terms were first seen (sorting 10⁵ strings in JS costs more than the
 * server's sort of the block), its postings in document order. The format: number of columns and
 * rows (VarUInt), then per column its name, type and values; a String is VarUInt length + UTF-8,
 * numbers are little-endian, an Array is the cumulative UInt64 end offset of each row followed by
 * the flattened elements. Returned as chunks to send in order.
 */
function encodePostings(groups: readonly FieldPostings[]): { chunks: Uint8Array[]; arrays: Uint32Array[]; bytes: Buffer[] } {
  let R = 0
  let P = 0
  let Q = 0
  for (const g of groups) { R += g.terms.length; P += g.pTerm.n; Q += g.pos.n }
  // scratch arrays (every element is written below), lent out until the caller's release()
  const arrays: Uint32Array[] = []
  const bytes: Buffer[] = []
  const array = (n: number) => { const a = take(n); arrays.push(a); return a.subarray(0, n) }
  const versions = array(2 * R)
  const rowEnds = array(2 * R)
  const ids = array(2 * P)
  const tfs = array(P)
  const dls = array(P)
  const posEnds = array(2 * P)
  const pos = array(Q)
  let r = 0
  let p = 0
  let q = 0
  for (const g of groups) {
    const T = g.terms.length
    const n = g.pTerm.n
    const { pTerm: { a: pTerm }, pDoc: { a: pDoc }, pTf: { a: pTf }, pDl: { a: pDl }, pos: { a: gPos } } = g
    // a counting sort by term that reads the postings in order and scatters them (stable: document
    // order within a term): per term, where its postings and its positions start
    const next = new Uint32Array(T + 1)
    const nextPos = new Uint32Array(T + 1)
    for (let k = 0; k < n; k++) { next[pTerm[k] + 1]++; nextPos[pTerm[k] + 1] += pTf[k] }
    for (let t = 0; t < T; t++) { next[t + 1] += next[t]; nextPos[t + 1] += nextPos[t] }
    const vHi = Math.floor(g.version / TWO32)
    const vLo = g.version - vHi * TWO32
    for (let t = 0; t < T; t++, r++) {
      versions[2 * r] = vLo
      versions[2 * r + 1] = vHi
      rowEnds[2 * r] = p + next[t + 1]
      rowEnds[2 * r + 1] = 0
    }
    const docLo = g.ids.map((id) => id - Math.floor(id / TWO32) * TWO32)
    const docHi = g.ids.map((id) => Math.floor(id / TWO32) >>> 0)
    for (let k = 0, src = 0; k < n; k++) {
      const t = pTerm[k]
      const x = p + next[t]++
      const d = pDoc[k]
      ids[2 * x] = docLo[d]
      ids[2 * x + 1] = docHi[d]
      const tf = pTf[k]
      tfs[x] = tf
      dls[x] = pDl[k]
      let y = q + nextPos[t]
      for (const e = src + tf; src < e; src++) pos[y++] = gPos[src]
      nextPos[t] = y - q
      posEnds[2 * x] = y // fewer than 2³² positions in a batch
      posEnds[2 * x + 1] = 0
    }
    p += n
    q += g.pos.n
  }
  const u8 = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const column = (name: string, type: string, ...data: Uint8Array[]) => [columnHeader(name, type), ...data]
  const chunks = [
    varUInt(7), varUInt(R),
    ...column('field', 'String', fieldStrings(groups, bytes)),
    ...column('term', 'String', termStrings(groups, bytes)),
    ...column('version', 'UInt64', u8(versions)),
    ...column('ids', 'Array(Int64)', u8(rowEnds), u8(ids)),
    ...column('tfs', 'Array(UInt32)', u8(rowEnds), u8(tfs)),
    ...column('dls', 'Array(UInt32)', u8(rowEnds), u8(dls)),
    ...column('poss', 'Array(Array(UInt32))', u8(rowEnds), u8(posEnds), u8(pos)),
  ]
  return { chunks, arrays, bytes }
}

function varUInt(v: number): Uint8Array {
  const out: number[] = []
  while (v >= 0x80) { out.push((v % 0x80) | 0x80); v = Math.floor(v / 0x80) }
  out.push(v)
  return Uint8Array.from(out)
}

/** A column's name and type, as two Strings. */
function columnHeader(name: string, type: string): Buffer {
  const buf = Buffer.allocUnsafe(12 + 3 * (name.length + type.length))
  return buf.subarray(0, putString(buf, putString(buf, 0, name), type))
}

/**
 * The `field` String column of the groups' rows (VarUInt byte length + UTF-8 bytes per value):
 * each group's field, once per term.
 */
function fieldStrings(groups: readonly FieldPostings[], lent: Buffer[]): Buffer {
  let size = 0
  for (const g of groups) size += g.terms.length * (6 + 3 * g.field.length)
  const buf = takeBytes(size, lent)
  let o = 0
  for (const g of groups) {
    if (g.terms.length === 0) continue
    const start = o
    o = putString(buf, o, g.field)
    const one = o - start
    for (let t = 1; t < g.terms.length; t++) for (let k = 0; k < one; k++) buf[o++] = buf[start + k]
  }
  return buf.subarray(0, o)
}

/** The `term` String column: per row its term, or for a gram `first + ' ' + second` (written from its two tokens). */
function termStrings(groups: readonly FieldPostings[], lent: Buffer[]): Buffer {
  let size = 0
  for (const g of groups) {
    for (const x of g.terms) size += 6 + 3 * x.length
    for (const x of g.seconds) size += 1 + 3 * x.length
  }
  const buf = takeBytes(size, lent)
  let o = 0
  for (const g of groups) {
    const { terms, seconds } = g
    for (let t = 0; t < terms.length; t++) o = putString(buf, o, terms[t], seconds[t])
  }
  return buf.subarray(0, o)
}

/**
 * Writes one String value at `o` (`first`, or `first + ' ' + second`); returns the end. The bytes
 * go one byte after o (a length below 128 is one byte) and move only for a longer value.
 */
function putString(buf: Buffer, o: number, first: string, second?: string): number {
  let n = put(buf, first, o + 1)
  if (second !== undefined) { buf[o + 1 + n] = 0x20; n += 1 + put(buf, second, o + 2 + n) }
  if (n < 0x80) { buf[o] = n; return o + 1 + n }
  let extra = 0
  for (let v = n >>> 7; v > 0; v >>>= 7) extra++
  buf.copyWithin(o + 1 + extra, o + 1, o + 1 + n)
  for (let v = n; v >= 0x80; v >>>= 7) buf[o++] = (v & 0x7f) | 0x80
  buf[o++] = n >>> (7 * extra)
  return o + n
}

/**
 * Writes `s` as UTF-8 at `at`; returns the byte count. ASCII (nearly every token) is copied a
 * character at a time: a Buffer.write per value costs more than the copy for tokens this short,
 * and a batch has hundreds of thousands of them.
 */
function put(buf: Buffer, s: string, at: number): number {
  const n = s.length
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(k)
    if (c >= 0x80) return buf.write(s, at, 'utf8')
    buf[at + k] = c
  }
  return n
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

/** A dictionary's name as dictGet takes it. */
function dictName(o: TableOptions, name: string): Sql {
  return sql`${raw(`'${o.database ? `${ident(o.database).name}.` : ''}${ident(name).name}'`)}`
}

const liveName = (o: TableOptions, type: SearchType): Sql => dictName(o, searchTables(type, o).live)

/** The posting `id`, `version` is its document's current text version (dictionary `<table>_live_v2`). */
const isLive = (live: Sql, id: Sql, version: Sql) => sql`dictGetOrDefault(${live}, 'live', ${id}, toUInt64(0)) = ${version} + 1`

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
const isLiveRow = (live: Sql) => sql`dictGetOrDefault(${live}, 'live', id, toUInt64(0)) >= 1 AND version >= dictGetOrDefault(${live}, 'row_version', id, toUInt64(0)) AND is_deleted = 0`

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
function phraseSet(c: Ctx, leaf: Extract<TextLeaf, { kind: 'phrase' }>): Sql {
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
 * read is divided by m = rows / distinct keys, the distinct keys counted in a bit mask.
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
    agg: sql`if(countIf(rd AND k > 0) = 0, toFloat64(0), sumIf(${c}, rd AND k > 0) * bitCount(groupBitOrIf(bitShiftLeft(toUInt64(1), k - 1), rd AND k > 0)) / countIf(rd AND k > 0))`,
  }
}

/**
 * One row per current document that a text leaf of the query matches: `id`, flag `l<i>` per text
 * leaf, `score`. Terms and prefixes: their key ranges of the postings, per postings row which
 * leaves it belongs to and its scoring key, ARRAY JOIN, current versions only (dictionary),
 * grouped by id. Phrases: their occurrences (phraseScored), scored there. The parts are put
 * together by id.
 */
function aggregate(c: Ctx, p: Plan, ast: Node, score: boolean, only?: Sql): Sql {
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

/** The ids (with their posting's version, not deduplicated) in the key ranges of the text leaves. */
function postingIds(c: Ctx, p: Plan, conds: Sql[]): Sql {
  const where = conds.length ? sql` AND ${join(conds, ' AND ')}` : empty
  return sql`SELECT id, version FROM ${c.postings} ARRAY JOIN ids AS id WHERE (${join(p.text.map((leaf) => leafKeys(c.spec, leaf)), ' OR ')})${where}`
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
 *     such clauses the documents table is not read at all); unscored, a text part that one
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
  if (p.text.length === 0) return { from: sql`${ref(o, t.docs)} AS d${finalOf(o)}`, where: whereSql(q, p), id: sql`d.id`, score: zero, docs: true, dedupe: false }
  const c: Ctx = { spec, type, o, postings: ref(o, t.postings), live: liveName(o, type), checked: o.final !== false }
  const inner = satisfiableWithoutText(q, spec) === false
  const live = c.checked ? [isLiveRow(c.live)] : []
  const parts = inner ? split(q, spec) : null
  const direct = parts !== null && parts.text.length === 1 && anyPosting(parts.text[0], spec)
  // a text part that is one phrase: its documents are phraseSet's (current versions already)
  const single = parts !== null && parts.text.length === 1 && parts.text[0].kind === 'phrase' ? parts.text[0] : null
  if (parts && orderColumns.length === 0) {
    const docWhere = parts.docs.map((n) => whereSql(n, p))
    const only = docWhere.length ? sql`SELECT id FROM ${ref(o, t.docs)} AS d WHERE ${join([...docWhere, ...live], ' AND ')}` : undefined
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
    return { from: sql`${ref(o, t.docs)} AS d`, where, id: sql`d.id`, score: zero, docs: true, dedupe: c.checked }
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
  const docs = sql`(SELECT ${select} FROM ${ref(o, t.docs)} AS d${where}${dedupe}) AS d`
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
  const toks = [...new Set(sp.keys.map((x) => x.token))]
  const keys = sp.keys.map((x) => x.key)
  const df = sp.keys.length
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

// ---------------------------------------------------------------- compaction

/**
 * A posting of document `id` at the row's `version` that no query can read again: the document
 * has a newer current text version (queries read only the current one), or it has none (deleted)
 * and a row with a newer text version exists. Both conditions hold for good: versions only grow.
 * It reads the current text version from `<table>_live_v2`, the dictionary the queries read, so a posting goes only once no
 * query can see it (a newer version the live dictionary does not know yet removes nothing), and
 * a document the live dictionary does not hold from `<table>_latest` (a deleted one; a new one
 * whose row is not there yet has no newer row either).
 */
function isStale(o: TableOptions, type: SearchType, id: Sql): Sql {
  const live = sql`dictGetOrDefault(${liveName(o, type)}, 'live', ${id}, toUInt64(0))`
  return sql`if(${live} > 0, version + 1 < ${live}, version < dictGetOrDefault(${dictName(o, searchTables(type, o).latest)}, 'latest', ${id}, toUInt64(0)))`
}

/** The text field whose postings stand for a type's share of stale postings (compactionProbeSql). */
function probeField(type: SearchType): string {
  const spec = searchType(type)
  const f = spec.textFields[0]
  if (!f) throw new Error(`search type ${type} has no text field`)
  return f.column
}

/**
 * Loads `<table>_latest` from the documents table (before compactionProbeSql and compactSql; the
 * live dictionary is kept current by the indexer).
 */
export function reloadLatestSql(type: SearchType, o: TableOptions = {}): Sql {
  return sql`SYSTEM RELOAD DICTIONARY ${ref(o, searchTables(type, o).latest)}`
}

/**
 * One row {postings, stale}: how many postings of the type's first text field there are and how
 * many of them are stale (isStale). That field's postings are a small key range of the table that
 * every version of a document writes, so their stale share estimates the whole table's cheaply.
 */
export function compactionProbeSql(type: SearchType, o: TableOptions = {}): Sql {
  const t = searchTables(type, o)
  return sql`SELECT count() AS postings, countIf(${isStale(o, type, sql`id`)}) AS stale
    FROM ${ref(o, t.postings)} ARRAY JOIN ids AS id WHERE field = ${probeField(type)}`
}

/**
 * The compaction of a type's postings: a mutation that drops every stale posting (isStale) from
 * the rows holding one, and the rows left empty. Replaced and deleted documents otherwise keep
 * their postings for good: queries skip them, but they count in the document frequencies (idf)
 * and the index grows with every re-index. Parts without a stale posting are not rewritten.
 * Run with allow_nondeterministic_mutations = 1 (it reads dictionaries), after reloadLatestSql.
 */
export function compactSql(type: SearchType, o: TableOptions = {}): Sql {
  const t = searchTables(type, o)
  const keep = (col: string) => sql`${ident(col)} = arrayFilter((x, i) -> NOT ${isStale(o, type, sql`i`)}, ${ident(col)}, ids)`
  return sql`ALTER TABLE ${ref(o, t.postings)}
    UPDATE ids = arrayFilter(i -> NOT ${isStale(o, type, sql`i`)}, ids), ${join(['tfs', 'dls', 'poss'].map(keep), ', ')}
      WHERE arrayExists(i -> ${isStale(o, type, sql`i`)}, ids),
    DELETE WHERE empty(ids)`
}

/**
 * Compactions of a type's postings still running (system.mutations; one at a time is enough): one
 * row {running, parts_to_do, failure} (failure: the latest reason one of them failed, or '').
 */
export function compactionsRunningSql(type: SearchType, o: TableOptions & { database: string }): Sql {
  return sql`SELECT count() AS running, sum(parts_to_do) AS parts_to_do, max(latest_fail_reason) AS failure FROM system.mutations
    WHERE database = ${o.database} AND table = ${searchTables(type, o).postings} AND NOT is_done`
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
