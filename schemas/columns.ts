/**
 * The storage of every stored column, resolved once for every engine (DDL, Avro, codec, bulk,
 * filters, serializer): its kind spec, with keys and foreign keys taking the key kind of the
 * resource they identify.
 */
import type { ResourceDef } from './define.js'
import { keyed, type KindSpec, type StoredKind } from './kinds.js'
import type { Catalogue } from './catalogue/index.js'

export interface ColumnSpec {
  column: string
  field: string
  kind: StoredKind
  spec: KindSpec
  ch: string
  avro: unknown
  nullable: boolean
  /** Arrays: empty instead of null. */
  array: boolean
  /** The record cannot be stored without it (the key, a required relation). */
  required: boolean
}

/** Whether a stored field holds the key of a string-keyed resource (itself or a related one). */
export function holdsStringKey(cat: Catalogue, r: ResourceDef, field: string): boolean {
  const d = r.fields[field]
  if (field === r.key) return r.keyKind === 'string'
  return (d.kind === 'fk' || d.kind === 'm2m') && !!d.target && cat.get(d.target).keyKind === 'string'
}

export function columnSpecs(cat: Catalogue, r: ResourceDef): ColumnSpec[] {
  return cat.columns(r).map(([column, field]) => {
    const d = r.fields[field]
    const kind = d.kind as StoredKind
    const spec = keyed(kind, holdsStringKey(cat, r, field))
    return {
      column, field, kind, spec, ch: spec.ch, avro: spec.avro,
      nullable: !!d.nullable && spec.nullableColumn && field !== r.key, array: !spec.nullableColumn,
      required: field === r.key || (kind === 'fk' && !d.nullable),
    }
  })
}
