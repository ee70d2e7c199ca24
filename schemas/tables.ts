/**
 * Every ClickHouse table the service keeps, as data: the tables of catalogue resources (derived
 * from their entries) and the internal state tables of processors (declared in
 * `schemas/internal/`). Migrations create and extend them all the same way.
 */
import type { ResourceDef } from './define.js'
import type { Catalogue } from './catalogue/index.js'
import { columnSpecs } from './columns.js'
import { INTERNAL_TABLES } from './internal/index.js'

import { columnOf } from './define.js'
import { VERSION_COLUMNS, REPLACING, LOCAL_TABLE_SUFFIX, type ClusterLayout, type ColumnDef, type TableDef, type ViewDef } from './table-def.js'

export { VERSION_COLUMNS, REPLACING, LOCAL_TABLE_SUFFIX, type ClusterLayout, type ColumnDef, type TableDef, type ViewDef }

export function columnsOf(cat: Catalogue, r: ResourceDef): ColumnDef[] {
  const cols = columnSpecs(cat, r).map((c) => ({ name: c.column, type: c.nullable ? `Nullable(${c.ch})` : c.ch }))
  return [...cols, ...VERSION_COLUMNS]
}

export function resourceTable(cat: Catalogue, r: ResourceDef): TableDef {
  return { name: r.table, columns: columnsOf(cat, r), engine: REPLACING, orderBy: [r.key] }
}

/**
 * Large texts' side table: a resource with fields marked `large` (an opinion's texts) keeps them
 * also in `<table>_texts` (key, version columns, the large columns), in granules of at most
 * TEXTS_GRANULE_BYTES, so a point read by key (api/read-model/large-texts.ts) decompresses a few
 * rows' texts instead of a granule of the main table (~10 MB at the default granularity: 10 ms
 * against 3 ms per read, docs/benchmarks.md). The main table stays as it is: lists scan it. A
 * MATERIALIZED VIEW keeps the side table from the main table's inserts (the sink writes one table).
 */
export const TEXTS_TABLE_SUFFIX = '_texts'
export const TEXTS_VIEW_SUFFIX = '_texts_mv'
/** Measured on 20,000 opinions (bench/large-texts.ts --layouts; docs/decisions/read-path.md). */
export const TEXTS_GRANULE_BYTES = 131_072

/** The large columns of a resource's table, in table order (none: no side table). */
export function largeColumnsOfTable(cat: Catalogue, r: ResourceDef): string[] {
  const large = new Set(Object.entries(r.fields).filter(([, d]) => d.large).map(([n, d]) => columnOf(n, d)))
  return columnsOf(cat, r).map((c) => c.name).filter((c) => large.has(c))
}

export function textsTable(cat: Catalogue, r: ResourceDef): TableDef | undefined {
  const large = new Set(largeColumnsOfTable(cat, r))
  if (!large.size) return undefined
  const cols = columnsOf(cat, r)
  return {
    name: `${r.table}${TEXTS_TABLE_SUFFIX}`,
    columns: [cols.find((c) => c.name === r.key)!, ...cols.filter((c) => large.has(c.name)), ...VERSION_COLUMNS],
    engine: REPLACING, orderBy: [r.key], settings: { index_granularity_bytes: TEXTS_GRANULE_BYTES },
  }
}

export function textsView(cat: Catalogue, r: ResourceDef): ViewDef | undefined {
  const t = textsTable(cat, r)
  return t && { name: `${r.table}${TEXTS_VIEW_SUFFIX}`, source: r.table, target: t.name, columns: t.columns.map((c) => c.name) }
}

/** The stored resources with a table of their own (a view of another's table, archive-query, has none). */
function tableResources(cat: Catalogue): ResourceDef[] {
  const seen = new Set<string>()
  return cat.resources.filter((r) => !seen.has(r.table) && seen.add(r.table))
}

/**
 * Catalogue tables first (in catalogue order), then the processors' own. A resource that is a
 * view of another's table (archive-query over archive_documents) declares no table of its own.
 */
export function allTables(cat: Catalogue, o: { textTables?: boolean } = {}): TableDef[] {
  const out: TableDef[] = []
  for (const r of tableResources(cat)) {
    out.push(resourceTable(cat, r))
    const texts = o.textTables === false ? undefined : textsTable(cat, r)
    if (texts) out.push(texts)
  }
  return [...out, ...INTERNAL_TABLES]
}

/** Every materialized view, created once the tables are. */
export function allViews(cat: Catalogue): ViewDef[] {
  return tableResources(cat).map((r) => textsView(cat, r)).filter((v): v is ViewDef => v !== undefined)
}

export function toCreateTable(t: TableDef, database: string, cluster?: ClusterLayout): string {
  const cols = t.columns.map((c) => `  \`${c.name}\` ${c.type}`).join(',\n')
  const order = t.orderBy.length === 1 ? `\`${t.orderBy[0]}\`` : `(${t.orderBy.map((c) => `\`${c}\``).join(', ')})`
  const settings = t.settings ? `\nSETTINGS ${Object.entries(t.settings).map(([k, v]) => `${k} = ${v}`).join(', ')}` : ''
  return `CREATE TABLE IF NOT EXISTS \`${database}\`.\`${t.name}\`${onCluster(cluster)}\n(\n${cols}\n)\nENGINE = ${t.engine}\nORDER BY ${order}${settings}`
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

/** The tables a view reads and writes: the declared ones on one node, each node's local ones on a cluster. */
const viewTables = (v: ViewDef, cluster?: ClusterLayout) => cluster ? { source: `${v.source}${LOCAL_TABLE_SUFFIX}`, target: `${v.target}${LOCAL_TABLE_SUFFIX}` } : v

/** CREATE MATERIALIZED VIEW: on a cluster, on every node, from the local source to the local target. */
export function toCreateView(v: ViewDef, database: string, cluster?: ClusterLayout): string {
  const { source, target } = viewTables(v, cluster)
  const cols = v.columns.map((c) => `\`${c}\``).join(', ')
  return `CREATE MATERIALIZED VIEW IF NOT EXISTS \`${database}\`.\`${v.name}\`${onCluster(cluster)} TO \`${database}\`.\`${target}\`\nAS SELECT ${cols}\nFROM \`${database}\`.\`${source}\``
}

export function toDropView(v: ViewDef, database: string, cluster?: ClusterLayout): string {
  return `DROP VIEW IF EXISTS \`${database}\`.\`${v.name}\`${onCluster(cluster)}`
}

/**
 * The one copy of the rows a view's source held before the view: through the Distributed tables
 * when statements go ON CLUSTER (one node fills every shard, each row to its key's shard), else
 * each node its local tables. Replayed rows are harmless (same key and version: one row once merged).
 */
export function toFillView(v: ViewDef, database: string, cluster?: ClusterLayout): string {
  const { source, target } = cluster?.onCluster ? v : viewTables(v, cluster)
  const cols = v.columns.map((c) => `\`${c}\``).join(', ')
  const settings = cluster?.onCluster ? ' SETTINGS distributed_foreground_insert = 1' : ''
  return `INSERT INTO \`${database}\`.\`${target}\` (${cols})${settings}\nSELECT ${cols}\nFROM \`${database}\`.\`${source}\``
}
