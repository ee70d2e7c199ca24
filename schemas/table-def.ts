/** The shape of a ClickHouse table declaration, shared by catalogue tables and processors' own tables. */
export interface ColumnDef { name: string; type: string }

export interface TableDef {
  name: string
  columns: ColumnDef[]
  /** Engine clause, e.g. ReplacingMergeTree(_version, _deleted). */
  engine: string
  orderBy: string[]
}

/** Every versioned table ends with these: the event version, and 1 for a delete. */
export const VERSION_COLUMNS: ColumnDef[] = [{ name: '_version', type: 'UInt64' }, { name: '_deleted', type: 'UInt8' }]
export const REPLACING = 'ReplacingMergeTree(_version, _deleted)'
