/**
 * The roles of one process share one in-memory table per entity topic: users and webhook
 * endpoints were read by each event source and by webhook delivery, fourteen consumers fetching
 * and heartbeating for four topics in an idle `npm start`. A role that stops leaves the table to the
 * others; the tables stop with the process.
 */
import t from 'tap'
import { testStack } from '../helpers/stack.js'
import { sharedEntityTables } from '../../streams/lib/entity-table.js'
import { createUser } from '../../bin/users.js'
import { waitFor } from '../kit/wait-for.js'

t.test('two roles opening the users table share one consumer and see the same rows', async (t) => {
  const rt = await testStack(t)
  const tables = sharedEntityTables(rt)
  t.teardown(() => tables.stop())
  const alerts = tables.open('users')
  const delivery = tables.open('users')
  await Promise.all([alerts.start(), delivery.start()])
  await Promise.all([alerts.ready(), delivery.ready()])

  const admin = rt.kafka.admin()
  await admin.connect()
  const { groups } = await admin.listGroups().finally(() => admin.disconnect())
  const readers = groups.filter((g) => g.groupId.startsWith(`${rt.cfg.topicPrefix}table.users.`))
  t.equal(readers.length, 1, 'one consumer group reads the users topic')

  const ada = await createUser(rt, 'ada')
  await waitFor(() => alerts.get(ada.id) && delivery.get(ada.id), 'ada in both handles')
  t.equal(delivery.get(ada.id)?.username, 'ada')

  await alerts.stop() // one role stops; the other goes on reading
  const grace = await createUser(rt, 'grace')
  await waitFor(() => delivery.get(grace.id), 'grace read after the other role stopped')
  t.equal(delivery.get(grace.id)?.username, 'grace')
})

t.test('a table nobody shares stops with the process, and stopping twice is harmless', async (t) => {
  const rt = await testStack(t)
  const tables = sharedEntityTables(rt)
  const webhooks = tables.open('webhooks')
  await webhooks.start()
  await webhooks.start() // a second role starting the same table does not start a second consumer
  await webhooks.ready()
  await tables.stop()
  const waited = await webhooks.waitUntil(new Map([[0, 1n]]), 5_000)
  t.equal(waited, false, 'a wait after the stop answers at once that the table will not get there')
})
