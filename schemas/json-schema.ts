/**
 * JSON Schemas (2020-12) of every answer the resource API gives, as pure functions of the
 * catalogue: one object per resource, the list envelopes (v4 cursor mode, page mode, `count=on`)
 * and the error bodies. OpenAPI (schemas/openapi.ts) references them, and they can be handed to
 * Fastify as response schemas.
 *
 * A field's schema follows how api/engine/serialize.ts renders it:
 *   stored scalar    the kind's schema (schemas/kinds.ts, through keyed()), `enum` of its choices,
 *                    null added when the field is nullable;
 *   fk               the related detail URL (or its raw id with asId); an embedded fk is the
 *                    related object, by $ref, down to the serializer's embed depth;
 *   m2m, reverse     a list of related detail URLs (or raw ids with asId); a single reverse link is
 *                    one URL or null;
 *   nested           a list of objects of the related resource, by $ref (empty past the depth);
 *   fk_id            the raw id of the foreign key it shows;
 *   uri              resource_uri is this row's detail URL; others are the website path or null;
 *   const            the fixed value.
 * Hidden and write-only fields are not rendered, so they are not in the schemas. Every rendered
 * key is always present (`required`), and no other key is (`additionalProperties: false`), unless
 * `partial` is asked for (answers shaped by `fields`/`omit`).
 *
 * Related objects are named schemas, one per resource and version: `v4.courts`. Where the embed
 * depth cuts a resource's nesting short, the shorter shape has its own name (`v4.people.depth2`).
 */
import type { FieldDef, ResourceDef } from './define.js'
import { columnOf } from './define.js'
import { keyed, isStored, type JsonSchema, type StoredKind, type DerivedKind } from './kinds.js'
import { holdsStringKey } from './columns.js'
import type { Catalogue } from './catalogue/index.js'

export type ApiVersion = 'v3' | 'v4'
export const API_VERSIONS: readonly ApiVersion[] = ['v4', 'v3']
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema'
/**
 * How deep the serializer expands nested lists and embedded objects (MAX_EMBED_DEPTH in
 * api/engine/serialize.ts): an object rendered at this depth shows no nested rows.
 */
export const EMBED_DEPTH = 3

export interface SchemaOptions {
  version: ApiVersion
  /** Where `$ref`s point: `#/$defs/` (self-contained, the default) or `#/components/schemas/`. */
  refPrefix?: string
  /** Leave `required` out: answers whose keys were chosen with `fields`/`omit`. */
  partial?: boolean
}

/** A set of named schemas and the names of its roots. */
export interface SchemaSet {
  /** Component name → schema. Sorted by name. */
  schemas: Record<string, JsonSchema>
  /** Resource name → the name of its top-level (depth 0) schema. */
  roots: Record<string, string>
}

const NULL: JsonSchema = { type: 'null' }
const URI: JsonSchema = { type: 'string', format: 'uri' }

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_')

/** The URL path of a resource under the version prefix. */
export const pathOf = (r: ResourceDef) => r.path ?? r.name

/** The name of the schema of resource `r` as rendered at `depth` (see `canonicalDepth`). */
export function schemaName(version: ApiVersion, r: ResourceDef, depth = 0): string {
  return depth === 0 ? `${version}.${safeName(r.name)}` : `${version}.${safeName(r.name)}.depth${depth}`
}

/** A detail URL of resource `r` in `version`: absolute, ending with a slash. */
export function detailUrlSchema(version: ApiVersion, r: ResourceDef): JsonSchema {
  return { ...URI, pattern: `/api/rest/${version}/${escapeRegex(pathOf(r))}/[^/?#]+/$` }
}

/** `s` or null. */
export function orNull(s: JsonSchema): JsonSchema {
  if (Object.keys(s).length === 0) return s // anything already includes null
  if (Array.isArray(s.enum)) {
    const enumWithNull = s.enum.includes(null) ? s.enum : [...s.enum, null]
    return typeof s.type === 'string' ? { ...s, type: [s.type, 'null'], enum: enumWithNull } : { ...s, enum: enumWithNull }
  }
  if (typeof s.type === 'string' && !('$ref' in s)) return { ...s, type: [s.type, 'null'] }
  if (Array.isArray(s.type)) return s.type.includes('null') ? s : { ...s, type: [...s.type, 'null'] }
  return { anyOf: [s, NULL] }
}

/** The rendered fields of a resource, in the order the serializer writes them. */
export function renderedFields(r: ResourceDef): [string, FieldDef][] {
  return Object.entries(r.fields).filter(([, d]) => !d.hidden && !d.writeOnly)
}

/** Resources a field expands into objects (nested lists and embedded foreign keys). */
const expands = (d: FieldDef) => d.kind === 'nested' || (d.kind === 'fk' && !!d.embed)

/**
 * How many levels of objects a resource nests below itself (Infinity when its nesting loops).
 * An object rendered at depth d has its full shape when d + height ≤ EMBED_DEPTH.
 */
export function nestingHeight(cat: Catalogue, r: ResourceDef, memo = new Map<string, number>(), open = new Set<string>()): number {
  const known = memo.get(r.name)
  if (known !== undefined) return known
  if (open.has(r.name)) return Infinity
  open.add(r.name)
  let h = 0
  for (const [, d] of renderedFields(r)) if (expands(d)) h = Math.max(h, 1 + nestingHeight(cat, cat.get(d.target!), memo, open))
  open.delete(r.name)
  memo.set(r.name, h)
  return h
}

/** The depth whose schema an object at `depth` shares: 0 when its shape is complete there. */
function canonicalDepth(cat: Catalogue, r: ResourceDef, depth: number, memo: Map<string, number>): number {
  return nestingHeight(cat, r, memo) <= EMBED_DEPTH - depth ? 0 : depth
}

/** The schema of the key of a resource (ids keep their JSON type: integers, or strings for courts). */
export function keySchema(r: ResourceDef): JsonSchema {
  return r.keyKind === 'string' ? { type: 'string' } : { type: 'integer' }
}

interface Builder {
  cat: Catalogue
  version: ApiVersion
  partial: boolean
  /** A $ref to the schema of `r` rendered at `depth`, registering it to be built. */
  ref(r: ResourceDef, depth: number): JsonSchema
}

type FieldSchema = (b: Builder, r: ResourceDef, name: string, d: FieldDef, depth: number) => JsonSchema

/** Adds the field's help as the schema's description. */
const described = (s: JsonSchema, d: FieldDef): JsonSchema => (d.help ? { ...s, description: d.help } : s)

/** A related row as a link (or its raw id with asId). */
function link(b: Builder, target: ResourceDef, asId: boolean | undefined): JsonSchema {
  return asId ? keySchema(target) : detailUrlSchema(b.version, target)
}

/** The object of `target` at `depth`, whole (by $ref) or cut to `only` (inline). */
function objectOf(b: Builder, target: ResourceDef, depth: number, only: readonly string[] | undefined): JsonSchema {
  return only ? objectSchema(b, target, depth, only) : b.ref(target, depth)
}

/** Stored kinds other than relations: the kind's schema, its choices, null when nullable. */
function scalar(b: Builder, r: ResourceDef, name: string, d: FieldDef): JsonSchema {
  const spec = keyed(d.kind as StoredKind, holdsStringKey(b.cat, r, name))
  const nullable = !!d.nullable && spec.nullableColumn && name !== r.key
  let s: JsonSchema = { ...spec.schema }
  if (d.choices) {
    const values: unknown[] = d.choices.map((c) => c.value)
    // A record without the value is stored as the kind's empty value ('' or 0), which is rendered.
    if (!nullable && !values.includes(spec.empty)) values.push(spec.empty)
    s = { ...s, enum: values }
  }
  return nullable ? orNull(s) : s
}

/** The one table from field kind to the schema of its rendered value. */
const FIELD_SCHEMAS: Record<'scalar' | 'fk' | 'm2m' | DerivedKind, FieldSchema> = {
  scalar: (b, r, name, d) => scalar(b, r, name, d),
  fk: (b, _r, _name, d, depth) => {
    const target = b.cat.get(d.target!)
    // An embedded row that is not there (yet) renders as null, whatever the field's nullability.
    if (d.embed && depth < EMBED_DEPTH) return orNull(objectOf(b, target, depth + 1, d.only))
    const s = link(b, target, d.asId)
    return d.nullable ? orNull(s) : s
  },
  m2m: (b, _r, _name, d) => ({ type: 'array', items: link(b, b.cat.get(d.target!), d.asId) }),
  reverse: (b, _r, _name, d) => {
    const target = b.cat.get(d.target!)
    let item = link(b, target, false)
    if (d.asId) {
      const from = b.cat.get(d.from ?? d.target!)
      const pick = d.pick ?? from.key
      item = pick === from.key ? keySchema(from) : fkValue(b, from, pick)
    }
    return d.single ? orNull(item) : { type: 'array', items: item }
  },
  nested: (b, _r, _name, d, depth) => {
    if (depth >= EMBED_DEPTH) return { type: 'array', maxItems: 0, description: 'Not expanded at this depth.' }
    return { type: 'array', items: objectOf(b, b.cat.get(d.target!), depth + 1, d.only) }
  },
  fk_id: (b, r, _name, d) => {
    const fk = r.fields[d.of!]
    const s = keySchema(b.cat.get(fk.target!))
    return fk.nullable ? orNull(s) : s
  },
  uri: (b, r, name) => {
    if (name === 'resource_uri') return detailUrlSchema(b.version, r)
    // The website path of the row (relative), where the resource has one.
    return r.absoluteUrl ? { type: 'string', format: 'uri-reference' } : NULL
  },
  const: (_b, _r, _name, d) => ({ const: d.value ?? null }),
}

/** The raw value of a column of `r` that holds a key (a reverse link picked by asId). */
function fkValue(b: Builder, r: ResourceDef, column: string): JsonSchema {
  const entry = Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === column || n === column)
  if (!entry) return {}
  const [n, d] = entry
  if (d.kind === 'fk' || d.kind === 'm2m') return keySchema(b.cat.get(d.target!))
  return isStored(d.kind) ? keyed(d.kind, holdsStringKey(b.cat, r, n)).schema : {}
}

function fieldSchema(b: Builder, r: ResourceDef, name: string, d: FieldDef, depth: number): JsonSchema {
  const which = d.kind === 'fk' || d.kind === 'm2m' ? d.kind : isStored(d.kind) ? 'scalar' : d.kind
  return described(FIELD_SCHEMAS[which](b, r, name, d, depth), d)
}

/** The object of one row of `r` rendered at `depth`, with the keys in `only` when given. */
function objectSchema(b: Builder, r: ResourceDef, depth: number, only?: readonly string[]): JsonSchema {
  const rendered = new Map(renderedFields(r))
  const names = only ? only.filter((n) => rendered.has(n)) : [...rendered.keys()]
  const properties = Object.fromEntries(names.map((n) => [n, fieldSchema(b, r, n, rendered.get(n)!, depth)]))
  return {
    type: 'object',
    ...(depth === 0 && !only && r.description ? { description: r.description } : {}),
    properties,
    ...(b.partial ? {} : { required: names }),
    additionalProperties: false,
  }
}

/**
 * The named schemas of the given resources (as rendered at the top) and of everything they
 * reference, for one version. `$ref`s use `refPrefix` (default `#/$defs/`).
 */
export function resourceSchemas(cat: Catalogue, roots: readonly ResourceDef[], opts: SchemaOptions): SchemaSet {
  const prefix = opts.refPrefix ?? '#/$defs/'
  const memo = new Map<string, number>()
  const built = new Map<string, JsonSchema>()
  const queue: [ResourceDef, number][] = []
  const b: Builder = {
    cat, version: opts.version, partial: !!opts.partial,
    ref(r, depth) {
      const d = canonicalDepth(cat, r, depth, memo)
      const name = schemaName(opts.version, r, d)
      if (!built.has(name)) { built.set(name, {}); queue.push([r, d]) }
      return { $ref: `${prefix}${name}` }
    },
  }
  const rootNames: Record<string, string> = {}
  for (const r of roots) {
    b.ref(r, 0)
    rootNames[r.name] = schemaName(opts.version, r, 0)
  }
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [r, depth] = next
    built.set(schemaName(opts.version, r, depth), objectSchema(b, r, depth))
  }
  const schemas = Object.fromEntries([...built.entries()].sort(([a], [z]) => (a < z ? -1 : a > z ? 1 : 0)))
  return { schemas, roots: rootNames }
}

/** A self-contained schema: `root` with every schema it references under `$defs`. */
function selfContained(root: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  return { $schema: JSON_SCHEMA_DIALECT, ...root, ...(Object.keys(defs).length ? { $defs: defs } : {}) }
}

/** The JSON Schema of one detail answer (one object) of `r`, self-contained (`$defs`). */
export function resourceSchema(cat: Catalogue, r: ResourceDef, opts: SchemaOptions): JsonSchema {
  const set = resourceSchemas(cat, [r], { ...opts, refPrefix: '#/$defs/' })
  return selfContained({ $ref: `#/$defs/${set.roots[r.name]}` }, set.schemas)
}

const nextLink: JsonSchema = { anyOf: [URI, NULL] }

/** v4 cursor mode: `count` is the URL that answers the count. */
export function cursorEnvelope(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      count: { ...URI, description: 'The URL that answers with the number of matching rows (`count=on`).' },
      next: nextLink, previous: nextLink, results: { type: 'array', items: item },
    },
    required: ['count', 'next', 'previous', 'results'],
    additionalProperties: false,
  }
}

/** Page-number mode (v3, and v4 with an ordering that has no cursor): an integer `count`. */
export function pageEnvelope(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 0, description: 'The number of matching rows.' },
      next: nextLink, previous: nextLink, results: { type: 'array', items: item },
    },
    required: ['count', 'next', 'previous', 'results'],
    additionalProperties: false,
  }
}

/** The answer to `count=on` (v4). */
export const COUNT_ANSWER: JsonSchema = {
  type: 'object', properties: { count: { type: 'integer', minimum: 0 } }, required: ['count'], additionalProperties: false,
}

/** Error bodies. */
export const ERROR_SCHEMAS = {
  /** Most errors: `{"detail": "..."}`. */
  detail: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'], additionalProperties: false },
  /** A 400 for bad values, keyed by parameter or field: `{"date_filed__gte": ["Enter a valid date."]}`. */
  fields: { type: 'object', minProperties: 1, additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  /** A 400 for parameters that are neither filters nor framework parameters. */
  unknownParams: {
    type: 'object',
    properties: { detail: { type: 'string' }, unknown_params: { type: 'array', items: { type: 'string' }, minItems: 1 } },
    required: ['detail', 'unknown_params'],
    additionalProperties: false,
  },
} as const satisfies Record<string, JsonSchema>

/** Any 400 of a list: bad values (field-keyed) or unknown parameters. */
export function badRequestSchema(fields: JsonSchema = ERROR_SCHEMAS.fields, unknown: JsonSchema = ERROR_SCHEMAS.unknownParams): JsonSchema {
  return { oneOf: [unknown, fields] }
}

/** The answers a list of one resource gives, each schema self-contained. */
export interface ListSchemas {
  /** v4 cursor mode; null when no ordering of the resource pages by cursor. */
  cursor: JsonSchema | null
  /** Page-number mode, per version. */
  page: Record<ApiVersion, JsonSchema>
  /** v4 `count=on`. */
  count: JsonSchema
  /** Any 200 of the list, per version (v4: cursor, page or count; v3: page). */
  list: Record<ApiVersion, JsonSchema>
  errors: { detail: JsonSchema; fields: JsonSchema; unknownParams: JsonSchema; badRequest: JsonSchema }
}

/** Whether v4 can page `r` by cursor (some ordering of it is cursor-capable). */
export const hasCursor = (r: ResourceDef) => r.cursorOrderings.length > 0

/** The 200 answers of a list in `version`, given the schema of one item. */
export function listAnswerSchema(r: ResourceDef, version: ApiVersion, item: JsonSchema): JsonSchema {
  if (version === 'v3') return pageEnvelope(item)
  return { oneOf: [...(hasCursor(r) ? [cursorEnvelope(item)] : []), pageEnvelope(item), COUNT_ANSWER] }
}

export function listSchemas(cat: Catalogue, r: ResourceDef, opts: { partial?: boolean } = {}): ListSchemas {
  const sets = Object.fromEntries(API_VERSIONS.map((v) => [v, resourceSchemas(cat, [r], { version: v, partial: opts.partial })])) as Record<ApiVersion, SchemaSet>
  const item = (v: ApiVersion): JsonSchema => ({ $ref: `#/$defs/${sets[v].roots[r.name]}` })
  const wrap = (v: ApiVersion, s: JsonSchema) => selfContained(s, sets[v].schemas)
  const plain = (s: JsonSchema) => ({ $schema: JSON_SCHEMA_DIALECT, ...s })
  return {
    cursor: hasCursor(r) ? wrap('v4', cursorEnvelope(item('v4'))) : null,
    page: { v4: wrap('v4', pageEnvelope(item('v4'))), v3: wrap('v3', pageEnvelope(item('v3'))) },
    count: plain(COUNT_ANSWER),
    list: { v4: wrap('v4', listAnswerSchema(r, 'v4', item('v4'))), v3: wrap('v3', listAnswerSchema(r, 'v3', item('v3'))) },
    errors: {
      detail: plain(ERROR_SCHEMAS.detail), fields: plain(ERROR_SCHEMAS.fields),
      unknownParams: plain(ERROR_SCHEMAS.unknownParams), badRequest: plain(badRequestSchema()),
    },
  }
}
