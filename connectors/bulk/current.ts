/**
 * What the service holds now, read from ClickHouse (FINAL: the current version of each row), for
 * the parts of a bulk run that update rather than replace: the columns a file does not carry, the
 * parents of a link file whose own file is not in the run, the code table's ids, and `--prune`.
 */
import { sql, ident, join } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnSpecs } from '../../schemas/columns.js'

type Key = string | number
/** Storage form as the codec takes it: ISO timestamps, numbers as numbers. */
const SETTINGS = { date_time_output_format: 'iso', output_format_json_quote_64bit_integers: 0 }

export interface Current {
  /** Whether the resource's table holds no row at all (a first load needs no look-ups). */
  isEmpty(resource: string): Promise<boolean>
  /** The given columns (and the key) of the current rows with these keys. */
  rows(resource: string, keys: readonly Key[], columns?: readonly string[]): Promise<Map<Key, Record<string, unknown>>>
  /** Keys of the current rows whose array column is not empty. */
  withAny(resource: string, column: string): Promise<Key[]>
  /** Every current key of a resource, in pages. */
  keys(resource: string): AsyncGenerator<Key[]>
}

export function currentOf(db: Db, database: string): Current {
  const table = (resource: string) => sql`${ident(database)}.${ident(catalogue.get(resource).table)}`
  const keyType = (resource: string) => (catalogue.get(resource).keyKind === 'string' ? 'String' : 'Int64')
  return {
    async isEmpty(resource) {
      const [row] = await db.query<{ n: number }>(sql`SELECT count() AS n FROM ${table(resource)}`, { settings: SETTINGS })
      return Number(row.n) === 0
    },
    async rows(resource, keys, columns) {
      const r = catalogue.get(resource)
      const cols = columns ? ['id', ...columns.filter((c) => c !== 'id')] : columnSpecs(catalogue, r).map((c) => c.column)
      const out = new Map<Key, Record<string, unknown>>()
      if (keys.length === 0) return out
      const found = await db.withKeys<Record<string, unknown>>(keys, keyType(resource), (k) =>
        sql`SELECT ${join(cols.map((c) => sql`${ident(c)}`), ', ')} FROM ${table(resource)} FINAL WHERE id IN ${k}`, { settings: SETTINGS })
      for (const row of found) out.set(r.keyKind === 'string' ? String(row.id) : Number(row.id), row)
      return out
    },
    async withAny(resource, column) {
      const stringKeys = catalogue.get(resource).keyKind === 'string'
      const rows = await db.query<{ id: Key }>(sql`SELECT id FROM ${table(resource)} FINAL WHERE notEmpty(${ident(column)})`, { settings: SETTINGS })
      return rows.map((r) => (stringKeys ? String(r.id) : Number(r.id)))
    },
    async *keys(resource) {
      const stringKeys = catalogue.get(resource).keyKind === 'string'
      let after: Key | undefined
      for (;;) {
        const page = await db.query<{ id: Key }>(sql`SELECT id FROM ${table(resource)} FINAL ${after === undefined ? sql`` : sql`WHERE id > ${after}`} ORDER BY id LIMIT 100000`, { settings: SETTINGS })
        if (page.length === 0) return
        const ids = page.map((p) => (stringKeys ? String(p.id) : Number(p.id)))
        yield ids
        after = ids[ids.length - 1]
      }
    },
  }
}
