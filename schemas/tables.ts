/**
 * Every ClickHouse table the service keeps, as data: the tables of catalogue resources (derived
 * from their entries) and the internal state tables of processors (declared in
 * `schemas/internal/`). Migrations create and extend them all the same way.
 */
import type { ResourceDef } from './define.js'
import type { Catalogue } from './catalogue/index.js'
import { columnSpecs } from './columns.js'
import { INTERNAL_TABLES } from './internal/index.js'

import { VERSION_COLUMNS, REPLACING, type ColumnDef, type TableDef } from './table-def.js'

export { VERSION_COLUMNS, REPLACING, type ColumnDef, type TableDef }

export function columnsOf(cat: Catalogue, r: ResourceDef): ColumnDef[] {
  const cols = columnSpecs(cat, r).map((c) => ({ name: c.column, type: c.nullable ? `Nullable(${c.ch})` : c.ch }))
  return [...cols, ...VERSION_COLUMNS]
}

export function resourceTable(cat: Catalogue, r: ResourceDef): TableDef {
  return { name: r.table, columns: columnsOf(cat, r), engine: REPLACING, orderBy: [r.key] }
}

/**
 * Catalogue tables first (in catalogue order), then the processors' own. A resource that is a
 * view of another's table (archive-query over archive_documents) declares no table of its own.
 */
export function allTables(cat: Catalogue): TableDef[] {
  const seen = new Set<string>()
  const out: TableDef[] = []
  for (const r of cat.resources) {
    if (seen.has(r.table)) continue
    seen.add(r.table)
    out.push(resourceTable(cat, r))
  }
  return [...out, ...INTERNAL_TABLES]
}

export function toCreateTable(t: TableDef, database: string): string {
  const cols = t.columns.map((c) => `  \`${c.name}\` ${c.type}`).join(',\n')
  const order = t.orderBy.length === 1 ? `\`${t.orderBy[0]}\`` : `(${t.orderBy.map((c) => `\`${c}\``).join(', ')})`
  return `CREATE TABLE IF NOT EXISTS \`${database}\`.\`${t.name}\`\n(\n${cols}\n)\nENGINE = ${t.engine}\nORDER BY ${order}`
}
