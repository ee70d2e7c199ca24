/**
 * The read API over real ClickHouse tables: pagination in both modes, filters, field
 * selection, error shapes. Rows are inserted straight into the tables (the sink is tested
 * elsewhere), so these tests need only ClickHouse.
 */
import t from 'tap'
import { testStack } from '../helpers/stack.js'
import { buildApp } from '../../api/app.js'
import { createEntityCodec } from '../../schemas/events/entity-codec.js'
import type { Runtime } from '../../bin/runtime.js'

async function seed(rt: Runtime, resource: string, records: Record<string, unknown>[]) {
  const codec = createEntityCodec(rt.catalogue, rt.catalogue.get(resource))
  await rt.db.insert(rt.catalogue.get(resource).table, records.map((r, i) => ({ ...codec.toEntity(r), _version: i + 1, _deleted: 0 })))
}

const day = (i: number) => `2020-01-${String((i % 28) + 1).padStart(2, '0')}`

t.test('read API', async (t) => {
  const rt = await testStack(t)
  await seed(rt, 'courts', Array.from({ length: 45 }, (_, i) => ({
    id: `c${i}`, full_name: `Court ${i}`, short_name: `C${i}`, citation_string: `C. ${i}`, jurisdiction: i % 3 === 0 ? 'F' : 'S',
    position: i + 0.5, in_use: i % 2 === 0, url: '', date_modified: '2024-01-01T00:00:00+00:00', start_date: i === 0 ? '1789-09-24' : null,
    parent_court_id: i === 1 ? 'c0' : null, appeals_to_ids: i === 2 ? ['c0', 'c1'] : [],
  })))
  await seed(rt, 'people', [{ id: 1, name_first: 'Ruth', name_last: 'Ginsburg', slug: 'ruth-ginsburg', date_created: '2020-01-01T00:00:00Z', date_modified: '2020-01-01T00:00:00.250Z', race: ['w'] },
    ...Array.from({ length: 44 }, (_, i) => ({ id: i + 2, name_last: `Judge ${i}`, date_created: `${day(i)}T00:00:00Z`, date_modified: `${day(i)}T00:00:00Z` }))])
  await seed(rt, 'schools', [{ id: 3, name: 'Columbia', date_created: '2020-01-01T00:00:00Z', date_modified: '2020-01-01T00:00:00Z' }])
  await seed(rt, 'educations', [{ id: 9, person_id: 1, school_id: 3, degree_level: 'jd', degree_year: 1959, date_created: '2020-01-01T00:00:00Z', date_modified: '2020-01-01T00:00:00Z' }])
  await seed(rt, 'positions', [{ id: 5, person_id: 1, court_id: 'c0', job_title: 'Justice', date_start: '1993-08-10', date_created: '2020-01-01T00:00:00Z', date_modified: '2020-01-01T00:00:00Z' }])
  // Without Kafka the app has no read model: every read goes to the ClickHouse tables seeded above.
  const app = await buildApp({ ...rt, kafka: undefined })
  t.teardown(() => app.close())
  const get = async (url: string) => { const r = await app.inject({ url, headers: { host: 'x.test' } }); return { status: r.statusCode, body: r.json() } }

  t.test('root lists every resource name with absolute URLs', async (t) => {
    const { body } = await get('/api/rest/v4/')
    t.equal(Object.keys(body).length, 48)
    t.equal(body.courts, 'http://x.test/api/rest/v4/courts/')
    t.equal(body['citation-lookup'], 'http://x.test/api/rest/v4/citation-lookup/')
    t.notOk('alerts' in (await get('/api/rest/v3/')).body, 'v3 lacks the v4-only names')
  })

  t.test('courts: page-number pagination with integer count, default ordering by position', async (t) => {
    const p1 = await get('/api/rest/v4/courts/')
    t.equal(p1.body.count, 45)
    t.equal(p1.body.results.length, 20)
    t.equal(p1.body.results[0].id, 'c0')
    t.equal(p1.body.next, 'http://x.test/api/rest/v4/courts/?page=2')
    t.equal(p1.body.previous, null)
    t.same(Object.keys(p1.body), ['count', 'next', 'previous', 'results'], 'only the four envelope keys')
    const p3 = await get('/api/rest/v4/courts/?page=3')
    t.equal(p3.body.results.length, 5)
    t.equal(p3.body.next, null)
    t.equal(p3.body.previous, 'http://x.test/api/rest/v4/courts/?page=2')
    t.same(await get('/api/rest/v4/courts/?page=4'), { status: 404, body: { detail: 'Invalid page.' } })
    t.same(await get('/api/rest/v4/courts/?page=x'), { status: 404, body: { detail: 'Invalid page: That page number is not an integer' } })
    t.same((await get('/api/rest/v4/courts/?page=101')).body, { detail: 'Invalid page: Deep API pagination is not allowed. Please review API documentation.' })
    t.equal((await get('/api/rest/v4/courts/?page=last')).body.results.length, 5)
  })

  t.test('court detail: fields of the court resource; relations as URLs', async (t) => {
    const { status, body } = await get('/api/rest/v4/courts/c2/')
    t.equal(status, 200)
    t.same(Object.keys(body), ['resource_uri', 'id', 'records_court_id', 'records_has_rss_feed', 'records_rss_entry_types', 'date_last_records_contact',
      'fjc_court_id', 'date_modified', 'in_use', 'has_opinion_scraper', 'has_oral_argument_scraper', 'position', 'citation_string', 'short_name',
      'full_name', 'url', 'start_date', 'end_date', 'jurisdiction', 'parent_court', 'appeals_to'])
    t.same(body.appeals_to, ['http://x.test/api/rest/v4/courts/c0/', 'http://x.test/api/rest/v4/courts/c1/'])
    t.equal((await get('/api/rest/v4/courts/c1/')).body.parent_court, 'http://x.test/api/rest/v4/courts/c0/')
    t.equal((await get('/api/rest/v4/courts/c0/')).body.start_date, '1789-09-24', 'dates before 1900 survive')
    t.equal(body.date_modified, '2024-01-01T00:00:00+00:00')
    t.same(await get('/api/rest/v4/courts/nope/'), { status: 404, body: { detail: 'No Court matches the given query.' } })
  })

  t.test('filters, negation, unknown parameters and bad values', async (t) => {
    t.equal((await get('/api/rest/v4/courts/?jurisdiction=F')).body.count, 15)
    t.equal((await get('/api/rest/v4/courts/?jurisdiction!=F')).body.count, 30)
    t.equal((await get('/api/rest/v4/courts/?in_use=true&jurisdiction=F')).body.count, 8)
    t.equal((await get('/api/rest/v4/courts/?full_name__startswith=Court%201')).body.count, 11)
    t.equal((await get('/api/rest/v4/courts/?position__range=1,3')).body.count, 2)
    t.same(await get('/api/rest/v4/courts/?bogus=1&also=2'), { status: 400, body: { detail: 'Unknown filter parameters are not allowed.', unknown_params: ['also', 'bogus'] } })
    t.same(await get('/api/rest/v4/courts/?start_date__gte=soon'), { status: 400, body: { start_date__gte: ['Enter a valid date.'] } })
    t.equal((await get('/api/rest/v4/courts/?count=on&jurisdiction=F')).body.count, 15)
    t.same(Object.keys((await get('/api/rest/v4/courts/?count=on')).body), ['count'])
  })

  t.test('v4 cursor pagination by default (-id) and by date_created; page ignored; invalid cursor', async (t) => {
    t.equal(typeof (await get('/api/rest/v4/courts/?order_by=-id')).body.count, 'number', 'courts never page by cursor')
    const ignored = await get('/api/rest/v4/people/?order_by=no_such_field')
    t.equal(ignored.status, 200, 'an unknown ordering is ignored')
    t.equal(typeof ignored.body.count, 'number', 'and the answer pages by number, as the reference does')
    const first = await get('/api/rest/v4/people/?fields=id&page=3')
    t.equal(first.body.count, 'http://x.test/api/rest/v4/people/?fields=id&count=on', 'count is a URL in cursor mode')
    t.equal(first.body.results[0].id, 45, 'page is ignored in cursor mode')
    t.equal(first.body.previous, null)
    const seen: number[] = [...first.body.results.map((c: { id: number }) => c.id)]
    let next = first.body.next
    while (next) {
      const page = await get(next.replace('http://x.test', ''))
      seen.push(...page.body.results.map((c: { id: number }) => c.id))
      if (!page.body.next) {
        const back = await get(page.body.previous.replace('http://x.test', ''))
        t.equal(back.body.results.length, 20, 'previous goes back a full page')
      }
      next = page.body.next
    }
    t.equal(seen.length, 45)
    t.equal(new Set(seen).size, 45, 'every person once')
    t.same(seen, [...seen].sort((a, b) => b - a), 'descending ids throughout')
    // date_created has many ties (28 distinct days for 44 people): the cursor offset keeps pages exact.
    const byDate: number[] = []
    let url: string | null = '/api/rest/v4/people/?order_by=date_created&fields=id'
    while (url) { const p = await get(url.replace('http://x.test', '')); byDate.push(...p.body.results.map((r: { id: number }) => r.id)); url = p.body.next }
    t.equal(new Set(byDate).size, 45, 'ties across page boundaries: nobody skipped or repeated')
    const idCursor = new URL(first.body.next).searchParams.get('cursor')!
    t.same(await get(`/api/rest/v4/people/?order_by=date_created&cursor=${encodeURIComponent(idCursor)}`), { status: 404, body: { detail: 'Invalid cursor' } }, 'an id cursor replayed on a date ordering')
    t.same(await get('/api/rest/v4/people/?cursor=garbage'), { status: 404, body: { detail: 'Invalid cursor' } })
    t.equal(typeof (await get('/api/rest/v3/people/')).body.count, 'number', 'v3 is page-number only')
  })

  t.test('nested objects, fields and omit', async (t) => {
    const { body } = await get('/api/rest/v4/people/1/')
    t.equal(body.educations[0].school.name, 'Columbia', 'education nests its school')
    t.equal(body.positions[0], 'http://x.test/api/rest/v4/positions/5/')
    t.equal(body.date_modified, '2020-01-01T00:00:00.250000+00:00', 'fractions kept when not zero')
    t.same(body.race, ['w'])
    t.same((await get('/api/rest/v4/people/1/?fields=id,educations__school__name')).body, { id: 1, educations: [{ school: { name: 'Columbia' } }] })
    t.notOk('educations' in (await get('/api/rest/v4/people/1/?omit=educations')).body)
    const pos = (await get('/api/rest/v4/positions/5/')).body
    t.equal(pos.person.name_last, 'Ginsburg', 'positions embed their person')
    t.equal(pos.court.id, 'c0', 'and their court')
    t.same((await get('/api/rest/v4/people/?educations__school__name=Columbia&fields=id')).body.results, [{ id: 1 }], 'related filters through nested resources')
  })

  t.test('authentication is required where the reference requires it', async (t) => {
    t.same(await get('/api/rest/v4/dockets/'), { status: 401, body: { detail: 'Authentication credentials were not provided.' } })
    t.same((await app.inject({ url: '/api/rest/v4/courts/', headers: { authorization: 'Token nope' } })).json(), { detail: 'Invalid token.' })
    t.equal((await app.inject({ url: '/api/rest/v4/courts/', headers: { authorization: 'nope' } })).statusCode, 200, 'a header without Token is anonymous')
    t.equal((await app.inject({ method: 'POST', url: '/api/rest/v4/courts/' })).statusCode, 401)
    t.same((await get('/api/rest/v1/courts/')).status, 410)
  })

  t.test('OPTIONS describes list and detail endpoints', async (t) => {
    const list = (await app.inject({ method: 'OPTIONS', url: '/api/rest/v4/courts/' })).json()
    t.equal(list.name, 'Court List')
    t.same(list.filters.id, { type: 'CharFilter', lookup_types: ['exact'] })
    t.same(list.filters.dockets, { type: 'RelatedFilter', lookup_types: "See available filters for 'Dockets'" })
    t.same(list.ordering, ['id', 'date_modified', 'position', 'start_date', 'end_date'])
    t.equal((await app.inject({ method: 'OPTIONS', url: '/api/rest/v4/people/1/' })).json().name, 'Person Instance')
  })

  t.test('health and metrics', async (t) => {
    t.match(await get('/healthz'), { status: 200, body: { status: 'ok', checks: { clickhouse: 'ok' } } })
    const healthz = (body: string) => Number(/lds_http_requests_total\{method="GET",route="\/healthz",status="200"\} (\d+)/.exec(body)?.[1])
    const first = healthz((await app.inject('/metrics')).body)
    t.ok(first >= 1, 'a health check is counted by method, route and status')
    await get('/healthz')
    await get('/healthz')
    t.equal(healthz((await app.inject('/metrics')).body), first + 2, 'each scrape shows the total so far, not what came since the last')
  })
})
