/**
 * The storage type of every stored column, resolved once for both generators (DDL and Avro):
 * keys and foreign keys take the key kind of the resource they identify.
 */
import type { ResourceDef } from './define.js'
import { KINDS, type StoredKind } from './kinds.js'
import type { Catalogue } from './catalogue/index.js'

export interface ColumnSpec {
  column: string
  field: string
  kind: StoredKind
  ch: string
  avro: unknown
  nullable: boolean
  /** Arrays: empty instead of null. */
  array: boolean
}

export function columnSpecs(cat: Catalogue, r: ResourceDef): ColumnSpec[] {
  return cat.columns(r).map(([column, field]) => {
    const d = r.fields[field]
    const kind = d.kind as StoredKind
    const spec = KINDS[kind]
    const stringKey = (field === r.key && r.keyKind === 'string') || ((kind === 'fk' || kind === 'm2m') && !!d.target && cat.get(d.target).keyKind === 'string')
    let ch = spec.ch
    let avro: unknown = spec.avro
    if (stringKey) {
      ch = kind === 'm2m' ? 'Array(String)' : 'String'
      avro = kind === 'm2m' ? { type: 'array', items: 'string' } : 'string'
    }
    return { column, field, kind, ch, avro, nullable: !!d.nullable && spec.nullableColumn && field !== r.key, array: !spec.nullableColumn }
  })
}
