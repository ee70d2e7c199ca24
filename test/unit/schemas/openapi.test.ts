/**
 * The OpenAPI document generated from the catalogue: valid OpenAPI 3.1 (checked by a real
 * validator), complete (every API resource, every filter with every lookup, related filters one
 * hop away, orderings), deterministic, and served at /api/rest/v4/schema/.
 */
import t from 'tap'
import Fastify from 'fastify'
import { Validator } from '@seriousme/openapi-schema-validator'
import { catalogue, type Catalogue } from '../../../schemas/catalogue/index.js'
import { toOpenApi } from '../../../schemas/openapi.js'
import { registerOpenApi } from '../../../api/routes/openapi.js'
import type { ResourceDef } from '../../../schemas/define.js'

type Obj = Record<string, any>
const doc: Obj = toOpenApi(catalogue, { serverUrl: 'http://x.test' })
const FRAMEWORK = new Set(['fields', 'omit', 'page', 'page_size', 'cursor', 'order_by', 'format', 'count', 'fields!'])
const api = catalogue.resources.filter((r) => r.api)
const path = (r: ResourceDef) => r.path ?? r.name

/** An operation's parameters with $refs resolved. */
function paramsOf(op: Obj): Map<string, Obj> {
  return new Map((op.parameters as Obj[]).map((p) => {
    const resolved = p.$ref ? doc.components.parameters[String(p.$ref).replace('#/components/parameters/', '')] as Obj : p
    return [resolved.name as string, resolved]
  }))
}

/** The query names a resource's own filters accept, written out from the catalogue. */
function expectedFilterNames(r: ResourceDef): string[] {
  const out: string[] = []
  for (const [name, fd] of Object.entries(r.filters)) {
    if (FRAMEWORK.has(name)) continue
    if (fd.related || fd.flag) { out.push(name); continue }
    for (const lookup of fd.lookups ?? ['exact']) out.push(lookup === 'exact' ? name : `${name}__${lookup}`)
  }
  return out
}

t.test('the document is valid OpenAPI 3.1', async (t) => {
  const result = await new Validator().validate(structuredClone(doc))
  t.same(result.errors ?? [], [], 'no validation errors')
  t.equal(result.valid, true)
  t.equal(doc.openapi, '3.1.0')
  t.same(doc.servers, [{ url: 'http://x.test' }])
})

t.test('every API resource has list and detail operations in v4 and v3', async (t) => {
  for (const r of api) {
    for (const version of ['v4', 'v3']) {
      const list = doc.paths[`/api/rest/${version}/${path(r)}/`]?.get as Obj | undefined
      const detail = doc.paths[`/api/rest/${version}/${path(r)}/{id}/`]?.get as Obj | undefined
      t.ok(list, `${version} ${r.name} list`)
      t.ok(detail, `${version} ${r.name} detail`)
      if (!list || !detail) continue
      t.same(list.tags, [r.name])
      t.equal(!!list.deprecated, version === 'v3', 'v3 is deprecated')
      const id = (detail.parameters as Obj[]).find((p) => p.in === 'path')
      t.same(id?.schema, { type: r.keyKind === 'string' ? 'string' : 'integer' }, `${r.name}: id typed by its key`)
      t.ok(list.responses[200] && list.responses[400] && list.responses[401] && list.responses[404] && list.responses[429], 'list answers')
      t.ok(detail.responses[200] && detail.responses[404], 'detail answers')
      const needsAuth = r.access === 'authenticated' || r.access === 'owner'
      t.equal((list.security as Obj[]).some((s) => Object.keys(s).length === 0), !needsAuth, `${r.name}: anonymous access ${needsAuth ? 'refused' : 'allowed'}`)
      t.equal(list.responses[401].$ref, needsAuth ? '#/components/responses/Unauthorized' : '#/components/responses/BadCredentials')
    }
  }
  for (const r of catalogue.resources.filter((x) => !x.api)) t.notOk(doc.paths[`/api/rest/v4/${path(r)}/`], `${r.name} is internal`)
  t.ok(doc.paths['/api/rest/v4/']?.get, 'the v4 root')
  t.ok(doc.paths['/api/rest/v4/citation-lookup/']?.post, 'citation lookup')
  t.ok(doc.paths['/api/rest/v4/schema/']?.get, 'this document')
  t.same(Object.keys(doc.components.securitySchemes), ['basicAuth', 'bearerAuth', 'tokenAuth'])
  t.match(doc.components.securitySchemes.tokenAuth, { type: 'apiKey', in: 'header', name: 'Authorization' })
  const ids = Object.values(doc.paths).flatMap((p) => Object.values(p as Obj).map((op) => (op as Obj).operationId))
  t.equal(new Set(ids).size, ids.length, 'operation ids are unique')
})

t.test('every filter with each of its lookups, related filters one hop away, orderings', async (t) => {
  for (const r of api) {
    const v4 = paramsOf(doc.paths[`/api/rest/v4/${path(r)}/`].get)
    const v3 = paramsOf(doc.paths[`/api/rest/v3/${path(r)}/`].get)
    const missing = expectedFilterNames(r).filter((n) => !v4.has(n) || !v3.has(n))
    t.same(missing, [], `${r.name}: every filter and lookup is a parameter`)
    for (const [name, fd] of Object.entries(r.filters)) {
      if (!fd.related) continue
      const target = catalogue.get(fd.related)
      const through = expectedFilterNames(target).map((n) => `${name}__${n}`).filter((n) => !v4.has(n))
      t.same(through, [], `${r.name}: filters of ${target.name} under ${name}__`)
    }
    if (r.orderings.length) t.same(v4.get('order_by')?.schema.items.enum, r.orderings.flatMap((o) => [o, `-${o}`]), `${r.name}: orderings with and without -`)
    else t.notOk(v4.has('order_by'), `${r.name}: no orderings, no order_by`)
    for (const n of ['fields', 'omit', 'page', 'count', 'format']) t.ok(v4.has(n), `v4 ${n}`)
    t.equal(v4.has('cursor'), r.cursorOrderings.length > 0, 'cursor where the resource pages by cursor')
    t.equal(v4.has('page_size'), r.pageSizeQuery === true, 'page_size where the resource takes it (not archive-query: fixed at 300)')
    for (const n of ['fields', 'fields!', 'page', 'format']) t.ok(v3.has(n), `v3 ${n}`)
    t.notOk(v3.has('count') || v3.has('cursor') || v3.has('omit'), 'v3 has no count, cursor or omit')
  }
  // Shapes of a few parameters.
  const courts = paramsOf(doc.paths['/api/rest/v4/courts/'].get)
  t.same(courts.get('id')?.schema, { type: 'string' }, 'a string key filters by string')
  t.match(courts.get('position__range'), { style: 'form', explode: false, schema: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number' } } })
  t.match(courts.get('start_date__year'), { schema: { type: 'integer' } })
  t.match(courts.get('jurisdiction'), { explode: true, schema: { type: 'array', items: { enum: ['F'] } } }, 'a multiple-choice filter')
  const dockets = paramsOf(doc.paths['/api/rest/v4/dockets/'].get)
  t.ok(dockets.has('court__full_name__startswith') && dockets.has('court__id'), 'related filters one hop away')
  t.match(dockets.get('date_created__gte')?.schema, { type: 'string', pattern: String })
})

t.test('answers reference the response schemas', async (t) => {
  const list = doc.paths['/api/rest/v4/dockets/'].get
  const variants = list.responses[200].content['application/json'].schema.oneOf as Obj[]
  t.equal(variants.length, 3, 'cursor, page and count')
  t.same(variants[0].properties.results.items, { $ref: '#/components/schemas/v4.dockets' })
  t.same(doc.paths['/api/rest/v4/courts/'].get.responses[200].content['application/json'].schema.oneOf.length, 2, 'courts: page and count')
  t.same(doc.paths['/api/rest/v3/dockets/'].get.responses[200].content['application/json'].schema.properties.results.items, { $ref: '#/components/schemas/v3.dockets' })
  t.same(doc.paths['/api/rest/v4/dockets/{id}/'].get.responses[200].content['application/json'].schema, { $ref: '#/components/schemas/v4.dockets' })
  const refs = new Set<string>()
  JSON.stringify(doc, (k, v) => { if (k === '$ref') refs.add(v); return v })
  const dangling = [...refs].filter((r) => {
    const [, , kind, name] = r.split('/')
    return !(doc.components as Obj)[kind]?.[name]
  })
  t.same(dangling, [], 'every $ref resolves')
})

t.test('the document is deterministic', async (t) => {
  const again = JSON.stringify(toOpenApi(catalogue, { serverUrl: 'http://x.test' }))
  t.equal(again, JSON.stringify(doc), 'same catalogue, same bytes')
  const reversed: Catalogue = { ...catalogue, resources: [...catalogue.resources].reverse() }
  t.equal(JSON.stringify(toOpenApi(reversed, { serverUrl: 'http://x.test' })), again, 'independent of the order resources are listed in')
})

t.test('served at /api/rest/v4/schema/ with the caller as server', async (t) => {
  const app = Fastify()
  registerOpenApi(app, { catalogue })
  t.teardown(() => app.close())
  const res = await app.inject({ url: '/api/rest/v4/schema/', headers: { host: 'api.test:8000' } })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  const body = res.json()
  t.same(body.servers, [{ url: 'http://api.test:8000' }])
  t.same({ ...body, servers: doc.servers }, JSON.parse(JSON.stringify(doc)), 'the generated document')
})
