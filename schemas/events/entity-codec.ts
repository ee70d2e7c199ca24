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

/** The generic form of toEntity: one column after another into a new object. */
function entityBuilder(specs: ColumnSpec[]): (record: Record<string, unknown>) => Record<string, unknown> {
  return (record) => {
    const out: Record<string, unknown> = {}
    for (const c of specs) out[c.column] = coerce(c, record[c.column] ?? (c.column !== c.field ? record[c.field] : undefined))
    return out
  }
}

/**
 * toEntity compiled for one resource: one object literal with every column, values coerced in
 * column order (the same values and the same first error as entityBuilder). The loop reads and
 * writes a different property at each step, which V8 can only do through its slowest (megamorphic)
 * lookups: a third of a publisher's own time per event. Names come from the catalogue, never from
 * input; any name that is not a plain identifier falls back to the loop.
 */
export function compiledEntityBuilder(specs: ColumnSpec[]): (record: Record<string, unknown>) => Record<string, unknown> {
  const plain = /^[A-Za-z_][A-Za-z0-9_]*$/
  if (specs.some((c) => !plain.test(c.column) || !plain.test(c.field) || c.column === '__proto__' || c.field === '__proto__')) return entityBuilder(specs)
  const props = specs.map((c, i) => `${c.column}: coerce(specs[${i}], record.${c.column}${c.column !== c.field ? ` ?? record.${c.field}` : ''})`)
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const make = new Function('specs', 'coerce', `return function toEntity(record) { return { ${props.join(', ')} } }`)
  return make(specs, coerce) as (record: Record<string, unknown>) => Record<string, unknown>
}

export function createEntityCodec(cat: Catalogue, r: ResourceDef): EntityCodec {
  const specs = columnSpecs(cat, r)
  const toEntity = compiledEntityBuilder(specs)
  return {
    resource: r,
    toEntity,
    keyOf(record) {
      const k = record[r.key]
      if (k === undefined || k === null || k === '') throw new InvalidRecord(`record has no ${r.key}`)
      return String(k)
    },
  }
}
