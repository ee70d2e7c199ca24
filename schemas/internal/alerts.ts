/**
 * State the event sources keep for themselves, written before they commit (so a replayed batch
 * finds what it already did):
 *  - alert_entries_seen: docket entries the docket-alert sender has seen (a later change of one is
 *    an update, not a new filing);
 *  - prayer_grants: prayers already granted (their PRAY_AND_PAY sent);
 *  - scheduler_runs: periodic jobs already run for a period (the weekly dormancy report, digests).
 */
import { VERSION_COLUMNS, REPLACING, type TableDef } from '../table-def.js'

export const ALERT_ENTRIES_SEEN = 'alert_entries_seen'
export const PRAYER_GRANTS = 'prayer_grants'
export const SCHEDULER_RUNS = 'scheduler_runs'

export const alertTables: TableDef[] = [
  { name: ALERT_ENTRIES_SEEN, engine: REPLACING, orderBy: ['id'], columns: [{ name: 'id', type: 'Int64' }, { name: 'docket_id', type: 'Int64' }, ...VERSION_COLUMNS] },
  { name: PRAYER_GRANTS, engine: REPLACING, orderBy: ['prayer_id'], columns: [{ name: 'prayer_id', type: 'Int64' }, { name: 'archive_document_id', type: 'Int64' }, ...VERSION_COLUMNS] },
  { name: SCHEDULER_RUNS, engine: REPLACING, orderBy: ['job', 'period'], columns: [{ name: 'job', type: 'String' }, { name: 'period', type: 'String' }, { name: 'ran_at', type: "DateTime64(3, 'UTC')" }, ...VERSION_COLUMNS] },
]
