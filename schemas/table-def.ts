/** The shape of a ClickHouse table declaration, shared by catalogue tables and processors' own tables. */
export interface ColumnDef { name: string; type: string }

export interface TableDef {
  name: string
  columns: ColumnDef[]
  /** Engine clause, e.g. ReplacingMergeTree(_version, _deleted). */
  engine: string
  orderBy: string[]
  /** MergeTree settings of the (local) table, e.g. { index_granularity_bytes: 131072 }. */
  settings?: Record<string, number>
}

/**
 * A MATERIALIZED VIEW that copies `columns` of every row inserted into `source` to `target` (on a
 * cluster: each node's local tables, so a row lands on the shard of its key in both). Migrations
 * create it, then fill `target` once from the rows `source` already holds.
 */
export interface ViewDef { name: string; source: string; target: string; columns: string[] }

/** Every versioned table ends with these: the event version, and 1 for a delete. */
export const VERSION_COLUMNS: ColumnDef[] = [{ name: '_version', type: 'UInt64' }, { name: '_deleted', type: 'UInt8' }]
export const REPLACING = 'ReplacingMergeTree(_version, _deleted)'

/**
 * How tables are laid out on a ClickHouse cluster: each declared table becomes a local table on
 * every node (`<name>_local`, Replicated when `replicated`) and a Distributed table under the
 * declared name, sharded by a hash of its ORDER BY key, so every version of one key lands on one
 * shard and FINAL there sees them all. `onCluster`: each statement carries ON CLUSTER (a server
 * with Keeper runs it everywhere); otherwise the caller runs it on every node.
 */
export interface ClusterLayout { name: string; replicated: boolean; onCluster: boolean }

export const LOCAL_TABLE_SUFFIX = '_local'
