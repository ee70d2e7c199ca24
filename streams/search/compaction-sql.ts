/**
 * The SQL of the search index's compaction (run by compaction.ts): which postings no query can
 * read again, how many there are, the mutation that drops them, and whether one is running.
 * Statements only, on the layout of schemas/internal/search-layout.ts.
 */
import { sql, ident, join, type Sql } from '../../core/sql.js'
import { searchType, type SearchType } from '../../domain/search/fields.js'
import { dictionaryRef, liveDictionary, searchTables, tableRef, type TableOptions } from '../../domain/search/tables.js'

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
  const live = sql`dictGetOrDefault(${liveDictionary(o, type)}, 'live', ${id}, toUInt64(0))`
  return sql`if(${live} > 0, version + 1 < ${live}, version < dictGetOrDefault(${dictionaryRef(o, searchTables(type, o).latest)}, 'latest', ${id}, toUInt64(0)))`
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
  return sql`SYSTEM RELOAD DICTIONARY ${tableRef(o, searchTables(type, o).latest)}`
}

/**
 * One row {postings, stale}: how many postings of the type's first text field there are and how
 * many of them are stale (isStale). That field's postings are a small key range of the table that
 * every version of a document writes, so their stale share estimates the whole table's cheaply.
 */
export function compactionProbeSql(type: SearchType, o: TableOptions = {}): Sql {
  const t = searchTables(type, o)
  return sql`SELECT count() AS postings, countIf(${isStale(o, type, sql`id`)}) AS stale
    FROM ${tableRef(o, t.postings)} ARRAY JOIN ids AS id WHERE field = ${probeField(type)}`
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
  return sql`ALTER TABLE ${tableRef(o, t.postings)}
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
