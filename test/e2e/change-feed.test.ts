/**
 * The HTTP change feed (GET /api/rest/v4/changes/) as its clients use it: a long-poll client
 * following `next` links, and an event-stream client that is cut off 20 times while changes keep
 * flowing and resumes from its last event id. Each gets every change exactly once, one key's
 * changes in the order they were made; bad cursors, internal resources and anonymous callers are refused.
 */
import t from 'tap'
import type { Test } from 'tap'
import { createParser } from 'eventsource-parser'
import { testStack, testUser } from '../helpers/stack.js'
import { buildApp } from '../../api/app.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { openPublisher } from '../../core/events/publisher.js'

t.setTimeout(600_000)

const ts = '2024-03-01T10:00:00.123456+00:00'
/** Dockets changed per round while the event stream is read (4 rounds: 100,004 changes with their courts). */
const PER_ROUND = 25_000
/** The API's readers limit in this test (LDS_FEED_MAX_READERS). */
const MAX_READERS = 3
interface Change { resource: string; op: string; key: string; version: number; entity: Record<string, unknown> | null }

/** Every change once, and each key's versions rising: what a follower of the feed relies on. */
function checkExactlyOnceInOrder(t: Test, got: Change[], expected: number, who: string) {
  const seen = new Set(got.map((c) => `${c.resource}/${c.key}/${c.version}`))
  t.equal(seen.size, got.length, `${who}: no change twice`)
  t.equal(got.length, expected, `${who}: every change`)
  const last = new Map<string, number>()
  let outOfOrder = 0
  for (const c of got) {
    const k = `${c.resource}/${c.key}`
    if ((last.get(k) ?? 0) >= c.version) outOfOrder++
    last.set(k, c.version)
  }
  t.equal(outOfOrder, 0, `${who}: each key's changes in order`)
}

t.test('the change feed, by long-poll and by event stream with reconnects', async (t) => {
  const rt = await testStack(t, { LDS_FEED_MAX_READERS: String(MAX_READERS) })
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const token = await testUser(rt, 'feed-reader', { app })
  const auth = { authorization: `Token ${token}` }
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const docket = (id: number, n: number) => ({ id, court_id: 'nysd', case_name: `Case ${id} rev ${n}`, docket_number: `1:26-cv-${id}`, source: 0, date_created: ts, date_modified: ts })
  // The 100k changes of the event-stream case are citations: as much a public resource as dockets,
  // without rendered details and list indexes for the read model to keep (the test's cost).
  const citation = (id: number, n: number) => ({ id, cluster_id: 1, volume: n + 1, reporter: 'U.S.', page: String(id), type: 1, date_created: ts, date_modified: ts })
  const published = { dockets: 0, citations: 0, courts: 0 }
  const publishRound = async (round: number, count: number, resource: 'dockets' | 'citations') => {
    for (let i = 1; i <= count; i++) {
      if (i % 17 === 0 && round > 0) await pub.delete(resource, i)
      else await pub.upsert(resource, resource === 'dockets' ? docket(i, round) : citation(i, round))
      published[resource]++
    }
    await pub.upsert('courts', { id: `c${round}`, full_name: `Court ${round}`, short_name: `C${round}`, jurisdiction: 'F', position: round, date_modified: ts })
    published.courts++
    await pub.flush()
  }
  await publishRound(0, 3000, 'dockets')

  await t.test('refusals', async (t) => {
    const anon = await app.inject({ url: '/api/rest/v4/changes/?resources=dockets&wait=1' })
    t.equal(anon.statusCode, 401)
    const internal = await app.inject({ url: '/api/rest/v4/changes/?resources=dockets,users&wait=1', headers: auth })
    t.equal(internal.statusCode, 400)
    t.match(internal.json(), { resources: [/users/] })
    const badCursor = await app.inject({ url: '/api/rest/v4/changes/?resources=dockets&after=bm90LWEtY3Vyc29y&wait=1', headers: auth })
    t.equal(badCursor.statusCode, 400)
    t.ok(badCursor.json().after)
    const badLimit = await app.inject({ url: '/api/rest/v4/changes/?limit=5000&wait=1', headers: auth })
    t.equal(badLimit.statusCode, 400)
  })

  let baseUrl: string | undefined
  const listen = async () => (baseUrl ??= await app.listen({ port: 0, host: '127.0.0.1' }))

  await t.test('a server at its readers limit asks the next client to come back', async (t) => {
    const base = await listen()
    const open = async () => {
      const controller = new AbortController()
      const res = await fetch(`${base}/api/rest/v4/changes/?resources=courts`, { headers: { ...auth, accept: 'text/event-stream' }, signal: controller.signal })
      return { res, close: () => controller.abort() }
    }
    const held = []
    for (let i = 0; i < MAX_READERS; i++) held.push(await open())
    t.same(held.map((h) => h.res.status), new Array(MAX_READERS).fill(200), `${MAX_READERS} streams open`)
    const turnedAway = await app.inject({ url: '/api/rest/v4/changes/?resources=courts&wait=1', headers: auth })
    t.equal(turnedAway.statusCode, 503, 'one more is turned away')
    t.equal(turnedAway.headers['retry-after'], '5', 'and told when to come back')
    t.match(turnedAway.json(), { detail: /try again/ })
    held.pop()!.close()
    let status = 0
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await app.inject({ url: '/api/rest/v4/changes/?resources=courts&wait=1', headers: auth })).statusCode
      if (status !== 200) await new Promise((r) => setTimeout(r, 100))
    }
    t.equal(status, 200, 'a stream that ends frees its place')
    for (const h of held) h.close()
  })

  await t.test('long-poll pages from the beginning, then nothing new until a change', async (t) => {
    const got: Change[] = []
    let url = '/api/rest/v4/changes/?resources=dockets,courts&after=0&limit=1000&wait=5'
    const expected = published.dockets + published.courts
    for (let i = 0; i < 200 && got.length < expected; i++) {
      const res = await app.inject({ url, headers: auth })
      t.equal(res.statusCode, 200)
      const body = res.json() as { results: Change[]; next: string }
      t.ok(body.results.length <= 1000, 'at most `limit` changes a page')
      got.push(...body.results)
      const next = new URL(body.next)
      url = next.pathname + next.search
    }
    checkExactlyOnceInOrder(t, got, expected, 'long-poll')
    t.match(got.find((c) => c.resource === 'dockets'), { op: 'upsert', entity: { case_name: /^Case / } })
    const quiet = await app.inject({ url: url.replace('wait=5', 'wait=2'), headers: auth })
    t.same(quiet.json().results, [], 'caught up: an empty page after the wait')
    t.equal(new URL(quiet.json().next).searchParams.get('after'), new URL(`http://x${url}`).searchParams.get('after'), 'and the same cursor')
  })

  await t.test('an event stream cut off 20 times while 100k changes flow', async (t) => {
    const base = await listen()
    const flowing = (async () => { for (let round = 1; round <= 4; round++) await publishRound(round, PER_ROUND, 'citations') })()
    const got: Change[] = []
    let lastId: string | null = null
    let cuts = 0
    // From the beginning of citations and courts: every round's court, and the 4 rounds' citations.
    const expected = () => published.citations + published.courts
    const total = 5 + 4 * PER_ROUND
    // Read until every change of all rounds came, cutting the connection after every few messages.
    for (let attempt = 0; attempt < 200 && (got.length < total || cuts < 20); attempt++) {
      const controller = new AbortController()
      const headers: Record<string, string> = { ...auth, accept: 'text/event-stream' }
      if (lastId) headers['last-event-id'] = lastId
      const res = await fetch(`${base}/api/rest/v4/changes/?resources=citations,courts&limit=200`, { headers, signal: controller.signal })
      t.equal(res.status, 200)
      let messages = 0
      const parser = createParser({
        onEvent: (e) => {
          if (controller.signal.aborted || e.event !== 'changes') return
          got.push(...(JSON.parse(e.data) as { results: Change[] }).results)
          lastId = e.id ?? lastId
          if (++messages >= 3 && cuts < 20) controller.abort()
        },
      })
      const reader = res.body!.getReader()
      const decoder = new TextDecoder()
      const quietFor = cuts >= 20 ? 3000 : 15_000
      try {
        for (;;) {
          const next = await Promise.race([reader.read(), new Promise<'quiet'>((r) => setTimeout(() => r('quiet'), quietFor))])
          if (next === 'quiet') { controller.abort(); break }
          if (next.done) break
          parser.feed(decoder.decode(next.value, { stream: true }))
        }
      } catch (err) {
        if (!controller.signal.aborted) throw err
      }
      if (controller.signal.aborted && cuts < 20 && messages >= 3) cuts++
      if (cuts >= 20 && got.length >= expected()) break
    }
    await flowing
    t.equal(cuts, 20, 'cut off 20 times')
    t.equal(expected(), total, `${total} changes published`)
    checkExactlyOnceInOrder(t, got, total, 'event stream')
  })
})
