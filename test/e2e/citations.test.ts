/**
 * The citation network and citation lookup on the real stack: opinions in, edges and linked
 * text out; edits replace edges; late clusters get linked; the endpoint answers per citation.
 */
import t from 'tap'
import { testStack, waitFor, testUser } from '../helpers/stack.js'
import { startProcessors } from '../../bin/runtime.js'
import { openPublisher } from '../../core/events/publisher.js'
import { buildApp } from '../../api/app.js'

const ts = '2024-01-01T00:00:00+00:00'
const base = { date_created: ts, date_modified: ts }
const cluster = (id: number, caseName: string, date: string) => ({ ...base, id, docket_id: 1, case_name: caseName, slug: 'c', date_filed: date, precedential_status: 'Published' })
const citation = (id: number, clusterId: number, volume: number, reporter: string, page: string) => ({ ...base, id, cluster_id: clusterId, volume, reporter, page, type: 1 })
const opinion = (id: number, clusterId: number, text: string) => ({ ...base, id, cluster_id: clusterId, type: '010combined', plain_text: text })

const CITING = 'See Roe v. Wade, 410 U.S. 113, 120 (1973); Obergefell v. Hodges, 576 U.S. 644 (2015); ' +
  'again 576 U.S. 644; Doe v. Roe, 1 F.3d 1 (9th Cir. 1993); and the invented Smith v. Nobody, 999 U.S. 999 (2001).'

t.test('citation network and lookup', async (t) => {
  const rt = await testStack(t, { LDS_CITATION_MAX_PER_REQUEST: '4', LDS_CITATION_RATE: '12/min' })
  const streams = await startProcessors(rt)
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const token = await testUser(rt, 'tester', { app })
  const headers = { authorization: `Token ${token}`, host: 'x.test' }
  const get = async (url: string) => (await app.inject({ url, headers })).json()

  await pub.upsert('courts', { id: 'scotus', full_name: 'Supreme Court of the United States', short_name: 'Supreme Court', jurisdiction: 'F', position: 1, date_modified: ts })
  await pub.upsert('dockets', { ...base, id: 1, court_id: 'scotus', case_name: 'Various', source: 0 })
  for (const c of [cluster(1, 'Obergefell v. Hodges', '2015-06-26'), cluster(2, 'Roe v. Wade', '1973-01-22'), cluster(3, 'Doe v. Roe', '1993-01-01'), cluster(4, 'Doe v. Roe (2)', '1993-01-01'), cluster(5, 'Citing v. Everyone', '2020-01-01')]) await pub.upsert('clusters', c)
  for (const c of [citation(1, 1, 576, 'U.S.', '644'), citation(2, 2, 410, 'U.S.', '113'), citation(3, 3, 1, 'F.3d', '1'), citation(4, 4, 1, 'F.3d', '1')]) await pub.upsert('citations', c)
  for (const o of [opinion(11, 1, 'Obergefell text.'), opinion(12, 2, 'Roe text.'), opinion(13, 3, 'Doe text.'), opinion(14, 4, 'Doe two.'), opinion(20, 5, CITING)]) await pub.upsert('opinions', o)
  await pub.flush()

  t.test('edges: depth, ambiguity, matched text', async (t) => {
    const edges = await waitFor(async () => {
      const r = await get('/api/rest/v4/opinions-cited/?citing_opinion=20&fields=cited_opinion,depth,match_status,matched_text')
      return r.results?.length === 4 && r.results
    }, 'four edges from opinion 20')
    const byCited = Object.fromEntries(edges.map((e: { cited_opinion: string }) => [e.cited_opinion.replace('http://x.test/api/rest/v4/opinions/', '').replace('/', ''), e]))
    t.match(byCited['11'], { depth: 2, match_status: 'unique', matched_text: '576 U.S. 644' })
    t.match(byCited['12'], { depth: 1, match_status: 'unique' })
    t.match(byCited['13'], { match_status: 'ambiguous' })
    t.match(byCited['14'], { match_status: 'ambiguous' })
    // The linked text and the cited cluster's count are events of their own, after the edges; the
    // detail's opinions_cited comes from the edge topic, which the read model applies on its own.
    const op = await waitFor(async () => { const o = await get('/api/rest/v4/opinions/20/'); return /<a href=/.test(o.html_with_citations ?? '') && o.opinions_cited?.length >= 4 && o }, 'the linked text and the edges in the detail')
    t.equal(op.opinions_cited.length, 4)
    t.match(op.html_with_citations, /<a href="\/opinion\/1\/case\/">576 U\.S\. 644<\/a>/)
    t.notMatch(op.html_with_citations, /999 U\.S\. 999<\/a>/, 'unknown citations are not linked')
    const counted = await waitFor(async () => { const c = await get('/api/rest/v4/clusters/1/'); return c.citation_count > 0 && c }, 'the cited cluster counted')
    t.equal(counted.citation_count, 1, 'one citing opinion (the ambiguous ones do not count)')
  })

  t.test('a cluster that arrives later gets linked (backfill)', async (t) => {
    await pub.upsert('clusters', cluster(6, 'Smith v. Nobody', '2001-01-01'))
    await pub.upsert('citations', citation(6, 6, 999, 'U.S.', '999'))
    await pub.upsert('opinions', opinion(16, 6, 'Late text.'))
    await pub.flush()
    await waitFor(async () => (await get('/api/rest/v4/opinions-cited/?citing_opinion=20&cited_opinion=16')).results?.length === 1, 'edge 20 → 16')
    t.pass('linked after the fact')
  })

  t.test('editing the text replaces the edges', async (t) => {
    await pub.upsert('opinions', opinion(20, 5, 'Now only Roe v. Wade, 410 U.S. 113 (1973).'))
    await pub.flush()
    const after = await waitFor(async () => { const r = await get('/api/rest/v4/opinions-cited/?citing_opinion=20'); return r.results?.length === 1 && r.results }, 'one edge left')
    t.equal(after[0].cited_opinion, 'http://x.test/api/rest/v4/opinions/12/')
    await waitFor(async () => (await get('/api/rest/v4/clusters/1/')).citation_count === 0, 'citation count of cluster 1 back to 0')
  })

  t.test('lookup: found, ambiguous, unknown reporter, not found, over the cap', async (t) => {
    const text = 'Obergefell, 576 U.S. 644; Doe, 1 F.3d 1; Fake, 999 F.3d 123; again 576 U.S. 644; Extra, 410 U.S. 113.'
    const res = await app.inject({ method: 'POST', url: '/api/rest/v4/citation-lookup/', headers, payload: { text } })
    t.equal(res.statusCode, 200)
    const items = res.json()
    t.same(items.map((i: { status: number }) => i.status), [200, 300, 404, 200, 429], 'one item per citation, in text order; the fifth is past the cap of 4')
    const [found, ambiguous] = items
    t.equal(found.citation, '576 U.S. 644')
    t.equal(text.slice(found.start_index, found.end_index), '576 U.S. 644')
    t.same(found.normalized_citations, ['576 U.S. 644'])
    t.equal(found.clusters[0].id, 1)
    t.equal(found.clusters[0].case_name, 'Obergefell v. Hodges', 'full cluster objects')
    t.same(ambiguous.clusters.map((c: { id: number }) => c.id), [4, 3], 'several clusters, newest first')
    const notFound = items[2]
    t.equal(notFound.error_message, "Citation not found: '999 F.3d 123'")
    t.equal(items[items.length - 1].error_message, 'Too many citations requested.')
  })

  t.test('lookup by parts, form-encoded; unknown reporter; validation; auth', async (t) => {
    const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' }
    const one = (await app.inject({ method: 'POST', url: '/api/rest/v3/citation-lookup/', headers: form, payload: 'volume=410&reporter=U.S.&page=113' })).json()
    t.match(one, [{ citation: '410 U.S. 113', status: 200, start_index: 0, end_index: 12 }])
    const bad = (await app.inject({ method: 'POST', url: '/api/rest/v4/citation-lookup/', headers: form, payload: 'volume=1&reporter=Nope&page=2' })).json()
    t.match(bad, [{ status: 400, error_message: "Unable to find reporter with abbreviation of 'Nope'", clusters: [] }])
    t.same((await app.inject({ method: 'POST', url: '/api/rest/v4/citation-lookup/', headers, payload: {} })).json(), { non_field_errors: ["Either 'text' or 'reporter' is required."] })
    t.equal((await app.inject({ method: 'POST', url: '/api/rest/v4/citation-lookup/', payload: { text: 'x' } })).statusCode, 401)
    t.equal((await app.inject({ method: 'GET', url: '/api/rest/v4/citation-lookup/', headers })).statusCode, 405)
    t.same((await app.inject({ method: 'POST', url: '/api/rest/v4/citation-lookup/', headers, payload: { text: 'no citations here' } })).json(), [])
  })

  t.test('merged clusters answer 301 to the survivor, sealed ones 410', async (t) => {
    await pub.upsert('cluster-redirections', { id: 1, cluster_id: 2, deleted_cluster_id: 900, reason: 2, date_created: ts })
    await pub.upsert('cluster-redirections', { id: 2, cluster_id: null, deleted_cluster_id: 901, reason: 4, date_created: ts })
    await pub.flush()
    const moved = await waitFor(async () => { const r = await app.inject({ url: '/api/rest/v4/clusters/900/?fields=id', headers }); return r.statusCode === 301 && r }, 'the redirection applied')
    t.equal(moved.headers.location, 'http://x.test/api/rest/v4/clusters/2/?fields=id', 'to the surviving cluster, with the query')
    t.equal(moved.body, '', 'an empty body')
    t.equal((await app.inject({ url: '/api/rest/v3/clusters/900/', headers })).headers.location, 'http://x.test/api/rest/v3/clusters/2/', 'in the version asked')
    const sealed = await app.inject({ url: '/api/rest/v4/clusters/901/', headers })
    t.same([sealed.statusCode, sealed.json()], [410, { detail: 'Cluster removed by court order' }])
    t.equal((await app.inject({ url: '/api/rest/v4/clusters/902/', headers })).statusCode, 404, 'no redirection: 404')
    const survivor = await get('/api/rest/v4/clusters/2/')
    t.same(survivor.cluster_redirections, [{ date_created: ts, deleted_cluster_id: 900, reason: 2 }], 'the survivor lists what was merged into it')
  })

  t.test('the per-user citation throttle answers 429 with wait_until', async (t) => {
    // 12/min: the requests above counted 4 + 1 + 1 = 6; two more full texts reach the limit.
    for (let i = 0; i < 2; i++) await app.inject({ method: 'POST', url: '/api/rest/v4/citation-lookup/', headers, payload: { text: '576 U.S. 644; 410 U.S. 113; 1 F.3d 1' } })
    const res = await app.inject({ method: 'POST', url: '/api/rest/v4/citation-lookup/', headers, payload: { text: '576 U.S. 644' } })
    t.equal(res.statusCode, 429)
    t.equal(res.json().error_message, 'Too many requests (allowed rate: 12/min).')
    t.ok(Date.parse(res.json().wait_until) > Date.now(), 'wait_until is in the future')
    t.notOk(res.headers['retry-after'], 'no Retry-After on the citation throttle')
  })
})
