/**
 * `lds ingest sample` through the whole pipeline: all 2,809 courts of the data set and a small
 * generated corpus reach the API, the generated opinions' citations form edges, and every list
 * endpoint of the v4 root that is not a user's own (alerts, prayers, fetches, uploads...) has rows.
 */
import t from 'tap'
import { testStack, waitFor, countFinal, testUser } from '../helpers/stack.js'
import { startProcessors } from '../../bin/runtime.js'
import { ingestSample } from '../../bin/commands/ingest-sample.js'
import { buildApp } from '../../api/app.js'
import { catalogue, V4_ROOT_NAMES } from '../../schemas/catalogue/index.js'
import { loadCourts } from '../../connectors/sample/courts.js'
import { generateSample } from '../../connectors/sample/generator.js'

const TODAY = new Date().toISOString().slice(0, 10)

t.test('the sample data set through the pipeline', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt)
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const summary = await ingestSample(rt, { opinions: 300, seed: 7, progress: false, today: TODAY })
  t.equal(summary.invalid, 0, 'every generated record is valid')
  t.equal(summary.byResource.courts, 2809)
  t.equal(summary.byResource.opinions, 300)

  await waitFor(async () => (await countFinal(rt, 'opinions')) === 300 && (await countFinal(rt, 'courts')) === 2809, 'courts and opinions applied', 60_000, 250)
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const courts = (await app.inject('/api/rest/v4/courts/')).json()
  t.equal(courts.count, 2809)
  const scotus = (await app.inject({ url: '/api/rest/v4/courts/scotus/', headers: { host: 'api.example' } })).json()
  t.match(scotus, { id: 'scotus', full_name: 'Supreme Court of the United States', jurisdiction: 'F', citation_string: 'SCOTUS', in_use: true })
  t.equal(scotus.resource_uri, 'http://api.example/api/rest/v4/courts/scotus/')

  const token = await testUser(rt, 'tester', { app })
  const headers = { authorization: `Token ${token}` }
  const edges = await waitFor(async () => {
    const r = (await app.inject({ url: '/api/rest/v4/opinions-cited/?count=on', headers })).json()
    return r.count > 100 && r.count
  }, 'citation edges from the generated opinions', 60_000, 500)
  t.ok(edges > 100, `${edges} edges`)
  const cluster = (await app.inject({ url: '/api/rest/v4/clusters/?order_by=citation_count&fields=id', headers })).json()
  t.ok(cluster.results.length > 0)

  // Every list of the v4 root but a user's own answers with rows of the sample.
  const byPath = new Map(catalogue.resources.filter((r) => r.api).map((r) => [r.path ?? r.name, r]))
  const lists = V4_ROOT_NAMES.filter((name) => byPath.has(name) && byPath.get(name)!.access !== 'owner')
  t.ok(lists.length >= 35, `${lists.length} lists: ${lists.join(', ')}`)
  const answers = new Map<string, { status: number; rows: number }>()
  await waitFor(async () => {
    for (const name of lists) {
      if ((answers.get(name)?.rows ?? 0) > 0) continue
      const r = await app.inject({ url: `/api/rest/v4/${name}/`, headers })
      answers.set(name, { status: r.statusCode, rows: r.statusCode === 200 ? (r.json().results?.length ?? 0) : 0 })
    }
    return lists.every((name) => answers.get(name)!.rows > 0)
  }, 'rows in every public list', 90_000, 1000).catch(() => undefined)
  for (const name of lists) {
    const a = answers.get(name)
    t.ok(a?.status === 200 && a.rows > 0, `${name}: 200 with rows (${JSON.stringify(a)})`)
  }

  // Redirected cluster ids answer as the reference does: 301 to the cluster merged into, 410 when sealed.
  const redirections = [...generateSample({ courts: loadCourts(), opinions: 300, seed: 7, today: TODAY })].filter((r) => r.resource === 'cluster-redirections').map((r) => r.record)
  t.ok(redirections.some((r) => r.reason === 4) && redirections.some((r) => r.reason !== 4), `${redirections.length} redirections, merged and sealed`)
  for (const r of redirections) {
    const res = await waitFor(async () => {
      const x = await app.inject({ url: `/api/rest/v4/clusters/${r.deleted_cluster_id}/`, headers })
      return x.statusCode !== 404 && x
    }, `redirection of cluster ${r.deleted_cluster_id}`, 30_000, 500)
    if (r.reason === 4) t.equal(res.statusCode, 410, `cluster ${r.deleted_cluster_id} sealed`)
    else t.match({ status: res.statusCode, location: res.headers.location }, { status: 301, location: new RegExp(`/clusters/${r.cluster_id}/$`) }, `cluster ${r.deleted_cluster_id} merged into ${r.cluster_id}`)
  }
})
