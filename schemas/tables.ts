/**
 * Every ClickHouse table the service keeps, as data: the tables of catalogue resources (derived
 * from their entries) and the internal state tables of processors (declared in
 * `schemas/internal/`). Migrations create and extend them all the same way.
 */
import type { ResourceDef } from './define.js'
import type { Catalogue } from './catalogue/index.js'
import { columnSpecs } from './columns.js'
import { INTERNAL_TABLES } from './internal/index.js'

import { VERSION_COLUMNS, REPLACING, LOCAL_TABLE_SUFFIX, type ClusterLayout, type ColumnDef, type TableDef } from './table-def.js'

export { VERSION_COLUMNS, REPLACING, LOCAL_TABLE_SUFFIX, type ClusterLayout, type ColumnDef, type TableDef }

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

export function toCreateTable(t: TableDef, database: string, cluster?: ClusterLayout): string {
  const cols = t.columns.map((c) => `  \`${c.name}\` ${c.type}`).join(',\n')
  const order = t.orderBy.length === 1 ? `\`${t.orderBy[0]}\`` : `(${t.orderBy.map((c) => `\`${c}\``).join(', ')})`
  return `CREATE TABLE IF NOT EXISTS \`${database}\`.\`${t.name}\`${onCluster(cluster)}\n(\n${cols}\n)\nENGINE = ${t.engine}\nORDER BY ${order}`
}

/** ` ON CLUSTER \`name\`` when statements go to the whole cluster, else nothing. */
export const onCluster = (cluster?: ClusterLayout): string => (cluster?.onCluster ? ` ON CLUSTER \`${cluster.name}\`` : '')

/** The tables a declared table is stored as: itself on one node; a local and a Distributed table on a cluster. */
export function physicalTables(t: TableDef, cluster?: ClusterLayout): string[] {
  return cluster ? [`${t.name}${LOCAL_TABLE_SUFFIX}`, t.name] : [t.name]
}

/**
 * `XMergeTree(args)` as `ReplicatedXMergeTree('<zk path>', '{replica}', args)`: one ZooKeeper path
 * per shard and table ({shard} and {replica} are each node's macros).
 */
export function replicatedEngine(engine: string, database: string, table: string): string {
  const m = /^(\w*MergeTree)(?:\((.*)\))?$/s.exec(engine.trim())
  if (!m) throw new Error(`table ${table}: cannot replicate engine ${engine}`)
  const args = [`'/clickhouse/tables/{shard}/${database}/${table}'`, `'{replica}'`, ...(m[2]?.trim() ? [m[2].trim()] : [])]
  return `Replicated${m[1]}(${args.join(', ')})`
}

/**
 * The statements that create a declared table: one CREATE on a single node; on a cluster, the
 * local table, then the Distributed table the application reads and writes under the declared name.
 */
export function toCreateStatements(t: TableDef, database: string, cluster?: ClusterLayout): string[] {
  if (!cluster) return [toCreateTable(t, database)]
  const localName = `${t.name}${LOCAL_TABLE_SUFFIX}`
  const engine = cluster.replicated ? replicatedEngine(t.engine, database, localName) : t.engine
  const local = toCreateTable({ ...t, name: localName, engine }, database, cluster)
  const cols = t.columns.map((c) => `  \`${c.name}\` ${c.type}`).join(',\n')
  const shardingKey = `cityHash64(${t.orderBy.map((c) => `\`${c}\``).join(', ')})`
  const distributed = `CREATE TABLE IF NOT EXISTS \`${database}\`.\`${t.name}\`${onCluster(cluster)}\n(\n${cols}\n)\nENGINE = Distributed('${cluster.name}', '${database}', '${localName}', ${shardingKey})`
  return [local, distributed]
}

/** ADD COLUMN on every table a declared table is stored as (local first: the Distributed one reads it). */
export function toAddColumn(t: TableDef, column: ColumnDef, database: string, cluster?: ClusterLayout): string[] {
  return physicalTables(t, cluster).map((name) => `ALTER TABLE \`${database}\`.\`${name}\`${onCluster(cluster)} ADD COLUMN IF NOT EXISTS \`${column.name}\` ${column.type}`)
}
