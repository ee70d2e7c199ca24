/**
 * The names of a search type's ClickHouse objects (documents table, postings table, dictionaries),
 * how a statement refers to them, and the column facts every reader and writer of the index shares
 * (a field's ClickHouse type, its length column). One place, so that the query compiler, the layout
 * (schemas/internal/search-layout.ts), the index rows and the compaction (streams/search/) agree on
 * them without depending on one another. Names only: nothing here runs a statement.
 */
import { sql, ident, raw, type Sql } from '../../core/sql.js'
import { searchType, type FieldKind, type SearchField, type SearchType, type SearchTypeSpec } from './fields.js'

export interface TableOptions {
  /** database of the search tables (default: the session's) */
  readonly database?: string
  /** base table name (default: the type's table, fields.ts) */
  readonly table?: string
}

/** The ClickHouse type of a non-text field's values (in the documents table, and of its query parameters). */
export const CH_TYPE: Record<Exclude<FieldKind, 'text'>, string> = { keyword: 'String', int: 'Int64', date: 'Date32', bool: 'Bool' }

/** The documents table's column of a text field's length (BM25's dl). */
export const lenColumn = (f: SearchField) => `${f.column}_len`
/**
 * The filters the documents' projection `by_filter` is ordered by, leading first (a court and a
 * date range select few documents: schemas/internal/search-layout.ts builds it, the query compiler
 * reads a filter's documents by it). Only for types where both are single-valued fields.
 */
export const FILTER_ORDER: readonly string[] = ['court_id', 'date_filed']
export const FILTER_PROJECTION = 'by_filter'

/** Whether a type's documents have the projection by FILTER_ORDER. */
export const hasFilterProjection = (spec: SearchTypeSpec): boolean =>
  FILTER_ORDER.every((column) => spec.fields.some((f) => f.column === column && f.kind !== 'text' && !f.multi))

/** The document id: a column of its own in every table, not a field's column. */
export const isKey = (f: SearchField) => f.column === 'id'

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

/** A table (or dictionary) as a statement names it: database-qualified when the options give one. */
export function tableRef(o: TableOptions, name: string): Sql {
  return o.database ? sql`${ident(o.database)}.${ident(name)}` : sql`${ident(name)}`
}

/** A dictionary's name as dictGet takes it. */
export function dictionaryRef(o: TableOptions, name: string): Sql {
  return sql`${raw(`'${o.database ? `${ident(o.database).name}.` : ''}${ident(name).name}'`)}`
}

/** The live-version dictionary of a type (`<table>_live_v2`), as dictGet takes it. */
export const liveDictionary = (o: TableOptions, type: SearchType): Sql => dictionaryRef(o, searchTables(type, o).live)
