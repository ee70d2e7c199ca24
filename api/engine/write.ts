/**
 * The generic half of a write: the body a client sent (JSON, or form fields as strings) checked
 * against the catalogue entry, field by field, into a record in storage form. What a resource
 * adds (defaults, ownership, uniqueness, domain rules) is its own hook (api/writes/); what every
 * resource shares is here, compiled once per resource:
 *   - writable fields are the stored ones that are neither read-only nor hidden; unknown and
 *     read-only keys in the body are ignored, as the reference's serializers ignore them;
 *   - each value is read by its kind's `body` edge (schemas/kinds.ts: parsed, checked against
 *     choices, bounds and max_length), and a missing required field is reported; errors are
 *     field-keyed lists with the reference's messages.
 */
import type { FieldDef, ResourceDef } from '../../schemas/define.js'
import { columnOf } from '../../schemas/define.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { keyed, ValueError, BODY_MESSAGES, type KindSpec, type StoredKind } from '../../schemas/kinds.js'
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

/** One value from a body (form values arrive as strings, or lists of strings when repeated), read by its kind. */
function fieldValue(d: FieldDef, spec: KindSpec, raw: unknown): unknown {
  const list = !spec.nullableColumn // arrays: m2m and strings
  const one = Array.isArray(raw) && !list ? raw[raw.length - 1] : raw
  if (one === null) return d.nullable ? null : refuseNull()
  return spec.body(one, d)
}
const refuseNull = (): never => { throw new ValueError(BODY_MESSAGES.null) }

export function compileWriter(cat: Catalogue, r: ResourceDef): Writer {
  const fields = Object.entries(r.fields).filter(([, d]) => !d.readOnly && !d.hidden && ['int', 'float', 'string', 'bool', 'date', 'datetime', 'time', 'json', 'strings', 'fk', 'm2m'].includes(d.kind))
  const writable = new Map(fields.map(([n, d]) => [n, columnOf(n, d)]))
  const check = (body: unknown, partial: boolean) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new FieldErrors({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${Array.isArray(body) ? 'list' : typeof body}.`] })
    }
    const b = body as Body
    const out: Record<string, unknown> = {}
    const errors: Record<string, string[]> = {}
    for (const [name, d] of fields) {
      // Forms and JSON both name a relation by the field (`docket`), as the reference's do.
      const raw = name in b ? b[name] : columnOf(name, d) in b ? b[columnOf(name, d)] : undefined
      if (raw === undefined) {
        if (!partial && d.required) errors[name] = [BODY_MESSAGES.required]
        continue
      }
      try { out[columnOf(name, d)] = fieldValue(d, keyed(d.kind as StoredKind, holdsStringKey(cat, r, name)), raw) } catch (err) {
        if (!(err instanceof ValueError)) throw err
        errors[name] = [err.message]
      }
    }
    if (Object.keys(errors).length) throw new FieldErrors(errors)
    return out
  }
  return { resource: r, writable, create: (body) => check(body, false), patch: (body) => check(body, true) }
}
