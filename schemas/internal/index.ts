/** Tables processors keep for themselves (no topic, no API): created and extended by migrations. */
import type { TableDef } from '../table-def.js'
import { citationNetworkTables } from './citation-network.js'
import { alertTables } from './alerts.js'
import { searchSideTables } from './search.js'

export const INTERNAL_TABLES: readonly TableDef[] = [...citationNetworkTables, ...alertTables, ...searchSideTables]
