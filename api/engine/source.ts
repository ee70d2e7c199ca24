/**
 * Where rows come from when a response is built: by key (a detail, the rows of a list page, an
 * embedded object) and by a column's values (the children a reverse or nested field lists).
 *  - clickhouseSource: the tables, FINAL (one query per related field per response);
 *  - readModelSource: the API's LMDB read model, no query at all; rows it does not hold (yet) are
 *    asked of a fallback source, so a list page never loses a row the read model lags behind on.
 * Rows are in storage form either way (stored columns by name); callers match them by key.
 */
import { sql, ident, join } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'
import type { ResourceDef } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { ReadStore } from '../read-model/store.js'

export type Row = Record<string, unknown>

export interface RowSource {
  /** `point`: a detail read, which a caught-up read model answers alone (a miss is a 404, not a query). */
  byKeys(r: ResourceDef, keys: readonly unknown[], opts?: { point?: boolean }): Promise<Row[]>
  /** Rows of `r` whose `column` holds one of `values`, in key order. */
  byColumn(r: ResourceDef, column: string, values: readonly unknown[]): Promise<Row[]>
}

export function clickhouseSource(db: Db, cat: Catalogue): RowSource {
  const columns = (r: ResourceDef) => join(cat.columns(r).map(([c]) => sql`${ident(c)}`), ', ')
  const table = (r: ResourceDef) => sql`${ident(db.database)}.${ident(r.table)}`
  return {
    async byKeys(r, keys) {
      if (keys.length === 0) return []
      const typed = r.keyKind === 'int' ? keys.map(Number) : keys.map(String)
      return db.withKeys<Row>(typed, r.keyKind === 'int' ? 'Int64' : 'String', (k) => sql`SELECT ${columns(r)} FROM ${table(r)} FINAL WHERE ${ident(r.key)} IN ${k}`)
    },
    async byColumn(r, column, values) {
      if (values.length === 0) return []
      const typed = values.every((v) => typeof v === 'number') ? 'Int64' : 'String'
      return db.withKeys<Row>(values, typed, (k) => sql`SELECT ${columns(r)} FROM ${table(r)} FINAL WHERE ${ident(column)} IN ${k} ORDER BY ${ident(r.key)}`)
    },
  }
}

export function readModelSource(store: ReadStore, indexed: ReadonlyMap<string, readonly string[]>, fallback: RowSource, caughtUp: () => boolean, cat?: Catalogue): RowSource {
  /** Views read the rows of the resource whose table they share. */
  const storage = (r: ResourceDef) => (cat ? cat.storageOf(r).name : r.name)
  return {
    async byKeys(r, keys, opts = {}) {
      const out: Row[] = []
      const missing: unknown[] = []
      for (const k of keys) {
        const row = store.get(storage(r), k as string | number)
        if (row) out.push(row)
        else missing.push(k)
      }
      if (missing.length && !(opts.point && caughtUp())) out.push(...await fallback.byKeys(r, missing))
      return out
    },
    async byColumn(r, column, values) {
      if (!indexed.get(storage(r))?.includes(column)) return fallback.byColumn(r, column, values)
      const out: Row[] = []
      for (const v of values) {
        for (const k of store.keysWhere(storage(r), column, v)) {
          const row = store.get(storage(r), k)
          if (row) out.push(row)
        }
      }
      return out
    },
  }
}
