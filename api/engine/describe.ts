/**
 * The OPTIONS description of an endpoint, compiled from the catalogue: its name, what it
 * renders and parses, every filter with its class and lookups (related filters name the
 * resource whose filters they open), and the allowed orderings.
 */
import type { ResourceDef } from '../../schemas/define.js'
import { columnOf } from '../../schemas/define.js'
import { KINDS, type StoredKind } from '../../schemas/kinds.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'

export const RENDERS = ['application/json', 'text/html', 'application/xml']
export const PARSES = ['application/json', 'application/x-www-form-urlencoded']

export interface FilterDescription { type: string; lookup_types: string[] | string }

export function describeFilters(cat: Catalogue, r: ResourceDef): Record<string, FilterDescription> {
  const out: Record<string, FilterDescription> = {}
  for (const [name, fd] of Object.entries(r.filters)) {
    if (fd.related) {
      out[name] = { type: 'RelatedFilter', lookup_types: `See available filters for '${cat.get(fd.related).plural}'` }
      continue
    }
    const col = fd.field ?? name
    const [fieldName, def] = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col)!
    let type = KINDS[def.kind as StoredKind].filterClass
    // A filter on a foreign key column compares the raw key: a plain char or number filter.
    if (def.kind === 'fk') type = def.target && cat.get(def.target).keyKind === 'string' ? 'CharFilter' : 'NumberFilter'
    if (fieldName === r.key && r.keyKind === 'string') type = 'CharFilter'
    if (fd.multiple) type = 'MultipleChoiceFilter'
    if (fd.type) type = fd.type
    out[name] = { type, lookup_types: [...(fd.lookups ?? ['exact'])] }
  }
  return out
}

export function compileDescription(cat: Catalogue, r: ResourceDef): (kind: 'List' | 'Instance') => Record<string, unknown> {
  const filters = describeFilters(cat, r)
  return (kind) => ({
    name: `${r.label} ${kind}`,
    description: r.description,
    renders: RENDERS,
    parses: PARSES,
    filters,
    ...(r.orderings.length ? { ordering: [...r.orderings] } : {}),
  })
}
