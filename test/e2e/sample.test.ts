/**
 * `lds ingest sample` through the whole pipeline: all 2,809 courts of the data set and a small
 * generated corpus reach the API, and the generated opinions' citations form edges.
 */
import t from 'tap'
import { testStack, waitFor, countFinal, testUser } from '../helpers/stack.js'
import { startProcessors } from '../../bin/runtime.js'
import { ingestSample } from '../../connectors/drivers/sample.js'
import { buildApp } from '../../api/app.js'

t.test('the sample data set through the pipeline', async (t) => {
  const rt = await testStack(t)
  const streams = await startProcessors(rt)
  t.teardown(() => Promise.all(streams.map((s) => s.stop())))
  const summary = await ingestSample(rt, { opinions: 300, seed: 7, progress: false })
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
})
