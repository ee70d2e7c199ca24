/**
 * Where rows come from when a response is built: by key (a detail, the rows of a list page, an
 * embedded object) and by a column's values (the children a reverse or nested field lists).
 *  - clickhouseSource: the tables, FINAL (one query per related field per response);
 *  - readModelSource: the API's LMDB read model, no query at all. Once it has caught up, a key it does
 *    not hold does not exist (as far as the pipeline has got), except on a list page, whose keys
 *    ClickHouse chose: those are asked of the fallback source, so a page never loses a row the read
 *    model lags behind on. Before it has caught up, every miss is asked of the fallback.
 * Rows are in storage form either way (stored columns by name); callers match them by key.
 *
 * With LDS_READ_MODEL_TEXTS=clickhouse the read model stores rows without their large columns
 * (fields marked `large`), and the app passes a `LargeTexts` (api/read-model/large-texts.ts) that
 * completes the rows of those resources from ClickHouse; without one, rows are read as stored.
 */
import { sql, ident, join, type Sql } from '../../core/sql.js'
import { INLINE_KEYS, selectFinalIn, type Db } from '../../core/clickhouse.js'
import type { ResourceDef } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { ReadStore } from '../read-model/store.js'
import type { LargeTexts, VersionedRow } from '../read-model/large-texts.js'
import { largeColumnsOf } from '../read-model/refs.js'

export type Row = Record<string, unknown>

export interface RowSource {
  /** `listed`: keys a ClickHouse query chose (a list page's rows), which exist even where the read model lags. */
  byKeys(r: ResourceDef, keys: readonly unknown[], opts?: { listed?: boolean }): Promise<Row[]>
  /**
   * Rows of `r` whose `column` holds one of `values`, in key order. `columns`: the only columns the
   * caller reads (a reverse link needs the key alone, which the read model has without reading rows).
   */
  byColumn(r: ResourceDef, column: string, values: readonly unknown[], opts?: { columns?: readonly string[] }): Promise<Row[]>
  /**
   * The same source leaving rows without the large columns the read model does not store (no
   * ClickHouse query for them), for an answer that shows none of them (`fields=`/`omit=`).
   */
  readonly withoutLarge?: RowSource
}

export function clickhouseSource(db: Db, cat: Catalogue): RowSource {
  const columns = (r: ResourceDef) => join(cat.columns(r).map(([c]) => sql`${ident(c)}`), ', ')
  const table = (r: ResourceDef) => sql`${ident(db.database)}.${ident(r.table)}`
  // A small set inline in the query; a large one through a temporary table (core/clickhouse.ts).
  const withKeys = (values: readonly unknown[], type: string, build: (keys: Sql | unknown[]) => Sql) =>
    (values.length <= INLINE_KEYS ? db.query<Row>(build([...values])) : db.withKeys<Row>(values, type, build))
  return {
    async byKeys(r, keys) {
      if (keys.length === 0) return []
      const typed = r.keyKind === 'int' ? keys.map(Number) : keys.map(String)
      return withKeys(typed, r.keyKind === 'int' ? 'Int64' : 'String', (k) => sql`SELECT ${columns(r)} FROM ${table(r)} FINAL WHERE ${ident(r.key)} IN ${k}`)
    },
    async byColumn(r, column, values, opts = {}) {
      if (values.length === 0) return []
      const typed = values.every((v) => typeof v === 'number') ? 'Int64' : 'String'
      const cols = opts.columns ? join(opts.columns.map((c) => sql`${ident(c)}`), ', ') : columns(r)
      return withKeys(values, typed, (k) => selectFinalIn(table(r), cols, column, k, r.key, sql`ORDER BY ${ident(r.key)}`))
    },
  }
}

export function readModelSource(store: ReadStore, indexed: ReadonlyMap<string, readonly string[]>, fallback: RowSource, caughtUp: () => boolean, cat?: Catalogue, texts?: LargeTexts): RowSource {
  /** Views read the rows of the resource whose table they share. */
  const storage = (r: ResourceDef) => (cat ? cat.storageOf(r).name : r.name)
  // Large columns are out of the store only where their texts are read from ClickHouse (LDS_READ_MODEL_TEXTS).
  const large = cat && texts ? largeColumnsOf(cat) : new Map<string, readonly string[]>()
  return texts ? { ...source(true), withoutLarge: source(false) } : source(true)

  /** `completeTexts`: rows of resources with large columns get them (else they are left as stored). */
  function source(completeTexts: boolean): RowSource {
    /** What completes the rows of `r` with their large texts, where the store holds them without and this source shows them. */
    const completerOf = (r: ResourceDef) => (completeTexts && large.has(storage(r)) ? texts : undefined)
    return {
      async byKeys(r, keys, opts = {}) {
        const complete = completerOf(r)
        const out: Row[] = []
        const found: VersionedRow[] = []
        const missing: unknown[] = []
        for (const k of keys) {
          if (complete) {
            const s = store.stored(storage(r), k as string | number)
            if (s?.row) found.push({ row: s.row, v: s.v })
            else missing.push(k)
            continue
          }
          const row = store.get(storage(r), k as string | number)
          if (row) out.push(row)
          else missing.push(k)
        }
        if (complete) out.push(...await complete.complete(r, found))
        if (missing.length && (opts.listed || !caughtUp())) out.push(...await fallback.byKeys(r, missing))
        return out
      },
      async byColumn(r, column, values, opts = {}) {
        if (!indexed.get(storage(r))?.includes(column)) return fallback.byColumn(r, column, values, opts)
        // The index holds (column value → keys): when those are all the caller reads, no row is decoded.
        const keysOnly = !!opts.columns && opts.columns.every((c) => c === r.key || c === column)
        const complete = keysOnly ? undefined : completerOf(r)
        const out: Row[] = []
        const found: VersionedRow[] = []
        for (const v of values) {
          for (const k of store.keysWhere(storage(r), column, v)) {
            if (keysOnly) { out.push({ [r.key]: k, [column]: v }); continue }
            if (complete) { const s = store.stored(storage(r), k); if (s?.row) found.push({ row: s.row, v: s.v }); continue }
            const row = store.get(storage(r), k)
            if (row) out.push(row)
          }
        }
        if (!complete) return out
        // In key order, as the rows came (completed rows come back in any order).
        const completed = new Map((await complete.complete(r, found)).map((row) => [String(row[r.key]), row]))
        return found.map((x) => completed.get(String(x.row[r.key]))).filter((x): x is Row => x !== undefined)
      },
    }
  }
}
