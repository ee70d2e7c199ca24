/**
 * Ordered list indexes of the read model: for a resource's declared `listIndexes`, one LMDB key per
 * row and ordering, `[resource, name, ...by values, rank, order value, key]`, so that "rows whose
 * `by` columns hold these values, ordered by this column, from here, this many" is one range read,
 * and a count is one native range count.
 *
 * The key sorts as ClickHouse orders the rows: by the ordering value, then by the key. `rank` puts
 * NULLs after every value (0 for a value, 1 for NULL): last ascending and first descending, as the
 * list engine asks ClickHouse (`ASC NULLS LAST`, `DESC NULLS FIRST`). Strings (ISO dates) compare
 * by their UTF-8 bytes in both stores. A range on the ordering never holds NULLs (SQL compares
 * NULL with nothing).
 */
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { columnOf } from '../../schemas/define.js'

type Key = string | number
export type IndexValue = string | number
/** An index key as LMDB takes it (ordered-binary array). */
export type IndexKey = (string | number)[]

/** One ordering of one list index. */
export interface ListIndex {
  /** Stable name, part of every key: `court_id>date_filed`. */
  name: string
  by: readonly string[]
  order: string
}

/** A range on the ordering column; bounds inclusive unless said otherwise. */
export interface OrderRange { lo?: IndexValue; loExclusive?: boolean; hi?: IndexValue; hiExclusive?: boolean }

/** Sorts after every number and every ISO date: closes a range over keys that share a prefix. */
const MAX = '\uffff'
const VALUE = 0
const NULL = 1

export type ListIndexes = ReadonlyMap<string, readonly ListIndex[]>

/** Every resource's list indexes, by storage resource name. */
export function listIndexesOf(cat: Catalogue): ListIndexes {
  const out = new Map<string, ListIndex[]>()
  for (const r of cat.stored) {
    const all = (r.listIndexes ?? []).flatMap((li) => li.orders.map((order) => ({ name: `${li.by.join(',')}>${order}`, by: li.by, order })))
    if (all.length) out.set(r.name, all)
  }
  return out
}

/** The column kinds an index order may have, for callers that plan against it. */
export function orderKindOf(cat: Catalogue, resource: string, column: string): 'int' | 'date' | undefined {
  const r = cat.get(resource)
  const def = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === column)?.[1]
  return def?.kind === 'int' || def?.kind === 'date' ? def.kind : undefined
}

const indexValue = (v: unknown): IndexValue | undefined => (typeof v === 'number' || typeof v === 'string' ? v : undefined)

/**
 * The key of `row` in `index`, or undefined when a `by` column holds nothing indexable (NULL or a
 * list): such a row can match no equality on it, so it is not listed there.
 */
export function entryKey(resource: string, index: ListIndex, row: Record<string, unknown>, key: Key): IndexKey | undefined {
  const parts: IndexKey = [resource, index.name]
  for (const c of index.by) {
    const v = indexValue(row[c])
    if (v === undefined) return undefined
    parts.push(v)
  }
  const o = indexValue(row[index.order])
  parts.push(...(o === undefined ? [NULL, 0] : [VALUE, o]), key)
  return parts
}

/**
 * The key range of the rows with these `by` values (and the ordering within `range`), as LMDB's
 * `start`/`end` for a forward read. Every bound is a key prefix no row has, so inclusiveness of the
 * store's own bounds never matters.
 */
export function rangeOf(resource: string, index: ListIndex, by: readonly IndexValue[], range?: OrderRange): { start: IndexKey; end: IndexKey } {
  const prefix = [resource, index.name, ...by]
  if (!range || (range.lo === undefined && range.hi === undefined)) return { start: prefix, end: [...prefix, MAX] }
  const start = range.lo === undefined ? [...prefix, VALUE] : range.loExclusive ? [...prefix, VALUE, range.lo, MAX] : [...prefix, VALUE, range.lo]
  const end = range.hi === undefined ? [...prefix, NULL] : range.hiExclusive ? [...prefix, VALUE, range.hi] : [...prefix, VALUE, range.hi, MAX]
  return { start, end }
}

/** The ordering value and the row key of an index key. */
export function decodeEntry(k: readonly IndexValue[]): { order: IndexValue | null; key: Key } {
  const n = k.length
  return { order: k[n - 3] === NULL ? null : (k[n - 2] as IndexValue), key: k[n - 1] as Key }
}
