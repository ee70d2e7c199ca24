/**
 * Filters that follow a many-to-many relation (a party's dockets, an attorney's dockets) against
 * the real ClickHouse tables: `parties/?docket__court=…` matches a party if any of its dockets is
 * in that court.
 */
import t from 'tap'
import { testStack, testUser, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../core/events/publisher.js'

const ts = '2024-03-01T10:00:00+00:00'
const stamps = { date_created: ts, date_modified: ts }

t.test('filters through a many-to-many relation', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  for (const c of ['c0', 'c1', 'c2']) await pub.upsert('courts', { id: c, full_name: `Court ${c}`, short_name: c, jurisdiction: 'F', position: 1, date_modified: ts })
  await pub.upsert('dockets', { id: 700, court_id: 'c0', case_name: 'A v. B', docket_number: '1', source: 0, ...stamps })
  await pub.upsert('dockets', { id: 701, court_id: 'c1', case_name: 'C v. D', docket_number: '2', source: 0, ...stamps })
  await pub.upsert('parties', { id: 1, name: 'Only in c0', docket_ids: [700], ...stamps })
  await pub.upsert('parties', { id: 2, name: 'In both', docket_ids: [701, 700], ...stamps })
  await pub.upsert('parties', { id: 3, name: 'Only in c1', docket_ids: [701], ...stamps })
  await pub.upsert('attorneys', { id: 9, name: 'Counsel', docket_ids: [701], ...stamps })
  await pub.flush()
  await waitFor(async () => (await countFinal(rt, 'parties')) === 3 && (await countFinal(rt, 'attorneys')) === 1 && (await countFinal(rt, 'dockets')) === 2, 'the sink applied everything', 60_000)
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const token = await testUser(rt, 'filters', { app })
  const ids = async (url: string) => {
    const r = await app.inject({ url, headers: { host: 'x.test', authorization: `Token ${token}` } })
    t.equal(r.statusCode, 200, url)
    return (r.json() as { results: { id: number }[] }).results.map((x) => x.id).sort((a, b) => a - b)
  }
  t.same(await ids('/api/rest/v4/parties/?docket__court=c0&fields=id'), [1, 2], 'any of its dockets in the court')
  t.same(await ids('/api/rest/v4/parties/?docket__court=c1&fields=id'), [2, 3])
  t.same(await ids('/api/rest/v4/parties/?docket__court=c2&fields=id'), [], 'a court with no dockets')
  t.same(await ids('/api/rest/v4/attorneys/?docket__court=c1&fields=id'), [9])
  t.same(await ids('/api/rest/v4/attorneys/?docket__court=c0&fields=id'), [])
})
