/**
 * Tables of the search side that are not the index itself (the index's postings layout is
 * search-layout.ts, beside this file, and is created from there):
 *  - search_results: per search type and document, the result object the search API serves and
 *    the alert percolator sends, as JSON, written by the indexer with the index rows;
 *  - search_alert_hits: documents a search alert matched, and whether they were sent (real-time
 *    alerts at once; digests by the scheduler), so a replay or a second change of a document does
 *    not send it twice;
 *  - search_parents: per row that goes into other entities' documents (an opinion, a party), the
 *    documents it was last indexed into, so a row that moves leaves the ones it left
 *    (streams/search/parents.ts).
 */
import { VERSION_COLUMNS, REPLACING, type TableDef } from '../table-def.js'

export const SEARCH_RESULTS = 'search_results'
export const SEARCH_ALERT_HITS = 'search_alert_hits'
export const SEARCH_PARENTS = 'search_parents'

export const searchSideTables: TableDef[] = [
  {
    name: SEARCH_RESULTS, engine: REPLACING, orderBy: ['type', 'id'],
    columns: [
      { name: 'type', type: 'LowCardinality(String)' }, { name: 'id', type: 'Int64' }, { name: 'result', type: 'String' },
      { name: 'date_created', type: "Nullable(DateTime64(3, 'UTC'))" }, { name: 'indexed_at', type: "DateTime64(3, 'UTC')" }, ...VERSION_COLUMNS,
    ],
  },
  {
    name: SEARCH_ALERT_HITS, engine: REPLACING, orderBy: ['alert_id', 'document_id'],
    columns: [
      { name: 'alert_id', type: 'Int64' }, { name: 'document_id', type: 'Int64' }, { name: 'type', type: 'LowCardinality(String)' },
      { name: 'sent', type: 'UInt8' }, { name: 'hit_at', type: "DateTime64(3, 'UTC')" }, ...VERSION_COLUMNS,
    ],
  },
  {
    name: SEARCH_PARENTS, engine: REPLACING, orderBy: ['resource', 'member'],
    columns: [
      { name: 'resource', type: 'LowCardinality(String)' }, { name: 'member', type: 'Int64' }, { name: 'parents', type: 'Array(Int64)' }, ...VERSION_COLUMNS,
    ],
  },
]
