/**
 * @clickhouse/client 1.23.1 began every request with `await sleep(0)`: a timer turn, at least 1 ms
 * and more on a busy loop, so that idle-socket timers could fire before a socket was reused. Our
 * client destroys stale sockets eagerly (it checks each free socket's age before a request), which
 * makes the turn redundant, and it was most of a small query's time: about 2 of its 3 ms, paid
 * twice by a search page and once per round trip of a cold list.
 * patches/@clickhouse+client+1.23.1.patch (applied by `npm ci`'s postinstall) skips it when stale
 * sockets are destroyed eagerly: the request leaves before any timer could run.
 */
import t from 'tap'
import diagnostics from 'node:diagnostics_channel'
import { createDb } from '../../core/clickhouse.js'
import { sql } from '../../core/sql.js'
import { testConfig } from '../helpers/stack.js'

t.test('a query is sent without waiting for a timer turn, and still answers', async (t) => {
  const db = createDb(testConfig(), { useDatabase: false })
  t.teardown(() => db.close())
  await db.query(sql`SELECT 1`) // a socket in the pool, as for every query after the first

  let sent = 0
  const onStart = () => { sent++ }
  diagnostics.subscribe('http.client.request.start', onStart)
  t.teardown(() => diagnostics.unsubscribe('http.client.request.start', onStart))

  // A timer due now runs only once the loop reaches its timers phase: a request made before it
  // waited on no timer.
  let sentBeforeTimer = -1
  const timer = new Promise<void>((resolve) => setTimeout(() => { sentBeforeTimer = sent; resolve() }, 0))
  const answer = db.query<{ x: number }>(sql`SELECT ${41} + 1 AS x`)
  await timer
  t.equal(sentBeforeTimer, 1, 'the request had started when the first timer ran')
  t.same(await answer, [{ x: 42 }])
})
