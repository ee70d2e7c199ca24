/**
 * The ClickHouse layout of the search index and its migrations, as statements (Sql values; the
 * migration, core/migrate.ts, runs them): a postings layout, chosen by bench/search-machinery.ts
 * (a text index answers matching fast, but BM25 then reads every candidate's tokens, which costs
 * seconds at 1M documents; postings carry tf and positions, so ranking reads only the query's
 * terms) and tuned by bench/search.ts (1M opinions, against PostgreSQL full-text search).
 *
 * Tables of a search type (names from domain/search/tables.ts searchTables, e.g. search_o):
 * - `<table>`: one row per document: the non-text fields (Nullable scalars, arrays when
 *   multi-valued) and `<column>_len` per text field; ReplacingMergeTree(version, is_deleted);
 * - `<table>_postings_v2` (layout 2): one row per (field, term, version) per indexed batch,
 *   ordered by (field, term), with the batch's postings as parallel arrays (ids, tfs, dls = field
 *   lengths, poss = positions); the indexer gives a batch one version, so a row has one. Few, wide
 *   rows (a batch of 5,000 opinions writes ~350,000 rows instead of 2 million).
 *   Besides the tokens of each text field, field `<column>~2` holds its common grams: every
 *   adjacent pair with a common word (domain/search/common-grams.ts: "the court", "f 3d"), so a
 *   phrase through frequent words reads the pair's postings, not the words' long position lists;
 * - no ingest table: the indexer groups a batch's postings itself (streams/search/index-rows.ts)
 *   and inserts them as a Native block into the postings table, and the document rows into the
 *   documents table (layout 1 sent one row per document through a Null table whose materialized
 *   views grouped the postings: 5-8 times slower; searchTableDdl migrates it);
 * - `<table>_live_v2`: a dictionary id → current text version + 1 (0 when deleted or absent) and
 *   the current row's version, loaded from the documents (FINAL), reloaded by refreshSql (the
 *   indexer does after its inserts: the embedded server runs no periodic dictionary updates) and
 *   otherwise by a server that does within 1-5 s of a change (LIFETIME, INVALIDATE_QUERY on the
 *   highest version: versions only grow, while the row count can return to where it was once a
 *   merge drops a replaced row). A document row's text version is the version whose postings hold
 *   its text (TEXT_VERSION_COLUMNS: a change that leaves the text as it was writes no postings).
 *   A posting counts only when its version is its document's current text version, so replaced
 *   and deleted documents never show (their stale postings stay until a compaction,
 *   streams/search/compaction-sql.ts) and text queries never join the documents table to know it;
 * - `<table>_latest`: a dictionary id → newest text version of any row, for the compaction;
 * - projection `by_filter` of `<table>` (types with a court and a filing date): the rows ordered by
 *   (court_id, date_filed), so the documents a court + date filter keeps (the commonest search of
 *   a legal site) are a key range read, not a scan of every row (filterProjectionDdl).
 */
import { sql, ident, join, raw, type Sql } from '../../core/sql.js'
import { searchType, type SearchType, type SearchTypeSpec } from '../../domain/search/fields.js'
import { CH_TYPE, FILTER_ORDER, FILTER_PROJECTION, hasFilterProjection, isKey, lenColumn, searchLegacyTables, searchTables, tableRef, type TableOptions } from '../../domain/search/tables.js'
import { COMMON_WORDS } from '../../domain/search/common-grams.js'

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
 * The documents' projection ordered by FILTER_ORDER, with the columns a filtered query reads of a
 * row (id, version, is_deleted: whether it is current), or none for a type without those fields.
 * The documents are a ReplacingMergeTree, whose merges must rebuild a projection. Rows of parts
 * written before it are read as before (a full scan) until a merge rewrites their part.
 */
function filterProjectionDdl(spec: SearchTypeSpec, docs: Sql): Sql[] {
  if (!hasFilterProjection(spec)) return []
  const order = raw(FILTER_ORDER.join(', '))
  return [
    sql`ALTER TABLE ${docs} MODIFY SETTING deduplicate_merge_projection_mode = 'rebuild'`,
    // granules of 128 rows, not the table's 8,192: a court and 5 years at 100,000 opinions (401
    // documents) read 31,384 rows of it at 8,192 and 640 at 128. A projection added before keeps its
    // granules until dropped and added again
    sql`ALTER TABLE ${docs} ADD PROJECTION IF NOT EXISTS ${ident(FILTER_PROJECTION)} (SELECT id, version, is_deleted, ${order} ORDER BY ${order}) WITH SETTINGS (index_granularity = 128)`,
  ]
}

/** The postings table's columns (streams/search/index-rows.ts encodes them as String, UInt64, Array(Int64), …). */
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
 * They also move back a layout-3 index (`<table>_postings_v3`, a gram for every adjacent pair, not
 * kept: see COMMON_WORDS), which a database migrated while it was current has: its rows are copied
 * into the layout-2 table when it is created, but for the grams of two uncommon words, which
 * layout 2 does not read, and the table is dropped.
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
  const legacy = tableRef(o, legacyName)
  const copy = sql`SELECT field, term, versions[1] AS version, ids, tfs, dls, poss FROM ${legacy} WHERE arrayAll(v -> v = versions[1], versions)
    UNION ALL SELECT field, term, version, groupArray(id), groupArray(tf), groupArray(dl), groupArray(pos) FROM ${legacy}
      ARRAY JOIN ids AS id, versions AS version, tfs AS tf, dls AS dl, poss AS pos WHERE NOT arrayAll(v -> v = versions[1], versions) GROUP BY field, term, version`
  const layout3 = tableRef(o, layout3Name)
  // inlined, not a parameter (DDL takes none): COMMON_WORDS are [a-z0-9] only, checked here
  const words = [...COMMON_WORDS]
  if (!words.every((w) => /^[a-z0-9]+$/.test(w))) throw new Error('COMMON_WORDS must be [a-z0-9]')
  const common = raw(`[${words.map((w) => `'${w}'`).join(', ')}]`)
  const back = sql`SELECT field, term, version, ids, tfs, dls, poss FROM ${layout3} WHERE NOT endsWith(toString(field), '~2') OR hasAny(splitByChar(' ', term), ${common})`
  return [
    sql`CREATE TABLE IF NOT EXISTS ${tableRef(o, t.docs)} (${join(cols.map(def), ', ')})
      ENGINE = ReplacingMergeTree(version, is_deleted) ORDER BY id`,
    // the text-version columns, into a table created before them (constant names and types)
    sql`ALTER TABLE ${tableRef(o, t.docs)} ${raw(TEXT_VERSION_COLUMNS.map((c, i) => `ADD COLUMN IF NOT EXISTS ${c.name} ${c.type} AFTER ${i ? TEXT_VERSION_COLUMNS[i - 1].name : 'is_deleted'}`).join(', '))}`,
    sql`DROP VIEW IF EXISTS ${tableRef(o, `${base}_postings_mv`)}`,
    sql`DROP VIEW IF EXISTS ${tableRef(o, `${base}_docs_mv`)}`,
    sql`DROP TABLE IF EXISTS ${tableRef(o, `${base}_ingest`)}`,
    sql`CREATE TABLE IF NOT EXISTS ${legacy} (field LowCardinality(String), term String,
      ids Array(Int64), versions Array(UInt64), tfs Array(UInt32), dls Array(UInt32), poss Array(Array(UInt32))) ENGINE = MergeTree ORDER BY (field, term)`,
    sql`CREATE TABLE IF NOT EXISTS ${layout3} (${join(POSTINGS_COLUMNS.map(def), ', ')}) ENGINE = MergeTree ORDER BY (field, term)`,
    // granules of 1,024 rows: at 64 the server spent twice the CPU merging parts (a batch writes
    // ~70 rows per document, most of them grams) and a fifth more inserting, and queries measured
    // the same either way (bench/search.ts, 300,000 documents, interleaved). A table created with
    // other granules keeps them (the setting cannot be altered).
    sql`CREATE TABLE IF NOT EXISTS ${tableRef(o, t.postings)} (${join(POSTINGS_COLUMNS.map(def), ', ')})
      ENGINE = MergeTree ORDER BY (field, term) SETTINGS index_granularity = 1024, index_granularity_bytes = 10485760 AS ${copy} UNION ALL ${back}`,
    sql`DROP TABLE IF EXISTS ${legacy}`,
    sql`DROP TABLE IF EXISTS ${layout3}`,
    // the dictionary before text versions (id → version + 1)
    sql`DROP DICTIONARY IF EXISTS ${tableRef(o, `${base}_live`)}`,
    sql`DROP VIEW IF EXISTS ${tableRef(o, `${base}_live_src`)}`,
    // id → current text version + 1 (deleted: absent, 0) and the current row's version, through a
    // view so that the dictionary's source (a table name, resolved in the dictionary's database)
    // needs no database name
    sql`CREATE VIEW IF NOT EXISTS ${tableRef(o, `${t.live}_src`)} AS SELECT id, text_version + 1 AS live, version AS row_version FROM ${tableRef(o, t.docs)} FINAL`,
    sql`CREATE DICTIONARY IF NOT EXISTS ${tableRef(o, t.live)} (id Int64, live UInt64, row_version UInt64) PRIMARY KEY id
      SOURCE(CLICKHOUSE(TABLE ${raw(`'${ident(`${t.live}_src`).name}'`)}${raw(o.database ? ` DB '${ident(o.database).name}' INVALIDATE_QUERY 'SELECT max(version) FROM ${docsName}'` : '')}))
      LAYOUT(HASHED()) LIFETIME(MIN 1 MAX 5)`,
    // id → newest text version of any row, deleted ones included (a delete's is its own version),
    // for the compaction (compactSql); loaded only when a compaction reloads it, so a server that
    // never compacts holds nothing
    sql`CREATE OR REPLACE VIEW ${tableRef(o, `${t.latest}_src`)} AS SELECT id, max(text_version) AS latest FROM ${tableRef(o, t.docs)} GROUP BY id`,
    sql`CREATE DICTIONARY IF NOT EXISTS ${tableRef(o, t.latest)} (id Int64, latest UInt64) PRIMARY KEY id
      SOURCE(CLICKHOUSE(TABLE ${raw(`'${ident(`${t.latest}_src`).name}'`)}${raw(o.database ? ` DB '${ident(o.database).name}'` : '')}))
      LAYOUT(HASHED()) LIFETIME(0)`,
    ...filterProjectionDdl(spec, tableRef(o, t.docs)),
  ]
}

/** Columns of the documents table in the order of toIndexRows' `docs` rows (JSONCompactEachRow). */
export function indexColumns(type: SearchType): string[] {
  return docColumns(searchType(type)).map((c) => c.name)
}

/** The statement that takes toIndexRows' `postings` as its body. */
export function postingsInsertSql(type: SearchType, o: TableOptions = {}): Sql {
  return sql`INSERT INTO ${tableRef(o, searchTables(type, o).postings)} FORMAT Native`
}

/**
 * Makes what was just indexed visible to text queries now, instead of within the dictionary's
 * lifetime (LIFETIME(MIN 1 MAX 5) seconds): reloads `<table>_live`. For tests and for writes that
 * must be searchable when acknowledged; a stream processor need not call it per batch.
 */
export function refreshSql(type: SearchType, o: TableOptions = {}): Sql {
  return sql`SYSTEM RELOAD DICTIONARY ${tableRef(o, searchTables(type, o).live)}`
}
