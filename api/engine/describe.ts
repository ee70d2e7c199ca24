/**
 * The OPTIONS description of an endpoint, compiled from the catalogue once per resource: its name,
 * what it renders and parses, `actions` (what a POST on the list or a PUT on the detail may send:
 * each field's type, whether it is required or read-only, its label, limits and choices, nested
 * objects with their own fields), every filter with its class and lookups (related filters name
 * the resource whose filters they open; choice filters list their choices), and the orderings.
 */
import type { FieldDef, ResourceDef } from '../../schemas/define.js'
import { columnOf } from '../../schemas/define.js'
import { KINDS, isStored, type StoredKind } from '../../schemas/kinds.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'

export const RENDERS = ['application/json', 'text/html', 'application/xml']
export const PARSES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml']

export interface FilterDescription { type: string; lookup_types: string[] | string; choices?: unknown }
export interface FieldAction {
  type: string; required: boolean; read_only: boolean; label: string
  help_text?: string; max_length?: number; min_value?: number; max_value?: number
  choices?: { value: unknown; display_name: string }[]
  child?: { type: 'nested object'; required: boolean; read_only: boolean; children: Record<string, FieldAction> }
  children?: Record<string, FieldAction>
}

/** DRF's label: the field name with spaces and a capital first letter. */
export const labelOf = (name: string) => { const s = name.replace(/_/g, ' '); return s.charAt(0).toUpperCase() + s.slice(1) }

function actionType(d: FieldDef): string {
  if (d.input) return d.input
  if (d.kind === 'fk' && d.embed) return 'nested object'
  if (d.choices) return 'choice'
  if (isStored(d.kind) && !['fk', 'm2m', 'strings'].includes(d.kind)) return KINDS[d.kind as StoredKind].label
  return 'field'
}

export function describeActions(cat: Catalogue, r: ResourceDef, depth = 0, only?: readonly string[]): Record<string, FieldAction> {
  const out: Record<string, FieldAction> = {}
  const entries = only ? only.map((n) => [n, r.fields[n]] as const) : Object.entries(r.fields)
  for (const [name, d] of entries) {
    if (d.hidden || d.unlisted) continue
    const a: FieldAction = { type: actionType(d), required: !!d.required, read_only: !!d.readOnly, label: d.label ?? labelOf(name) }
    if (d.help) a.help_text = d.help
    if (d.maxLength !== undefined) a.max_length = d.maxLength
    if (d.minValue !== undefined) a.min_value = d.minValue
    if (d.maxValue !== undefined) a.max_value = d.maxValue
    if (d.choices) a.choices = d.choices.map((c) => ({ value: c.value, display_name: c.display_name }))
    if ((d.kind === 'nested' || (d.kind === 'fk' && d.embed)) && depth < 3) {
      const children = describeActions(cat, cat.get(d.target!), depth + 1, d.only)
      // A list of objects is a `field` with a `child`; a serializer used as a field is itself a `nested object`.
      if (a.type === 'nested object') a.children = children
      else a.child = { type: 'nested object', required: a.required, read_only: a.read_only, children }
    }
    out[name] = a
  }
  return out
}

export function describeFilters(cat: Catalogue, r: ResourceDef): Record<string, FilterDescription> {
  const out: Record<string, FilterDescription> = {}
  for (const [name, fd] of Object.entries(r.filters)) {
    if (fd.related) {
      out[name] = { type: 'RelatedFilter', lookup_types: `See available filters for '${cat.get(fd.related).plural}'` }
      continue
    }
    if (fd.flag) { out[name] = { type: 'BooleanFilter', lookup_types: [...(fd.lookups ?? ['exact'])] }; continue }
    const col = fd.field ?? name
    const [fieldName, def] = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col)!
    let type = KINDS[def.kind as StoredKind].filterClass
    // A filter on a foreign key column compares the raw key: a plain char or number filter.
    if (def.kind === 'fk') type = def.target && cat.get(def.target).keyKind === 'string' ? 'CharFilter' : 'NumberFilter'
    if (fieldName === r.key && r.keyKind === 'string') type = 'CharFilter'
    if (fd.multiple) type = 'MultipleChoiceFilter'
    if (fd.type) type = fd.type
    const f: FilterDescription = { type, lookup_types: [...(fd.lookups ?? ['exact'])] }
    const choices = fd.choices ?? def.choices
    if ((type === 'ChoiceFilter' || type === 'MultipleChoiceFilter') && choices) f.choices = choices.map((c) => ({ value: c.value, display_name: c.display_name }))
    out[name] = f
  }
  return out
}

export type Describe = (kind: 'List' | 'Instance') => Record<string, unknown>

export function compileDescription(cat: Catalogue, r: ResourceDef): Describe {
  const filters = describeFilters(cat, r)
  const writes = r.writes ?? { create: true, update: true }
  const fields = writes.create || writes.update ? describeActions(cat, r) : undefined
  const list = { ...(writes.create && fields ? { actions: { POST: fields } } : {}) }
  const instance = { ...(writes.update && fields ? { actions: { PUT: fields } } : {}) }
  return (kind) => ({
    name: `${r.label} ${kind}`,
    description: r.description,
    renders: RENDERS,
    parses: PARSES,
    ...(kind === 'List' ? list : instance),
    ...(Object.keys(filters).length ? { filters } : {}),
    ...(r.orderings.length ? { ordering: [...r.orderings] } : {}),
  })
}
