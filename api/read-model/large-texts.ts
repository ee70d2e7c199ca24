/**
 * With LDS_READ_MODEL_TEXTS=clickhouse, the large texts (fields marked `large`: an opinion's
 * plain_text, html…, a citation text, an archive document's plain_text) are not kept in the read
 * model: at the full corpus they are most of it, and every API host keeps a whole copy (`lds
 * read-model stats`, docs/benchmarks.md). The default keeps them. Rows of those resources are
 * stored without them, and the reads that show them complete the rows here: one ClickHouse query
 * per page (`SELECT key, _version, <large columns> FROM <table>_texts FINAL WHERE key IN …`, keys
 * bound), or fewer (reads that come together share one, at most MAX_QUERIES out at once per
 * resource), its answers kept in an LRU bounded by bytes (LDS_READ_MODEL_MAX_GB).
 *
 * `<table>_texts` is the texts' side table (schemas/tables.ts, textsTable): the same rows' key,
 * version and large columns, kept by a materialized view from the main table, in granules of at
 * most 128 KiB, so a cold read decompresses a few rows' texts (about 3 ms a read, near a query's
 * floor) instead of a granule of the main table (~10 MB, 10 ms; docs/benchmarks.md).
 *
 * Never a stale text: a text is taken only at the version of the row the read model holds. Entries
 * are kept under the row's key with that version, and a row at another version misses. When
 * ClickHouse holds another version than the read model (the table sink and the read model consume
 * the topics apart, so either may be ahead for a moment), the query is asked again a few times
 * while ClickHouse is behind; if the versions still differ, the whole row is ClickHouse's (its
 * current version, consistent in itself, as a read without the read model gives), not kept. The
 * side table is written within the main table's inserts (the view runs in the same INSERT).
 */
import { sql, ident, join, type Sql } from '../../core/sql.js'
import { INLINE_KEYS, type Db } from '../../core/clickhouse.js'
import type { ResourceDef } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { Row, RowSource } from '../engine/source.js'
import { TEXTS_TABLE_SUFFIX } from '../../schemas/tables.js'
import { largeColumnsOf } from './refs.js'

/** A least-recently-used map bounded by the bytes its entries say they take. */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>()
  private used = 0
  constructor(readonly maxBytes: number) {}
  get bytes(): number { return this.used }
  get size(): number { return this.entries.size }
  get(key: string): V | undefined {
    const e = this.entries.get(key)
    if (!e) return undefined
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key)
    this.entries.set(key, e)
    return e.value
  }
  /** Keeps `value` unless it alone is larger than the bound; evicts the least recently used until it fits. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key)
    if (bytes > this.maxBytes) return
    this.entries.set(key, { value, bytes })
    this.used += bytes
    for (const [k, e] of this.entries) {
      if (this.used <= this.maxBytes) break
      this.entries.delete(k)
      this.used -= e.bytes
    }
  }
  delete(key: string): void {
    const e = this.entries.get(key)
    if (!e) return
    this.entries.delete(key)
    this.used -= e.bytes
  }
}

/** A row as the read model holds it, with its version. */
export interface VersionedRow { row: Row; v: number }

export interface LargeTexts {
  /** The large columns of a stored resource (by its storage name), or undefined if it has none. */
  columnsOf(storage: string): readonly string[] | undefined
  /**
   * The rows with their large columns, in no particular order (callers match rows by key). A row
   * whose texts could not be had at its version is ClickHouse's current row instead, or left out
   * when ClickHouse has none.
   */
  complete(r: ResourceDef, rows: readonly VersionedRow[]): Promise<Row[]>
  /** What the cache holds (metrics, tests). */
  readonly cache: Pick<ByteLru<unknown>, 'bytes' | 'size' | 'maxBytes'>
}

/** Texts queries of one resource out at once (bench/large-texts.ts; docs/decisions/read-path.md). */
const MAX_QUERIES = 2

/** Fixed cost counted per cache entry besides its texts (the key, the entry and its object). */
const ENTRY_OVERHEAD = 96

export function createLargeTexts(deps: {
  db: Db
  catalogue: Catalogue
  maxBytes: number
  /** ClickHouse's whole rows, for rows whose versions differ. */
  fallback: RowSource
  /** Waits (ms) before asking again while ClickHouse is behind the read model. */
  retryDelaysMs?: readonly number[]
  /** Texts queries of one resource in flight at once; keys asked meanwhile wait and go in one query. */
  maxQueries?: number
}): LargeTexts {
  const { db, catalogue: cat } = deps
  const large = largeColumnsOf(cat)
  const cache = new ByteLru<{ v: number; texts: Row }>(deps.maxBytes)
  const delays = deps.retryDelaysMs ?? [25, 50, 100, 200, 400, 800]
  const maxQueries = deps.maxQueries ?? MAX_QUERIES

  async function fetch(storage: ResourceDef, cols: readonly string[], keys: readonly unknown[]): Promise<Row[]> {
    const list = sql`${ident(storage.key)}, ${ident('_version')}, ${join(cols.map((c) => sql`${ident(c)}`), ', ')}`
    const table = sql`${ident(db.database)}.${ident(`${storage.table}${TEXTS_TABLE_SUFFIX}`)}`
    const build = (k: Sql | unknown[]) => sql`SELECT ${list} FROM ${table} FINAL WHERE ${ident(storage.key)} IN ${k}`
    const typed = storage.keyKind === 'int' ? keys.map(Number) : keys.map(String)
    return typed.length <= INLINE_KEYS ? db.query<Row>(build(typed)) : db.withKeys<Row>(typed, storage.keyKind === 'int' ? 'Int64' : 'String', build)
  }

  // Reads that come together share a query: a query costs ClickHouse about 3 ms of CPU whatever
  // it reads, a granule of texts little more. Keys asked in one turn of the event loop, or while
  // `maxQueries` queries of the resource are out, go in the next query, whose rows (by key) each
  // asker takes its own from.
  interface Batch { keys: Map<string, unknown>; done: Promise<Map<string, Row>>; settle: (p: Promise<Map<string, Row>>) => void }
  const lanes = new Map<string, { out: number; next?: Batch }>()
  function send(storage: ResourceDef, cols: readonly string[], lane: { out: number; next?: Batch }): void {
    const b = lane.next
    if (!b || lane.out >= maxQueries) return
    lane.next = undefined
    lane.out++
    const rows = fetch(storage, cols, [...b.keys.values()]).then((rs) => new Map(rs.map((t) => [String(t[storage.key]), t])))
    b.settle(rows)
    void rows.catch(() => {}).finally(() => { lane.out--; send(storage, cols, lane) })
  }
  function textsOf(storage: ResourceDef, cols: readonly string[], keys: readonly unknown[]): Promise<Map<string, Row>> {
    let lane = lanes.get(storage.name)
    if (!lane) lanes.set(storage.name, (lane = { out: 0 }))
    let b = lane.next
    if (!b) {
      let settle!: Batch['settle']
      const done = new Promise<Map<string, Row>>((resolve) => { settle = resolve })
      b = lane.next = { keys: new Map(), done, settle }
      const l = lane
      if (l.out < maxQueries) setImmediate(() => send(storage, cols, l))
    }
    for (const k of keys) b.keys.set(String(k), k)
    return b.done
  }

  const textBytes = (texts: Row) => {
    let n = ENTRY_OVERHEAD
    for (const t of Object.values(texts)) n += typeof t === 'string' ? Buffer.byteLength(t) : 8
    return n
  }

  return {
    columnsOf: (storage) => large.get(storage),
    cache,
    async complete(r, rows) {
      const storage = cat.storageOf(r)
      const cols = large.get(storage.name)
      if (!cols || rows.length === 0) return rows.map((x) => x.row)
      const out: Row[] = []
      const cacheKey = (key: unknown) => `${storage.name}|${String(key)}`
      // Rows still without their texts, by key.
      let waiting = new Map<string, VersionedRow>()
      for (const x of rows) {
        const hit = cache.get(cacheKey(x.row[storage.key]))
        if (hit && hit.v === x.v) out.push({ ...x.row, ...hit.texts })
        else waiting.set(String(x.row[storage.key]), x)
      }
      const differing: VersionedRow[] = []
      for (let attempt = 0; waiting.size; attempt++) {
        const found = await textsOf(storage, cols, [...waiting.values()].map((x) => x.row[storage.key]))
        const behind = new Map<string, VersionedRow>()
        for (const [key, x] of waiting) {
          const t = found.get(key)
          const v = t ? Number(t._version) : -1
          if (v === x.v) {
            const texts: Row = {}
            for (const c of cols) texts[c] = t![c]
            cache.set(cacheKey(x.row[storage.key]), { v, texts }, textBytes(texts))
            out.push({ ...x.row, ...texts })
          } else if (v < x.v && attempt < delays.length) behind.set(key, x) // the sink has yet to apply it
          else differing.push(x)
        }
        waiting = behind
        if (waiting.size) await new Promise((resolve) => setTimeout(resolve, delays[attempt]))
      }
      if (differing.length) out.push(...await deps.fallback.byKeys(r, differing.map((x) => x.row[storage.key])))
      return out
    },
  }
}
