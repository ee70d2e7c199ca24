/**
 * Brings the ClickHouse schema in line with the catalogue. Each change is one statement,
 * applied in catalogue order and recorded in `_migrations` (id, statement, checksum, time),
 * so a run applies only what is missing. Column type changes are refused: they need a
 * hand-written migration, not a silent rewrite of a large table.
 */
import { createHash } from 'node:crypto'
import type { Db } from './clickhouse.js'
import { sql, ident, raw } from './sql.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { allTables, allViews, physicalTables, toAddColumn, toCreateStatements, toCreateView, toDropView, toFillView, onCluster, LOCAL_TABLE_SUFFIX, type ClusterLayout, type TableDef, type ViewDef } from '../schemas/tables.js'
import { SEARCH_TYPES, searchTables, searchLegacyTables, type SearchType } from '../domain/search/index.js'
import { searchTableDdl } from '../schemas/internal/search-layout.js'
import pMap from 'p-map'

/** Tables created or altered at once by a migration. */
const MIGRATION_CONCURRENCY = 8

export interface Migration { id: string; statement: string }

const checksum = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16)

/**
 * Work out the statements that bring `existing` (table → column → type) to the declared tables.
 * On a cluster a declared table is a local and a Distributed table: a missing one of the two is
 * created, a missing column added to both.
 */
export function planMigrations(tables: readonly TableDef[], database: string, existing: Map<string, Map<string, string>>, cluster?: ClusterLayout, views: readonly ViewDef[] = [], filled?: ReadonlySet<string>, unwanted: readonly ViewDef[] = []): Migration[] {
  const plan: Migration[] = []
  for (const t of tables) {
    const names = physicalTables(t, cluster)
    const creates = toCreateStatements(t, database, cluster)
    if (names.some((name) => !existing.has(name))) {
      names.forEach((name, i) => { if (!existing.has(name)) plan.push({ id: `create:${name}`, statement: creates[i] }) })
      continue
    }
    const have = existing.get(names[0])!
    for (const c of t.columns) {
      const type = have.get(c.name)
      if (type === undefined) {
        const adds = toAddColumn(t, c, database, cluster)
        names.forEach((name, i) => plan.push({ id: `add:${name}.${c.name}`, statement: adds[i] }))
      } else if (type.replace(/\s/g, '') !== c.type.replace(/\s/g, '')) {
        throw new Error(`column ${t.name}.${c.name} is ${type} in ClickHouse but ${c.type} in its declaration; write a migration by hand`)
      }
    }
  }
  // Views after every table (they read one and write another). A missing view is created, then its
  // target filled once from the rows its source already holds (an existing deployment's, or none);
  // a view whose columns changed (a new large field) is made again and the target filled again.
  // `filled`: the fills `_migrations` records; a view there without its fill (a fill stopped
  // midway: the server or the start stopped) gets its fill again.
  for (const v of views) {
    const have = existing.get(v.name)
    if (have && [...have.keys()].join(',') === v.columns.join(',')) {
      if (filled && !filled.has(`fill:${v.target}`)) plan.push({ id: `fill:${v.target}`, statement: toFillView(v, database, cluster) })
      continue
    }
    if (have) plan.push({ id: `drop:${v.name}`, statement: toDropView(v, database, cluster) })
    plan.push({ id: `view:${v.name}`, statement: toCreateView(v, database, cluster) })
    plan.push({ id: `fill:${v.target}`, statement: toFillView(v, database, cluster) })
  }
  // A view no longer wanted (large texts read from the read model again) stops copying; its side
  // table is left, and filled again if the view comes back.
  for (const v of unwanted) if (existing.has(v.name)) plan.push({ id: `drop:${v.name}`, statement: toDropView(v, database, cluster) })
  return plan
}

/**
 * `cluster`: lay the tables out on that ClickHouse cluster (local + Distributed tables). With
 * `onCluster` the statements reach every node from this one; without, the caller migrates every
 * node (infra/cluster/cli.ts). `_migrations` records what this node applied. The search index's
 * tables (migrateSearchIndex) stay on the node the search roles use.
 */
/**
 * `textTables`: keep large texts' side tables and the views that fill them (tables.ts textsTable),
 * which only a deployment that reads them from ClickHouse (LDS_READ_MODEL_TEXTS=clickhouse) uses:
 * they store the texts a second time and add a write to every insert of their tables.
 */
export async function migrate(db: Db, cat: Catalogue, log: (m: string) => void = () => {}, notice: (m: string) => void = log, cluster?: ClusterLayout, o: { textTables?: boolean } = {}): Promise<Migration[]> {
  const database = db.database
  await db.command(sql`CREATE DATABASE IF NOT EXISTS ${ident(database)}${raw(onCluster(cluster))}`)
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
  const textTables = o.textTables ?? false
  const views = textTables ? allViews(cat) : []
  const filled = new Set((await db.query<{ id: string }>(sql`SELECT DISTINCT id FROM ${ident(database)}.${ident('_migrations')} WHERE startsWith(id, 'fill:')`)).map((r) => r.id))
  const plan = planMigrations(allTables(cat, { textTables }), database, existing, cluster, views, filled, textTables ? [] : allViews(cat))
  const apply = async (m: Migration) => {
    // A fill copies a table's texts (minutes for a large one): said where the user sees it.
    const filling = views.some((v) => m.id === `fill:${v.target}` && (existing.has(v.source) || existing.has(`${v.source}${LOCAL_TABLE_SUFFIX}`)))
    if (filling) notice(`${m.id}: copying the large texts already stored into their side table (once; minutes for a large table)`)
    // Statements are generated from the catalogue (identifiers checked at load), never from input.
    await db.command(sql`${raw(m.statement)}`)
    await db.insert('_migrations', [{ id: m.id, statement: m.statement, checksum: checksum(m.statement) }])
    log(`applied ${m.id}`)
  }
  // One table's statements in order; different tables side by side (a new deployment's 66 tables
  // took about 20 s one after another, a third of that eight at a time). On a cluster, in order.
  // Views and their fills once every table is there.
  const byTable = new Map<string, Migration[]>()
  const isView = (m: Migration) => /^(drop|view|fill):/.test(m.id)
  for (const m of plan) {
    const table = cluster ? '' : isView(m) ? `views:${m.id.replace(/^\w+:/, '').replace(/_mv$/, '')}` : m.id.replace(/^\w+:/, '').split('.')[0]
    byTable.set(table, [...(byTable.get(table) ?? []), m])
  }
  const groups = [...byTable.entries()]
  const run = (gs: typeof groups) => pMap(gs, async ([, ms]) => { for (const m of ms) await apply(m) }, { concurrency: cluster ? 1 : MIGRATION_CONCURRENCY })
  await run(groups.filter(([k]) => !k.startsWith('views:')))
  await run(groups.filter(([k]) => k.startsWith('views:')))
  await migrateSearchIndex(db, database, new Set(existing.keys()), log, notice)
  return plan
}

/**
 * The search index's layout (tables, the live-version dictionary) is declared with its query
 * compiler; its statements are idempotent and run only while a part is missing or an older
 * layout's postings are still there. Those are moved into the current table in place: the copy
 * takes time in proportion to the index (the 10,000-opinion sample: about 20 s to 3 minutes),
 * so it is said before it runs. A move stopped during its copy (the server killed) leaves both
 * tables, the new one perhaps partial: it is dropped and the move made again from the older one,
 * which is dropped only once the copy is complete.
 */
export async function migrateSearchIndex(db: Db, database: string, existing: ReadonlySet<string>, log: (m: string) => void, notice: (m: string) => void): Promise<void> {
  for (const type of Object.keys(SEARCH_TYPES) as SearchType[]) {
    const t = searchTables(type)
    const older = searchLegacyTables(type).filter((name) => existing.has(name))
    if (!older.length && [t.docs, t.postings, t.ingest, t.live, t.latest].every((name) => existing.has(name))) continue
    if (older.length && existing.has(t.postings)) {
      notice(`the search index of type ${type} was being moved to the current layout when it stopped: moving it again`)
      await db.command(sql`DROP TABLE IF EXISTS ${ident(database)}.${ident(t.postings)}`)
    }
    if (older.length) notice(`moving the search index of type ${type} to the current layout (minutes for a large index; nothing to re-index)`)
    for (const statement of searchTableDdl(type, { database })) await db.command(statement)
    if (older.length) notice(`moved the search index of type ${type}`)
    else log(`created the search index of type ${type}`)
  }
}
