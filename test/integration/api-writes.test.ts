/**
 * The few writes against the real stack: each answers once the change is readable (a client that
 * writes and then lists sees its write), owner-only (another user's id is a 404), with the
 * validation, uniqueness and quota rules of the reference and its error shapes; DELETE answers 204.
 */
import t from 'tap'
import { testStack, testUser, waitFor } from '../helpers/stack.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { openPublisher } from '../../core/events/publisher.js'
import { buildApp } from '../../api/app.js'
import { kafkaIdAllocator, ID_BASE } from '../../core/ids.js'
import { createKafka } from '../../core/kafka.js'
import { DependencyError } from '../../core/dependency-error.js'
import { idsTopic } from '../../schemas/events/names.js'

const ts = '2024-01-01T00:00:00+00:00'

t.test('writes', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  await pub.upsert('courts', { id: 'scotus', full_name: 'Supreme Court', short_name: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts })
  await pub.upsert('dockets', { id: 10, court_id: 'scotus', case_name: 'A v. B', source: 0, date_created: ts, date_modified: ts })
  await pub.upsert('dockets', { id: 11, court_id: 'scotus', case_name: 'C v. D', source: 0, date_created: ts, date_modified: ts })
  for (let i = 1; i <= 7; i++) await pub.upsert('archive-documents', { id: i, docket_entry_id: 1, docket_id: 10, document_number: String(i), is_available: i === 7, date_created: ts, date_modified: ts })
  await pub.flush()
  const alice = await testUser(rt, 'alice', { app })
  const bob = await testUser(rt, 'bob', { app })
  await waitFor(async () => app.readModel!.store.get('archive-documents', 7) !== undefined && app.readModel!.store.get('dockets', 11) !== undefined, 'the seed in the read model')
  const as = (token: string) => ({ authorization: `Token ${token}`, host: 'x.test' })
  const send = (token: string, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) => app.inject({ method, url, headers: as(token), payload: payload as never })
  const get = async (token: string, url: string) => { const r = await app.inject({ url, headers: as(token) }); return { status: r.statusCode, body: r.statusCode === 204 ? null : r.json() } }

  t.test('search alerts: create, read your write, edit, delete', async (t) => {
    const created = await send(alice, 'POST', '/api/rest/v4/alerts/', { name: 'Privacy', query: 'q=privacy&type=o', rate: 'dly' })
    t.equal(created.statusCode, 201)
    const a = created.json()
    t.match(a, { resource_uri: `http://x.test/api/rest/v4/alerts/${a.id}/`, name: 'Privacy', query: 'q=privacy&type=o', rate: 'dly', alert_type: 'o', date_last_hit: null })
    t.match(a.secret_key, /^[0-9a-f]{40}$/, 'a secret key was made')
    const mine = await get(alice, '/api/rest/v4/alerts/')
    t.same(mine.body.results.map((x: { id: number }) => x.id), [a.id], 'listed right after the write')
    t.same((await get(bob, '/api/rest/v4/alerts/')).body.results, [], 'not in another user\'s list')
    t.equal((await get(bob, `/api/rest/v4/alerts/${a.id}/`)).status, 404, 'another user\'s id is a 404')
    t.equal((await send(bob, 'PATCH', `/api/rest/v4/alerts/${a.id}/`, { rate: 'wly' })).statusCode, 404, 'and cannot be edited')
    const edited = await send(alice, 'PATCH', `/api/rest/v4/alerts/${a.id}/`, { rate: 'wly' })
    t.match(edited.json(), { id: a.id, rate: 'wly', name: 'Privacy', secret_key: a.secret_key })
    t.equal((await get(alice, `/api/rest/v4/alerts/${a.id}/`)).body.rate, 'wly', 'the detail shows the edit at once')
    const gone = await send(alice, 'DELETE', `/api/rest/v4/alerts/${a.id}/`)
    t.same([gone.statusCode, gone.body], [204, ''])
    t.equal((await get(alice, `/api/rest/v4/alerts/${a.id}/`)).status, 404)
    t.same((await get(alice, '/api/rest/v4/alerts/')).body.results, [], 'and the list at once')
  })

  t.test('search alerts: the reference\'s refusals', async (t) => {
    const matchAll = await send(alice, 'POST', '/api/rest/v4/alerts/', { name: 'All', query: 'type=o', rate: 'dly' })
    t.equal(matchAll.statusCode, 400)
    t.ok(Array.isArray(matchAll.json().query), 'a match-all query is refused on `query`')
    const archive = await send(alice, 'POST', '/api/rest/v4/alerts/', { name: 'Dockets', query: 'q=fraud&type=r', rate: 'dly' })
    t.same(Object.keys(archive.json()), ['alert_type'], 'an archive query needs alert_type')
    t.equal((await send(alice, 'POST', '/api/rest/v4/alerts/', { name: 'Dockets', query: 'q=fraud&type=r', rate: 'dly', alert_type: 'd' })).statusCode, 201)
    const missing = await send(alice, 'POST', '/api/rest/v4/alerts/', { query: 'q=x' })
    t.same(missing.json(), { name: ['This field is required.'], rate: ['This field is required.'] })
    t.same((await send(alice, 'POST', '/api/rest/v4/alerts/', { name: 'x', query: 'q=x', rate: 'hourly' })).json(), { rate: ['"hourly" is not a valid choice.'] })
    t.equal((await send(alice, 'POST', '/api/rest/v4/alerts/', { name: 'RT', query: 'q=x', rate: 'rt' })).statusCode, 403, 'real time needs a membership')
    t.equal((await app.inject({ method: 'POST', url: '/api/rest/v4/alerts/', payload: { name: 'x', query: 'q=x', rate: 'dly' } })).statusCode, 401)
  })

  t.test('docket alerts, form-encoded as clients send them', async (t) => {
    const form = { ...as(alice), 'content-type': 'application/x-www-form-urlencoded' }
    const created = await app.inject({ method: 'POST', url: '/api/rest/v4/docket-alerts/', headers: form, payload: 'docket=10&alert_type=1' })
    t.equal(created.statusCode, 201)
    t.match(created.json(), { docket: 10, alert_type: 1 })
    const again = await app.inject({ method: 'POST', url: '/api/rest/v4/docket-alerts/', headers: form, payload: 'docket=10' })
    t.same(again.json(), { non_field_errors: ['The fields docket, user must make a unique set.'] })
    t.same((await app.inject({ method: 'POST', url: '/api/rest/v4/docket-alerts/', headers: form, payload: 'docket=999' })).json(), { docket: ['Invalid pk "999" - object does not exist.'] })
    const off = await send(alice, 'PATCH', `/api/rest/v4/docket-alerts/${created.json().id}/`, { alert_type: 0 })
    t.equal(off.json().alert_type, 0, 'unsubscribed')
    const byDocket = await get(alice, '/api/rest/v4/docket-alerts/?docket=10')
    t.equal(byDocket.body.results.length, 1, 'list by docket, as clients do before a DELETE')
  })

  t.test('prayers: one per document, five a day, only for missing documents; no edits', async (t) => {
    const first = await send(bob, 'POST', '/api/rest/v4/prayers/', { archive_document: 1 })
    t.equal(first.statusCode, 201)
    t.match(first.json(), { archive_document: 1, status: 1 })
    t.same((await send(bob, 'POST', '/api/rest/v4/prayers/', { archive_document: 1 })).json(), { non_field_errors: ['A prayer for this archive document already exists.'] })
    t.equal((await send(bob, 'POST', '/api/rest/v4/prayers/', { archive_document: 7 })).statusCode, 400, 'an available document needs no prayer')
    for (const doc of [2, 3, 4, 5]) t.equal((await send(bob, 'POST', '/api/rest/v4/prayers/', { archive_document: doc })).statusCode, 201)
    t.match((await send(bob, 'POST', '/api/rest/v4/prayers/', { archive_document: 6 })).json(), { non_field_errors: [/maximum number of prayers \(5\)/] })
    t.equal((await send(bob, 'PATCH', `/api/rest/v4/prayers/${first.json().id}/`, { status: 2 })).statusCode, 405)
    t.equal((await send(bob, 'DELETE', `/api/rest/v4/prayers/${first.json().id}/`)).statusCode, 204)
    // Prayers order by date_created only, which pages by cursor; an ordering it does not offer pages by number.
    t.equal((await get(bob, '/api/rest/v4/prayers/?order_by=nonsense&page_size=2')).body.results.length, 2, 'page_size in page mode')
    t.equal((await get(bob, '/api/rest/v4/prayers/?page_size=2')).body.results.length, 4, 'and not in cursor mode')
  })

  t.test('archive fetch: queued, owner-only, no edits', async (t) => {
    const created = await send(alice, 'POST', '/api/rest/v4/archive-fetch/', { request_type: 2, archive_document: 1, records_username: 'u', records_password: 'p' })
    t.equal(created.statusCode, 201)
    const f = created.json()
    t.match(f, { status: 1, request_type: 2, archive_document: 1, date_completed: null })
    t.notOk('records_password' in f, 'credentials are never shown')
    t.same((await send(alice, 'POST', '/api/rest/v4/archive-fetch/', { request_type: 2 })).json(), { records_username: ['This field is required.'], records_password: ['This field is required.'] })
    t.equal((await send(alice, 'DELETE', `/api/rest/v4/archive-fetch/${f.id}/`)).statusCode, 405)
    t.equal((await get(bob, `/api/rest/v4/archive-fetch/${f.id}/`)).status, 404)
  })

  t.test('archive fetch with a records system that cannot be reached to log in: 503, nothing requested', async (t) => {
    const before = (await get(alice, '/api/rest/v4/archive-fetch/?count=on')).body.count
    const cfg = { ...rt.cfg, records: { url: 'http://127.0.0.1:1', username: '', password: '' } }
    const other = await buildApp({ ...rt, cfg, readModel: app.readModel! })
    t.teardown(() => other.close())
    const r = await other.inject({ method: 'POST', url: '/api/rest/v4/archive-fetch/', headers: as(alice), payload: { request_type: 2, archive_document: 1, records_username: 'u', records_password: 'p' } })
    t.equal(r.statusCode, 503)
    t.match(r.json(), { detail: /records system could not be reached.*nothing was requested/ })
    t.equal((await get(alice, '/api/rest/v4/archive-fetch/?count=on')).body.count, before, 'no request was made')
  })

  t.test('user tags and docket tags', async (t) => {
    const tag = (await send(alice, 'POST', '/api/rest/v4/tags/', { name: 'privacy-cases', title: 'Privacy', published: true })).json()
    t.match(tag, { name: 'privacy-cases', published: true, dockets: [] })
    t.same((await send(alice, 'POST', '/api/rest/v4/tags/', { name: 'privacy-cases' })).json(), { non_field_errors: ['The fields user, name must make a unique set.'] })
    t.same((await send(alice, 'POST', '/api/rest/v4/tags/', { name: 'not a slug' })).statusCode, 400)
    t.equal((await send(alice, 'POST', '/api/rest/v4/docket-tags/', { docket: 11, tag: tag.id })).statusCode, 201)
    t.equal((await send(bob, 'POST', '/api/rest/v4/docket-tags/', { docket: 10, tag: tag.id })).statusCode, 400, 'only on your own tags')
    const seen = await waitFor(async () => { const r = await get(bob, `/api/rest/v4/tags/${tag.id}/`); return r.status === 200 && r.body.dockets.length === 1 && r }, 'the published tag with its docket')
    t.same(seen.body.dockets, [11], 'a published tag is readable by others, with its dockets')
    const anon = await app.inject({ url: '/api/rest/v4/tags/?count=on', headers: { host: 'x.test' } })
    t.same(anon.json(), { count: 1 }, 'anonymous callers see published tags')
  })
  t.test('increment-event: anyone may count a label; the label is checked', async (t) => {
    const post = (payload: unknown) => app.inject({ method: 'POST', url: '/api/rest/v4/increment-event/', headers: { host: 'x.test' }, payload: payload as never })
    const today = new Date().toISOString().slice(0, 10)
    const before = (await app.events.day(today))['opened-pdf'] ?? 0
    const made = await post({ label: 'opened-pdf' })
    t.equal(made.statusCode, 201)
    t.same(made.json(), { label: 'opened-pdf' })
    await post({ label: 'opened-pdf' })
    t.equal((await app.events.day(today))['opened-pdf'], before + 2, 'each POST counts once')
    t.same((await post({})).json(), { label: ['This field is required.'] })
    t.same((await post({ label: 'x'.repeat(256) })).json(), { label: ['Ensure this field has no more than 255 characters.'] })
    t.equal((await app.inject({ url: '/api/rest/v4/increment-event/', headers: { host: 'x.test' } })).statusCode, 405)
    const options = (await app.inject({ method: 'OPTIONS', url: '/api/rest/v4/increment-event/', headers: { host: 'x.test' } })).json()
    t.match(options, { name: 'Event Counter Viewset List', actions: { POST: { label: { type: 'string', required: true, max_length: 255 } } } })
  })

  t.test('created rows get ids from the allocator: unique across API processes, above the old clock-based ids', async (t) => {
    // a second API as another process has it: its own Kafka client, allocator and read model
    const ids = kafkaIdAllocator({ cfg: rt.cfg, kafka: createKafka(rt.cfg, rt.log, 'lds-second-api'), log: rt.log }, idsTopic(rt.cfg))
    t.teardown(() => ids.stop())
    const second = await buildApp({ ...rt, ids })
    t.teardown(() => second.close())
    await waitFor(async () => (await second.inject({ url: '/api/rest/v4/tags/', headers: as(alice) })).statusCode === 200, 'alice in the second API\'s read model')
    const oldSchemeNow = Date.now() * 1000 + 999
    const made = await Promise.all([app, second].map(async (a, n) => {
      const got: number[] = []
      for (let i = 0; i < 10; i++) {
        const r = await a.inject({ method: 'POST', url: '/api/rest/v4/tags/', headers: as(alice), payload: { name: `ids-${n}-${i}` } })
        t.equal(r.statusCode, 201)
        got.push(r.json().id)
      }
      return got
    }))
    for (const got of made) {
      t.ok(got.every((id, i) => i === 0 || id > got[i - 1]), 'one process\'s ids increase')
      t.ok(got.every((id) => Number.isSafeInteger(id) && id >= ID_BASE && id > oldSchemeNow), 'above every old id')
    }
    t.equal(new Set(made.flat()).size, 20, 'no id repeats across the two APIs')
    // newest first by -id: the rows created by one API are listed in reverse order of creation
    const listed = (await get(alice, '/api/rest/v4/tags/?order_by=-id&page_size=100')).body.results.map((x: { id: number }) => x.id)
    t.same(listed.filter((id: number) => made[0].includes(id)), [...made[0]].reverse())
  })

  t.test('a lease that fails is a 503 to the writer, and nothing is written', async (t) => {
    const failing = { next: async () => { throw new DependencyError('Kafka', rt.cfg.kafkaBrokers.join(','), 'did not lease a block of ids') } }
    const broken = await buildApp({ ...rt, ids: failing, readModel: app.readModel! })
    t.teardown(() => broken.close())
    const before = (await get(alice, '/api/rest/v4/tags/?count=on')).body.count
    const r = await broken.inject({ method: 'POST', url: '/api/rest/v4/tags/', headers: as(alice), payload: { name: 'never-made' } })
    t.equal(r.statusCode, 503)
    t.ok(r.headers['retry-after'])
    t.same(r.json(), { detail: 'Service temporarily unavailable. Please try again later.' })
    t.equal((await get(alice, '/api/rest/v4/tags/?count=on')).body.count, before, 'no row was made')
  })
})
