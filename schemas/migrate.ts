/**
 * Brings the ClickHouse schema in line with the catalogue. Each change is one statement,
 * applied in catalogue order and recorded in `_migrations` (id, statement, checksum, time),
 * so a run applies only what is missing. Column type changes are refused: they need a
 * hand-written migration, not a silent rewrite of a large table.
 */
import { createHash } from 'node:crypto'
import type { Db } from '../core/clickhouse.js'
import { sql, ident, raw } from '../core/sql.js'
import type { Catalogue } from './catalogue/index.js'
import { allTables, toCreateTable, type TableDef } from './tables.js'
import { SEARCH_TYPES, searchTableDdl, searchTables, type SearchType } from '../domain/search/index.js'

export interface Migration { id: string; statement: string }

const checksum = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16)

/** Work out the statements that bring `existing` (table → column → type) to the declared tables. */
export function planMigrations(tables: readonly TableDef[], database: string, existing: Map<string, Map<string, string>>): Migration[] {
  const plan: Migration[] = []
  for (const t of tables) {
    const have = existing.get(t.name)
    if (!have) {
      plan.push({ id: `create:${t.name}`, statement: toCreateTable(t, database) })
      continue
    }
    for (const c of t.columns) {
      const type = have.get(c.name)
      if (type === undefined) {
        plan.push({ id: `add:${t.name}.${c.name}`, statement: `ALTER TABLE \`${database}\`.\`${t.name}\` ADD COLUMN IF NOT EXISTS \`${c.name}\` ${c.type}` })
      } else if (type.replace(/\s/g, '') !== c.type.replace(/\s/g, '')) {
        throw new Error(`column ${t.name}.${c.name} is ${type} in ClickHouse but ${c.type} in its declaration; write a migration by hand`)
      }
    }
  }
  return plan
}

export async function migrate(db: Db, cat: Catalogue, log: (m: string) => void = () => {}, notice: (m: string) => void = log): Promise<Migration[]> {
  const database = db.database
  await db.command(sql`CREATE DATABASE IF NOT EXISTS ${ident(database)}`)
  await db.command(sql`CREATE TABLE IF NOT EXISTS ${ident(database)}.${ident('_migrations')}
    (id String, statement String, checksum String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
    ENGINE = MergeTree ORDER BY (applied_at, id)`)
  const rows = await db.query<{ table: string; name: string; type: string }>(
    sql`SELECT table, name, type FROM system.columns WHERE database = ${database} ORDER BY table, position`)
  const existing = new Map<string, Map<string, string>>()
  for (const row of rows) {
    if (!existing.has(row.table)) existing.set(row.table, new Map())
    existing.get(row.table)!.set(row.name, row.type)
  }
  const plan = planMigrations(allTables(cat), database, existing)
  for (const m of plan) {
    // Statements are generated from the catalogue (identifiers checked at load), never from input.
    await db.command(sql`${raw(m.statement)}`)
    await db.insert('_migrations', [{ id: m.id, statement: m.statement, checksum: checksum(m.statement) }])
    log(`applied ${m.id}`)
  }
  // The search index's layout (tables, materialized views, the live-version dictionary) is declared
  // with its query compiler; its statements are idempotent and run only while a part is missing.
  for (const type of Object.keys(SEARCH_TYPES) as SearchType[]) {
    const t = searchTables(type)
    if ([t.docs, t.postings, t.ingest].every((name) => existing.has(name))) continue
    // An index in an older layout is moved in place: it takes time in proportion to its size (the
    // 10,000-opinion sample: about 3 minutes), so say so before the statements run.
    const older = existing.has(t.docs) && !existing.has(t.postings)
    if (older) notice(`moving the search index of type ${type} to the current layout (minutes for a large index; nothing to re-index)`)
    for (const statement of searchTableDdl(type, { database })) await db.command(statement)
    if (older) notice(`moved the search index of type ${type}`)
    else log(`created the search index of type ${type}`)
  }
  return plan
}
