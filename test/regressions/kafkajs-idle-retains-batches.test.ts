/**
 * kafkajs 2.2.4's fetcher kept its last batches in its loop's suspended frame while it waited on
 * the next fetch, and with them the whole fetch response their messages are slices of: after a
 * first start's catch-up, an idle `npm start` process held about 70 MB of its consumers' last
 * fetches (a heap snapshot of `bench/idle.ts --heap-snapshot`: every retained Batch sat in the
 * registers of the fetcher's `start`). patches/kafkajs+2.2.4.patch does each fetch in a function of
 * its own, so nothing of it outlives its hand-over to the workers.
 */
import t from 'tap'
import { createRequire } from 'node:module'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

const require = createRequire(import.meta.url)
// Not part of kafkajs's public API: the patched module itself.
const createFetcher = require('kafkajs/src/consumer/fetcher.js') as (o: Record<string, unknown>) => { start(): Promise<void>; stop(): Promise<void> }
const { createLogger, LEVELS } = require('kafkajs/src/loggers/index.js') as { createLogger: (o: unknown) => unknown; LEVELS: { NOTHING: number } }

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

t.test('the last batches are collectable while the next fetch waits', async (t) => {
  let fetches = 0
  let handed = 0
  let batch: WeakRef<object> | undefined
  let endIdle: (() => void) | undefined
  const idle = new Promise<void>((resolve) => { endIdle = resolve })
  const fetcher = createFetcher({
    nodeId: 0,
    partitionAssignments: new Map(),
    workerQueue: { push: async (...batches: unknown[]) => { handed += batches.length } },
    logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => {} }),
    fetch: async () => {
      fetches++
      if (fetches === 1) {
        // A busy fetch: one batch whose message is a slice of a large response.
        const response = Buffer.alloc(8 << 20)
        const b = { topic: 't', partition: 0, messages: [{ value: response.subarray(0, 100) }] }
        batch = new WeakRef(b)
        return [b]
      }
      await idle // then nothing comes: the next fetch waits on the broker
      return []
    },
  })
  const running = fetcher.start()
  while (fetches < 2) await new Promise((resolve) => setImmediate(resolve))
  t.equal(handed, 1, 'the batch was handed to the workers')
  for (let i = 0; i < 3; i++) { gc(); await new Promise((resolve) => setImmediate(resolve)) }
  t.equal(batch!.deref(), undefined, 'nothing holds the handed-over batch (nor its response) while the fetcher waits')
  const stopped = fetcher.stop()
  endIdle!()
  await stopped
  await running
})
