import t from 'tap'
import { randomUUID } from 'node:crypto'
import { pino } from 'pino'
import { loadConfig } from '../../../core/config.js'
import { createKafka, groupCoordinatorReady, waitForGroupCoordinator } from '../../../core/kafka.js'

/** A describeGroups that answers `failures` in turn, then succeeds; counts its calls. */
function fakeAdmin(failures: Error[]) {
  let calls = 0
  return {
    get calls() { return calls },
    describeGroups: async () => {
      const f = failures[calls++]
      if (f) throw f
      return { groups: [] }
    },
  }
}

/** A broker error as KafkaJS throws it. */
const protocolError = (message: string, retriable: boolean) => Object.assign(new Error(message), { name: 'KafkaJSProtocolError', retriable })
const loading = () => protocolError('The coordinator is loading and hence can\'t process requests', true)

t.test('a coordinator still loading is asked again until it answers', async (t) => {
  const admin = fakeAdmin([loading(), loading()])
  await waitForGroupCoordinator(admin as never, 'g', { minTimeoutMs: 1 })
  t.equal(admin.calls, 3, 'two retriable answers, then the answer')
})

t.test('a retriable answer after the admin client gave up its own retries is still retried', async (t) => {
  const exhausted = Object.assign(new Error('The coordinator is not available'), { name: 'KafkaJSNumberOfRetriesExceeded', retriable: false })
  const admin = fakeAdmin([exhausted])
  await waitForGroupCoordinator(admin as never, 'g', { minTimeoutMs: 1 })
  t.equal(admin.calls, 2)
})

t.test('a real failure is thrown at once', async (t) => {
  const denied = protocolError('Not authorized to access group', false)
  const admin = fakeAdmin([denied])
  await t.rejects(waitForGroupCoordinator(admin as never, 'g', { minTimeoutMs: 1 }), /Not authorized/)
  t.equal(admin.calls, 1)
})

t.test('the running broker answers for a group nobody has used yet', async (t) => {
  const kafka = createKafka(loadConfig(), pino({ level: 'silent' }))
  await groupCoordinatorReady(kafka, `lds.test.coordinator.${randomUUID()}`)
  t.pass('resolved')
})
