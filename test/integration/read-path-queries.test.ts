/**
 * How many ClickHouse statements a read costs once the API's read model has caught up: a detail
 * of any resource none (the row, its embedded objects and its related sets all come from the read
 * model), a list page at most two (the page's keys and its count), a repeated list none (the
 * cached bytes). Statements are counted by wrapping the app's ClickHouse client.
 */
import t, { type Test } from 'tap'
import { testStack, testUser, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../core/events/publisher.js'
import { compile, sql } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'

const ts = '2024-03-01T10:00:00.123456+00:00'
const stamps = { date_created: ts, date_modified: ts }

/** The same client, recording the text of every statement it is asked to run. */
function counting(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = []
  const note = (what: string) => { statements.push(what.replace(/\s+/g, ' ').slice(0, 200)) }
  const wrapped: Db = {
    client: db.client,
    database: db.database,
    query: (q, o) => { note(compile(q).query); return db.query(q, o) },
    command: (q, o) => { note(compile(q).query); return db.command(q, o) },
    insert: (table, rows, o) => { note(`INSERT INTO ${table}`); return db.insert(table, rows, o) },
    insertCompact: (table, cols, rows, o) => { note(`INSERT INTO ${table}`); return db.insertCompact(table, cols, rows, o) },
    insertRows: (table, cols, rows, encoded) => { note(`INSERT INTO ${table}`); return db.insertRows(table, cols, rows, encoded) },
    insertBody: (query, chunks, o) => { note(query); return db.insertBody(query, chunks, o) },
    withKeys: (values, type, build, o) => { note(compile(build(sql`${[...values]}`)).query); return db.withKeys(values, type, build, o) },
    ping: () => db.ping(),
    close: () => db.close(),
  }
  return { db: wrapped, statements }
}

t.test('reads cost no ClickHouse query for details and at most two for a list page', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  await pub.upsert('courts', { id: 'scotus', full_name: 'Supreme Court', short_name: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts })
  for (const p of [1, 2, 3]) await pub.upsert('people', { id: p, name_last: `Judge ${p}`, slug: `judge-${p}`, ...stamps })
  await pub.upsert('originating-court-information', { id: 500, docket_number: '12-345', ...stamps })
  for (let i = 1; i <= 30; i++) {
    await pub.upsert('dockets', {
      id: i, court_id: 'scotus', case_name: `Case ${i}`, docket_number: `${i}-cv`, source: 0, ...stamps,
      date_filed: `2024-01-${String(i).padStart(2, '0')}`, original_court_info_id: i === 1 ? 500 : null, assigned_to_id: 1,
    })
  }
  for (const c of [101, 102]) await pub.upsert('clusters', { id: c, docket_id: 1, case_name: 'Case 1', slug: 'case-1', date_filed: '2024-01-02', ...stamps })
  for (const o of [1001, 1002]) await pub.upsert('opinions', { id: o, cluster_id: 101, type: '020lead', plain_text: 'text', ...stamps })
  await pub.upsert('audio', { id: 201, docket_id: 1, case_name: 'Case 1', sha1: 'a'.repeat(40), local_path_original_file: 'a.mp3', ...stamps })
  await pub.upsert('bankruptcy-information', { id: 301, docket_id: 1, chapter: '11', ...stamps })
  for (const p of [401, 402]) await pub.upsert('positions', { id: p, person_id: 1, supervisor_id: 2, predecessor_id: 3, court_id: 'scotus', job_title: 'Judge', ...stamps })
  await pub.flush()
  const expected: Record<string, number> = { dockets: 30, positions: 2, opinions: 2, clusters: 2, audio: 1, 'bankruptcy-information': 1, 'originating-court-information': 1, people: 3 }
  const counts = async () => Object.fromEntries(await Promise.all(Object.keys(expected).map(async (k) => [k, await countFinal(rt, rt.catalogue.get(k).table)])))
  await waitFor(async () => JSON.stringify(await counts()) === JSON.stringify(expected), 'the sink applied everything', 60_000)
    .catch(async (err) => { throw new Error(`${(err as Error).message}: ${JSON.stringify(await counts())}`) })

  const { db, statements } = counting(rt.db)
  const app = await buildApp({ ...rt, db })
  t.teardown(() => app.close())
  const token = await testUser(rt, 'reader', { app })
  await waitFor(async () => app.readModel!.caughtUp() && app.readModel!.store.get('positions', 402) !== undefined && app.readModel!.store.get('bankruptcy-information', 301) !== undefined, 'the read model caught up')

  const get = async (t: Test, url: string) => {
    statements.length = 0
    const res = await app.inject({ url, headers: { authorization: `Token ${token}`, host: 'x.test' } })
    t.equal(res.statusCode, 200, `${url} answers 200`)
    return { body: res.json(), raw: res.body, statements: [...statements] }
  }

  t.test('details: no query', async (t) => {
    const docket = await get(t, '/api/rest/v4/dockets/1/')
    t.same(docket.statements, [], 'a docket with clusters, audio and bankruptcy information')
    t.same(docket.body.clusters, ['http://x.test/api/rest/v4/clusters/101/', 'http://x.test/api/rest/v4/clusters/102/'])
    t.same(docket.body.audio_files, ['http://x.test/api/rest/v4/audio/201/'])
    t.equal(docket.body.bankruptcy_information, 'http://x.test/api/rest/v4/bankruptcy-information/301/')
    t.equal(docket.body.original_court_info?.docket_number, '12-345', 'the embedded originating court information')
    t.equal(docket.body.idb_data, null)

    const cluster = await get(t, '/api/rest/v4/clusters/101/')
    t.same(cluster.statements, [], 'a cluster with sub-opinions')
    t.same(cluster.body.sub_opinions, ['http://x.test/api/rest/v4/opinions/1001/', 'http://x.test/api/rest/v4/opinions/1002/'])

    const person = await get(t, '/api/rest/v4/people/1/')
    t.same(person.statements, [], 'a person with positions')
    t.same(person.body.positions, ['http://x.test/api/rest/v4/positions/401/', 'http://x.test/api/rest/v4/positions/402/'])

    const position = await get(t, '/api/rest/v4/positions/401/')
    t.same(position.statements, [], 'a position embedding its person, supervisor, predecessor and court')
    t.equal(position.body.person?.name_last, 'Judge 1')
    t.equal(position.body.supervisor?.name_last, 'Judge 2')
    t.equal(position.body.predecessor?.name_last, 'Judge 3')

    for (const url of ['/api/rest/v4/opinions/1001/', '/api/rest/v4/audio/201/', '/api/rest/v4/courts/scotus/', '/api/rest/v3/dockets/1/']) {
      t.same((await get(t, url)).statements, [], url)
    }
  })

  t.test('lists: at most two queries, none where a list index covers them, and cached bytes from the third request', async (t) => {
    // A court's dockets by filing date are a range of the read model's list index: no query at all.
    const indexed = await get(t, '/api/rest/v4/dockets/?court=scotus&order_by=-date_filed&date_filed__gte=1900-01-01')
    t.same(indexed.statements, [], 'an indexed list, asked once')
    t.ok(indexed.body.results.length > 0)
    for (const url of [
      '/api/rest/v4/dockets/?court=scotus&order_by=-date_filed',
      '/api/rest/v4/dockets/',
      '/api/rest/v4/dockets/?page=2&order_by=date_filed',
      '/api/rest/v4/positions/',
      '/api/rest/v4/people/',
      '/api/rest/v4/clusters/',
      '/api/rest/v3/dockets/',
    ]) {
      const cold = await get(t, url)
      t.ok(cold.statements.length <= 2, `${url}: ${cold.statements.length} statements (${cold.statements.join(' | ')})`)
      t.ok(cold.body.results.length > 0, `${url} lists rows`)
      // A list is kept from its second request on (one-off filters do not fill the cache).
      const again = await get(t, url)
      t.equal(again.raw, cold.raw, 'the same bytes')
      const hot = await get(t, url)
      t.same(hot.statements, [], `${url} a third time: from the cache`)
      t.equal(hot.raw, cold.raw, 'the same bytes')
    }
    const page = await get(t, '/api/rest/v4/dockets/?court=scotus&order_by=-date_filed')
    t.equal(page.body.count, 30, 'the count')
    t.same(page.body.results.map((r: { id: number }) => r.id), Array.from({ length: 20 }, (_, i) => 30 - i), 'the newest first')
    t.equal(page.body.results.at(-1).id, 11)
    const positions = await get(t, '/api/rest/v4/positions/?order_by=id')
    t.equal(positions.body.results[0].supervisor?.name_last, 'Judge 2', 'embedded objects of a list page from the read model')
  })

  t.test('a page past the end is still refused', async (t) => {
    statements.length = 0
    const res = await app.inject({ url: '/api/rest/v4/dockets/?court=scotus&order_by=-date_filed&page=3', headers: { authorization: `Token ${token}`, host: 'x.test' } })
    t.equal(res.statusCode, 404)
    t.same(res.json(), { detail: 'Invalid page.' })
    t.ok(statements.length <= 2)
  })
})
