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
import { fieldOfColumn } from '../../schemas/define.js'
import { instantText } from '../../schemas/values.js'

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
  /** The ordering column is a datetime: its values are kept as ClickHouse prints them (instantText), which sort as instants. */
  datetime?: boolean
}

/** A range on the ordering column; bounds inclusive unless said otherwise. */
export interface OrderRange { lo?: IndexValue; loExclusive?: boolean; hi?: IndexValue; hiExclusive?: boolean }

/** Sorts after every number and every ISO date: closes a range over keys that share a prefix. */
const MAX = '\uffff'
const VALUE = 0
const NULL = 1

export type ListIndexes = ReadonlyMap<string, readonly ListIndex[]>

const computed = new WeakMap<Catalogue, ListIndexes>()

/** Every resource's list indexes, by storage resource name (worked out once per catalogue). */
export function listIndexesOf(cat: Catalogue): ListIndexes {
  const known = computed.get(cat)
  if (known) return known
  const out = new Map<string, ListIndex[]>()
  for (const r of cat.stored) {
    const kindOf = (column: string) => fieldOfColumn(r, column)?.[1].kind
    const all = (r.listIndexes ?? []).flatMap((li) => li.orders.map((order): ListIndex => ({
      name: `${li.by.join(',')}>${order}`, by: li.by, order, ...(kindOf(order) === 'datetime' ? { datetime: true } : {}),
    })))
    if (all.length) out.set(r.name, all)
  }
  computed.set(cat, out)
  return out
}

const indexValue = (v: unknown): IndexValue | undefined => (typeof v === 'number' || typeof v === 'string' ? v : undefined)

/**
 * A stored datetime as the index holds it. Connectors write ISO 8601; another form a row was let in
 * with (anything Date.parse reads) is taken at Date's millisecond precision; none is as NULL.
 */
export function datetimeValue(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const exact = instantText(v)
  if (exact !== undefined) return exact
  const ms = Date.parse(v)
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().replace(/Z$/, '000Z')
}

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
  const o = index.datetime ? datetimeValue(row[index.order]) : indexValue(row[index.order])
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

const below = (a: IndexValue, b: IndexValue) => a < b

/** The range `r` narrowed by one more bound (the tighter of two bounds wins; equal ones keep exclusion). */
export function narrow(r: OrderRange, bound: OrderRange): OrderRange {
  const out = { ...r }
  if (bound.lo !== undefined) {
    if (out.lo === undefined || below(out.lo, bound.lo)) { out.lo = bound.lo; out.loExclusive = bound.loExclusive }
    else if (out.lo === bound.lo) out.loExclusive = out.loExclusive || bound.loExclusive
  }
  if (bound.hi !== undefined) {
    if (out.hi === undefined || below(bound.hi, out.hi)) { out.hi = bound.hi; out.hiExclusive = bound.hiExclusive }
    else if (out.hi === bound.hi) out.hiExclusive = out.hiExclusive || bound.hiExclusive
  }
  return out
}

/*
 * Counts. Counting a range key by key costs ~100 ns a key (a court's dockets since some date can be
 * tens of thousands), so each index also keeps how many keys each *bucket* of ordering values holds,
 * at two levels: integers by blocks of 65,536 and of 1,024, text by its first 4 and 7 characters (an
 * ISO date's year and month). A range's count is the sum of the coarse buckets it covers whole; in
 * the (at most two) coarse buckets its ends cut, the sum of the fine buckets it covers whole; and
 * the keys counted one by one in the (at most two) fine buckets its ends cut. A count since 1990
 * reads 37 year counters instead of some 440 month counters. Every value of a bucket lies between
 * the bucket's floor (the block's first integer, or the prefix itself) and its ceiling (the next
 * block's first integer, or the prefix followed by MAX), excluded.
 *
 * Counter keys: `[resource, name, ...by, level, rank, bucket]`; NULLs are counted at level 0 only,
 * as no range holds them.
 */
const LEVELS = [{ int: 65_536, text: 4 }, { int: 1_024, text: 7 }] as const
/** The finest level: the one whose cut buckets are counted key by key. */
export const FINEST_LEVEL = LEVELS.length - 1

export const bucketOf = (v: IndexValue, level: number = FINEST_LEVEL): IndexValue =>
  (typeof v === 'number' ? Math.floor(v / LEVELS[level].int) : v.slice(0, LEVELS[level].text))
const floorOf = (b: IndexValue, level: number): IndexValue => (typeof b === 'number' ? b * LEVELS[level].int : b)
const ceilingOf = (b: IndexValue, level: number): IndexValue => (typeof b === 'number' ? (b + 1) * LEVELS[level].int : b + MAX)

/** The bucket counters an index key adds one to, one per level (a NULL's at level 0 only). */
export function bucketKeys(entry: readonly IndexValue[]): IndexKey[] {
  const n = entry.length
  const prefix = entry.slice(0, n - 3)
  if (entry[n - 3] === NULL) return [[...prefix, 0, NULL, 0]]
  return LEVELS.map((_, level) => [...prefix, level, VALUE, bucketOf(entry[n - 2], level)])
}

/** The bucket counters of one level a count of `range` reads: those that can hold a value of the range. */
export function bucketRangeOf(resource: string, index: ListIndex, by: readonly IndexValue[], range: OrderRange | undefined, level: number): { start: IndexKey; end: IndexKey } {
  const prefix = [resource, index.name, ...by, level]
  if (!range || (range.lo === undefined && range.hi === undefined)) return { start: prefix, end: [...prefix, MAX] }
  return {
    start: range.lo === undefined ? [...prefix, VALUE] : [...prefix, VALUE, bucketOf(range.lo, level)],
    end: range.hi === undefined ? [...prefix, NULL] : [...prefix, VALUE, bucketOf(range.hi, level), MAX],
  }
}

/** `[bucket, count]` pairs of one level, in order, for the buckets that can hold a value of the range. */
export type BucketReader = (level: number, range: OrderRange | undefined) => readonly (readonly [IndexValue, number])[]

/**
 * How many keys a range holds, from the bucket counters (`read`) and an exact counter for the parts
 * of finest buckets the range's ends cut.
 */
export function countRange(read: BucketReader, range: OrderRange | undefined, exact: (part: OrderRange) => number, level = 0): number {
  return countFromBuckets(read(level, range), range, level, level < FINEST_LEVEL ? (part) => countRange(read, part, exact, level + 1) : exact)
}

/**
 * How many keys a range holds, from one level's buckets (in order: `[bucket, count]`) and a counter
 * for the parts of buckets the range's ends cut.
 */
export function countFromBuckets(buckets: readonly (readonly [IndexValue, number])[], range: OrderRange | undefined, level: number, cut: (part: OrderRange) => number): number {
  let total = 0
  if (!range || (range.lo === undefined && range.hi === undefined)) { for (const [, n] of buckets) total += n; return total }
  const { lo, hi } = range
  for (let i = 0; i < buckets.length; i++) {
    const [b, n] = buckets[i]
    const floor = floorOf(b, level)
    // The bucket's values lie in [floor, ceiling): below its own ceiling and the next bucket's floor.
    const own = ceilingOf(b, level)
    const next = i + 1 < buckets.length ? floorOf(buckets[i + 1][0], level) : own
    const ceiling = below(next, own) ? next : own
    if (hi !== undefined && (below(hi, floor) || (hi === floor && range.hiExclusive))) break
    if (lo !== undefined && !below(lo, ceiling)) continue
    const loInside = lo === undefined || below(lo, floor) || (lo === floor && !range.loExclusive)
    const hiInside = hi === undefined || !below(hi, ceiling)
    total += loInside && hiInside ? n : cut(narrow(range, { lo: floor, hi: ceiling, hiExclusive: true }))
  }
  return total
}

/** The ordering value and the row key of an index key. */
export function decodeEntry(k: readonly IndexValue[]): { order: IndexValue | null; key: Key } {
  const n = k.length
  return { order: k[n - 3] === NULL ? null : (k[n - 2] as IndexValue), key: k[n - 1] as Key }
}
