/**
 * The JSON Schemas of responses, derived from the catalogue: field kinds, nullability, choices,
 * relations as URLs or referenced objects, the embed depth, the list envelopes and error bodies.
 * Each schema is also compiled with Ajv (2020-12) and tried on hand-written answers.
 */
import t from 'tap'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { catalogue, buildCatalogue } from '../../../schemas/catalogue/index.js'
import { defineResource, field as ft, filter as f, N } from '../../../schemas/define.js'
import {
  resourceSchema, resourceSchemas, listSchemas, renderedFields, nestingHeight, schemaName, EMBED_DEPTH, ERROR_SCHEMAS,
} from '../../../schemas/json-schema.js'
import type { JsonSchema } from '../../../schemas/kinds.js'
import type { RequestContext } from '../../../api/engine/context.js'

const ajv = new Ajv2020.default({ strict: true, allowUnionTypes: true, allErrors: true })
addFormats.default(ajv)
const validator = (s: JsonSchema) => ajv.compile(s)

const defs = (s: JsonSchema) => s.$defs as Record<string, JsonSchema>
const props = (s: JsonSchema) => s.properties as Record<string, JsonSchema>
/** The top object of a self-contained resource schema. */
const top = (s: JsonSchema) => defs(s)[String(s.$ref).replace('#/$defs/', '')]

t.test('courts: a string key, links to courts, choices, every key required, nothing else', async (t) => {
  const s = resourceSchema(catalogue, catalogue.get('courts'), { version: 'v4' })
  t.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema')
  t.equal(s.$ref, '#/$defs/v4.courts')
  const o = top(s)
  const p = props(o)
  t.same(p.id, { type: 'string' }, 'the key keeps its JSON type: a string')
  t.same(o.required, renderedFields(catalogue.get('courts')).map(([n]) => n), 'every rendered key, in order')
  t.equal(o.additionalProperties, false)
  t.match(p.resource_uri, { type: 'string', format: 'uri', pattern: '/api/rest/v4/courts/[^/?#]+/$' })
  t.match(p.parent_court, { type: ['string', 'null'], format: 'uri', pattern: '/api/rest/v4/courts/' }, 'a nullable foreign key')
  t.match(p.appeals_to, { type: 'array', items: { type: 'string', format: 'uri' } }, 'many-to-many: a list of links')
  t.match(p.start_date, { type: ['string', 'null'], format: 'date' })
  t.match(p.date_modified, { type: 'string', format: 'date-time' })
  t.match(p.position, { type: 'number' })
  t.ok((p.jurisdiction.enum as unknown[]).includes('F'), 'choices are an enum')
  t.notOk(Object.values(defs(s)).length > 1, 'courts reference no other object schema')

  const v3 = top(resourceSchema(catalogue, catalogue.get('courts'), { version: 'v3' }))
  t.match(props(v3).resource_uri, { pattern: '/api/rest/v3/courts/' }, 'v3 links point at v3')

  const ok = validator(s)
  const court: Record<string, unknown> = Object.fromEntries(renderedFields(catalogue.get('courts')).map(([n]) => [n, null]))
  Object.assign(court, {
    resource_uri: 'http://x.test/api/rest/v4/courts/scotus/', id: 'scotus', records_rss_entry_types: '', fjc_court_id: '',
    date_modified: '2024-01-01T00:00:00+00:00', in_use: true, has_opinion_scraper: false, has_oral_argument_scraper: false,
    position: 1, citation_string: 'SCOTUS', short_name: 'Supreme Court', full_name: 'Supreme Court of the United States', url: '',
    jurisdiction: 'F', appeals_to: [],
  })
  t.ok(ok(court), JSON.stringify(ok.errors))
  t.notOk(ok({ ...court, extra: 1 }), 'an unknown key is refused')
  const { url: _url, ...missing } = court
  t.notOk(ok(missing), 'a missing key is refused')
  t.notOk(ok({ ...court, parent_court: 'http://x.test/api/rest/v4/dockets/1/' }), 'a link to the wrong resource is refused')
  t.notOk(ok({ ...court, id: 5 }), 'an integer id is refused for a string key')
  t.ok(resourceSchemas(catalogue, [catalogue.get('courts')], { version: 'v4', partial: true }).schemas['v4.courts'].required === undefined, 'partial: no required keys')
})

t.test('dockets: foreign keys, raw ids, reverse links, many-to-many, embedded objects', async (t) => {
  const dockets = catalogue.get('dockets')
  const s = resourceSchema(catalogue, dockets, { version: 'v4' })
  const p = props(top(s))
  t.match(p.court, { type: 'string', format: 'uri', pattern: '/api/rest/v4/courts/' })
  t.same(p.court_id, { type: 'string' }, 'fk_id: the raw id, typed by the related key (courts: string)')
  t.match(p.clusters, { type: 'array', items: { format: 'uri', pattern: '/api/rest/v4/clusters/' } }, 'reverse: a list of links')
  t.match(p.tags, { type: 'array', items: { format: 'uri' } }, 'm2m: a list of links')
  t.match(p.bankruptcy_information, { type: ['string', 'null'], format: 'uri' }, 'a single reverse link: one URL or null')
  t.match(p.absolute_url, { type: 'string', format: 'uri-reference' }, 'absolute_url: the website path')
  const embedded = p.original_court_info.anyOf as JsonSchema[]
  t.same(embedded, [{ $ref: `#/$defs/${schemaName('v4', catalogue.get(dockets.fields.original_court_info.target!))}` }, { type: 'null' }], 'embedded fk: the related object or null')
  t.ok(defs(s)[schemaName('v4', catalogue.get(dockets.fields.original_court_info.target!))], 'the embedded schema is included')
  for (const [name, d] of Object.entries(dockets.fields)) if (d.hidden || d.writeOnly) t.notOk(name in p, `${name} is not rendered`)
  t.ok(validator(s), 'compiles')
})

t.test('people: nested lists of objects of the related resource', async (t) => {
  const people = catalogue.get('people')
  const s = resourceSchema(catalogue, people, { version: 'v4' })
  const p = props(top(s))
  t.same(p.educations, { type: 'array', items: { $ref: '#/$defs/v4.educations' } })
  t.same(p.race, { type: 'array', items: { type: 'string' } })
  const educations = defs(s)['v4.educations']
  t.match(props(educations).school, { anyOf: [{ $ref: '#/$defs/v4.schools' }, { type: 'null' }] }, 'an embedded school inside a nested education')
  t.match(p.positions, { type: 'array', items: { pattern: '/api/rest/v4/positions/' } })
  t.match(p.is_alias_of, { type: ['string', 'null'] })
  t.match(p.date_dob, { type: ['string', 'null'], format: 'date' })
  t.ok((p.gender.enum as unknown[]).includes(''), 'a choice field without a value renders its empty value')
  t.ok(validator(s), 'compiles')
})

t.test('positions: embedded objects whose own nesting fits in the embed depth', async (t) => {
  const s = resourceSchema(catalogue, catalogue.get('positions'), { version: 'v4' })
  const p = props(top(s))
  t.same(p.person, { anyOf: [{ $ref: '#/$defs/v4.people' }, { type: 'null' }] })
  t.same(p.court, { anyOf: [{ $ref: '#/$defs/v4.courts' }, { type: 'null' }] })
  t.match(p.appointer, { type: ['string', 'null'], format: 'uri', pattern: '/api/rest/v4/positions/' }, 'a plain fk stays a link')
  t.ok(nestingHeight(catalogue, catalogue.get('positions')) <= EMBED_DEPTH, 'people inside positions are complete')
  t.notOk(Object.keys(defs(s)).some((n) => n.includes('.depth')), 'no cut-short variants needed')
  t.ok(validator(s), 'compiles')
})

/** A tree that nests itself (a loop), with a hidden, a write-only, a constant and a cut-down nested field. */
const node = defineResource({
  name: 'nodes', label: 'Node', model: 'Node', plural: 'Nodes', table: 'nodes', keyKind: 'int', description: 'A tree.', cursorOrderings: ['id'],
  fields: {
    id: ft.int(), parent: ft.fk('nodes', { nullable: true, embed: true }), children: ft.nested('nodes', 'parent_id'),
    secret: ft.string({ hidden: true }), password: ft.string({ writeOnly: true }), kind: ft.const('node'),
    leaves: ft.nested('leaves', 'node_id', { only: ['id', 'label', 'missing'] }),
  },
  filters: { id: f.int }, orderings: ['id'],
})
const leaf = defineResource({
  name: 'leaves', label: 'Leaf', model: 'Leaf', plural: 'Leaves', table: 'leaves', keyKind: 'int', description: '', api: false, cursorOrderings: ['id'],
  fields: { id: ft.int(), node: ft.fk('nodes'), label: ft.string(), weight: ft.float(N) },
  filters: {}, orderings: ['id'],
})
const cat = buildCatalogue([node, leaf])

t.test('nesting deeper than the embed depth: cut-short schemas, empty lists, links', async (t) => {
  t.equal(nestingHeight(cat, node), Infinity, 'a loop')
  const set = resourceSchemas(cat, [node], { version: 'v4' })
  t.same(Object.keys(set.schemas), ['v4.nodes', 'v4.nodes.depth1', 'v4.nodes.depth2', 'v4.nodes.depth3'])
  const d0 = props(set.schemas['v4.nodes'])
  t.same(d0.children, { type: 'array', items: { $ref: '#/$defs/v4.nodes.depth1' } })
  t.same(d0.kind, { const: 'node' })
  t.notOk('secret' in d0 || 'password' in d0, 'hidden and write-only fields are left out')
  t.same(props(d0.leaves.items as JsonSchema), { id: { type: 'integer' }, label: { type: 'string' } }, '`only` keeps the listed keys that are rendered, inline')
  t.same((d0.leaves.items as JsonSchema).required, ['id', 'label'])
  const d3 = props(set.schemas['v4.nodes.depth3'])
  t.match(d3.children, { type: 'array', maxItems: 0 }, 'past the depth nested lists are empty')
  t.match(d3.parent, { type: ['string', 'null'], format: 'uri' }, 'past the depth embedded rows are links')
})

t.test('list envelopes and error bodies', async (t) => {
  const dockets = listSchemas(catalogue, catalogue.get('dockets'))
  const courts = listSchemas(catalogue, catalogue.get('courts'))
  t.equal(courts.cursor, null, 'courts never page by cursor')
  t.ok(dockets.cursor, 'dockets page by cursor in v4')
  const url = 'http://x.test/api/rest/v4/dockets/?count=on'
  t.ok(validator(dockets.cursor!)({ count: url, next: null, previous: null, results: [] }))
  t.notOk(validator(dockets.cursor!)({ count: 3, next: null, previous: null, results: [] }), 'cursor mode: count is a URL')
  t.ok(validator(dockets.page.v4)({ count: 3, next: 'http://x.test/api/rest/v4/dockets/?page=2', previous: null, results: [] }))
  t.notOk(validator(dockets.page.v3)({ count: 3, next: null, previous: null, results: [], document_count: 1 }), 'only the four envelope keys')
  t.ok(validator(dockets.count)({ count: 0 }))
  t.notOk(validator(dockets.count)({ count: 0, results: [] }))
  const v4 = validator(dockets.list.v4)
  t.ok(v4({ count: url, next: null, previous: null, results: [] }) && v4({ count: 1, next: null, previous: null, results: [] }) && v4({ count: 1 }), 'v4: any of the three')
  t.notOk(validator(dockets.list.v3)({ count: 1 }), 'v3 has no count=on')
  t.notOk(validator(courts.list.v4)({ count: 'http://x.test/api/rest/v4/courts/?count=on', next: null, previous: null, results: [] }), 'no cursor envelope for courts')
  const bad = validator(dockets.errors.badRequest)
  t.ok(bad({ detail: 'Unknown filter parameters are not allowed.', unknown_params: ['a', 'b'] }))
  t.ok(bad({ date_filed__gte: ['Enter a valid date.'] }))
  t.notOk(bad({ detail: 'x' }), 'a bare detail is not a 400 of a list')
  t.ok(validator(dockets.errors.detail)({ detail: 'Invalid cursor' }))
  t.same(ERROR_SCHEMAS.detail.required, ['detail'])
})

t.test('every resource of the catalogue has a schema that compiles, in both versions', async (t) => {
  for (const r of catalogue.resources.filter((x) => x.api)) {
    for (const version of ['v4', 'v3'] as const) {
      const s = resourceSchema(catalogue, r, { version })
      t.doesNotThrow(() => validator(s), `${version} ${r.name}`)
      t.same(top(s).required, renderedFields(r).map(([n]) => n), `${version} ${r.name}: every rendered key`)
    }
  }
})

t.test('the serializer agrees with the schema, past the embed depth too', async (t) => {
  const { compileSerializers } = await import('../../../api/engine/serialize.js')
  const row = { id: 1, parent_id: 1, node_id: 1, label: 'x', weight: null, secret: 's', password: 'p' }
  // Every query answers the same row: each node is its own parent and child, as deep as allowed.
  const db = { database: 'db', query: async () => [{ ...row }] }
  const ctx = { db, catalogue: cat, origin: 'http://x.test', version: 'v4' } as unknown as RequestContext
  const [obj] = await compileSerializers(cat).get('nodes')!([{ ...row }], ctx)
  const ok = validator(resourceSchema(cat, node, { version: 'v4' }))
  t.ok(ok(obj), JSON.stringify(ok.errors))
  const o = obj as any
  t.same(o.children[0].children[0].children[0].children, [], 'nothing nested at depth 3')
  t.equal(o.parent.parent.parent.parent, 'http://x.test/api/rest/v4/nodes/1/', 'an embedded row at depth 3 is a link')
  t.same(o.leaves, [{ id: 1, label: 'x' }])
})
