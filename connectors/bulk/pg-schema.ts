/**
 * PostgreSQL DDL for the reference's 33 bulk tables, typed from the catalogue: what a user runs
 * before loading our export (or the reference's files) into PostgreSQL with the reference's own
 * `\COPY … FROM … WITH (FORMAT csv, ENCODING utf8, ESCAPE '\', HEADER)`. The export writes it as
 * `schema.sql`. Columns we do not store are `text` (they are exported as NULL).
 */
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnSpecs, type ColumnSpec } from '../../schemas/columns.js'
import { BULK_TABLES, storageColumn, type BulkTable } from './tables.js'

const PG_TYPES: Readonly<Record<string, string>> = {
  int: 'bigint', float: 'double precision', string: 'text', bool: 'boolean', date: 'date',
  datetime: 'timestamp with time zone', time: 'time', json: 'jsonb',
}

function pgTypeOf(spec: ColumnSpec | undefined): string {
  if (!spec) return 'text'
  if (spec.kind === 'fk' || spec.kind === 'm2m') return spec.spec.ch.includes('String') ? 'text' : 'bigint'
  return PG_TYPES[spec.kind] ?? 'text'
}

/** Each column of a table with its PostgreSQL type. */
export function pgColumns(t: BulkTable): { column: string; type: string }[] {
  const target = catalogue.get(t.target.resource)
  const specs = new Map(columnSpecs(catalogue, target).map((c) => [c.column, c]))
  if (t.target.kind === 'link') {
    const { parent, child, codes } = t.target
    const parentType = target.keyKind === 'string' ? 'text' : 'bigint'
    const childSpec = specs.get(t.target.column)
    const childType = codes ? 'bigint' : pgTypeOf(childSpec)
    return t.columns.map((c) => ({ column: c, type: c === parent ? parentType : c === child ? childType : 'bigint' }))
  }
  return t.columns.map((c) => ({ column: c, type: c === 'id' && target.keyKind === 'string' ? 'text' : pgTypeOf(specs.get(storageColumn(t, c))) }))
}

/** `CREATE TABLE` statements for the given tables (all 33 by default), ids as primary keys. */
export function referenceSchemaSql(tables: readonly BulkTable[] = BULK_TABLES): string {
  return tables.map((t) => {
    const cols = pgColumns(t).map(({ column, type }) => `  ${quoteIdent(column)} ${type}${column === 'id' ? ' PRIMARY KEY' : ''}`)
    return `CREATE TABLE ${quoteIdent(t.table)} (\n${cols.join(',\n')}\n);\n`
  }).join('\n')
}

/** The reference's own load command for one file (psql's client-side \COPY). */
export function referenceCopyCommand(t: BulkTable, file: string): string {
  return `\\COPY ${quoteIdent(t.table)} (${t.columns.map(quoteIdent).join(', ')}) FROM '${file.replace(/'/g, "''")}' WITH (FORMAT csv, ENCODING utf8, ESCAPE '\\', HEADER)`
}

const quoteIdent = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`)
