import t from 'tap'
import Fastify, { type FastifyInstance } from 'fastify'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { installErrorHandling } from '../../../api/plugins/errors.js'
import { installNegotiation } from '../../../api/plugins/negotiation.js'
import { LdsError } from '../../../core/errors.js'

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
const page = {
  count: 2, next: 'http://localhost/api/rest/v4/dockets/?page=2', previous: null,
  results: [{ id: 1, case_name: 'Roe v. Wade', blocked: false }, { id: 2, case_name: 'A <b> & C', blocked: true }],
}
const xml = new XMLParser({ parseTagValue: false, isArray: (n) => n === 'list-item' })

async function buildApp(): Promise<FastifyInstance> {
  const app = Fastify()
  installErrorHandling(app)
  installNegotiation(app)
  // Fails like auth does, in a hook that runs after negotiation.
  app.addHook('preHandler', async (req) => {
    if (req.headers.authorization === 'Token bad') throw new LdsError('LDS_ERR_INVALID_TOKEN')
  })
  app.get('/api/rest/v4/dockets/', async () => page)
  app.get('/api/rest/v4/dockets/:id/', async () => {
    throw new LdsError('LDS_ERR_NOT_FOUND', { detail: 'No Docket matches the given query.' })
  })
  app.get('/boom', async () => { throw new Error('secret internals') })
  app.get('/text', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('plain <text>'))
  app.get('/cached', async (_req, reply) => reply.type('application/json; charset=utf-8').send('{"cached":true}'))
  app.get('/schema', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'integer' } } } } } }, async () => ({ a: 1, hidden: 2 }))
  app.get('/empty', async (_req, reply) => reply.code(204).send())
  await app.ready()
  return app
}

t.test('plain JSON is left to Fastify: default type, compact body, response schema applied', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/plain']) {
    const res = await app.inject({ url: '/api/rest/v4/dockets/', headers: accept ? { accept } : {} })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', `Accept: ${accept}`)
    t.equal(res.headers.vary, 'Accept')
    t.equal(res.body, JSON.stringify(page))
  }
  const schema = await app.inject({ url: '/schema' })
  t.equal(schema.body, '{"a":1}', 'the route’s serializer still runs')
})

t.test('application/json; indent=N pretty-prints as the reference does', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  const res = await app.inject({ url: '/api/rest/v4/dockets/', headers: { accept: 'application/json; indent=4' } })
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(res.body, JSON.stringify(page, null, 4))
  t.match(res.body, '\n    "count": 2,\n')
  const two = await app.inject({ url: '/api/rest/v4/dockets/?format=json', headers: { accept: 'application/json; indent=2' } })
  t.equal(two.body, JSON.stringify(page, null, 2))
  const err = await app.inject({ url: '/api/rest/v4/dockets/9/', headers: { accept: 'application/json; indent=4' } })
  t.equal(err.statusCode, 404)
  t.equal(err.body, '{\n    "detail": "No Docket matches the given query."\n}')
})

t.test('XML by Accept or ?format=xml, for results and errors alike', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  for (const req of [{ url: '/api/rest/v4/dockets/', headers: { accept: 'application/xml' } }, { url: '/api/rest/v4/dockets/', headers: { accept: 'text/xml' } }, { url: '/api/rest/v4/dockets/?format=xml', headers: { accept: BROWSER } }]) {
    const res = await app.inject(req)
    t.equal(res.statusCode, 200)
    t.equal(res.headers['content-type'], 'application/xml; charset=utf-8')
    t.equal(res.headers.vary, 'Accept')
    t.equal(XMLValidator.validate(res.body), true)
    const root = xml.parse(res.body).root
    t.equal(root.count, '2')
    t.equal(root.results['list-item'][1].case_name, 'A <b> & C')
    t.equal(root.results['list-item'][1].blocked, 'True')
  }
  const cases: [string, number, string, Record<string, string>?][] = [
    ['/api/rest/v4/dockets/9/?format=xml', 404, 'No Docket matches the given query.'],
    ['/nowhere/?format=xml', 404, 'Not found.'],
    ['/api/rest/v4/dockets/?format=xml', 401, 'Invalid token.', { authorization: 'Token bad' }],
    ['/boom?format=xml', 500, 'Internal Server Error. Please try again later.'],
  ]
  for (const [url, status, detail, headers] of cases) {
    const res = await app.inject({ url, headers })
    t.equal(res.statusCode, status, url)
    t.equal(res.headers['content-type'], 'application/xml; charset=utf-8', url)
    t.equal(res.body, `<?xml version="1.0" encoding="utf-8"?>\n<root><detail>${detail}</detail></root>`, url)
  }
})

t.test('the browsable page for browsers and ?format=api, errors included', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  for (const req of [{ url: '/api/rest/v4/dockets/', headers: { accept: BROWSER } }, { url: '/api/rest/v4/dockets/?format=api', headers: {} }]) {
    const res = await app.inject(req)
    t.equal(res.statusCode, 200)
    t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    t.match(res.body, /^<!DOCTYPE html>/)
    t.match(res.body, '<span class="k">&quot;count&quot;</span>: <span class="m">2</span>')
  }
  const missing = await app.inject({ url: '/api/rest/v4/dockets/9/', headers: { accept: BROWSER } })
  t.equal(missing.statusCode, 404)
  t.equal(missing.headers['content-type'], 'text/html; charset=utf-8')
  t.match(missing.body, 'HTTP 404 Not Found')
  t.match(missing.body, 'No Docket matches the given query.')
})

t.test('refusals: 406 for an Accept nothing satisfies, 404 for an unknown format, both in JSON', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  const res = await app.inject({ url: '/api/rest/v4/dockets/', headers: { accept: 'image/png' } })
  t.equal(res.statusCode, 406)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.same(res.json(), { detail: 'Could not satisfy the request Accept header.' })
  const unknown = await app.inject({ url: '/api/rest/v4/dockets/?format=yaml' })
  t.equal(unknown.statusCode, 404)
  t.same(unknown.json(), { detail: 'Not found.' })
})

t.test('pre-serialized JSON is re-rendered; other strings and empty bodies pass through', async (t) => {
  const app = await buildApp()
  t.teardown(() => app.close())
  const cached = await app.inject({ url: '/cached?format=xml' })
  t.equal(cached.body, '<?xml version="1.0" encoding="utf-8"?>\n<root><cached>True</cached></root>')
  const text = await app.inject({ url: '/text?format=xml' })
  t.equal(text.headers['content-type'], 'text/plain; charset=utf-8')
  t.equal(text.body, 'plain <text>')
  const empty = await app.inject({ url: '/empty?format=api' })
  t.equal(empty.statusCode, 204)
  t.equal(empty.body, '')
})

t.test('errors from hooks installed before the plugin are rendered as asked too', async (t) => {
  const app = Fastify()
  installErrorHandling(app)
  app.addHook('onRequest', async (req) => {
    if (req.headers.authorization) throw new LdsError('LDS_ERR_INVALID_TOKEN')
  })
  installNegotiation(app)
  app.get('/x', async () => ({ ok: true }))
  await app.ready()
  t.teardown(() => app.close())
  const res = await app.inject({ url: '/x?format=xml', headers: { authorization: 'Token bad' } })
  t.equal(res.statusCode, 401)
  t.equal(res.headers['content-type'], 'application/xml; charset=utf-8')
  t.equal(res.headers.vary, 'Accept')
  t.equal(res.body, '<?xml version="1.0" encoding="utf-8"?>\n<root><detail>Invalid token.</detail></root>')
  const indented = await app.inject({ url: '/x', headers: { authorization: 'Token bad', accept: 'application/json; indent=2' } })
  t.equal(indented.body, '{\n  "detail": "Invalid token."\n}')
  const plain = await app.inject({ url: '/x', headers: { authorization: 'Token bad' } })
  t.equal(plain.body, '{"detail":"Invalid token."}')
  t.equal((await app.inject({ url: '/x?format=xml' })).body, '<?xml version="1.0" encoding="utf-8"?>\n<root><ok>True</ok></root>')
})
