/**
 * The generic half of a write: the body a client sent (JSON, or form fields as strings) checked
 * against the catalogue entry, field by field, into a record in storage form. What a resource
 * adds (defaults, ownership, uniqueness, domain rules) is its own hook (api/writes/); what every
 * resource shares is here, compiled once per resource:
 *   - writable fields are the stored ones that are neither read-only nor hidden; unknown and
 *     read-only keys in the body are ignored, as the reference's serializers ignore them;
 *   - each value is parsed by its kind, checked against choices and max_length, and a missing
 *     required field is reported; errors are field-keyed lists with the reference's messages.
 */
import type { FieldDef, ResourceDef } from '../../schemas/define.js'
import { columnOf } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { keyed, ValueError, InvalidValue, type StoredKind } from '../../schemas/kinds.js'
import { holdsStringKey } from '../../schemas/columns.js'
import { FieldErrors } from '../../core/errors.js'

export type Body = Record<string, unknown>

export interface Writer {
  readonly resource: ResourceDef
  /** Writable field name → storage column. */
  readonly writable: ReadonlyMap<string, string>
  /** Checks a whole body (create, PUT): every required field must be there. */
  create(body: unknown): Record<string, unknown>
  /** Checks a partial body (PATCH): only the fields sent. */
  patch(body: unknown): Record<string, unknown>
}

const MESSAGES = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  null: 'This field may not be null.',
  int: 'A valid integer is required.',
  number: 'A valid number is required.',
  bool: 'Must be a valid boolean.',
  date: 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.',
  datetime: 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
  list: 'Expected a list of items.',
  object: 'Invalid data. Expected a dictionary, but got {type}.',
} as const

const TRUE = new Set(['true', 'True', '1', 'on', 'yes'])
const FALSE = new Set(['false', 'False', '0', 'off', 'no'])

/** One value from a body (form values arrive as strings, or lists of strings when repeated). */
function fieldValue(name: string, d: FieldDef, kind: StoredKind, stringKey: boolean, raw: unknown): unknown {
  const fail = (m: string): never => { throw new ValueError(m) }
  const one = Array.isArray(raw) && kind !== 'm2m' && kind !== 'strings' ? raw[raw.length - 1] : raw
  if (one === null) return d.nullable ? null : fail(MESSAGES.null)
  switch (kind) {
    case 'int': case 'fk': {
      if (stringKey) return String(one)
      const n = typeof one === 'number' ? one : typeof one === 'string' && /^-?\d+$/.test(one.trim()) ? Number(one.trim()) : NaN
      if (!Number.isSafeInteger(n)) fail(MESSAGES.int)
      if (d.choices && !d.choices.some((c) => c.value === n)) fail(`"${String(one)}" is not a valid choice.`)
      if (d.minValue !== undefined && n < d.minValue) fail(`Ensure this value is greater than or equal to ${d.minValue}.`)
      if (d.maxValue !== undefined && n > d.maxValue) fail(`Ensure this value is less than or equal to ${d.maxValue}.`)
      return n
    }
    case 'float': {
      const n = typeof one === 'number' ? one : Number(one)
      if (typeof one === 'boolean' || !Number.isFinite(n) || one === '') fail(MESSAGES.number)
      return n
    }
    case 'bool':
      if (typeof one === 'boolean') return one
      if (TRUE.has(String(one))) return true
      if (FALSE.has(String(one))) return false
      return fail(MESSAGES.bool)
    case 'date': {
      if (one === '' && d.nullable) return null
      try { return keyed('date', false).parse(String(one)) } catch { return fail(MESSAGES.date) }
    }
    case 'datetime': {
      if (one === '' && d.nullable) return null
      try { return keyed('datetime', false).coerce(String(one)) } catch (err) { if (err instanceof InvalidValue) return fail(MESSAGES.datetime); throw err }
    }
    case 'm2m': case 'strings': {
      const list = Array.isArray(raw) ? raw : fail(MESSAGES.list)
      return list.map((x) => fieldValue(name, { ...d, choices: undefined }, kind === 'm2m' ? 'int' : 'string', stringKey, x))
    }
    case 'json': return typeof one === 'string' ? one : JSON.stringify(one)
    default: {
      if (typeof one === 'object') fail(`Not a valid string.`)
      const s = String(one)
      if (s.trim() === '' && d.required) fail(MESSAGES.blank)
      if (d.maxLength !== undefined && s.length > d.maxLength) fail(`Ensure this field has no more than ${d.maxLength} characters.`)
      if (d.choices && !d.choices.some((c) => String(c.value) === s)) fail(`"${s}" is not a valid choice.`)
      if (d.input === 'slug' && s !== '' && !/^[-a-zA-Z0-9_]+$/.test(s)) fail('Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.')
      return s
    }
  }
}

export function compileWriter(cat: Catalogue, r: ResourceDef): Writer {
  const fields = Object.entries(r.fields).filter(([, d]) => !d.readOnly && !d.hidden && ['int', 'float', 'string', 'bool', 'date', 'datetime', 'time', 'json', 'strings', 'fk', 'm2m'].includes(d.kind))
  const writable = new Map(fields.map(([n, d]) => [n, columnOf(n, d)]))
  const check = (body: unknown, partial: boolean) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new FieldErrors({ non_field_errors: [MESSAGES.object.replace('{type}', Array.isArray(body) ? 'list' : typeof body)] })
    }
    const b = body as Body
    const out: Record<string, unknown> = {}
    const errors: Record<string, string[]> = {}
    for (const [name, d] of fields) {
      // Forms and JSON both name a relation by the field (`docket`), as the reference's do.
      const raw = name in b ? b[name] : columnOf(name, d) in b ? b[columnOf(name, d)] : undefined
      if (raw === undefined) {
        if (!partial && d.required) errors[name] = [MESSAGES.required]
        continue
      }
      try { out[columnOf(name, d)] = fieldValue(name, d, d.kind as StoredKind, holdsStringKey(cat, r, name), raw) } catch (err) {
        if (!(err instanceof ValueError)) throw err
        errors[name] = [err.message]
      }
    }
    if (Object.keys(errors).length) throw new FieldErrors(errors)
    return out
  }
  return { resource: r, writable, create: (body) => check(body, false), patch: (body) => check(body, true) }
}
