/**
 * ClickHouse DDL of catalogue resources. Tables are ReplacingMergeTree(_version, _deleted): a
 * replayed event (same version) is harmless, a delete is a row with _deleted = 1, and reads
 * use FINAL so only the latest live version of each key is seen.
 */
import type { ResourceDef } from './define.js'
import type { Catalogue } from './catalogue/index.js'
import { resourceTable, toCreateTable } from './tables.js'

export { columnsOf, type ColumnDef } from './tables.js'

export function toDdl(cat: Catalogue, r: ResourceDef, database: string): string {
  return toCreateTable(resourceTable(cat, r), database)
}
