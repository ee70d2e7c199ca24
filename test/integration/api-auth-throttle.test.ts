/**
 * Authentication and throttling against the real stack: tokens, HTTP Basic and bearer tokens as
 * the reference answers them; a deactivated user stops working once the read model has applied
 * it; per-user, anonymous and scoped limits with the reference's 429 bodies, Retry-After and
 * RateLimit headers; rates changed at runtime; counters shared by two API processes through Redis;
 * api-usage.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { testStack, testUser, waitFor } from '../helpers/stack.js'
import { startProcessors, stopAll, type Runtime } from '../../bin/runtime.js'
import { updateUser } from '../../bin/users.js'
import { buildApp } from '../../api/app.js'
import { loadConfig } from '../../core/config.js'
import { startRedis } from '../../infra/redis.js'

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`

async function app(rt: Runtime, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, LOG_LEVEL: 'error', ...env })
  return buildApp({ ...rt, cfg })
}

t.test('credentials', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const api = await app(rt)
  t.teardown(() => api.close())
  const token = await testUser(rt, 'alice', { password: 'correct horse battery', app: api })
  const get = (authorization?: string) => api.inject({ url: '/api/rest/v4/dockets/', headers: authorization ? { authorization } : {} })

  t.equal((await get(`Token ${token}`)).statusCode, 200, 'a token')
  t.equal((await get(basic('alice', 'correct horse battery'))).statusCode, 200, 'HTTP Basic with the password')
  const wrong = await get(basic('alice', 'wrong'))
  t.same([wrong.statusCode, wrong.json()], [401, { detail: 'Invalid username/password.' }], 'a wrong password')
  const bearer = await get('Bearer abc')
  t.same([bearer.statusCode, bearer.json()], [401, { detail: 'Invalid or expired bearer token.' }])
  const unknown = await get('Token 0000000000000000000000000000000000000000')
  t.same([unknown.statusCode, unknown.json()], [401, { detail: 'Invalid token.' }])
  const bare = await get(token)
  t.same([bare.statusCode, bare.json()], [401, { detail: 'Authentication credentials were not provided.' }], 'a key without the word Token does not authenticate')
  t.equal(bare.headers['www-authenticate'], 'Bearer realm="api"')

  await updateUser(rt, 'alice', { active: false })
  await waitFor(async () => (await get(`Token ${token}`)).statusCode === 401, 'the deactivated token refused', 20_000)
  t.equal((await get(basic('alice', 'correct horse battery'))).statusCode, 401, 'and the password too')
})

t.test('limits', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const api = await app(rt, { LDS_RATE_USER: '3/min,100/day', LDS_RATE_ANON_V3: '2/day', LDS_RATE_ANON_V4: '5/hour', LDS_RATE_API_USAGE: '2/min' })
  t.teardown(() => api.close())
  const token = await testUser(rt, 'bob', { app: api })
  const as = (url: string) => api.inject({ url, headers: { authorization: `Token ${token}` } })

  t.test('a user over the tightest window', async (t) => {
    const answers = []
    for (let i = 0; i < 4; i++) answers.push(await as('/api/rest/v4/courts/'))
    t.same(answers.map((a) => a.statusCode), [200, 200, 200, 429])
    t.same(answers.slice(0, 3).map((a) => a.headers['ratelimit-remaining']), ['2', '1', '0'], 'RateLimit-Remaining on every answer')
    t.equal(answers[0].headers['ratelimit-limit'], '3')
    const refused = answers[3]
    t.match(refused.json(), { detail: /^Request was throttled\. Rate limit exceeded: 3\/min\. Expected available in \d+ seconds\.$/ })
    const wait = Number(refused.headers['retry-after'])
    t.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`)
  })

  t.test('anonymous callers, per version', async (t) => {
    const v3 = []
    for (let i = 0; i < 3; i++) v3.push(await api.inject({ url: '/api/rest/v3/courts/', remoteAddress: '10.0.0.7' }))
    t.same(v3.map((a) => a.statusCode), [200, 200, 429], 'v3: 2/day')
    t.match(v3[2].json(), { detail: /^Request was throttled\. Expected available in \d+ seconds\.$/ })
    t.equal((await api.inject({ url: '/api/rest/v4/courts/', remoteAddress: '10.0.0.7' })).statusCode, 200, 'v4 has its own rate')
    t.equal((await api.inject({ url: '/api/rest/v3/courts/', remoteAddress: '10.0.0.8' })).statusCode, 200, 'another address counts apart')
  })

  t.test('a rate changed at runtime; 0 blocks', async (t) => {
    await updateUser(rt, 'bob', { rate: '0/hour' })
    const blocked = await waitFor(async () => { const a = await as('/api/rest/v4/courts/'); return a.statusCode === 429 && /blocked/.test(a.body) && a }, 'the block applied', 20_000)
    t.same(blocked.json(), { detail: 'Request was throttled. Your account is currently blocked from making API requests.' })
    t.notOk(blocked.headers['retry-after'], 'no Retry-After for a blocked account')
    await updateUser(rt, 'bob', { rate: '50/min' })
    await waitFor(async () => (await as('/api/rest/v4/courts/')).statusCode === 200, 'unblocked', 20_000)
  })

  t.test('api-usage: its own scope, and what the caller used', async (t) => {
    const usage = await as('/api/rest/v4/api-usage/')
    t.equal(usage.statusCode, 200)
    const body = usage.json()
    const user = body.current_usage.find((u: { scope: string }) => u.scope === 'user')
    t.match(user, { rate: '50/min', limit: 50, window_seconds: 60, blocked: false })
    t.ok(user.used >= 1, `used ${user.used}`)
    const today = new Date().toISOString().slice(0, 10)
    t.ok(body.historical_usage[today] >= 5, 'today\'s requests counted')
    t.equal(Object.keys(body.historical_usage).length, 15, '14 days and a total')
    t.equal((await as('/api/rest/v4/api-usage/')).statusCode, 200)
    t.equal((await as('/api/rest/v4/api-usage/')).statusCode, 429, 'api_usage scope: 2/min')
    t.equal((await api.inject({ url: '/api/rest/v4/api-usage/' })).statusCode, 401, 'authentication required')
  })
})

t.test('two API processes share their counters through Redis', async (t) => {
  const redis = await startRedis()
  t.teardown(() => redis.stop())
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const env = { REDIS_URL: redis.url, LDS_RATE_USER: '4/min' }
  const a = await app(rt, env)
  const b = await app(rt, env)
  t.teardown(async () => { await a.close(); await b.close() })
  const token = await testUser(rt, 'carol', { app: a })
  await testUser(rt, 'dave', { app: b })
  await waitFor(async () => (await b.inject({ url: '/api/rest/v4/courts/', headers: { authorization: `Token ${token}` } })).statusCode !== 401, 'the token in both read models', 20_000)
  const codes: number[] = []
  for (const api of [a, b, a, b, a]) codes.push((await api.inject({ url: '/api/rest/v4/courts/', headers: { authorization: `Token ${token}` } })).statusCode)
  // One request was counted by the wait above: with shared counters the 5th overall is refused,
  // while apart each process would have counted at most 3.
  t.same(codes, [200, 200, 200, 429, 429], 'the limit holds across both processes')
})
