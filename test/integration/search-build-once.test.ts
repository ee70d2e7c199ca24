/**
 * Two search-index instances (two runtimes in this process, one deployment) against the real
 * stack: each document is built by one of them, once per change that touched it (builds per
 * document 1.00), and a court renamed while documents of it are being built, some for the first
 * time, leaves no document with its old name. The setting switches the mode: LDS_SEARCH_INSTANCES=2
 * runs two stages (their groups, the documents topic); the default one stage and no topic.
 */
import t from 'tap'
import { testStack, waitFor } from '../helpers/stack.js'
import { consumedAll } from '../helpers/consumed.js'
import { createRuntime, type Runtime } from '../../bin/runtime.js'
import { startTableSink } from '../../streams/table-sink.js'
import { startSearchIndexer, SEARCH_INDEXER, SEARCH_REPARTITION, SEARCH_DOCUMENTS } from '../../streams/search/indexer.js'
import { openPublisher } from '../../core/events/publisher.js'
import { entityTopic, groupId, searchDocumentsTopic } from '../../schemas/events/index.js'
import { SEARCH_RESULTS } from '../../schemas/internal/search.js'
import { sql, ident } from '../../core/sql.js'

const ts = '2024-01-01T00:00:00+00:00'
const COURTS = ['ca1', 'ca2', 'ca3']

t.test('two indexer instances build each document once, and a rename racing builds leaves no old name', async (t) => {
  const rt = await testStack(t, { LDS_SEARCH_INSTANCES: '2', LDS_PARTITIONS: '4' })
  const second = createRuntime(rt.cfg, rt.log)
  t.teardown(() => second.close())
  const sink = await startTableSink(rt)
  /** Per instance, per `type:id`: builds. */
  const builds = [new Map<string, number>(), new Map<string, number>()]
  const instances = await Promise.all([rt, second].map((r: Runtime, i) => startSearchIndexer({
    ...r,
    onBuilt: (type, ids) => { for (const id of ids) builds[i].set(`${type}:${id}`, (builds[i].get(`${type}:${id}`) ?? 0) + 1) },
  })))
  t.teardown(async () => { for (const x of instances) await x.stop(); await sink.stop() })
  t.same(instances.map((x) => x.stages), [2, 2], 'LDS_SEARCH_INSTANCES=2: two stages')
  // both instances in both groups, with partitions of each, before any input
  const admin = rt.kafka.admin()
  await admin.connect()
  t.teardown(() => admin.disconnect())
  const twoStageGroups = [SEARCH_REPARTITION, SEARCH_DOCUMENTS].map((g) => groupId(rt.cfg, g))
  await waitFor(async () => {
    const { groups } = await admin.describeGroups(twoStageGroups)
    return groups.length === 2 && groups.every((g) => g.state === 'Stable' && g.members.length === 2)
  }, 'both instances in the repartition and documents groups', 60_000)
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const searched = ['courts', 'dockets', 'clusters'].map((r) => entityTopic(rt.cfg, r))
  const t0 = Date.now()
  const indexed = async (what: string) => { await consumedAll(rt, SEARCH_INDEXER, searched, what, 120_000); t.comment(`${what} at ${Date.now() - t0} ms`) }
  const phase = () => { for (const b of builds) b.clear() }
  /** Per document: [builds, instances that built it]. */
  const tally = () => {
    const out = new Map<string, [number, number]>()
    for (const b of builds) for (const [doc, n] of b) { const [total, by] = out.get(doc) ?? [0, 0]; out.set(doc, [total + n, by + 1]) }
    return out
  }
  const court = (id: string, name: string) => pub.upsert('courts', { id, full_name: name, short_name: id, citation_string: id, jurisdiction: 'F', position: COURTS.indexOf(id) + 1, date_modified: new Date().toISOString() })
  const docket = (id: number, courtId: string, name = `Party ${id} v. Other`) => pub.upsert('dockets', { id, court_id: courtId, case_name: name, docket_number: `${id}-cv`, source: 0, slug: 'case', date_created: ts, date_modified: new Date().toISOString() })
  const courtOf = (id: number) => COURTS[id % COURTS.length]

  for (const c of COURTS) await court(c, `Old ${c} Court`)
  await pub.flush()
  await indexed('the courts')

  // Each docket and each cluster is one change touching its documents, published after its court.
  for (let id = 1; id <= 90; id++) await docket(id, courtOf(id))
  await pub.flush()
  await indexed('the dockets')
  for (let id = 1; id <= 45; id++) await pub.upsert('clusters', { id, docket_id: id, case_name: `Party ${id} v. Other`, date_filed: '2020-01-01', precedential_status: 'Published', slug: 'case', date_created: ts, date_modified: ts })
  await pub.flush()
  await indexed('the clusters')
  let docs = tally()
  const total = [...docs.values()].reduce((n, [b]) => n + b, 0)
  t.equal(docs.size, 90 * 2 + 45, 'every docket (r, d) and cluster (o) document built')
  t.equal((total / docs.size).toFixed(2), '1.00', 'builds per document')
  t.same([...docs].filter(([, [, by]]) => by > 1).map(([doc]) => doc), [], 'no document built by both instances')
  t.ok(builds.every((b) => b.size > 0), `both instances built documents (${builds.map((b) => b.size).join(' and ')})`)

  // A rename alone: every document that shows the court, once.
  phase()
  await court('ca2', 'Renamed ca2 Court')
  await pub.flush()
  await indexed('the rename of ca2')
  docs = tally()
  const ofCa2 = (id: number) => courtOf(id) === 'ca2'
  const expected = [...Array.from({ length: 90 }, (_, i) => i + 1).filter(ofCa2).flatMap((id) => [`r:${id}`, `d:${id}`]), ...Array.from({ length: 45 }, (_, i) => i + 1).filter(ofCa2).map((id) => `o:${id}`)].sort()
  t.same([...docs.keys()].sort(), expected, 'the documents of the renamed court, and only those, built again')
  t.same([...docs.values()].filter(([n, by]) => n !== 1 || by !== 1), [], 'each once, by one instance')

  // A rename racing builds: ca1 renamed in the same flush as updates of its dockets and new
  // dockets of it, whose first builds are under way on both instances when the rename is mapped.
  phase()
  for (let id = 1; id <= 90; id++) if (courtOf(id) === 'ca1') await docket(id, 'ca1', `Updated ${id} v. Other`)
  for (let id = 91; id <= 180; id++) await docket(id, 'ca1')
  await court('ca1', 'Renamed ca1 Court')
  for (let id = 181; id <= 240; id++) await docket(id, 'ca1')
  await pub.flush()
  await indexed('the rename of ca1 with its dockets')
  docs = tally()
  t.same([...docs].filter(([, [, by]]) => by > 1).map(([doc]) => doc), [], 'no document built by both instances')
  t.same([...docs].filter(([, [n]]) => n > 2).map(([doc]) => doc), [], 'no document built more often than the changes that touched it (two at most)')

  const rows = await rt.db.query<{ type: string; id: number; result: string }>(sql`
    SELECT type, id, result FROM ${ident(rt.db.database)}.${ident(SEARCH_RESULTS)} FINAL WHERE _deleted = 0 AND type IN ('r', 'd', 'o')`)
  const shown = rows.map((r) => ({ doc: `${r.type}:${r.id}`, court: (JSON.parse(r.result) as { court: string; court_id: string }) }))
  t.equal(shown.length, 240 * 2 + 45, 'every document in the index')
  t.same(shown.filter((s) => s.court.court_id === 'ca1' && s.court.court !== 'Renamed ca1 Court').map((s) => s.doc), [], 'no document of ca1 keeps its old name')
  t.same(shown.filter((s) => s.court.court_id === 'ca2' && s.court.court !== 'Renamed ca2 Court').map((s) => s.doc), [], 'nor of ca2')
  t.same(shown.filter((s) => s.court.court_id === 'ca3' && s.court.court !== 'Old ca3 Court').map((s) => s.doc), [], 'ca3 untouched')
})

t.test('the setting switches the mode: by default one stage, with no documents topic and no groups of the two-stage mode; a deployment switched to two stages goes on from what is indexed', async (t) => {
  const rt = await testStack(t)
  const sink = await startTableSink(rt)
  const indexer = await startSearchIndexer(rt)
  let two: Awaited<ReturnType<typeof startSearchIndexer>> | undefined
  t.teardown(async () => { await indexer.stop(); await two?.stop(); await sink.stop() })
  t.equal(indexer.stages, 1)
  t.equal(indexer.documents, undefined)
  const pub = await openPublisher(rt)
  t.teardown(() => pub.stop())
  const topics = ['courts', 'dockets'].map((r) => entityTopic(rt.cfg, r))
  await pub.upsert('courts', { id: 'ca1', full_name: 'Court ca1', short_name: 'ca1', citation_string: 'ca1', jurisdiction: 'F', position: 1, date_modified: new Date().toISOString() })
  await pub.upsert('dockets', { id: 1, court_id: 'ca1', case_name: 'A v. B', docket_number: '1-cv', source: 0, slug: 'case', date_created: ts, date_modified: ts })
  await pub.flush()
  await consumedAll(rt, SEARCH_INDEXER, topics, 'the docket indexed', 60_000)
  const admin = rt.kafka.admin()
  await admin.connect()
  t.teardown(() => admin.disconnect())
  t.notOk((await admin.listTopics()).includes(searchDocumentsTopic(rt.cfg)), 'no documents topic')
  const groups = (await admin.listGroups()).groups.map((g) => g.groupId)
  t.ok(groups.includes(groupId(rt.cfg, SEARCH_INDEXER)), 'the indexer\'s group')
  t.notOk(groups.includes(groupId(rt.cfg, SEARCH_REPARTITION)) || groups.includes(groupId(rt.cfg, SEARCH_DOCUMENTS)), 'none of the two-stage mode')

  // The same deployment in two stages: the repartition stage starts where the index is.
  await indexer.stop()
  const built: string[] = []
  two = await startSearchIndexer({ ...rt, cfg: { ...rt.cfg, searchInstances: 2 }, onBuilt: (type, ids) => { for (const id of ids) built.push(`${type}:${id}`) } })
  t.equal(two.stages, 2)
  await pub.upsert('dockets', { id: 2, court_id: 'ca1', case_name: 'C v. D', docket_number: '2-cv', source: 0, slug: 'case', date_created: ts, date_modified: ts })
  await pub.flush()
  await consumedAll(rt, SEARCH_INDEXER, topics, 'the second docket indexed', 60_000)
  t.same(built.sort(), ['d:2', 'r:2'], 'only the new docket\'s documents built: nothing indexed before is built again')
})
