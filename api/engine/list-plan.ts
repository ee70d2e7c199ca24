/**
 * Which lists the read model's list indexes answer (api/read-model/list-index.ts) instead of a
 * ClickHouse query. A list qualifies when every filter it carries is either an equality on one of an
 * index's `by` columns (each of them, once) or a bound on the index's ordering column, it is ordered
 * by that column alone (the default ordering counts), and the resource has no per-user access rule.
 * Anything else (joins, negations, repeated values, other lookups, a value the index cannot compare
 * exactly as ClickHouse does) is left to ClickHouse: the plan is an optimisation, never a dialect.
 */
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { ResourceDef } from '../../schemas/define.js'
import { narrow, type ListIndex, type IndexValue, type OrderRange } from '../read-model/list-index.js'
import { directComparisonOf, FRAMEWORK_PARAMS, type DirectComparison } from './filters.js'
import type { Ordering } from './ordering.js'
import { instantText } from '../../schemas/values.js'

export interface ListPlan {
  index: ListIndex
  by: IndexValue[]
  range?: OrderRange
  /** The ordering is descending (NULLs first, then the largest value; ties by key, descending). */
  desc: boolean
}

const INT = /^-?\d{1,15}$/

/** A request value as the index holds it; undefined where it would not compare as ClickHouse compares it. */
function valueOf(c: DirectComparison, text: string): IndexValue | undefined {
  if (c.kind === 'text') return text
  if (c.kind === 'datetime') return instantText(text)
  const t = text.trim()
  return INT.test(t) ? Number(t) : undefined
}

function boundOf(c: DirectComparison, text: string): OrderRange | undefined {
  if (c.lookup === 'range') {
    const parts = text.split(',')
    if (parts.length !== 2) return undefined
    const [lo, hi] = parts.map((p) => valueOf(c, p))
    return lo === undefined || hi === undefined ? undefined : { lo, hi }
  }
  const v = valueOf(c, text)
  if (v === undefined) return undefined
  switch (c.lookup) {
    case 'exact': return { lo: v, hi: v }
    case 'gt': return { lo: v, loExclusive: true }
    case 'gte': return { lo: v }
    case 'lt': return { hi: v, hiExclusive: true }
    case 'lte': return { hi: v }
  }
  return undefined
}

export type ListPlanner = (params: Map<string, string[]>, o: Ordering) => ListPlan | undefined

export function compileListPlanner(cat: Catalogue, r: ResourceDef, indexes: readonly ListIndex[] | undefined): ListPlanner {
  // Views share a table with other rules; owner and published lists depend on who asks.
  if (!indexes?.length || cat.storageOf(r) !== r || r.access === 'owner' || r.access === 'published') return () => undefined
  const direct = new Map<string, DirectComparison | null>()
  const comparisonOf = (name: string) => {
    if (!direct.has(name)) direct.set(name, directComparisonOf(cat, r, name) ?? null)
    return direct.get(name) ?? undefined
  }
  return (params, o) => {
    if (o.terms.length !== 1) return undefined
    const { field, desc } = o.terms[0]
    const filters: [DirectComparison, string][] = []
    for (const [name, values] of params) {
      if (FRAMEWORK_PARAMS.has(name)) continue
      const given = values.filter((v) => v !== '')
      if (given.length === 0) continue // an empty value filters nothing (compileFilters skips it too)
      const c = name.endsWith('!') ? undefined : comparisonOf(name)
      if (!c || given.length !== 1) return undefined
      filters.push([c, given[0]])
    }
    for (const index of indexes) {
      if (index.order !== field) continue
      const by = new Map<string, IndexValue>()
      let range: OrderRange = {}
      let fits = true
      for (const [c, text] of filters) {
        if (c.lookup === 'exact' && index.by.includes(c.column) && !by.has(c.column)) {
          const v = valueOf(c, text)
          if (v === undefined) { fits = false; break }
          by.set(c.column, v)
        } else if (c.column === index.order) {
          const b = boundOf(c, text)
          if (!b) { fits = false; break }
          range = narrow(range, b)
        } else { fits = false; break }
      }
      if (!fits || by.size !== index.by.length) continue
      return { index, by: index.by.map((c) => by.get(c)!), range: range.lo === undefined && range.hi === undefined ? undefined : range, desc }
    }
    return undefined
  }
}
