/**
 * The reference OPTIONS capture (test/fixtures/reference/options-v4.json) read as data, and what
 * a conformance test derives from it: the comparison of an OPTIONS answer with the capture, the
 * JSON type a result field must have, and the requests that exercise every filter, lookup and
 * ordering (a valid value, a bad one, the negation). Values come from the full record the seed
 * published (key 1), so an exact filter on it must find that row.
 */
import { readFileSync } from 'node:fs'
import { columnOf, type FieldDef, type ResourceDef } from '../../../schemas/define.js'
import type { Catalogue } from '../../../schemas/catalogue/index.js'
import { keyOf, type Obj } from './seed.js'
import { projectFile } from '../../../core/programs.js'

export interface CapturedAction {
  type: string; required: boolean; read_only: boolean; label: string
  choices?: { value: unknown; display_name: string }[]
  child?: { type: string; children?: Record<string, CapturedAction> }
  children?: Record<string, CapturedAction>
}
export interface CapturedFilter { type: string; lookup_types: string[] | string; choices?: { value: unknown; display_name: string }[] }
export interface CapturedEndpoint {
  name: string; renders: string[]; parses: string[]
  actions?: { POST?: Record<string, CapturedAction> }
  filters?: Record<string, CapturedFilter>
  ordering?: string[]
}

export const CAPTURE_PATH = projectFile('test/fixtures/reference/options-v4.json')
export function loadCapture(): Record<string, CapturedEndpoint> {
  return JSON.parse(readFileSync(CAPTURE_PATH, 'utf8'))
}

/** Differences between an OPTIONS answer and the capture, as readable lines (none when equal). */
export function compareOptions(cap: CapturedEndpoint, got: Obj): string[] {
  const out: string[] = []
  const eq = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  for (const k of ['name', 'renders', 'parses'] as const) if (!eq(got[k], cap[k])) out.push(`${k}: ${JSON.stringify(got[k])}, reference ${JSON.stringify(cap[k])}`)
  const compareFields = (ref: Record<string, CapturedAction>, ours: Obj | undefined, at: string) => {
    const refNames = Object.keys(ref)
    const ourNames = Object.keys(ours ?? {})
    if (!eq(refNames, ourNames)) {
      const missing = refNames.filter((n) => !ourNames.includes(n))
      const extra = ourNames.filter((n) => !refNames.includes(n))
      out.push(`actions${at}: fields ${missing.length || extra.length ? `missing [${missing}] extra [${extra}]` : 'in another order'}`)
    }
    for (const n of refNames) {
      const a = ref[n]
      const b = ours?.[n]
      if (!b) continue
      if (a.type !== b.type) out.push(`actions${at}.${n}: type ${JSON.stringify(b.type)}, reference ${JSON.stringify(a.type)}`)
      if (a.child) {
        if (b.child?.type !== a.child.type) out.push(`actions${at}.${n}.child: type ${JSON.stringify(b.child?.type)}, reference ${JSON.stringify(a.child.type)}`)
        if (a.child.children) compareFields(a.child.children, b.child?.children, `${at}.${n}[]`)
      } else if (b.child) out.push(`actions${at}.${n}: has a child the reference does not have`)
      if (a.children) compareFields(a.children, b.children, `${at}.${n}`)
      else if (b.children) out.push(`actions${at}.${n}: has children the reference does not have`)
    }
  }
  if (cap.actions?.POST) compareFields(cap.actions.POST, got.actions?.POST, '.POST')
  else if (got.actions?.POST) out.push('actions.POST given; the reference has none')
  const refFilters = cap.filters ?? {}
  const ourFilters: Obj = got.filters ?? {}
  if (!eq(Object.keys(refFilters).sort(), Object.keys(ourFilters).sort())) {
    out.push(`filters: names [${Object.keys(ourFilters)}], reference [${Object.keys(refFilters)}]`)
  }
  for (const [n, f] of Object.entries(refFilters)) {
    const g = ourFilters[n]
    if (!g) continue
    if (g.type !== f.type) out.push(`filters.${n}: type ${g.type}, reference ${f.type}`)
    if (!eq(g.lookup_types, f.lookup_types)) out.push(`filters.${n}: lookup_types ${JSON.stringify(g.lookup_types)}, reference ${JSON.stringify(f.lookup_types)}`)
    // Choice values are the contract; display names are the service's own words.
    const values = (cs: { value: unknown }[] | undefined) => (cs ?? []).map((x) => x.value)
    if (f.choices && !eq(values(g.choices), values(f.choices))) out.push(`filters.${n}: choice values ${JSON.stringify(values(g.choices))}, reference ${JSON.stringify(values(f.choices))}`)
  }
  if (!eq(got.ordering, cap.ordering)) out.push(`ordering: ${JSON.stringify(got.ordering)}, reference ${JSON.stringify(cap.ordering)}`)
  return out
}

const STRINGY = new Set(['string', 'date', 'datetime', 'url', 'slug', 'email', 'time', 'file upload'])
const isUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^/]+\/api\/rest\/v4\//.test(v)
const describeValue = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

/** A key of a resource as the API shows it (courts: a string; others: a number). */
function isKeyOf(cat: Catalogue, target: string | undefined, v: unknown): boolean {
  if (!target) return typeof v === 'number' || typeof v === 'string'
  return cat.get(target).keyKind === 'string' ? typeof v === 'string' : Number.isInteger(v)
}

/**
 * Whether a field may render null: nullable in the catalogue (for the id of a foreign key, that
 * key's nullability), a one-to-one link that may be missing, or a value of any shape. In a sparse
 * record (only its key and required relations) a date or time the record left out renders null:
 * the catalogue stores it empty, which no reference row can be.
 */
function nullable(r: ResourceDef, d: FieldDef, sparse: boolean): boolean {
  if (d.kind === 'fk_id') return !!r.fields[d.of ?? '']?.nullable
  if (sparse && (d.kind === 'date' || d.kind === 'time')) return true
  return !!d.nullable || (d.kind === 'reverse' && !!d.single) || d.kind === 'json' || d.kind === 'const' || d.kind === 'uri'
}

/** The key of a result object: its id, else the last segment of its resource_uri. */
export function resultKey(obj: Obj): unknown {
  if (obj.id !== undefined) return obj.id
  const m = typeof obj.resource_uri === 'string' ? /\/([^/]+)\/$/.exec(obj.resource_uri) : null
  return m ? (/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]) : undefined
}

/**
 * What is wrong with the value of one result field, given the type the capture declares and the
 * catalogue's field (undefined when the value fits).
 */
export function checkFieldValue(cat: Catalogue, r: ResourceDef, d: FieldDef | undefined, ref: CapturedAction, v: unknown, sparse = false): string | undefined {
  if (v === undefined) return 'missing'
  if (!d) return 'not in the catalogue'
  if (v === null) return nullable(r, d, sparse) ? undefined : `null, but ${ref.type} and not nullable`
  const bad = () => `${describeValue(v)} ${JSON.stringify(v)?.slice(0, 60)}, expected ${ref.type}${ref.child ? ' (list of nested objects)' : ''} for a ${d.kind}${d.asId ? ' asId' : ''}${d.embed ? ' embed' : ''}`
  if (ref.type === 'integer') return Number.isInteger(v) ? undefined : bad()
  if (ref.type === 'float' || ref.type === 'decimal') return typeof v === 'number' || (ref.type === 'decimal' && typeof v === 'string') ? undefined : bad()
  if (ref.type === 'boolean') return typeof v === 'boolean' ? undefined : bad()
  if (STRINGY.has(ref.type)) {
    if (typeof v !== 'string') return bad()
    if (ref.type === 'datetime' && Number.isNaN(Date.parse(v))) return `not a datetime: ${JSON.stringify(v)}`
    if (ref.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(v)) return `not a date: ${JSON.stringify(v)}`
    return undefined
  }
  if (ref.type === 'choice') {
    const first = ref.choices?.[0]?.value
    const want = first === undefined ? (d.kind === 'int' ? 'number' : 'string') : typeof first
    return typeof v === want ? undefined : bad()
  }
  // A serializer used as a field: one object, or (a list of related rows) an array of objects.
  const objects = (x: unknown) => Array.isArray(x) && x.every((y) => y !== null && typeof y === 'object' && !Array.isArray(y))
  if (ref.type === 'nested object') return (typeof v === 'object' && !Array.isArray(v)) || (d.kind === 'nested' && objects(v)) ? undefined : bad()
  if (ref.child) return Array.isArray(v) && v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x)) ? undefined : bad()
  if (ref.type === 'multiple choice' || ref.type === 'list') return Array.isArray(v) ? undefined : bad()
  // `field`: what the catalogue makes of it.
  switch (d.kind) {
    case 'fk':
      if (d.embed) return typeof v === 'object' && !Array.isArray(v) ? undefined : bad()
      return (d.asId ? isKeyOf(cat, d.target, v) : isUrl(v)) ? undefined : bad()
    case 'm2m': case 'reverse':
      if (d.kind === 'reverse' && d.single) return (d.asId ? isKeyOf(cat, d.from ?? d.target, v) : isUrl(v)) ? undefined : bad()
      return Array.isArray(v) && v.every((x) => (d.asId ? typeof x === 'number' || typeof x === 'string' : isUrl(x))) ? undefined : bad()
    case 'nested': return Array.isArray(v) && v.every((x) => x !== null && typeof x === 'object') ? undefined : bad()
    case 'strings': return Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : bad()
    case 'fk_id': return typeof v === 'number' || typeof v === 'string' ? undefined : bad()
    case 'uri': return typeof v === 'string' ? undefined : bad()
    case 'int': return Number.isInteger(v) ? undefined : bad()
    case 'float': return typeof v === 'number' ? undefined : bad()
    case 'bool': return typeof v === 'boolean' ? undefined : bad()
    case 'string': case 'date': case 'datetime': case 'time': return typeof v === 'string' ? undefined : bad()
    default: return undefined // json, const: any value
  }
}

/** One request of the filter sweep and what must come of it. */
export interface FilterCase {
  param: string
  value: string
  /** 200, or 400 keyed by `param`. */
  expect: 200 | 400
  /** The full record (key 1) must be among the results (with `count=on`: something is counted). */
  finds?: unknown
  /** Also read in the list itself (with the endpoint's other list cases), not only with `count=on`. */
  list?: boolean
  what: string
}

/** The stored field a (non-related) filter compares, as the filter engine finds it. */
export function filterField(r: ResourceDef, name: string): [string, FieldDef] | undefined {
  const fd = r.filters[name]
  const col = fd?.field ?? name
  return Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col)
}

const asText = (v: unknown): string => {
  if (Array.isArray(v)) return asText(v[0])
  if (v !== null && typeof v === 'object') return JSON.stringify(v)
  return String(v)
}
const PARTS: Record<string, [number, number]> = { year: [0, 4], month: [5, 7], day: [8, 10], hour: [11, 13], minute: [14, 16], second: [17, 19] }
const DATE_TYPES = new Set(['DateFilter', 'IsoDateTimeFilter', 'DateFromToRangeFilter'])

/**
 * The sweep of one endpoint's filters: for every filter and lookup of the capture, a valid value
 * (200, and an exact match finds the full record), a bad value where the lookup is typed (400 keyed
 * by the parameter), and the negation `<name>!=`. Related filters take the related key, as
 * `<name>=` and, where the related resource filters on id, `<name>__id=`.
 */
export function filterCases(cat: Catalogue, r: ResourceDef, cap: CapturedEndpoint, full: Obj): FilterCase[] {
  const cases: FilterCase[] = []
  const key1 = keyOf(r, 1)
  for (const [name, f] of Object.entries(cap.filters ?? {})) {
    const fd = r.filters[name]
    if (f.type === 'RelatedFilter') {
      const target = fd?.related ? cat.get(fd.related) : undefined
      const key = target ? String(keyOf(target, 1)) : '1'
      cases.push({ param: name, value: key, expect: 200, finds: key1, list: true, what: 'related key' })
      cases.push({ param: `${name}!`, value: key, expect: 200, what: 'negated related key' })
      if (target?.filters.id) cases.push({ param: `${name}__id`, value: key, expect: 200, finds: key1, what: 'related id' })
      if (!target || target.keyKind === 'int') cases.push({ param: name, value: 'abc', expect: 400, what: 'related key not a number' })
      continue
    }
    const lookups = Array.isArray(f.lookup_types) ? f.lookup_types : ['exact']
    let value = 'true'
    let kind: string | undefined
    if (!fd?.flag) {
      const field = filterField(r, name)
      if (field) {
        kind = field[1].kind
        value = asText(full[columnOf(field[0], field[1])])
      }
    }
    const choices = f.choices
    const intKey = kind === 'fk' && cat.get(filterField(r, name)![1].target!).keyKind === 'int'
    for (const lookup of lookups) {
      const param = lookup === 'exact' ? name : `${name}__${lookup}`
      let v = value
      if (lookup === 'range' || lookup === 'in') v = `${value},${value}`
      else if (lookup === 'isnull') v = 'false'
      else if (PARTS[lookup]) v = String(Number(value.slice(...PARTS[lookup])))
      const finds = ['exact', 'iexact', 'startswith', 'istartswith', 'gte', 'lte', 'range', 'in', 'isnull', ...Object.keys(PARTS)].includes(lookup) ? key1 : undefined
      cases.push({ param, value: v, expect: 200, finds, list: lookup === 'exact', what: `valid ${lookup}` })
      // A bad value, where the lookup's value is typed.
      let badValue: string | undefined
      if (lookup === 'isnull') badValue = 'maybe'
      else if (f.type === 'BooleanFilter') badValue = 'maybe'
      else if (PARTS[lookup]) badValue = 'abc'
      else if (DATE_TYPES.has(f.type)) badValue = lookup === 'range' ? 'soon,later' : 'not-a-date'
      else if (f.type === 'NumberFilter') badValue = lookup === 'range' ? 'a,b' : 'abc'
      // django-filter makes only the exact lookup of a field with choices a ChoiceFilter; its other
      // lookups filter like the field's own kind (numbers still parse, text takes anything).
      else if ((f.type === 'ChoiceFilter' || f.type === 'MultipleChoiceFilter') && choices?.length) {
        if (lookup === 'exact') badValue = 'zz_not_a_choice'
        else if (typeof choices[0].value === 'number') badValue = lookup === 'range' ? 'a,b' : 'abc'
      }
      else if (f.type === 'ModelChoiceFilter' && intKey) badValue = 'abc'
      if (badValue !== undefined) cases.push({ param, value: badValue, expect: 400, what: `bad ${lookup} (${f.type})` })
    }
    cases.push({ param: `${name}!`, value: lookups.includes('exact') ? value : 'true', expect: 200, what: 'negated' })
  }
  return cases
}
