/**
 * Issue 6, bug 4: every request was logged twice at info ("incoming request" / "request
 * completed"). Requests are now logged once, at debug, with a per-minute summary at info.
 */
import t from 'tap'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { loadConfig } from '../../core/config.js'
import { createDb } from '../../core/clickhouse.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { buildApp } from '../../api/app.js'
import { createRequestStats } from '../../api/plugins/request-log.js'

function capture(level: string) {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done() } })
  return { lines, log: pino({ level }, stream) }
}

t.test('at info, requests write nothing per request', async (t) => {
  const cfg = loadConfig({ LOG_LEVEL: 'info' })
  const { lines, log } = capture('info')
  const db = createDb(cfg)
  const app = await buildApp({ cfg, db, catalogue, log })
  t.teardown(async () => { await app.close(); await db.close() })
  for (let i = 0; i < 5; i++) t.equal((await app.inject({ url: '/api/rest/v4/' })).statusCode, 200)
  t.same(lines.filter((l) => /request/i.test(String(l.msg))), [], 'no per-request lines at info')
})

t.test('at debug, one line per request with method, url, status and time', async (t) => {
  const cfg = loadConfig({ LOG_LEVEL: 'debug' })
  const { lines, log } = capture('debug')
  const db = createDb(cfg)
  const app = await buildApp({ cfg, db, catalogue, log })
  t.teardown(async () => { await app.close(); await db.close() })
  await app.inject({ url: '/api/rest/v4/?x=1' })
  const mine = lines.filter((l) => l.msg === 'request')
  t.equal(mine.length, 1, 'exactly one line')
  t.match(mine[0], { level: 20, method: 'GET', url: '/api/rest/v4/?x=1', status: 200, ms: Number })
})

t.test('the minute summary: requests, p50/p99 and errors', async (t) => {
  const s = createRequestStats()
  t.equal(s.take(), null, 'nothing to say for a quiet minute')
  for (let i = 1; i <= 100; i++) s.record(i, i % 10 === 0 ? 500 : i % 5 === 0 ? 404 : 200)
  t.same(s.take(), { requests: 100, p50_ms: 51, p99_ms: 100, client_errors: 10, server_errors: 10 })
  t.equal(s.take(), null, 'a new period starts after each summary')
})
