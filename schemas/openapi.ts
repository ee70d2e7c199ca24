/**
 * The OpenAPI 3.1 description of the resource API, as a pure function of the catalogue: for v4
 * and v3 (deprecated), every API resource's list and detail operations with every query
 * parameter the engines accept (framework parameters, each filter with each of its lookups, the
 * filters of related resources one hop away), the answers with their schemas
 * (schemas/json-schema.ts), the security schemes, the version roots and citation lookup.
 *
 * The output is deterministic: paths, components and tags are sorted by name; parameters keep a
 * fixed order (framework ones, then filters sorted by name).
 */
import type { FieldDef, FilterDef, ResourceDef } from './define.js'
import { columnOf } from './define.js'
import { keyed, isStored, type JsonSchema, type Lookup, type StoredKind } from './kinds.js'
import { holdsStringKey } from './columns.js'
import { FILTER_DATETIME } from './values.js'
import { V4_ROOT_NAMES, type Catalogue } from './catalogue/index.js'
import {
  API_VERSIONS, COUNT_ANSWER, ERROR_SCHEMAS, cursorEnvelope, hasCursor, keySchema, pageEnvelope, pathOf, resourceSchemas,
  type ApiVersion,
} from './json-schema.js'

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, unknown>>; components: Record<string, Record<string, unknown>> }

export interface OpenApiOptions {
  /** The server the paths are relative to (default `/`). */
  serverUrl?: string
}

/** Related filters chain this many hops at most (api/engine/filters.ts). */
const MAX_RELATED_HOPS = 4
/** Page numbers beyond this answer 404 (api/engine/list.ts). */
const MAX_PAGES = 100
/** Query parameters every list understands; a filter of the same name is never consulted. */
const FRAMEWORK = new Set(['fields', 'omit', 'page', 'page_size', 'cursor', 'order_by', 'format', 'count', 'fields!'])
/** The resource whose objects citation lookup returns (api/routes/citation-lookup.ts). */
const CITATION_LOOKUP_RESOURCE = 'clusters'
const CITATION_TEXT_LIMIT = 64_000

const byKey = <T>(entries: [string, T][]): Record<string, T> =>
  Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_')
const ref = (kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` })
const json = (schema: JsonSchema) => ({ 'application/json': { schema } })

interface QueryParam {
  name: string
  description: string
  schema: JsonSchema
  /** Arrays: comma-separated (false) or repeated (true). */
  explode?: boolean
}

// ---------------------------------------------------------------------------------------------
// Filters

/** What each lookup asks, and the schema of its value given the schema of one value of the field. */
const LOOKUP_PARAMS: Record<Lookup, { says: string; schema: (v: JsonSchema) => JsonSchema; explode?: boolean }> = {
  exact: { says: 'equals', schema: (v) => v },
  iexact: { says: 'equals, ignoring case', schema: () => ({ type: 'string' }) },
  startswith: { says: 'starts with', schema: () => ({ type: 'string' }) },
  istartswith: { says: 'starts with, ignoring case', schema: () => ({ type: 'string' }) },
  gt: { says: 'is greater than', schema: (v) => v },
  gte: { says: 'is at least', schema: (v) => v },
  lt: { says: 'is less than', schema: (v) => v },
  lte: { says: 'is at most', schema: (v) => v },
  range: { says: 'lies between two values, inclusive (comma-separated: low,high)', schema: (v) => ({ type: 'array', items: v, minItems: 2, maxItems: 2 }), explode: false },
  in: { says: 'is one of the comma-separated values', schema: (v) => ({ type: 'array', items: v, minItems: 1 }), explode: false },
  isnull: { says: 'is empty (true) or not (false)', schema: () => ({ type: 'boolean' }) },
  year: { says: 'has this year', schema: () => ({ type: 'integer' }) },
  month: { says: 'has this month (1-12)', schema: () => ({ type: 'integer', minimum: 1, maximum: 12 }) },
  day: { says: 'has this day of the month', schema: () => ({ type: 'integer', minimum: 1, maximum: 31 }) },
  hour: { says: 'has this hour (0-23)', schema: () => ({ type: 'integer', minimum: 0, maximum: 23 }) },
  minute: { says: 'has this minute', schema: () => ({ type: 'integer', minimum: 0, maximum: 59 }) },
  second: { says: 'has this second', schema: () => ({ type: 'integer', minimum: 0, maximum: 59 }) },
}

/** The field (name and definition) a filter compares. */
function filteredField(r: ResourceDef, name: string, fd: FilterDef): [string, FieldDef] | undefined {
  const col = fd.field ?? name
  return Object.entries(r.fields).find(([n, d]) => columnOf(n, d) === col || n === col)
}

/** The schema of one filter value on a field: relations compare the related key. */
function filterValue(cat: Catalogue, r: ResourceDef, fieldName: string, d: FieldDef): JsonSchema {
  if ((d.kind === 'fk' || d.kind === 'm2m') && d.target) return keySchema(cat.get(d.target))
  if (fieldName === r.key) return keySchema(r)
  // Filters take a date alone, or a date and time with an optional offset.
  if (d.kind === 'datetime') return { type: 'string', pattern: FILTER_DATETIME.source }
  if (d.kind === 'json' || d.kind === 'strings' || !isStored(d.kind)) return { type: 'string' }
  return keyed(d.kind as StoredKind, holdsStringKey(cat, r, fieldName)).schema
}

const fieldLabel = (name: string, d?: FieldDef) => `\`${name}\`${d?.help ? ` (${d.help.replace(/\.$/, '')})` : ''}`

/** The parameters of the filters declared on `r` itself (related filters by their bare name). */
export function directFilterParams(cat: Catalogue, r: ResourceDef): QueryParam[] {
  const out: QueryParam[] = []
  for (const [name, fd] of Object.entries(r.filters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (fd.related) {
      const target = cat.get(fd.related)
      out.push({ name, schema: keySchema(target), description: `Rows related to the ${target.plural} with this id. Filters of ${target.plural} apply under \`${name}__\`.` })
      continue
    }
    if (fd.flag) {
      out.push({ name, schema: { type: 'boolean' }, description: `A switch (true or false) that shapes nested lists; it selects no rows.` })
      continue
    }
    const field = filteredField(r, name, fd)
    if (!field) continue
    const [fieldName, def] = field
    const value = filterValue(cat, r, fieldName, def)
    const choices = (fd.choices ?? (fd.type === 'ChoiceFilter' || fd.multiple ? def.choices : undefined))?.map((c) => c.value)
    for (const lookup of fd.lookups ?? ['exact']) {
      const spec = LOOKUP_PARAMS[lookup]
      const pname = lookup === 'exact' ? name : `${name}__${lookup}`
      if (fd.multiple && lookup === 'exact') {
        out.push({
          name: pname, explode: true,
          schema: { type: 'array', items: choices ? { ...value, enum: choices } : value },
          description: `Rows whose ${fieldLabel(fieldName, def)} is any of the values given (repeat the parameter, or separate values by commas).`,
        })
        continue
      }
      const one = lookup === 'exact' && choices ? { ...value, enum: choices } : value
      out.push({ name: pname, schema: spec.schema(one), ...(spec.explode !== undefined ? { explode: spec.explode } : {}), description: `Rows whose ${fieldLabel(fieldName, def)} ${spec.says}.` })
    }
  }
  return out.filter((p) => !FRAMEWORK.has(p.name))
}

/** Direct filters, and every filter of each related resource one hop away (`<rel>__<filter>`). */
export function filterParams(cat: Catalogue, r: ResourceDef): QueryParam[] {
  const out = directFilterParams(cat, r)
  const seen = new Set(out.map((p) => p.name))
  for (const [name, fd] of Object.entries(r.filters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!fd.related || FRAMEWORK.has(name)) continue
    const target = cat.get(fd.related)
    for (const p of directFilterParams(cat, target)) {
      const pname = `${name}__${p.name}`
      if (seen.has(pname)) continue
      seen.add(pname)
      out.push({ ...p, name: pname, description: `Through \`${name}\` (${target.plural}): ${p.description}` })
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Framework parameters

const FRAMEWORK_PARAMS: Record<string, QueryParam & { name: string }> = {
  fields: {
    name: 'fields', explode: false, schema: { type: 'array', items: { type: 'string' } },
    description: 'Keep only these keys of each object (comma-separated; unknown names are ignored; empty keeps none). Where nested objects allow it, `<field>__<key>` selects inside them. Answers shaped this way may lack keys the schema lists as required.',
  },
  omit: {
    name: 'omit', explode: false, schema: { type: 'array', items: { type: 'string' } },
    description: 'Leave out these keys of each object (comma-separated), after `fields`.',
  },
  fields_exclude: {
    name: 'fields!', explode: false, schema: { type: 'array', items: { type: 'string' } },
    description: 'v3 spelling of `omit`: leave out these keys of each object (comma-separated).',
  },
  page: {
    name: 'page', schema: { oneOf: [{ type: 'integer', minimum: 1, maximum: MAX_PAGES }, { const: 'last' }] },
    description: `Page number in page-number mode (ignored when paging by cursor). At most ${MAX_PAGES}; \`last\` is the last page.`,
  },
  page_size: {
    name: 'page_size', schema: { type: 'integer', minimum: 1 },
    description: 'Objects per page, in page-number mode.',
  },
  cursor: {
    name: 'cursor', schema: { type: 'string' },
    description: 'Opaque position from a `next` or `previous` link of cursor mode. A cursor made for another ordering answers 404.',
  },
  count: {
    name: 'count', schema: { type: 'string', enum: ['on'] },
    description: '`on` answers only `{"count": n}`, the number of rows matching the filters (any other value is ignored).',
  },
  format: {
    name: 'format', schema: { type: 'string', enum: ['json', 'xml', 'api'] },
    description: 'Answer format: JSON (default), XML, or the browsable HTML page.',
  },
}

const asParameter = (p: QueryParam) => ({
  name: p.name, in: 'query', required: false, description: p.description, schema: p.schema,
  ...(p.explode !== undefined ? { style: 'form', explode: p.explode } : {}),
})

/** `order_by`: any of the resource's orderings, ascending or with `-` descending, comma-separated. */
function orderByParam(r: ResourceDef): QueryParam {
  const values = r.orderings.flatMap((o) => [o, `-${o}`])
  const cursor = r.cursorOrderings.length
    ? ` In v4 a single ${r.cursorOrderings.map((o) => `\`${o}\``).join(', ')} ordering (either direction) pages by cursor; any other pages by number.`
    : ''
  return {
    name: 'order_by', explode: false, schema: { type: 'array', items: { type: 'string', enum: values }, minItems: 1 },
    description: `Sort order (comma-separated; \`-\` for descending). Default \`${r.ordering}\`. An unknown ordering is ignored.${cursor}`,
  }
}

// ---------------------------------------------------------------------------------------------
// The document

const SECURITY_SCHEMES = {
  tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'An API token: `Authorization: Token <key>`.' },
  basicAuth: { type: 'http', scheme: 'basic', description: 'Username and password.' },
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'An OAuth2 bearer token.' },
}
const AUTHENTICATED = [{ tokenAuth: [] }, { basicAuth: [] }, { bearerAuth: [] }]
const OPTIONAL_AUTH = [{}, ...AUTHENTICATED]

const HEADERS = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: 'The authentication scheme to use.', schema: { type: 'string' } },
  Deprecation: { description: 'v3 is deprecated.', schema: { type: 'string', const: 'true' } },
  Sunset: { description: 'When v3 stops answering (HTTP date).', schema: { type: 'string' } },
  Link: { description: 'The same request in v4 (`rel="successor-version"`).', schema: { type: 'string' } },
}

const RESPONSES = {
  BadRequest: {
    description: 'A filter value is not valid (field-keyed messages), or a parameter is neither a filter nor a framework parameter.',
    content: json({ oneOf: [ref('schemas', 'UnknownParams'), ref('schemas', 'FieldErrors')] }),
  },
  Unauthorized: {
    description: 'Credentials are missing where they are required, or are not valid.',
    headers: { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') },
    content: json(ref('schemas', 'Error')),
  },
  BadCredentials: {
    description: 'Credentials were sent but are not valid (anonymous access is allowed).',
    content: json(ref('schemas', 'Error')),
  },
  NotFound: { description: 'No such object, page or cursor.', content: json(ref('schemas', 'Error')) },
  Throttled: {
    description: 'Too many requests: wait and try again.',
    headers: { 'Retry-After': ref('headers', 'Retry-After') },
    content: json(ref('schemas', 'Error')),
  },
}

const v3Headers = { Deprecation: ref('headers', 'Deprecation'), Sunset: ref('headers', 'Sunset'), Link: ref('headers', 'Link') }

const needsAuth = (r: ResourceDef) => r.access === 'authenticated' || r.access === 'owner'

function accessNote(r: ResourceDef): string {
  switch (r.access) {
    case 'authenticated': return 'Requires authentication.'
    case 'owner': return 'Requires authentication; each user sees only their own rows.'
    case 'published': return 'Anyone sees published rows; a signed-in user also sees their own.'
    default: return 'Open to anyone.'
  }
}

/** The version root: each name it lists → its list URL (v3 lists the names v4 had before). */
function rootSchema(version: ApiVersion): JsonSchema {
  const url = (name: string) => ({ type: 'string', format: 'uri', pattern: `/api/rest/${version}/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/$` })
  const names = [...V4_ROOT_NAMES].sort()
  if (version === 'v4') return { type: 'object', properties: Object.fromEntries(names.map((n) => [n, url(n)])), required: names, additionalProperties: false }
  return { type: 'object', propertyNames: { enum: names }, additionalProperties: { type: 'string', format: 'uri', pattern: `/api/rest/${version}/` } }
}

export function toOpenApi(cat: Catalogue, opts: OpenApiOptions = {}): OpenApiDocument {
  const apiResources = cat.resources.filter((r) => r.api)
  const schemas: [string, unknown][] = [
    ['Error', ERROR_SCHEMAS.detail], ['FieldErrors', ERROR_SCHEMAS.fields], ['UnknownParams', ERROR_SCHEMAS.unknownParams], ['Count', COUNT_ANSWER],
  ]
  const parameters: [string, unknown][] = Object.entries(FRAMEWORK_PARAMS).map(([k, p]) => [k, asParameter(p)])
  const paths: Record<string, Record<string, unknown>> = {}
  const tags: { name: string; description: string }[] = []
  const lookupTarget = cat.has(CITATION_LOOKUP_RESOURCE) ? cat.get(CITATION_LOOKUP_RESOURCE) : undefined

  // Filter and ordering parameters are the same in both versions: one component each.
  const filterRefs = new Map<string, unknown[]>()
  for (const r of apiResources) {
    const refs: unknown[] = []
    if (r.orderings.length) {
      const orderName = `${safeName(r.name)}.order_by`
      parameters.push([orderName, asParameter(orderByParam(r))])
      refs.push(ref('parameters', orderName))
    }
    for (const p of filterParams(cat, r)) {
      const id = `${safeName(r.name)}.${safeName(p.name)}`
      parameters.push([id, asParameter(p)])
      refs.push(ref('parameters', id))
    }
    filterRefs.set(r.name, refs)
    tags.push({ name: r.name, description: r.description })
  }

  for (const version of API_VERSIONS) {
    const set = resourceSchemas(cat, lookupTarget ? [...apiResources, lookupTarget] : apiResources, { version, refPrefix: '#/components/schemas/' })
    schemas.push(...Object.entries(set.schemas))
    const deprecated = version === 'v3' ? { deprecated: true } : {}
    const okHeaders = version === 'v3' ? { headers: v3Headers } : {}
    const prefix = `/api/rest/${version}`

    for (const r of apiResources) {
      const item = ref('schemas', set.roots[r.name])
      const base = `${prefix}/${pathOf(r)}/`
      const security = needsAuth(r) ? AUTHENTICATED : OPTIONAL_AUTH
      const unauthorized = needsAuth(r) ? ref('responses', 'Unauthorized') : ref('responses', 'BadCredentials')
      const selection = version === 'v4' ? [ref('parameters', 'fields'), ref('parameters', 'omit')] : [ref('parameters', 'fields'), ref('parameters', 'fields_exclude')]
      const paging = [
        ref('parameters', 'page'),
        ...(r.pageSizeQuery ? [ref('parameters', 'page_size')] : []),
        ...(version === 'v4' && hasCursor(r) ? [ref('parameters', 'cursor')] : []),
        ...(version === 'v4' ? [ref('parameters', 'count')] : []),
      ]
      const listOk = version === 'v4'
        ? { oneOf: [...(hasCursor(r) ? [cursorEnvelope(item)] : []), pageEnvelope(item), ref('schemas', 'Count')] }
        : pageEnvelope(item)
      const pagination = version === 'v3'
        ? 'Pages by number (`count` is an integer).'
        : hasCursor(r)
          ? 'Pages by cursor when ordered by a single cursor-capable field (`count` is then the URL that answers the count), by number otherwise (`count` is an integer). `count=on` answers only the count.'
          : 'Pages by number (`count` is an integer). `count=on` answers only the count.'
      const listDescription = [
        r.description, accessNote(r), pagination,
        'Every filter accepts a `!` suffix on its name to negate it (`name!=value`). Related filters chain with `__` through up to ' +
          `${MAX_RELATED_HOPS} related resources (\`a__b__c__field__lookup\`); those one hop away are listed.`,
        ...(version === 'v3' ? ['Deprecated: use v4.'] : []),
      ].join('\n\n')
      paths[base] = {
        get: {
          operationId: `${version}.${r.name}.list`, tags: [r.name], summary: `List ${r.plural}`, description: listDescription, ...deprecated, security,
          parameters: [...selection, ...paging, ref('parameters', 'format'), ...filterRefs.get(r.name)!],
          responses: {
            200: { description: `${r.plural}, a page at a time.`, ...okHeaders, content: json(listOk) },
            400: ref('responses', 'BadRequest'), 401: unauthorized, 404: ref('responses', 'NotFound'), 429: ref('responses', 'Throttled'),
          },
        },
      }
      paths[`${base}{id}/`] = {
        get: {
          operationId: `${version}.${r.name}.retrieve`, tags: [r.name], summary: `One ${r.label}`,
          description: [r.description, accessNote(r), ...(version === 'v3' ? ['Deprecated: use v4.'] : [])].join('\n\n'), ...deprecated, security,
          parameters: [
            { name: 'id', in: 'path', required: true, description: `The ${r.label}'s id.`, schema: keySchema(r) },
            ...selection, ref('parameters', 'format'),
          ],
          responses: {
            200: { description: `The ${r.label}.`, ...okHeaders, content: json(item) },
            401: unauthorized, 404: ref('responses', 'NotFound'), 429: ref('responses', 'Throttled'),
          },
        },
      }
    }

    paths[`${prefix}/`] = {
      get: {
        operationId: `${version}.root`, tags: ['root'], summary: 'The resources of this version',
        description: `Every resource name of ${version} with its URL.${version === 'v3' ? '\n\nDeprecated: use v4.' : ''}`, ...deprecated, security: OPTIONAL_AUTH,
        parameters: [ref('parameters', 'format')],
        responses: {
          200: { description: 'Resource name → list URL.', ...okHeaders, content: json(rootSchema(version)) },
          401: ref('responses', 'BadCredentials'), 429: ref('responses', 'Throttled'),
        },
      },
    }

    if (lookupTarget) {
      const lookupItem = {
        type: 'object',
        properties: {
          citation: { type: 'string', description: 'The citation as written (or volume, reporter and page).' },
          normalized_citations: { type: 'array', items: { type: 'string' }, description: 'The citation with its reporter in canonical form (several when the reporter is ambiguous).' },
          start_index: { type: 'integer', minimum: 0 },
          end_index: { type: 'integer', minimum: 0 },
          status: { type: 'integer', enum: [200, 300, 400, 404, 429], description: '200 one match, 300 several, 400 unknown reporter, 404 no match, 429 past the per-request cap (not looked up).' },
          error_message: { type: 'string' },
          clusters: { type: 'array', items: ref('schemas', set.roots[lookupTarget.name]) },
        },
        required: ['citation', 'normalized_citations', 'start_index', 'end_index', 'status', 'error_message', 'clusters'],
        additionalProperties: false,
      }
      const body = {
        oneOf: [
          { type: 'object', properties: { text: { type: 'string', maxLength: CITATION_TEXT_LIMIT } }, required: ['text'], additionalProperties: false },
          {
            type: 'object',
            properties: { volume: { type: ['integer', 'string'], pattern: '^\\s*\\d+\\s*$' }, reporter: { type: 'string', maxLength: 100 }, page: { type: ['string', 'integer'] } },
            required: ['volume', 'reporter', 'page'], additionalProperties: false,
          },
        ],
      }
      paths[`${prefix}/citation-lookup/`] = {
        post: {
          operationId: `${version}.citation-lookup`, tags: ['citation-lookup'], summary: 'Look up citations',
          description: `Finds every case citation in a text (or looks up one volume, reporter and page) and says for each whether it names ${lookupTarget.plural} held here. Requires authentication; throttled by the number of citations looked up.${version === 'v3' ? '\n\nDeprecated: use v4.' : ''}`,
          ...deprecated, security: AUTHENTICATED,
          requestBody: { required: true, content: { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } } },
          responses: {
            200: { description: 'One item per citation found, in text order.', ...okHeaders, content: json({ type: 'array', items: lookupItem }) },
            400: { description: 'The request is not valid (field-keyed messages).', content: json(ref('schemas', 'FieldErrors')) },
            401: ref('responses', 'Unauthorized'),
            429: {
              description: 'Too many citations looked up: wait until `wait_until` (or Retry-After for the request throttle).',
              headers: { 'Retry-After': ref('headers', 'Retry-After') },
              content: json({
                oneOf: [
                  ref('schemas', 'Error'),
                  { type: 'object', properties: { error_message: { type: 'string' }, wait_until: { type: 'string', format: 'date-time' } }, required: ['error_message', 'wait_until'], additionalProperties: false },
                ],
              }),
            },
          },
        },
      }
    }
  }

  paths['/api/rest/v4/schema/'] = {
    get: {
      operationId: 'v4.schema', tags: ['root'], summary: 'This document',
      description: 'The OpenAPI description of this API.', security: OPTIONAL_AUTH,
      responses: { 200: { description: 'An OpenAPI 3.1 document.', content: json({ type: 'object' }) }, 429: ref('responses', 'Throttled') },
    },
  }

  tags.push({ name: 'root', description: 'The version roots and this description.' })
  if (lookupTarget) tags.push({ name: 'citation-lookup', description: 'Check citations in a text against the case law held here.' })

  return {
    openapi: '3.1.0',
    info: {
      title: 'Legal data API',
      version: '4',
      summary: 'Case law, dockets, oral arguments, judges and their disclosures, and the citation network of U.S. courts.',
      description: 'Read access to U.S. court data, compatible with the reference service\'s REST API v4 (current) and v3 (deprecated).',
    },
    servers: [{ url: opts.serverUrl ?? '/' }],
    tags: tags.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    paths: byKey(Object.entries(paths)),
    components: {
      schemas: byKey(schemas),
      parameters: byKey(parameters),
      responses: byKey(Object.entries(RESPONSES)),
      headers: byKey(Object.entries(HEADERS)),
      securitySchemes: byKey(Object.entries(SECURITY_SCHEMES)),
    },
  }
}
