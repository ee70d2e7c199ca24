/**
 * ClickHouse DDL derived from the catalogue. Tables are ReplacingMergeTree(_version, _deleted):
 * a replayed event (same version) is harmless, a delete is a row with _deleted = 1, and reads
 * use FINAL so only the latest live version of each key is seen.
 */
import type { ResourceDef } from './define.js'
import { columnSpecs } from './columns.js'
import type { Catalogue } from './catalogue/index.js'

export interface ColumnDef { name: string; type: string }

export function columnsOf(cat: Catalogue, r: ResourceDef): ColumnDef[] {
  const cols = columnSpecs(cat, r).map((c) => ({ name: c.column, type: c.nullable ? `Nullable(${c.ch})` : c.ch }))
  return [...cols, { name: '_version', type: 'UInt64' }, { name: '_deleted', type: 'UInt8' }]
}

export function toDdl(cat: Catalogue, r: ResourceDef, database: string): string {
  const cols = columnsOf(cat, r).map((c) => `  \`${c.name}\` ${c.type}`).join(',\n')
  return `CREATE TABLE IF NOT EXISTS \`${database}\`.\`${r.table}\`\n(\n${cols}\n)\nENGINE = ReplacingMergeTree(_version, _deleted)\nORDER BY \`${r.key}\``
}
