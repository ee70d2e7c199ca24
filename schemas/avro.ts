/**
 * Avro schemas of the entity topics, derived from the catalogue. An event carries the
 * operation, a monotonic version and, for upserts, the whole entity in its storage form.
 */
import type { ResourceDef } from './define.js'
import { columnSpecs } from './columns.js'
import type { Catalogue } from './catalogue/index.js'

const pascal = (s: string) => s.split(/[-_]/).map((p) => p[0].toUpperCase() + p.slice(1)).join('')

export function entityRecordName(r: ResourceDef): string { return pascal(r.name) }

export function toAvro(cat: Catalogue, r: ResourceDef): Record<string, unknown> {
  const fields = columnSpecs(cat, r).map((c) => {
    if (c.nullable) return { name: c.column, type: ['null', c.avro], default: null }
    if (c.array) return { name: c.column, type: c.avro, default: [] }
    return { name: c.column, type: c.avro }
  })
  return {
    type: 'record',
    name: `${pascal(r.name)}Event`,
    namespace: 'org.lds.entity',
    doc: `A change to one ${r.label}: upsert carries the whole entity, delete only the key.`,
    fields: [
      { name: 'op', type: { type: 'enum', name: 'Op', symbols: ['upsert', 'delete'] } },
      { name: 'version', type: 'long', doc: 'Monotonic per key; the highest version wins.' },
      { name: 'key', type: 'string' },
      { name: 'entity', type: ['null', { type: 'record', name: entityRecordName(r), fields }], default: null },
    ],
  }
}
