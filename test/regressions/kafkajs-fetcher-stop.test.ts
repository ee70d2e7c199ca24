/**
 * A consumer's stop waited for its fetch in flight, which the broker holds for up to the fetch
 * wait when a topic is idle: every stop paid up to that wait, so idle consumers could not wait long
 * on the broker and instead fetched every partition they read about once a second
 * (issue 26's idle CPU). patches/kafkajs+2.2.4.patch lets a stop abandon the fetch in flight; a
 * batch being processed is still waited for.
 */
import t from 'tap'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// Not part of kafkajs's public API: the patched module itself.
const createFetcher = require('kafkajs/src/consumer/fetcher.js') as (o: Record<string, unknown>) => { start(): Promise<void>; stop(): Promise<void> }
const { createLogger, LEVELS } = require('kafkajs/src/loggers/index.js') as { createLogger: (o: unknown) => unknown; LEVELS: { NOTHING: number } }
const logger = createLogger({ level: LEVELS.NOTHING, logCreator: () => () => {} })
const tick = () => new Promise((resolve) => setImmediate(resolve))

t.test('a stop does not wait for an idle fetch', async (t) => {
  let fetches = 0
  const fetcher = createFetcher({
    nodeId: 0, partitionAssignments: new Map(), logger,
    workerQueue: { push: async () => {} },
    fetch: () => { fetches++; return new Promise(() => {}) }, // the broker holds it: nothing comes
  })
  const running = fetcher.start()
  while (fetches < 1) await tick()
  await fetcher.stop() // would never resolve if it waited for the fetch
  await running
  t.equal(fetches, 1, 'no fetch after the stop')
})

t.test('a stop waits for the batch being processed, then fetches no more', async (t) => {
  let fetches = 0
  let finishBatch: (() => void) | undefined
  let processed = false
  const fetcher = createFetcher({
    nodeId: 0, partitionAssignments: new Map(), logger,
    workerQueue: { push: () => new Promise<void>((resolve) => { finishBatch = () => { processed = true; resolve() } }) },
    fetch: async () => { fetches++; return [{ topic: 't', partition: 0 }] },
  })
  const running = fetcher.start()
  while (!finishBatch) await tick()
  let stopped = false
  const stopping = fetcher.stop().then(() => { stopped = true })
  for (let i = 0; i < 5; i++) await tick()
  t.notOk(stopped, 'still processing: the stop waits')
  finishBatch()
  await stopping
  await running
  t.ok(processed, 'the batch finished before the stop ended')
  t.equal(fetches, 1, 'no fetch after the stop')
})

t.test('a fetch that fails still fails the fetcher', async (t) => {
  const fetcher = createFetcher({
    nodeId: 0, partitionAssignments: new Map(), logger,
    workerQueue: { push: async () => {} },
    fetch: async () => { throw new Error('broker gone') },
  })
  await t.rejects(fetcher.start(), /broker gone/)
})
