/**
 * The express lane of a detail GET (api/routes/detail-lane.ts), over a read store of its own (no
 * Kafka, no ClickHouse): a plain detail GET it answers is the answer the route gives, byte for byte
 * with the headers that matter; anything that needs more
 * than the stored text (fields, omit, another format, a conditional request, proxy headers, another
 * origin through them, an unknown token, a throttled caller, a row without a text) is left to Fastify.
 */
import t, { type Test } from 'tap'
import http from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { catalogue as cat } from '../../../schemas/catalogue/index.js'
import { openReadStore, type AppliedEvent } from '../../../api/read-model/store.js'
import { refColumnsOf, keyKindsOf } from '../../../api/read-model/refs.js'
import { listIndexesOf } from '../../../api/read-model/list-index.js'
import { createDetailRenderer, renderedResourcesOf, withOriginBytes, withOriginLatin1, ORIGIN_MARK } from '../../../api/read-model/rendered-details.js'
import { createUserDirectory } from '../../../api/read-model/users.js'
import { compileSerializers } from '../../../api/engine/serialize.js'
import { citationOverlays } from '../../../api/plugins/citation-overlays.js'
import { createDetailLane } from '../../../api/routes/detail-lane.js'
import { memoryUsage } from '../../../api/plugins/usage.js'
import { buildApp } from '../../../api/app.js'
import { hashToken } from '../../../core/tokens.js'
import { createLogger } from '../../../core/logger.js'
import { loadConfig } from '../../../core/config.js'
import type { Db } from '../../../core/clickhouse.js'

const ts = '2024-03-01T10:00:00.123456+00:00'
let version = 1
const up = (resource: string, entity: Record<string, unknown>): AppliedEvent => ({ resource, event: { op: 'upsert', version: version++, key: String(entity.id), entity } })
const docket = (id: number, extra: Record<string, unknown> = {}) => ({ id, court_id: 'scotus', case_name: `Case ${id}`, docket_number: `${id}-cv`, source: 0, date_created: ts, date_modified: ts, date_filed: '2024-01-02', panel_ids: [1], ...extra })
const user = (id: number, token: string, rate = '') => ({ id, username: `u${id}`, token_hash: hashToken(token), is_active: true, can_write: false, citation_rate: '', rate })
/** Headers an answer is compared on (Date, Connection and Keep-Alive are the server's, not the route's). */
const HEADERS = ['content-type', 'content-length', 'vary', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']
const SERVERS_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])
const namesOf = (headers: Record<string, unknown>) => Object.keys(headers).map((h) => h.toLowerCase()).filter((h) => !SERVERS_OWN.has(h)).sort()

/** A database that is never asked: every answer here comes from the read store. */
const noDb = { database: 'lane_test', query: async () => { throw new Error('no ClickHouse here') }, command: async () => { throw new Error('no ClickHouse here') }, ping: async () => false, close: async () => {} } as unknown as Db

async function setup(t: Test) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-lane-'))
  const refColumns = refColumnsOf(cat)
  const store = openReadStore(dir, refColumns, keyKindsOf(cat), listIndexesOf(cat), renderedResourcesOf(cat))
  const cfg = { ...loadConfig({ ...process.env, LOG_LEVEL: 'error' }), logLevel: 'error' as const }
  const log = createLogger(cfg)
  await store.apply([
    up('courts', { id: 'scotus', full_name: 'Supreme Court', short_name: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts }),
    up('people', { id: 1, name_last: 'Judge', slug: 'judge', date_created: ts, date_modified: ts }),
    ...[1, 2, 3, 4].map((id) => up('dockets', docket(id))),
    // Characters of two, three and four bytes in UTF-8, and a quote and backslash escaped in JSON.
    up('dockets', docket(5, { case_name: 'Müller v. Société Générale — 北京 "𝔏" \\ ok' })),
    up('clusters', { id: 101, docket_id: 1, case_name: 'Cluster', slug: 'c', date_filed: '2024-01-02', date_created: ts, date_modified: ts }),
    up('users', user(7, 'reader-token')), up('users', user(8, 'other-token')), up('users', user(9, 'tight-token', '2/hour')),
  ], [])
  await createDetailRenderer({ store, catalogue: cat, serializers: compileSerializers(cat, citationOverlays), refColumns, db: noDb, log }).drain()
  // Docket 4's text is dropped (a change not rendered yet): requests build it.
  await store.apply([up('dockets', docket(4, { case_name: 'Changed' }))], [])
  const readModel = { store, start: async () => {}, stop: async () => {}, waitUntilApplied: async () => true, caughtUp: () => true }
  const app = await buildApp({ cfg, db: noDb, catalogue: cat, log, readModel })
  await app.ready()
  // The lane under test, in front of the app's router on a server of the test's own, so each
  // answer says which of the two gave it.
  const lane = createDetailLane({ catalogue: cat, store, users: createUserDirectory(store), throttles: app.throttles, usage: memoryUsage(), requestLog: { perRequest: false, record: () => {} } })
  const answeredBy: string[] = []
  const server = http.createServer((req, res) => {
    if (lane(req, res)) answeredBy.push('lane')
    else { answeredBy.push('fastify'); app.routing(req, res) }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    await new Promise((resolve) => server.close(resolve))
    await app.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const port = (server.address() as AddressInfo).port
  // node:http rather than fetch, which does not let a caller set Host.
  const get = (url: string, headers: Record<string, string> = {}) => new Promise<{ status: number; headers: Record<string, string | null>; names: string[]; body: string; by: string | undefined }>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: url, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({
        status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), by: answeredBy.at(-1), names: namesOf(res.headers),
        headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers[h] === undefined ? null : String(res.headers[h])])),
      }))
    }).on('error', reject)
  })
  /** The route's own answer (inject goes to Fastify's router, never through a server). */
  const routed = async (url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ url, headers: { host: `127.0.0.1:${port}`, ...headers } })
    return { status: res.statusCode, headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers[h] === undefined ? null : String(res.headers[h])])), names: namesOf(res.headers), body: res.body }
  }
  return { app, store, get, routed, port }
}

t.test('a plain detail GET answered by the lane is the route\'s answer, byte for byte', async (t) => {
  const s = await setup(t)
  // Two users with the same rate: one asks through the lane, the other through the route, so both
  // answers carry the same counters.
  const viaLane = await s.get('/api/rest/v4/dockets/1/', { authorization: 'Token reader-token' })
  const viaRoute = await s.routed('/api/rest/v4/dockets/1/', { authorization: 'Token other-token' })
  t.equal(viaLane.by, 'lane', 'the lane answered')
  t.equal(viaLane.status, 200)
  t.same(viaLane.headers, viaRoute.headers, 'the same headers (type, length, Vary, RateLimit)')
  t.same(viaLane.names, viaRoute.names, 'and no other header on either')
  t.equal(viaLane.body, viaRoute.body, 'the same bytes')
  t.match(viaLane.body, `"resource_uri":"http://127.0.0.1:${s.port}/api/rest/v4/dockets/1/"`, 'URLs carry the request\'s origin')
  t.match(viaLane.body, `http://127.0.0.1:${s.port}/api/rest/v4/clusters/101/`, 'related sets too')
  t.notMatch(viaLane.body, ORIGIN_MARK, 'no mark is left')
  const again = await s.get('/api/rest/v4/dockets/1/', { authorization: 'Token reader-token' })
  t.equal(Number(again.headers['ratelimit-remaining']), Number(viaLane.headers['ratelimit-remaining']) - 1, 'the lane counts requests in the throttle the route uses')

  const otherHost = await s.get('/api/rest/v4/dockets/2/', { host: 'other.test', authorization: 'Token reader-token' })
  t.equal(otherHost.by, 'lane', 'any Host')
  t.match(otherHost.body, '"resource_uri":"http://other.test/api/rest/v4/dockets/2/"', 'the Host header is the origin')
  const otherHostRoute = await s.routed('/api/rest/v4/dockets/2/', { host: 'other.test', authorization: 'Token other-token' })
  t.equal(otherHost.body, otherHostRoute.body, 'the same bytes as the route')

  const unicode = await s.get('/api/rest/v4/dockets/5/', { authorization: 'Token reader-token' })
  const unicodeRoute = await s.routed('/api/rest/v4/dockets/5/', { authorization: 'Token other-token' })
  t.equal(unicode.by, 'lane')
  t.equal(unicode.body, unicodeRoute.body, 'a text with multi-byte characters: the same bytes as the route')
  t.match(unicode.body, '"case_name":"Müller v. Société Générale — 北京 \\"𝔏\\" \\\\ ok"', 'its characters intact')
  t.equal(unicode.headers['content-length'], String(Buffer.byteLength(unicode.body)), 'Content-Length counts bytes, not characters')

  // A Host with a byte past ASCII (HTTP lets header values carry them; node reads them as latin1).
  const latinHost = await s.get('/api/rest/v4/dockets/5/', { host: 'caf\u00e9.test', authorization: 'Token reader-token' })
  const latinHostRoute = await s.routed('/api/rest/v4/dockets/5/', { host: 'caf\u00e9.test', authorization: 'Token other-token' })
  t.equal(latinHost.by, 'lane')
  t.equal(latinHost.body, latinHostRoute.body, 'an origin past ASCII: the same bytes as the route')
})

t.test('requests that need more than the stored text go to Fastify, and get its answer', async (t) => {
  const s = await setup(t)
  const token = { authorization: 'Token reader-token' }
  const cases: [string, string, Record<string, string>][] = [
    ['fields=', '/api/rest/v4/dockets/1/?fields=id', token],
    ['omit=', '/api/rest/v4/dockets/1/?omit=clusters', token],
    ['?format=json', '/api/rest/v4/dockets/1/?format=json', token],
    ['an XML Accept header', '/api/rest/v4/dockets/1/', { ...token, accept: 'application/xml' }],
    ['indented JSON', '/api/rest/v4/dockets/1/', { ...token, accept: 'application/json; indent=2' }],
    ['If-None-Match', '/api/rest/v4/dockets/1/', { ...token, 'if-none-match': '"x"' }],
    ['another origin through proxy headers', '/api/rest/v4/dockets/1/', { ...token, 'x-forwarded-host': 'proxy.test', 'x-forwarded-proto': 'https' }],
    ['a client address through X-Forwarded-For', '/api/rest/v4/dockets/1/', { 'x-forwarded-for': '10.1.2.3' }],
    ['an unknown token', '/api/rest/v4/dockets/1/', { authorization: 'Token nobody' }],
    ['an anonymous caller (dockets need a user)', '/api/rest/v4/dockets/1/', {}],
    ['HTTP Basic', '/api/rest/v4/dockets/1/', { authorization: `Basic ${Buffer.from('u7:pw').toString('base64')}` }],
    ['v3', '/api/rest/v3/dockets/1/', token],
    ['a resource not rendered', '/api/rest/v4/courts/scotus/', token],
    ['a row whose text is stale', '/api/rest/v4/dockets/4/', token],
    ['a row that does not exist', '/api/rest/v4/dockets/99/', token],
    ['a list', '/api/rest/v4/dockets/', token],
  ]
  for (const [what, url, headers] of cases) {
    const got = await s.get(url, headers)
    t.equal(got.by, 'fastify', `${what}: left to Fastify (${got.status})`)
  }
  const proxied = await s.get('/api/rest/v4/dockets/1/', { ...token, 'x-forwarded-host': 'proxy.test', 'x-forwarded-proto': 'https' })
  t.match(proxied.body, '"resource_uri":"https://proxy.test/api/rest/v4/dockets/1/"', 'the proxy\'s origin, as the route gives it')
  t.equal(JSON.parse((await s.get('/api/rest/v4/dockets/1/?fields=id', token)).body).id, 1, 'fields= still selects')
  t.equal((await s.get('/api/rest/v4/dockets/4/', token)).status, 200, 'a stale row is built')
  t.match((await s.get('/api/rest/v4/dockets/4/', token)).body, '"case_name":"Changed"', 'from its latest version')
  t.equal((await s.get('/api/rest/v4/dockets/1/', { authorization: 'Token nobody' })).status, 401, 'an unknown token is refused')
  t.equal((await s.get('/api/rest/v4/dockets/1/')).status, 401, 'an anonymous caller is refused')
})

t.test('a caller at its limit is refused by the throttle, not served by the lane', async (t) => {
  const s = await setup(t)
  const tight = { authorization: 'Token tight-token' }
  const first = await s.get('/api/rest/v4/dockets/1/', tight)
  const second = await s.get('/api/rest/v4/dockets/2/', tight)
  t.same([first.by, first.status, second.by, second.status], ['lane', 200, 'lane', 200], 'within its rate (2/hour): the lane')
  t.equal(second.headers['ratelimit-remaining'], '0')
  const third = await s.get('/api/rest/v4/dockets/3/', tight)
  t.same([third.by, third.status], ['fastify', 429], 'past it: the throttle answers 429')
  t.match(JSON.parse(third.body).detail, /Rate limit exceeded: 2\/hour/)
})

t.test('the app\'s own server answers a plain detail GET as the route does', async (t) => {
  const s = await setup(t)
  await s.app.listen({ port: 0, host: '127.0.0.1' })
  const port = (s.app.server.address() as AddressInfo).port
  const res = await fetch(`http://127.0.0.1:${port}/api/rest/v4/dockets/3/`, { headers: { authorization: 'Token reader-token' } })
  const route = await s.app.inject({ url: '/api/rest/v4/dockets/3/', headers: { host: `127.0.0.1:${port}`, authorization: 'Token other-token' } })
  t.equal(res.status, 200)
  t.equal(await res.text(), route.body, 'the same bytes')
  t.equal(res.headers.get('content-type'), route.headers['content-type'])
  t.equal(res.headers.get('vary'), route.headers.vary)
  t.equal(res.headers.get('ratelimit-limit'), String(route.headers['ratelimit-limit']))
})

t.test('withOriginBytes writes the origin where the mark is, in bytes', async (t) => {
  const text = `{"a":"${ORIGIN_MARK}/x/","b":"é ${ORIGIN_MARK}","c":"${ORIGIN_MARK}"}`
  for (const origin of ['http://h.test', 'https://a-much-longer-origin.example.org:8443', 'h:']) {
    t.equal(withOriginBytes(Buffer.from(text), origin).toString('utf8'), text.replaceAll(ORIGIN_MARK, origin), origin)
  }
  t.equal(withOriginBytes(Buffer.from('{"no":"mark"}'), 'http://h.test').toString(), '{"no":"mark"}', 'a text without the mark is copied as it is')
  const many = JSON.stringify(Array.from({ length: 100 }, (_, i) => `${ORIGIN_MARK}/api/rest/v4/clusters/${i}/`))
  t.equal(withOriginBytes(Buffer.from(many), 'http://h.test').toString(), many.replaceAll(ORIGIN_MARK, 'http://h.test'), 'a text with many marks (a docket with 100 clusters)')
  t.equal(withOriginBytes(Buffer.from(text), 'http://h.test').toString(), text.replaceAll(ORIGIN_MARK, 'http://h.test'), 'and a short one after it')
  t.equal(withOriginBytes(Buffer.from(text), 'http://café.test').toString(), text.replaceAll(ORIGIN_MARK, 'http://café.test'), 'an origin past ASCII is written as UTF-8')
  const latin1 = withOriginLatin1(Buffer.from(text), 'http://café.test')
  t.same(Buffer.from(latin1, 'latin1'), Buffer.from(text.replaceAll(ORIGIN_MARK, 'http://café.test')), 'the latin1 form is one character per byte of the UTF-8 answer')
})
