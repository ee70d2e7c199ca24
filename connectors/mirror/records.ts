/**
 * A v4 object as a source API serves it → the storage records `lds publish` would publish for it:
 * related objects, which v4 shows as URLs (`https://host/api/rest/v4/dockets/123/`), as embedded
 * objects or as raw ids, become their ids; and objects nested in it whose resource has no list of
 * its own (a cluster's citations) become records of that resource, linked back to it.
 */
import { createHash } from 'node:crypto'
import { columnOf, type FieldDef, type ResourceDef } from '../../schemas/define.js'
import { isStored } from '../../schemas/kinds.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { NestedPart } from './plan.js'

export interface MirrorRecord { resource: string; record: Record<string, unknown> }

/** The id a relation's value names: a URL's last path segment, an embedded object's id, or the id itself. */
export function idOfRelation(value: unknown, target: ResourceDef): string | number | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>
    return idOfRelation(o.id ?? o.resource_uri ?? null, target)
  }
  let text = String(value)
  if (/^https?:\/\/|^\//.test(text)) {
    const segments = new URL(text, 'http://x').pathname.split('/').filter(Boolean)
    text = decodeURIComponent(segments[segments.length - 1] ?? '')
  }
  if (target.keyKind === 'string') return text
  const n = Number(text)
  if (!Number.isSafeInteger(n)) throw new Error(`${JSON.stringify(value)} names no ${target.name} id`)
  return n
}

/**
 * An id for a nested object its source does not show (citations' ids are hidden): the same parent
 * and position always give the same id, so mirroring a parent again updates its rows in place.
 */
export function syntheticId(resource: string, parentId: string | number, position: number): number {
  // Numbered within the parent, so the rows keep the order the source showed them in (lists and
  // nested sets are ordered by id); a parent with a text key or too many rows gets hashed ids.
  const n = Number(parentId)
  if (Number.isSafeInteger(n) && n >= 0 && position < SYNTHETIC_PER_PARENT && Number.isSafeInteger(n * SYNTHETIC_PER_PARENT)) return n * SYNTHETIC_PER_PARENT + position
  const h = createHash('sha256').update(`${resource}\0${parentId}\0${position}`).digest()
  // 48 bits, well inside both Int64 columns and JavaScript's safe integers.
  return h.readUIntBE(0, 6)
}

/** Nested rows of one parent numbered in its id space (parent id × this + position). */
const SYNTHETIC_PER_PARENT = 1000

/**
 * The id of an object that hides it, as its own nested rows show it: a party type's criminal counts
 * name their party type. Undefined when none does.
 */
function idShownByChildren(cat: Catalogue, r: ResourceDef, obj: Record<string, unknown>, nested: readonly NestedPart[]): string | number | undefined {
  for (const part of nested) {
    const children = obj[part.field]
    if (!Array.isArray(children)) continue
    const back = Object.entries(part.target.fields).find(([name, d]) => d.kind === 'fk' && d.target === r.name && columnOf(name, d) === part.via)
    if (!back) continue
    for (const child of children) {
      const shown = child && typeof child === 'object' ? (child as Record<string, unknown>)[back[0]] : undefined
      const id = shown === undefined ? null : idOfRelation(shown, r)
      if (id !== null) return id
    }
  }
  return undefined
}

function storedValue(cat: Catalogue, d: FieldDef, value: unknown): unknown {
  if (d.kind === 'fk') return idOfRelation(value, cat.get(d.target!))
  if (d.kind === 'm2m') return Array.isArray(value) ? value.map((v) => idOfRelation(v, cat.get(d.target!))) : []
  return value
}

/** The records of one source object of `r`, the object's own first, then what was nested in it. */
export function toMirrorRecords(cat: Catalogue, r: ResourceDef, obj: Record<string, unknown>, nested: readonly NestedPart[] = [], link?: { via: string; id: string | number; position: number }, ancestors: ReadonlyMap<string, string | number> = new Map()): MirrorRecord[] {
  const record: Record<string, unknown> = {}
  for (const [name, d] of Object.entries(r.fields)) {
    if (!isStored(d.kind)) continue
    const col = columnOf(name, d)
    // A related object's id may be shown beside it (`court_id`); a raw-id relation shows it under its own name.
    const value = name in obj ? obj[name] : obj[col]
    if (value === undefined) {
      // A nested object does not repeat what its ancestors show: a docket entry's documents, its docket.
      if (d.kind === 'fk' && ancestors.has(d.target!)) record[col] = ancestors.get(d.target!)
      continue
    }
    record[col] = storedValue(cat, d, value)
  }
  // A list that hides the key (integrated-database rows) still links each object to itself.
  if (record[r.key] === undefined && typeof obj.resource_uri === 'string') record[r.key] = idOfRelation(obj.resource_uri, r)
  if (link) {
    record[link.via] = link.id
    if (record[r.key] === undefined || record[r.key] === null) record[r.key] = idShownByChildren(cat, r, obj, nested) ?? syntheticId(r.name, link.id, link.position)
  }
  const out: MirrorRecord[] = [{ resource: r.name, record }]
  if (!nested.length) return out
  // What the children may take from here: this object, and what it relates to.
  const known = new Map(ancestors)
  for (const [name, d] of Object.entries(r.fields)) {
    const id = d.kind === 'fk' ? record[columnOf(name, d)] : undefined
    if (typeof id === 'string' || typeof id === 'number') known.set(d.target!, id)
  }
  known.set(r.name, record[r.key] as string | number)
  for (const part of nested) {
    const children = obj[part.field]
    if (!Array.isArray(children)) continue
    children.forEach((child, position) => {
      if (child && typeof child === 'object') out.push(...toMirrorRecords(cat, part.target, child as Record<string, unknown>, part.parts, { via: part.via, id: record[r.key] as string | number, position }, known))
    })
  }
  return out
}
