/**
 * Which resources a list answer is built from, for cache invalidation: the listed resource, every
 * resource its objects embed or nest (to the serializer's depth), those its overlays read, and
 * those the request's related filters join.
 */
import type { ResourceDef } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'

const MAX_DEPTH = 4

/** Resources the serializer of `r` reads, `r` included (static: decided once per resource). */
export function serializedFrom(cat: Catalogue, r: ResourceDef, extra: Record<string, readonly string[]> = {}): string[] {
  const seen = new Set<string>()
  const walk = (res: ResourceDef, depth: number) => {
    if (seen.has(res.name)) return
    seen.add(res.name)
    for (const extraDep of extra[res.name] ?? []) seen.add(extraDep)
    if (depth >= MAX_DEPTH) return
    for (const d of Object.values(res.fields)) {
      if (d.kind === 'reverse') seen.add(d.from ?? d.target!)
      if (d.kind === 'nested' || (d.kind === 'fk' && d.embed)) walk(cat.get(d.target!), depth + 1)
    }
  }
  walk(r, 0)
  return [...seen]
}

/** Resources the related filters of a request join (`cluster__docket__court=x` → clusters, dockets, courts). */
export function filteredThrough(cat: Catalogue, r: ResourceDef, params: Iterable<string>): string[] {
  const out = new Set<string>()
  for (const raw of params) {
    let res = r
    for (const seg of raw.replace(/!$/, '').split('__').slice(0, MAX_DEPTH)) {
      const fd = res.filters[seg]
      if (!fd?.related || !cat.has(fd.related)) break
      res = cat.get(fd.related)
      out.add(res.name)
    }
  }
  return [...out]
}
