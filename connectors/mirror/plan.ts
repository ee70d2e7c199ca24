/**
 * What a mirror reads from a v4 API, derived from the catalogue: which lists, in which order
 * (a resource after those its relations point at), how each list is walked, and which resources
 * arrive only nested inside another's objects.
 */
import { columnOf, type ResourceDef } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'

/**
 * How a list is walked:
 *   modified-cursor  by cursor, `order_by=date_modified`, resumed with `date_modified__gte`;
 *   modified-pages   by page number, ordered the same way (lists without a date_modified cursor: courts);
 *   id-pass          a full pass in id order (lists that cannot be ordered by date_modified): changes are
 *                    found only by walking the whole list again.
 * In every mode a run resumes from the `next` link of the last page it published.
 */
export type WalkMode = 'modified-cursor' | 'modified-pages' | 'id-pass'

/** Objects of `target` that a parent's list carries in its field `field`, each pointing back through column `via`. */
export interface NestedPart { field: string; target: ResourceDef; via: string; parts: NestedPart[] }

export interface MirrorStep {
  resource: ResourceDef
  /** URL path under the API root (`visualizations/json`). */
  path: string
  mode: WalkMode
  /** Only for id-pass: `id`, or the default `-id` where the list allows no ordering. */
  idOrder?: 'id' | '-id'
  /** Modified modes: the list takes `date_modified__lt` and `-date_modified`, so it can be read in ranges at once. */
  rangeable?: boolean
  nested: NestedPart[]
}

/**
 * Resources the target derives itself from what it mirrors: the citation network resolves the
 * opinions' citations into edges with its own ids, which a copy of the source's edges would
 * duplicate. Mirrored only when named in --resources.
 */
export const DERIVED_BY_TARGET: readonly string[] = ['opinions-cited']

const relationTargets = (r: ResourceDef) => Object.values(r.fields).filter((d) => (d.kind === 'fk' || d.kind === 'm2m') && d.target).map((d) => d.target!)

/** Whether `name` can reach itself through the relations still pending. */
function inCycle(name: string, pending: Map<string, Set<string>>): boolean {
  const seen = new Set<string>()
  const stack = [...(pending.get(name) ?? [])]
  while (stack.length) {
    const n = stack.pop()!
    if (n === name) return true
    if (seen.has(n)) continue
    seen.add(n)
    stack.push(...(pending.get(n) ?? []))
  }
  return false
}

/**
 * Resources ordered so that each comes after those its foreign keys and many-to-many fields point at;
 * a cycle (people ↔ positions) is broken at its first member in the given order.
 */
export function dependencyOrder(resources: readonly ResourceDef[]): ResourceDef[] {
  const names = new Set(resources.map((r) => r.name))
  const pending = new Map(resources.map((r) => [r.name, new Set(relationTargets(r).filter((t) => t !== r.name && names.has(t)))]))
  const out: ResourceDef[] = []
  while (out.length < resources.length) {
    const ready = resources.find((r) => pending.has(r.name) && pending.get(r.name)!.size === 0)
      ?? resources.find((r) => pending.has(r.name) && inCycle(r.name, pending))
      ?? resources.find((r) => pending.has(r.name))!
    out.push(ready)
    pending.delete(ready.name)
    for (const deps of pending.values()) deps.delete(ready.name)
  }
  return out
}

const isListed = (cat: Catalogue, r: ResourceDef) =>
  r.api && (r.access === 'public' || r.access === 'authenticated') && cat.storageOf(r) === r

/**
 * A nested resource is taken from its parents' objects when it has no list of its own, or when its
 * list hides the column that links it to the parent (archive documents do not show their entry).
 * Each such resource is taken from one parent only (the first in catalogue order), so that two
 * parents showing the same rows (attorney roles under parties and attorneys) give them once.
 */
function nestedOwners(cat: Catalogue): Map<string, { parent: string; field: string; via: string }> {
  const owners = new Map<string, { parent: string; field: string; via: string }>()
  for (const parent of cat.resources) {
    for (const [name, d] of Object.entries(parent.fields)) {
      if (d.kind !== 'nested' || !d.target || !d.via) continue
      const target = cat.get(d.from ?? d.target)
      if (cat.storageOf(target) !== target) continue
      const link = Object.entries(target.fields).find(([n, f]) => columnOf(n, f) === d.via)
      const linkShown = !!link && !link[1].hidden
      if (isListed(cat, target) && linkShown) continue
      if (!owners.has(target.name)) owners.set(target.name, { parent: parent.name, field: name, via: d.via })
    }
  }
  return owners
}

function nestedParts(cat: Catalogue, owners: ReturnType<typeof nestedOwners>, parent: string, seen = new Set<string>()): NestedPart[] {
  const parts: NestedPart[] = []
  for (const [target, o] of owners) {
    if (o.parent !== parent || seen.has(target)) continue
    const next = new Set(seen).add(target)
    parts.push({ field: o.field, target: cat.get(target), via: o.via, parts: nestedParts(cat, owners, target, next) })
  }
  return parts
}

export function walkModeOf(r: ResourceDef): { mode: WalkMode; idOrder?: 'id' | '-id'; rangeable?: boolean } {
  const lookups = r.filters.date_modified?.lookups ?? []
  if (r.orderings.includes('date_modified') && lookups.includes('gte')) {
    return { mode: r.cursorOrderings.includes('date_modified') ? 'modified-cursor' : 'modified-pages', rangeable: lookups.includes('lt') }
  }
  return { mode: 'id-pass', idOrder: r.orderings.includes('id') ? 'id' : '-id' }
}

/** The steps of a mirror of `only` (names or paths; all listed public resources when absent), in dependency order. */
export function planMirror(cat: Catalogue, only?: readonly string[]): MirrorStep[] {
  const owners = nestedOwners(cat)
  const byKey = new Map(cat.resources.filter((r) => isListed(cat, r)).flatMap((r) => [[r.name, r], [r.path ?? r.name, r]] as const))
  if (only) {
    const unknown = only.filter((n) => !byKey.has(n))
    if (unknown.length) throw new Error(`cannot mirror ${unknown.join(', ')}: not a public v4 list (known: ${[...new Set(byKey.values())].map((r) => r.name).join(', ')})`)
  }
  const chosen = only
    ? [...new Set(only.map((n) => byKey.get(n)!))]
    : [...new Set(byKey.values())].filter((r) => !owners.has(r.name) && !DERIVED_BY_TARGET.includes(r.name))
  return dependencyOrder(chosen).map((r) => ({ resource: r, path: r.path ?? r.name, ...walkModeOf(r), nested: nestedParts(cat, owners, r.name) }))
}
