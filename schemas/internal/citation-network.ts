/**
 * The citation network's own state, written by the processor itself before it commits (so its
 * reads never race another sink):
 *  - citation_state: per citing opinion, what it was built from and what it produced;
 *  - citation_index: the parallel citations it has seen, to resolve (volume, reporter, page);
 *  - citation_waiting: citation keys an opinion could not link yet, so the arrival of that
 *    citation (or of a first opinion of its cluster) finds the opinions to link again;
 *  - citation_cited: the clusters each opinion cites, by cluster, to count a cluster's citers.
 */
import type { Db } from '../../core/clickhouse.js'
import { sql, ident } from '../../core/sql.js'
import type { CitationRow } from '../../domain/citations/resolve.js'
import { VERSION_COLUMNS, REPLACING, type TableDef } from '../table-def.js'

export const CITATION_STATE = 'citation_state'
export const CITATION_INDEX = 'citation_index'
export const CITATION_WAITING = 'citation_waiting'
export const CITATION_CITED = 'citation_cited'

export const citationNetworkTables: TableDef[] = [
  {
    name: CITATION_STATE, engine: REPLACING, orderBy: ['opinion_id'],
    columns: [
      { name: 'opinion_id', type: 'Int64' }, { name: 'cluster_id', type: 'Nullable(Int64)' },
      /** Version of the opinion event the state was built from. */
      { name: 'source_version', type: 'UInt64' },
      { name: 'text_hash', type: 'String' }, { name: 'edge_ids', type: 'Array(Int64)' },
      { name: 'cited_cluster_ids', type: 'Array(Int64)' }, { name: 'unresolved', type: 'Array(String)' },
      { name: 'html_with_citations', type: 'String' }, ...VERSION_COLUMNS,
    ],
  },
  {
    name: CITATION_INDEX, engine: REPLACING, orderBy: ['id'],
    columns: [
      { name: 'id', type: 'Int64' }, { name: 'cluster_id', type: 'Int64' }, { name: 'volume', type: 'Int64' },
      { name: 'reporter', type: 'String' }, { name: 'page', type: 'String' }, ...VERSION_COLUMNS,
    ],
  },
  {
    name: CITATION_WAITING, engine: REPLACING, orderBy: ['key', 'opinion_id'],
    columns: [{ name: 'key', type: 'String' }, { name: 'opinion_id', type: 'Int64' }, ...VERSION_COLUMNS],
  },
  {
    // The clusters each opinion cites unambiguously, by cluster: counting a cluster's citers reads its key range.
    name: CITATION_CITED, engine: REPLACING, orderBy: ['cluster_id', 'opinion_id'],
    columns: [{ name: 'cluster_id', type: 'Int64' }, { name: 'opinion_id', type: 'Int64' }, ...VERSION_COLUMNS],
  },
]

/**
 * A loader for `resolveCitations` over a table of parallel citations (the catalogue's `citations`,
 * or the network's own `citation_index`): rows whose volume|reporter|page is one of `keys`, with
 * the key set sent as a temporary table when it is large.
 */
export function citationRowsLoader(db: Db, table: string) {
  return (keys: readonly string[]) => db.withKeys<CitationRow>(keys, 'String', (k) => sql`
    SELECT volume, reporter, page, cluster_id FROM ${ident(db.database)}.${ident(table)} FINAL
    WHERE concat(toString(volume), '|', reporter, '|', page) IN ${k}
    ORDER BY cluster_id`)
}
