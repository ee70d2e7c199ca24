/**
 * What the read model indexes, derived from the catalogue: for every reverse or nested field
 * (`dockets.clusters` lists clusters whose docket_id is the docket), the column of the resource it
 * reads; plus the lookups the API makes by a column other than the key (users by token hash and
 * by username).
 */
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { columnOf } from '../../schemas/define.js'
import type { RefColumns, KeyKinds } from './store.js'

/** Lookups by column that are not relations: resource → columns. */
export const LOOKUP_COLUMNS: Record<string, string[]> = { users: ['token_hash', 'username'] }

export function refColumnsOf(cat: Catalogue): RefColumns {
  const out = new Map<string, Set<string>>()
  const add = (resource: string, column: string) => { if (!out.has(resource)) out.set(resource, new Set()); out.get(resource)!.add(column) }
  for (const r of cat.resources) {
    for (const d of Object.values(r.fields)) {
      if ((d.kind === 'reverse' || d.kind === 'nested') && d.via) add(cat.storageOf(cat.get(d.from ?? d.target!)).name, d.via)
    }
  }
  for (const [resource, cols] of Object.entries(LOOKUP_COLUMNS)) if (cat.has(resource)) cols.forEach((c) => add(resource, c))
  for (const r of cat.resources) if (r.redirections) add(r.redirections.resource, r.redirections.via)
  // A user's own rows (alerts, prayers, tags…): quotas, uniqueness and event routing read them by owner.
  for (const r of cat.stored) if (r.owner) add(r.name, r.owner)
  return new Map([...out].map(([k, v]) => [k, [...v]]))
}

export function keyKindsOf(cat: Catalogue): KeyKinds {
  return new Map(cat.resources.map((r) => [r.name, r.keyKind]))
}

/**
 * Columns the read model leaves out of stored rows (fields marked `large`: an opinion's texts),
 * per stored resource; reads that show them fetch them from ClickHouse (large-texts.ts).
 */
export function largeColumnsOf(cat: Catalogue): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>()
  for (const r of cat.stored) {
    const cols = Object.entries(r.fields).filter(([, d]) => d.large).map(([n, d]) => columnOf(n, d))
    if (cols.length) out.set(r.name, cols)
  }
  return out
}
