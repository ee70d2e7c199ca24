/**
 * The API's read model: the current state of every entity, kept from the entity topics in an
 * embedded, memory-mapped LMDB store, so a detail, a token or the related rows a detail shows never
 * cost a ClickHouse query. Several API processes on one host share one store (LMDB allows several
 * readers and serializes writers across processes), and it survives restarts: the consumer goes
 * on from the offsets it committed with the data.
 *
 * Layout (sub-databases of one environment):
 *   entities  [resource, key]          → { v: version, row: stored columns but the large ones } or { v, d: 1 } (a delete)
 *   refs      [resource, column, value] → keys of rows whose `column` holds `value` (sorted duplicates)
 *   lists     [resource, index, ...by values, rank, order value, key] → 1 (api/read-model/list-index.ts)
 *   listCounts [resource, index, ...by values, level, rank, bucket]  → how many `lists` keys the bucket holds (list-index.ts: counts)
 *   offsets   [topic, partition]        → the next offset to apply
 *   epochs    resource                  → a counter bumped by every transaction that changes the resource
 *   rendered  [resource, key]          → the v4 detail JSON of a row, origin left as ORIGIN_MARK (rendered-details.ts)
 *   stale     [resource, key]          → rows whose rendered detail must be built again
 *   dependsOn [resource, key]          → what its rendered detail read: rows [resource, key] and ref sets [resource, column, value]
 *   dependents ['r', resource, key] | ['f', resource, column, value] → [`resource|key`…] of rendered details that read it
 *   refSets   [resource, column, value] → a counter bumped whenever a key joins or leaves that ref set
 *   renderedSizes  resource            → bytes its rendered texts take (as stored)
 *   renderedFloors resource            → the highest key evicted: rows at or below it are not rendered (requests build them)
 *   meta      'storeId'                 → random id naming this store's consumer group; 'format' → STORE_FORMAT
 * A delete keeps its version, so an older event replayed later cannot bring the row back.
 * Transactions that write read by point lookups only: a range read (cursor) inside one returned
 * undecodable keys now and then (lmdb-js reuses one key buffer).
 */
import { randomUUID, createHash } from 'node:crypto'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { open, type RootDatabase, type Database } from 'lmdb'
import type { EntityEvent } from '../../schemas/events/index.js'
import { entryKey, rangeOf, decodeEntry, bucketKeys, bucketRangeOf, countRange, type ListIndex, type ListIndexes, type IndexValue, type IndexKey, type OrderRange } from './list-index.js'

export type Row = Record<string, unknown>
type Key = string | number
interface Stored { v: number; row?: Row; d?: 1 }

/** Columns to index per resource: those reverse and nested fields read (`dockets.clusters` reads clusters by docket_id). */
export type RefColumns = ReadonlyMap<string, readonly string[]>

export interface AppliedEvent { resource: string; event: EntityEvent }

export interface ReadStore {
  readonly storeId: string
  get(resource: string, key: Key): Row | undefined
  /** Rows whose indexed `column` holds `value`, in key order. */
  keysWhere(resource: string, column: string, value: unknown): Key[]
  /** Keys (with their ordering values) of one list index range, in its order or reversed. */
  listRange(resource: string, index: ListIndex, by: readonly IndexValue[], range: OrderRange | undefined, opts: { reverse: boolean; offset: number; limit: number }): { order: IndexValue | null; key: Key }[]
  /** How many rows one list index range holds. */
  listCount(resource: string, index: ListIndex, by: readonly IndexValue[], range: OrderRange | undefined): number
  /** Applies events and records the offsets reached, in one transaction; older versions are ignored. */
  apply(events: readonly AppliedEvent[], offsets: readonly { topic: string; partition: number; offset: string }[]): Promise<number>
  offset(topic: string, partition: number): string | undefined
  /** Changes whenever a transaction changes rows of `resource`, whichever process of the host applied it. */
  epoch(resource: string): number
  /** A row with its version (a deleted row keeps its version and has no `row`). */
  stored(resource: string, key: Key): { v: number; row?: Row } | undefined
  /** A counter that moves whenever a key joins or leaves the rows whose `column` holds `value`. */
  refSetVersion(resource: string, column: string, value: unknown): number
  /** The rendered v4 detail of a row, if it is current (rendered-details.ts). */
  rendered(resource: string, key: Key): string | undefined
  /**
   * The same text as UTF-8 bytes, given to `use` as a view of the store's memory that lasts only
   * for the call (the hot path of a detail GET: no string is decoded).
   */
  renderedBytes<T>(resource: string, key: Key, use: (text: Buffer) => T): T | undefined
  /** Rows whose rendered detail must be built again, at most `limit`. */
  staleRenders(limit: number): { resource: string; key: Key }[]
  /** Bytes a resource's rendered texts take, as stored. */
  renderedSize(resource: string): number
  /** The highest key of a resource whose text was evicted (rows at or below it are not rendered), if any. */
  renderedFloor(resource: string): Key | undefined
  /**
   * Stores rendered details, each only if nothing it read has changed since (checked inside the write
   * transaction): returns how many were stored. An item without `text` (a deleted row, or one that is
   * not rendered) just stops being stale.
   */
  putRendered(items: readonly RenderedDetail[]): Promise<number>
  /** Reads every rendered detail once if their pages take at most `maxBytes` (see warmRendered). */
  warmRendered(opts: { maxBytes: number; stopped: () => boolean }): Promise<WarmResult>
  close(): Promise<void>
}

/** A rendered detail and what it was built from, as read (versions of rows, counters of ref sets). */
export interface RenderedDetail {
  resource: string
  key: Key
  text?: string
  rows: readonly { resource: string; key: Key; v: number }[]
  /** Ref sets read, with their counter (`refSetVersion`) as read before their keys. */
  refs: readonly { resource: string; column: string; value: Key; version: number }[]
}

export type WarmResult = { entries: number; bytes: number } | { skipped: 'too large' | 'stopped'; bytes: number }

/** Rendered details read per turn of the event loop while warming (about 2 ms). */
const WARM_CHUNK = 500

/**
 * The layout of the values; a store in another layout is rebuilt from the topics (7: large rows
 * compressed; 8: a short origin mark in rendered texts; 9: rows without their large columns; 10: with
 * or without them by LDS_READ_MODEL_TEXTS, the store's format naming which (`10` or `10-large-out`),
 * so a store kept in the other way is built again. A change of which fields are large needs a new
 * format too; 11: rendered texts counted per resource, within a byte budget; 12: list counts kept by
 * year and by month, list-index.ts).
 */
const STORE_FORMAT = '12'

/** Rendered details evicted at most per write transaction when the budget is passed. */
const EVICT_CHUNK = 2_000
/** Eviction goes this far below the budget, so that it runs now and then rather than on every store. */
const EVICT_TO = 0.9

/**
 * The store's file in its folder: named by its layout and by the list indexes it keeps, so a store in
 * another layout, or one built before an index was added (whose rows would be missing from it), is
 * not opened but built again from the topics.
 */
export function storeFileName(listIndexes: ListIndexes): string {
  const names = [...listIndexes].flatMap(([resource, ixs]) => ixs.map((ix) => `${resource}:${ix.name}`)).sort().join('\n')
  return `read-model.v${STORE_FORMAT}-${createHash('sha256').update(names).digest('hex').slice(0, 8)}.mdb`
}

/** Rows larger than this many bytes are stored LZ4-compressed. */
const ENTITY_COMPRESSION_THRESHOLD = 1024

/**
 * The text of a msgpack string (fixstr, str 8/16/32) read straight from its bytes, or undefined if
 * they hold something else. A rendered detail is such a string; msgpackr's decoding of it cost a
 * detail GET about 0.7 µs of its ~25, UTF-8 decoding alone about 0.15. `bytes` may be lmdb-js's
 * reused buffer, whose length is the value's but whose memory is longer: bounds are explicit.
 */
export function msgpackText(bytes: Buffer): string | undefined {
  const at = msgpackStringSpan(bytes)
  return at && bytes.toString('utf8', at.start, at.end)
}

/** Where a msgpack string's UTF-8 bytes lie in `bytes` (the whole value), or undefined if it is not one. */
function msgpackStringSpan(bytes: Buffer): { start: number; end: number } | undefined {
  const type = bytes[0]
  let start: number, length: number
  if (type >= 0xa0 && type <= 0xbf) { start = 1; length = type & 0x1f }
  else if (type === 0xd9) { start = 2; length = bytes[1] }
  else if (type === 0xda) { start = 3; length = (bytes[1] << 8) | bytes[2] }
  else if (type === 0xdb) { start = 5; length = ((bytes[1] << 24) >>> 0) + ((bytes[2] << 16) | (bytes[3] << 8) | bytes[4]) }
  else return undefined
  return start + length === bytes.length ? { start, end: start + length } : undefined
}

/**
 * The UTF-8 bytes of a msgpack string, as a view of `bytes` (no copy, no decoding), or undefined if
 * they hold something else. A view of lmdb-js's reused buffer lasts until the next read.
 */
export function msgpackTextBytes(bytes: Buffer): Buffer | undefined {
  const at = msgpackStringSpan(bytes)
  return at && bytes.subarray(at.start, at.end)
}

/** How each resource's key is typed: integer keys are stored as numbers, so fk values find them. */
export type KeyKinds = ReadonlyMap<string, 'int' | 'string'>

/**
 * Opens (or makes) the store of `folder`. `listIndexes` must be the catalogue's (listIndexesOf): the
 * file is named by them, and files of other names are deleted as older layouts.
 */
export function openReadStore(folder: string, refColumns: RefColumns, keyKinds: KeyKinds, listIndexes: ListIndexes, renderedResources: ReadonlySet<string> = new Set(),
  largeColumns: ReadonlyMap<string, readonly string[]> = new Map(), opts: { renderedMaxBytes?: number } = {}): ReadStore {
  const renderedMaxBytes = opts.renderedMaxBytes ?? Infinity
  mkdirSync(folder, { recursive: true })
  // One file per layout: a store in another layout is deleted, not emptied (emptying a million-row
  // store entry by entry kept a 1M-docket API from listening for minutes).
  const file = storeFileName(listIndexes)
  for (const f of readdirSync(folder)) if (/^read-model(\.v\d+)?(-[0-9a-f]+)?\.mdb(-lock)?$/.test(f) && !f.startsWith(file)) rmSync(join(folder, f), { force: true })
  const root: RootDatabase = open({ path: join(folder, file), compression: false, mapSize: 64 * 1024 ** 3, noMemInit: true, maxDbs: 32 })
  // Rows of one resource share their property names: stored once (shared structures) rather than
  // in every value, a row decodes several times faster. One structure per resource and key set.
  // Rows over 1 KB (opinions with their texts) are LZ4-compressed: uncompressed they took 80 % of
  // a 1M-docket store, in overflow pages, and made it larger than memory. Reading one back costs
  // about what decoding it does; rendered details, the hot path, stay uncompressed.
  const entities: Database<Stored, [string, Key]> = root.openDB({ name: 'entities', sharedStructuresKey: Symbol.for('structures'), maxSharedStructures: 4_000, compression: { threshold: ENTITY_COMPRESSION_THRESHOLD } } as never)
  const refs: Database<Key, [string, string, Key]> = root.openDB({ name: 'refs', dupSort: true })
  const lists: Database<1, IndexKey> = root.openDB({ name: 'lists' })
  const listCounts: Database<number, IndexKey> = root.openDB({ name: 'listCounts' })
  const offsets: Database<string, [string, number]> = root.openDB({ name: 'offsets' })
  const meta: Database<string, string> = root.openDB({ name: 'meta' })
  const epochs: Database<number, string> = root.openDB({ name: 'epochs' })
  // Epochs are read at most once per turn of the event loop (every request of a turn would read the
  // same counters; lmdb-js's own read snapshot lasts a turn too). This process's writes forget them.
  const epochMemo = new Map<string, number>()
  let memoClearing = false
  const forgetEpochs = () => { epochMemo.clear(); memoClearing = false }
  const rendered: Database<string, [string, Key]> = root.openDB({ name: 'rendered' })
  // The same sub-database read as bytes: warming touches the pages without decoding the texts.
  const renderedBytes: Database<Buffer, [string, Key]> = root.openDB({ name: 'rendered', encoding: 'binary' })
  const stale: Database<1, [string, Key]> = root.openDB({ name: 'stale' })
  const dependsOn: Database<IndexKey[], [string, Key]> = root.openDB({ name: 'dependsOn' })
  const dependents: Database<string[], IndexKey> = root.openDB({ name: 'dependents' })
  const refSets: Database<number, IndexKey> = root.openDB({ name: 'refSets' })
  // Rendered texts are kept within renderedMaxBytes (LDS_READ_MODEL_RENDERED_GB): past it, a
  // resource's lowest keys (its oldest rows: ids grow with time, and new rows are the ones most
  // read) lose their texts, and its floor rises so that rows at or below it are not rendered again.
  // Not an LRU: that would need a write per read, on the hot path of every API process of the host.
  const renderedSizes: Database<number, string> = root.openDB({ name: 'renderedSizes' })
  const renderedFloors: Database<Key, string> = root.openDB({ name: 'renderedFloors' })
  const format = largeColumns.size ? `${STORE_FORMAT}-large-out` : STORE_FORMAT
  if (meta.get('format') !== format) {
    // A new file, or one that keeps large texts the other way: record its layout; a new id names a
    // new consumer group, which reads the topics from the beginning.
    for (const db of [entities, refs, lists, listCounts, offsets, epochs, rendered, stale, dependsOn, dependents, refSets, renderedSizes, renderedFloors, meta] as { clearSync(): void }[]) db.clearSync()
    meta.putSync('format', format)
  }
  // A larger budget than the store was kept with drops the floors and queues every row without a
  // text to be rendered (one pass over the rows, once); a smaller one evicts at the next store. A
  // budget of 0 keeps no text at all (and nothing is queued to render).
  const rendersNothing = !(renderedMaxBytes > 0)
  const budget = String(renderedMaxBytes)
  const before = meta.get('renderedBudget')
  if (before !== budget) {
    if (rendersNothing) for (const db of [rendered, stale, dependsOn, dependents, renderedSizes, renderedFloors] as { clearSync(): void }[]) db.clearSync()
    else if (before !== undefined && Number(before) < renderedMaxBytes) {
      renderedFloors.clearSync()
      queueUnrendered()
    }
    meta.putSync('renderedBudget', budget)
  }
  /** Queues every live row of the rendered resources that has no text (in transactions of 10,000). */
  function queueUnrendered() {
    for (const resource of renderedResources) {
      let batch: [string, Key][] = []
      const flush = () => { const b = batch; root.transactionSync(() => { for (const at of b) stale.put(at, 1) }); batch = [] }
      for (const { key, value } of entities.getRange({ start: [resource], end: [`${resource}\u0000`] })) {
        if (value.d || rendered.doesExist(key)) continue
        batch.push(key)
        if (batch.length >= 10_000) flush()
      }
      if (batch.length) flush()
    }
  }
  let storeId = meta.get('storeId')
  if (!storeId) { storeId = randomUUID(); meta.putSync('storeId', storeId) }

  const refValue = (v: unknown): Key | undefined => (typeof v === 'number' || typeof v === 'string' ? v : undefined)
  /** The (column, value) pairs of a row that are indexed; arrays (m2m) index each element. */
  function refPairs(resource: string, row: Row | undefined): [string, Key][] {
    const cols = refColumns.get(resource)
    if (!row || !cols) return []
    const out: [string, Key][] = []
    for (const c of cols) {
      const v = row[c]
      if (Array.isArray(v)) { for (const x of v) { const k = refValue(x); if (k !== undefined) out.push([c, k]) } }
      else { const k = refValue(v); if (k !== undefined) out.push([c, k]) }
    }
    return out
  }

  /** The list index keys of a row (none for a deleted one). */
  function listKeys(resource: string, row: Row | undefined, key: Key): IndexKey[] {
    const indexes = listIndexes.get(resource)
    if (!row || !indexes) return []
    const out: IndexKey[] = []
    for (const ix of indexes) { const k = entryKey(resource, ix, row, key); if (k) out.push(k) }
    return out
  }
  const sameKey = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i])
  /** Adds `by` to the counters of the buckets an index key belongs to, one per level (inside the apply transaction). */
  function countIn(k: IndexKey, by: 1 | -1) {
    for (const c of bucketKeys(k)) {
      const n = (listCounts.get(c) ?? 0) + by
      if (n > 0) listCounts.put(c, n)
      else listCounts.remove(c)
    }
  }

  /** A row as stored: without its large columns (refs.ts largeColumnsOf; api/read-model/large-texts.ts reads them). */
  function storedForm(resource: string, row: Row): Row {
    const cols = largeColumns.get(resource)
    if (!cols) return row
    const out: Row = {}
    for (const c in row) if (!cols.includes(c)) out[c] = row[c]
    return out
  }

  const keyOf = (resource: string, key: Key): Key => (keyKinds.get(resource) === 'int' ? Number(key) : key)
  // A rendered detail as `resource|key` (resource names hold no '|').
  const dependentName = (resource: string, key: Key) => `${resource}|${key}`
  const fromDependentName = (name: string): [string, Key] => { const i = name.indexOf('|'); const r = name.slice(0, i); return [r, keyOf(r, name.slice(i + 1))] }
  /** Whether a row is above its resource's floor (rendered; at or below it, requests build its detail). */
  function aboveFloor(resource: string, key: Key): boolean {
    const floor = renderedFloors.get(resource)
    return floor === undefined || typeof floor !== typeof key || key > floor
  }
  /** Drops a rendered text and its bytes from the count (inside a write transaction). */
  function dropRendered(at: [string, Key]) {
    const bytes = (renderedBytes.getBinaryFast(at) as Buffer | undefined)?.length
    if (bytes === undefined) return
    rendered.remove(at)
    renderedSizes.put(at[0], Math.max(0, (renderedSizes.get(at[0]) ?? 0) - bytes))
  }
  /** A rendered detail is dropped (so requests build it) and queued to be rendered again (inside apply), unless below the floor. */
  function markStale(resource: string, key: Key) {
    // Dropped wherever the floor is: whatever it is compared with, no text outlives its rows.
    dropRendered([resource, key])
    if (!rendersNothing && aboveFloor(resource, key)) stale.put([resource, key], 1)
  }
  /** What a rendered detail read, forgotten (it is not rendered any more, or its list is replaced). */
  function forgetDependencies(at: [string, Key]) {
    const name = dependentName(at[0], at[1])
    for (const k of dependsOn.get(at) ?? []) removeDependent(k, name)
    dependsOn.remove(at)
  }
  const totalRendered = () => { let n = 0; for (const { value } of renderedSizes.getRange()) n += value; return n }
  /**
   * Past the budget, the resource whose texts take the most loses its lowest keys' texts, a chunk
   * per write transaction, until all take at most EVICT_TO of the budget. Keys are read before each
   * transaction (no range read inside one, see the header); another process's eviction meanwhile
   * only makes some of them gone already.
   */
  async function evictRendered() {
    if (totalRendered() <= renderedMaxBytes) return
    while (totalRendered() > renderedMaxBytes * EVICT_TO) {
      let largest: string | undefined
      let most = 0
      for (const { key, value } of renderedSizes.getRange()) if (value > most) { most = value; largest = key }
      if (largest === undefined) return
      const resource = largest
      const floor = renderedFloors.get(resource)
      // The lowest keys, as many as take the excess (sizes read with them, before the transaction).
      let excess = totalRendered() - renderedMaxBytes * EVICT_TO
      const keys: [string, Key][] = []
      for (const { key, value } of renderedBytes.getRange({ start: floor === undefined ? [resource] : [resource, floor], end: [`${resource}\u0000`], limit: EVICT_CHUNK })) {
        if (floor !== undefined && key[1] === floor) continue
        keys.push(key)
        excess -= value.length
        if (excess <= 0) break
      }
      if (!keys.length) {
        // Nothing left to evict: the count is all that was left (texts removed outside it).
        await root.transaction(() => { renderedSizes.put(resource, 0) })
        continue
      }
      await root.transaction(() => {
        for (const at of keys) {
          dropRendered(at)
          stale.remove(at)
          forgetDependencies(at)
        }
        const highest = keys[keys.length - 1][1]
        const now = renderedFloors.get(resource)
        if (now === undefined || typeof now !== typeof highest || highest > now) renderedFloors.put(resource, highest)
      })
    }
  }
  /** Rendered details that read what changed: the row, and ref sets it joined or left (whose counters move). */
  function markDependents(resource: string, key: Key, refsJoined: readonly [string, Key][]) {
    for (const d of dependents.get(['r', resource, key]) ?? []) markStale(...fromDependentName(d))
    for (const [c, v] of refsJoined) {
      refSets.put([resource, c, v], (refSets.get([resource, c, v]) ?? 0) + 1)
      for (const d of dependents.get(['f', resource, c, v]) ?? []) markStale(...fromDependentName(d))
    }
  }
  function addDependent(k: IndexKey, name: string) {
    const names = dependents.get(k) ?? []
    if (!names.includes(name)) dependents.put(k, [...names, name])
  }
  function removeDependent(k: IndexKey, name: string) {
    const names = (dependents.get(k) ?? []).filter((n) => n !== name)
    if (names.length) dependents.put(k, names)
    else dependents.remove(k)
  }

  return {
    storeId,
    get(resource, key) {
      const s = entities.get([resource, keyOf(resource, key)])
      return s && !s.d ? s.row : undefined
    },
    keysWhere(resource, column, value) {
      const k = refValue(value)
      return k === undefined ? [] : [...refs.getValues([resource, column, k])]
    },
    listRange(resource, index, by, range, { reverse, offset, limit }) {
      const { start, end } = rangeOf(resource, index, by, range)
      const keys = lists.getKeys(reverse ? { start: end, end: start, reverse, offset, limit } : { start, end, offset, limit })
      const out: { order: IndexValue | null; key: Key }[] = []
      for (const k of keys) out.push(decodeEntry(k))
      return out
    },
    listCount(resource, index, by, range) {
      const read = (level: number, part: OrderRange | undefined) => {
        const buckets: [IndexValue, number][] = []
        for (const { key, value } of listCounts.getRange(bucketRangeOf(resource, index, by, part, level))) buckets.push([key[key.length - 1], value])
        return buckets
      }
      return countRange(read, range, (part) => lists.getKeysCount(rangeOf(resource, index, by, part)))
    },
    async apply(events, reached) {
      let applied = 0
      const changed = new Set<string>()
      await root.transaction(() => {
        for (const { resource, event } of events) {
          const key = keyOf(resource, event.key)
          const old = entities.get([resource, key])
          if (old && old.v >= event.version) continue
          const before = refPairs(resource, old?.row)
          const after = event.op === 'upsert' ? refPairs(resource, event.entity!) : []
          const keep = new Set(after.map(([c, v]) => `${c}\u0000${v}`))
          const had = new Set(before.map(([c, v]) => `${c}\u0000${v}`))
          const left = before.filter(([c, v]) => !keep.has(`${c}\u0000${v}`))
          const joined = after.filter(([c, v]) => !had.has(`${c}\u0000${v}`))
          for (const [c, v] of left) refs.remove([resource, c, v], key)
          for (const [c, v] of joined) refs.put([resource, c, v], key)
          if (renderedResources.has(resource)) markStale(resource, key)
          markDependents(resource, key, [...left, ...joined])
          const listsBefore = listKeys(resource, old?.d ? undefined : old?.row, key)
          const listsAfter = event.op === 'upsert' ? listKeys(resource, event.entity!, key) : []
          for (const k of listsBefore) if (!listsAfter.some((n) => sameKey(n, k))) { lists.remove(k); countIn(k, -1) }
          for (const k of listsAfter) if (!listsBefore.some((o) => sameKey(o, k))) { lists.put(k, 1); countIn(k, 1) }
          entities.put([resource, key], event.op === 'upsert' ? { v: event.version, row: storedForm(resource, event.entity!) } : { v: event.version, d: 1 })
          applied++
          changed.add(resource)
        }
        for (const r of changed) epochs.put(r, (epochs.get(r) ?? 0) + 1)
        for (const o of reached) offsets.put([o.topic, o.partition], o.offset)
      })
      if (changed.size) epochMemo.clear()
      return applied
    },
    stored(resource, key) { return entities.get([resource, keyOf(resource, key)]) },
    refSetVersion: (resource, column, value) => refSets.get([resource, column, value as Key]) ?? 0,
    rendered(resource, key) {
      const at: [string, Key] = [resource, keyOf(resource, key)]
      const bytes = rendered.getBinaryFast(at)
      return bytes === undefined ? undefined : (msgpackText(bytes as Buffer) ?? rendered.get(at))
    },
    renderedBytes(resource, key, use) {
      const at: [string, Key] = [resource, keyOf(resource, key)]
      const bytes = rendered.getBinaryFast(at) as Buffer | undefined
      if (bytes === undefined) return undefined
      const view = msgpackTextBytes(bytes)
      if (view) return use(view)
      // A text msgpackr stored in another form: decoded, as rendered() does.
      const text = rendered.get(at)
      return text === undefined ? undefined : use(Buffer.from(text))
    },
    staleRenders(limit) {
      const out: { resource: string; key: Key }[] = []
      for (const [resource, key] of stale.getKeys({ limit })) out.push({ resource, key })
      return out
    },
    renderedSize(resource) { return renderedSizes.get(resource) ?? 0 },
    renderedFloor(resource) { return renderedFloors.get(resource) },
    async putRendered(items) {
      let stored = 0
      await root.transaction(() => {
        for (const it of items) {
          const at: [string, Key] = [it.resource, it.key]
          if (stale.get(at) === undefined) continue // rendered meanwhile (another process of the host)
          const unchanged = it.rows.every((d) => (entities.get([d.resource, keyOf(d.resource, d.key)])?.v ?? -1) === d.v)
            && it.refs.every((d) => (refSets.get([d.resource, d.column, d.value]) ?? 0) === d.version)
          if (!unchanged) continue // what it read changed: still stale, rendered again on the next round
          forgetDependencies(at)
          if (!aboveFloor(it.resource, it.key)) { stale.remove(at); stored++; continue } // evicted meanwhile: requests build it
          const name = dependentName(it.resource, it.key)
          // Its own row is not listed: a change to it marks it stale directly (apply).
          const deps: IndexKey[] = [
            ...it.rows.filter((d) => d.resource !== it.resource || keyOf(d.resource, d.key) !== it.key).map((d) => ['r', d.resource, keyOf(d.resource, d.key)]),
            ...it.refs.map((d) => ['f', d.resource, d.column, d.value]),
          ]
          for (const k of deps) addDependent(k, name)
          if (deps.length) dependsOn.put(at, deps)
          if (it.text !== undefined) {
            dropRendered(at)
            rendered.put(at, it.text)
            renderedSizes.put(it.resource, (renderedSizes.get(it.resource) ?? 0) + ((renderedBytes.getBinaryFast(at) as Buffer | undefined)?.length ?? 0))
          }
          stale.remove(at)
          stored++
        }
      })
      await evictRendered()
      return stored
    },
    async warmRendered({ maxBytes, stopped }) {
      const stats = renderedBytes.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number }
      const bytes = stats.pageSize * (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages)
      if (bytes > maxBytes) return { skipped: 'too large', bytes }
      // A chunk per turn, each in a read of its own (a cursor held across turns would keep LMDB from
      // reusing pages the consumer frees meanwhile); each chunk starts after the last key read.
      let last: [string, Key] | undefined
      let entries = 0
      for (;;) {
        if (stopped()) return { skipped: 'stopped', bytes }
        let read = 0
        for (const { key } of renderedBytes.getRange({ start: last, exclusiveStart: last !== undefined, limit: WARM_CHUNK })) {
          read++
          last = key
        }
        entries += read
        if (read < WARM_CHUNK) return { entries, bytes }
        await new Promise((resolve) => setImmediate(resolve))
      }
    },
    offset: (topic, partition) => offsets.get([topic, partition]),
    epoch(resource) {
      let e = epochMemo.get(resource)
      if (e === undefined) {
        e = epochs.get(resource) ?? 0
        epochMemo.set(resource, e)
        if (!memoClearing) { memoClearing = true; setImmediate(forgetEpochs) }
      }
      return e
    },
    close: () => root.close(),
  }
}
