import t, { type Test } from 'tap'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { createSource, retryAfterMs, USER_AGENT } from '../../../connectors/mirror/source.js'
import { freePort } from '../../kit/ports.js'

/** A source that answers each request with the next of `answers` (then 200s). */
async function scripted(t: Test, answers: { status: number; headers?: Record<string, string> }[]) {
  const seen: { at: number; headers: IncomingHttpHeaders; url: string }[] = []
  const server = createServer((req, res) => {
    seen.push({ at: Date.now(), headers: req.headers, url: req.url ?? '' })
    const a = answers.shift() ?? { status: 200 }
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers })
    res.end(JSON.stringify(a.status === 200 ? { results: [{ id: seen.length }], next: null } : { detail: 'no' }))
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  return { root: `http://127.0.0.1:${port}/api/rest/v4/`, seen }
}

t.test('Retry-After is read as seconds or as a date', async (t) => {
  t.equal(retryAfterMs('3'), 3000)
  t.equal(retryAfterMs(new Date(10_000).toUTCString(), 4000), 6000)
  t.equal(retryAfterMs(undefined), undefined)
  t.equal(retryAfterMs('soon'), undefined)
})

t.test('a 429 waits as long as Retry-After says, then asks again', async (t) => {
  const src = await scripted(t, [{ status: 429, headers: { 'retry-after': '1' } }])
  const waits: string[] = []
  const source = createSource(src.root, { budgetPerHour: 0, token: 'k', onWait: (w) => waits.push(w) })
  t.teardown(() => source.close())
  const body = await source.get('dockets/?order_by=date_modified') as { results: unknown[] }
  t.same(body.results, [{ id: 2 }])
  t.equal(src.seen.length, 2)
  t.ok(src.seen[1].at - src.seen[0].at >= 1000, 'the second request came after the wait')
  t.same(source.stats, { requests: 2, throttled: 1, failed: 0 })
  t.match(waits, [/429, waiting 1 s/])
  t.equal(src.seen[0].headers['user-agent'], USER_AGENT, 'the mirror names itself')
  t.equal(src.seen[0].headers.authorization, 'Token k')
  t.equal(src.seen[0].url, '/api/rest/v4/dockets/?order_by=date_modified')
})

t.test('5xx answers are retried with backoff; a 4xx fails at once', async (t) => {
  const src = await scripted(t, [{ status: 503 }, { status: 502 }])
  const source = createSource(src.root, { budgetPerHour: 0, minBackoffMs: 10 })
  t.teardown(() => source.close())
  t.same((await source.get('courts/') as { results: unknown[] }).results, [{ id: 3 }], 'answered after two 5xx')
  const again = await scripted(t, [{ status: 404 }])
  const other = createSource(again.root, { budgetPerHour: 0, minBackoffMs: 10 })
  t.teardown(() => other.close())
  await t.rejects(other.get('courts/'), / 404 /)
  t.equal(again.seen.length, 1, 'a 404 is not asked again')
})

t.test('links the source gives are followed on the origin the mirror was pointed at', async (t) => {
  const src = await scripted(t, [])
  const source = createSource(src.root, { budgetPerHour: 0 })
  t.teardown(() => source.close())
  await source.get('https://internal.example/api/rest/v4/dockets/?cursor=abc')
  t.equal(src.seen[0].url, '/api/rest/v4/dockets/?cursor=abc')
})

t.test('no more requests in a window than the budget allows', async (t) => {
  const src = await scripted(t, [])
  const source = createSource(src.root, { budgetPerHour: 3, budgetWindowMs: 600 })
  t.teardown(() => source.close())
  for (let i = 0; i < 4; i++) await source.get('courts/')
  t.equal(src.seen.length, 4)
  t.ok(src.seen[3].at - src.seen[0].at >= 550, 'the fourth request waited for the next window')
})
