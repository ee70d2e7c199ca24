/**
 * Turns a record in storage form into the entity of its Avro schema: each value coerced by its
 * column's kind (schemas/kinds.ts), missing optional columns given their empty value. A record that
 * cannot be made valid (no key, a value of the wrong type) is refused with a reason, never guessed at.
 */
import type { ResourceDef } from '../define.js'
import type { Catalogue } from '../catalogue/index.js'
import { columnSpecs, type ColumnSpec } from '../columns.js'
import { InvalidValue } from '../kinds.js'

export class InvalidRecord extends Error {
  override name = 'InvalidRecord'
}

function coerce(c: ColumnSpec, v: unknown): unknown {
  if (v === undefined || v === null) {
    if (c.nullable) return null
    if (c.required) throw new InvalidRecord(`${c.column} is required`)
    return c.spec.empty
  }
  try { return c.spec.coerce(v) } catch (err) {
    if (err instanceof InvalidValue) throw new InvalidRecord(`${c.column} ${err.message}`)
    throw err
  }
}

export interface EntityCodec {
  resource: ResourceDef
  /** Storage-form record → Avro entity (throws InvalidRecord). */
  toEntity(record: Record<string, unknown>): Record<string, unknown>
  keyOf(record: Record<string, unknown>): string
}

export function createEntityCodec(cat: Catalogue, r: ResourceDef): EntityCodec {
  const specs = columnSpecs(cat, r)
  return {
    resource: r,
    toEntity(record) {
      const out: Record<string, unknown> = {}
      for (const c of specs) out[c.column] = coerce(c, record[c.column] ?? (c.column !== c.field ? record[c.field] : undefined))
      return out
    },
    keyOf(record) {
      const k = record[r.key]
      if (k === undefined || k === null || k === '') throw new InvalidRecord(`record has no ${r.key}`)
      return String(k)
    },
  }
}
