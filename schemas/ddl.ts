/**
 * ClickHouse DDL of catalogue resources. Tables are ReplacingMergeTree(_version, _deleted): a
 * replayed event (same version) is harmless, a delete is a row with _deleted = 1, and reads
 * use FINAL so only the latest live version of each key is seen. On a cluster the same table is
 * a (Replicated) local table on each node behind a Distributed table of the resource's name,
 * sharded by the resource's key (see ClusterLayout).
 */
import type { ResourceDef } from './define.js'
import type { Catalogue } from './catalogue/index.js'
import { resourceTable, textsTable, textsView, toCreateStatements, toCreateView, type ClusterLayout } from './tables.js'

export { columnsOf, type ColumnDef } from './tables.js'

/**
 * The statements creating a resource's table(s), separated by `;\n` when there are several: with
 * large texts, also their side table and the view that fills it (tables.ts, textsTable).
 */
export function toDdl(cat: Catalogue, r: ResourceDef, database: string, cluster?: ClusterLayout): string {
  const texts = textsTable(cat, r)
  const view = textsView(cat, r)
  return [
    ...toCreateStatements(resourceTable(cat, r), database, cluster),
    ...(texts ? toCreateStatements(texts, database, cluster) : []),
    ...(view ? [toCreateView(view, database, cluster)] : []),
  ].join(';\n')
}
