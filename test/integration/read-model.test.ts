/**
 * The API's read model (LMDB, fed by the entity topics) against ClickHouse (fed by the table
 * sink): after a replay with updates and deletes they answer every detail the same; a cached list
 * never shows a row deleted before the request; an API process killed in the middle of catching up
 * resumes from what it stored and ends up complete.
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import { PROJECT_ROOT } from '../../core/config.js'
import { testStack, testUser, waitFor, countFinal } from '../helpers/stack.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../core/events/publisher.js'
import { openReadStore } from '../../api/read-model/store.js'
import { readModelPath } from '../../api/read-model/consumer.js'
import { refColumnsOf, keyKindsOf } from '../../api/read-model/refs.js'
import { listIndexesOf } from '../../api/read-model/list-index.js'
import { programArgs } from '../../core/programs.js'

const ts = '2024-03-01T10:00:00.123456+00:00'
const docket = (id: number, name: string) => ({ id, court_id: 'scotus', case_name: name, docket_number: `${id}-cv`, source: 0, date_created: ts, date_modified: ts, date_filed: '2024-01-02', panel_ids: [1, 2] })

t.test('the read model answers as ClickHouse does, and lists stay fresh', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  await pub.upsert('courts', { id: 'scotus', full_name: 'Supreme Court', short_name: 'SCOTUS', jurisdiction: 'F', position: 1, date_modified: ts })
  for (const p of [1, 2]) await pub.upsert('people', { id: p, name_last: `Judge ${p}`, slug: `judge-${p}`, date_created: ts, date_modified: ts })
  for (let i = 1; i <= 300; i++) await pub.upsert('dockets', docket(i, `Case ${i}`))
  for (let i = 1; i <= 300; i += 3) await pub.upsert('dockets', docket(i, `Case ${i} (renamed)`))
  for (let i = 2; i <= 300; i += 10) await pub.delete('dockets', i)
  for (let i = 1; i <= 100; i++) await pub.upsert('clusters', { id: 1000 + i, docket_id: i, case_name: `Case ${i}`, slug: 'c', date_filed: '2024-01-02', date_created: ts, date_modified: ts })
  await pub.flush()
  await waitFor(async () => (await countFinal(rt, 'dockets')) === 270 && (await countFinal(rt, 'clusters')) === 100, 'the sink applied everything', 60_000)

  const withModel = await buildApp(rt)
  t.teardown(() => withModel.close())
  const tablesOnly = await buildApp({ ...rt, kafka: undefined })
  t.teardown(() => tablesOnly.close())
  const token = await testUser(rt, 'reader', { app: withModel })
  await waitFor(async () => withModel.readModel!.caughtUp() && withModel.readModel!.store.get('clusters', 1100) !== undefined, 'the read model caught up')
  // The tables-only app has no read model to know tokens: compare what both serialize.
  const detail = async (id: number) => {
    const a = await withModel.inject({ url: `/api/rest/v4/dockets/${id}/`, headers: { authorization: `Token ${token}`, host: 'x.test' } })
    return { status: a.statusCode, body: a.statusCode === 200 ? a.json() : null }
  }
  const { clickhouseSource } = await import('../../api/engine/source.js')
  const ch = clickhouseSource(rt.db, rt.catalogue)
  const dockets = rt.catalogue.get('dockets')
  let same = 0
  for (let id = 1; id <= 300; id++) {
    const fromModel = withModel.readModel!.store.get('dockets', id)
    const [fromTable] = await ch.byKeys(dockets, [id])
    if (!!fromModel !== !!fromTable) { t.fail(`docket ${id}: read model ${fromModel ? 'has' : 'lacks'} it, ClickHouse ${fromTable ? 'has' : 'lacks'} it`); continue }
    if (fromModel && fromModel.case_name !== fromTable!.case_name) t.fail(`docket ${id}: ${String(fromModel.case_name)} vs ${String(fromTable!.case_name)}`)
    same++
  }
  t.equal(same, 300, 'every docket present or absent in both, at the same version')
  const shown = await detail(4)
  t.equal(shown.body.case_name, 'Case 4 (renamed)', 'the latest version')
  t.same(shown.body.clusters, ['http://x.test/api/rest/v4/clusters/1004/'], 'related sets from the read model')
  t.equal(shown.body.date_created, '2024-03-01T10:00:00.123456+00:00', 'timestamps as the tables give them')
  t.equal((await detail(2)).status, 404, 'a deleted docket is gone')
  // The same object either way: read model and tables serialize alike.
  const viaTables = await tablesOnly.inject({ url: '/api/rest/v4/courts/scotus/', headers: { host: 'x.test' } })
  const viaModel = await withModel.inject({ url: '/api/rest/v4/courts/scotus/', headers: { host: 'x.test' } })
  t.same(viaModel.json(), viaTables.json(), 'a detail is the same from the read model and from ClickHouse')

  t.test('a rendered detail follows a cluster published to its docket', async (t) => {
    const store = withModel.readModel!.store
    await waitFor(async () => store.rendered('dockets', 4) !== undefined, 'docket 4 rendered')
    const before = await detail(4)
    t.same(before.body, shown.body, 'the rendered text is the detail built before')
    const written = await pub.write('clusters', { upsert: { id: 2004, docket_id: 4, case_name: 'Case 4, again', slug: 'c', date_filed: '2024-01-03', date_created: ts, date_modified: ts } })
    t.ok(await withModel.readModel!.waitUntilApplied(written.topic, written.partition, written.offset, 20_000), 'the read model applied the cluster')
    t.same((await detail(4)).body.clusters, ['http://x.test/api/rest/v4/clusters/1004/', 'http://x.test/api/rest/v4/clusters/2004/'], 'shown as soon as it is applied')
    await waitFor(async () => store.rendered('dockets', 4)?.includes('/clusters/2004/') === true, 'docket 4 rendered again with the cluster')
  })

  t.test('list rows taken from rendered texts are the objects a request builds', async (t) => {
    const store = withModel.readModel!.store
    const page = (await withModel.inject({ url: '/api/rest/v4/dockets/?order_by=id&id__lte=60', headers: { authorization: `Token ${token}`, host: 'x.test' } })).json()
    t.equal(page.results.length, 20)
    t.ok(page.results.every((o: { id: number }) => store.rendered('dockets', o.id) !== undefined), 'every row of the page has a text')
    let same = 0
    for (const row of page.results) {
      // `?format=json` keeps a detail off the rendered text: it is built from the rows.
      const built = (await withModel.inject({ url: `/api/rest/v4/dockets/${row.id}/?format=json`, headers: { authorization: `Token ${token}`, host: 'x.test' } })).json()
      if (JSON.stringify(built) === JSON.stringify(row)) same++
      else t.fail(`docket ${row.id}: list row differs from the built detail`)
    }
    t.equal(same, 20, 'every row equals the built detail, key order included')
  })

  t.test('a cached list never shows a row deleted before the request', async (t) => {
    const list = async () => (await withModel.inject({ url: '/api/rest/v4/dockets/?order_by=-id&fields=id', headers: { authorization: `Token ${token}`, host: 'x.test' } })).json().results.map((r: { id: number }) => r.id)
    const first = await list()
    t.equal(first[0], 300)
    t.same(await list(), first, 'the second answer comes from the cache')
    const written = await pub.write('dockets', { delete: 300 })
    t.ok(await withModel.watermarks!.waitUntilApplied(written.topic, written.partition, written.offset, 20_000), 'the sink applied the delete')
    t.notOk((await list()).includes(300), 'the cached answer is not served after the delete')
  })
})

async function freePort(): Promise<number> {
  return new Promise((resolve) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)) }) })
}

t.test('an API killed while catching up resumes from what it stored', async (t) => {
  const rt = await testStack(t)
  const pub = await openPublisher(rt)
  const N = 100_000
  const STEP = 3_331
  for (let i = 1; i <= N; i++) await pub.upsert('dockets', docket(i, `Case ${i}`))
  await pub.stop()
  const port = await freePort()
  const env = { ...process.env, LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, PORT: String(port), LOG_LEVEL: 'error' }
  const start = (): ChildProcess => spawn(process.execPath, programArgs('bin/lds-cli.ts', ['run', '--roles', 'api']), { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] })
  const applied = () => {
    const store = openReadStore(readModelPath(rt.cfg), refColumnsOf(rt.catalogue), keyKindsOf(rt.catalogue), listIndexesOf(rt.catalogue))
    try { let n = 0; for (let i = 1; i <= N; i += STEP) if (store.get('dockets', i)) n++; return n } finally { void store.close() }
  }
  const allApplied = () => {
    const store = openReadStore(readModelPath(rt.cfg), refColumnsOf(rt.catalogue), keyKindsOf(rt.catalogue), listIndexesOf(rt.catalogue))
    try { let n = 0; for (let i = 1; i <= N; i++) if (store.get('dockets', i)) n++; return n } finally { void store.close() }
  }
  let child = start()
  t.teardown(() => { child.kill('SIGKILL') })
  const healthy = async () => { try { return (await fetch(`http://127.0.0.1:${port}/api/rest/v4/`)).ok } catch { return false } }
  await waitFor(async () => applied() > 0, 'some dockets applied', 60_000, 10)
  child.kill('SIGKILL')
  await new Promise((r) => child.once('exit', r))
  const atKill = applied()
  t.ok(atKill < Math.ceil(N / STEP), `killed in the middle (${atKill} of ${Math.ceil(N / STEP)} probes applied)`)
  child = start()
  await waitFor(healthy, 'the API up again', 60_000)
  await waitFor(async () => applied() === Math.ceil(N / STEP), 'every probed docket in the read model after the restart', 120_000, 200)
  // The probes are spread over the partitions, not their ends: wait for the whole catch-up.
  await waitFor(async () => allApplied() === N, 'every docket in the read model after the restart (a lost event never arrives)', 120_000, 500)
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
  const store = openReadStore(readModelPath(rt.cfg), refColumnsOf(rt.catalogue), keyKindsOf(rt.catalogue), listIndexesOf(rt.catalogue))
  let missing = 0
  for (let i = 1; i <= N; i++) if (!store.get('dockets', i)) missing++
  await store.close()
  t.equal(missing, 0, `all ${N} dockets stored, none lost`)
})
