/**
 * Turns a record in storage form into the entity of its Avro schema: values coerced to the
 * column kind, missing optional columns given their empty value. A record that cannot be
 * made valid (no key, a value of the wrong type) is refused with a reason, never guessed at.
 */
import type { ResourceDef } from '../schemas/define.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { columnSpecs, type ColumnSpec } from '../schemas/columns.js'

export class InvalidRecord extends Error {
  override name = 'InvalidRecord'
}

const EMPTY: Record<string, unknown> = { int: 0, float: 0, string: '', bool: false, date: '', time: '', json: null, datetime: '1970-01-01T00:00:00+00:00' }

function coerce(c: ColumnSpec, v: unknown): unknown {
  if (v === undefined || v === null) {
    if (c.nullable) return null
    if (c.array) return []
    if (c.kind === 'json') return ''
    if (c.kind === 'fk' || (c.kind === 'int' && c.field === 'id')) throw new InvalidRecord(`${c.column} is required`)
    return EMPTY[c.kind]
  }
  switch (c.kind) {
    case 'int': case 'fk': {
      if (c.avro === 'string') return String(v)
      const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new InvalidRecord(`${c.column} must be an integer, got ${JSON.stringify(v)}`)
      return n
    }
    case 'float': {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
      if (typeof n !== 'number' || !Number.isFinite(n)) throw new InvalidRecord(`${c.column} must be a number, got ${JSON.stringify(v)}`)
      return n
    }
    case 'bool':
      if (typeof v === 'boolean') return v
      if (v === 't' || v === 'true') return true
      if (v === 'f' || v === 'false') return false
      throw new InvalidRecord(`${c.column} must be a boolean, got ${JSON.stringify(v)}`)
    case 'date':
      if (typeof v !== 'string' || (v !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(v))) throw new InvalidRecord(`${c.column} must be a date (YYYY-MM-DD), got ${JSON.stringify(v)}`)
      return v
    case 'datetime':
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new InvalidRecord(`${c.column} must be an ISO 8601 timestamp, got ${JSON.stringify(v)}`)
      return v
    case 'json':
      return typeof v === 'string' ? v : JSON.stringify(v)
    case 'strings': case 'm2m':
      if (!Array.isArray(v)) throw new InvalidRecord(`${c.column} must be a list`)
      return c.kind === 'm2m' && c.avro !== 'string' && (c.avro as { items: string }).items === 'long' ? v.map((x) => Number(x)) : v.map(String)
    default:
      return typeof v === 'string' ? v : String(v)
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
