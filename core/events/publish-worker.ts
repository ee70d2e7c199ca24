/**
 * A worker thread of the parallel publisher (parallel-publisher.ts): one idempotent producer that
 * sends the batches the main thread encoded for its share of the partitions, one at a time in the
 * order they came, and answers each with `{ id }` once Kafka acknowledged it from all in-sync
 * replicas, or `{ id, error }`. Kafka's per-message cost (record encoding, CRC, the request) is
 * the part of publishing that one thread cannot go faster than; this is where it runs.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { Message } from 'kafkajs'
import { createKafka, idempotentProducer, sendUntilDelivered } from '../kafka.js'
import { createLogger } from '../logger.js'
import type { PublishBatch, WorkerAnswer, WorkerSetup } from './parallel-publisher.js'
import { compressionOf } from '../kafka-compression.js'

const setup = workerData as WorkerSetup
const log = createLogger({ logLevel: setup.logLevel }).child({ component: 'publish-worker', worker: setup.index })
// Every message comes with its partition (chosen by the main thread, by key): no partitioner work per message.
const producer = idempotentProducer(createKafka({ kafkaBrokers: setup.brokers }, log, `lds-publish-${setup.index}`), {
  createPartitioner: () => ({ message }) => message.partition!,
})
const port = parentPort!
const compression = compressionOf(setup.compression)

/** The messages of a batch: views of its one transferred buffer, no copies. */
function messagesOf(b: PublishBatch): Message[] {
  const data = Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength)
  const out: Message[] = new Array(b.partitions.length)
  for (let i = 0, at = 0; i < out.length; i++) {
    const keyEnd = b.ends[2 * i], valueEnd = b.ends[2 * i + 1]
    out[i] = { key: data.subarray(at, keyEnd), value: data.subarray(keyEnd, valueEnd), partition: b.partitions[i] }
    at = valueEnd
  }
  return out
}

let queue: Promise<void> = Promise.resolve()

port.on('message', (m: PublishBatch | { stop: true }) => {
  if ('stop' in m) {
    // kafkajs can leave timers behind: the main thread ends the worker once it answers.
    queue = queue.then(() => producer.disconnect()).then(() => port.postMessage({ stopped: true }))
    return
  }
  // One batch at a time, in arrival order: a key's changes reach its partition in the order made.
  queue = queue.then(async () => {
    let answer: WorkerAnswer
    try {
      await sendUntilDelivered(() => producer.send({ topic: m.topic, messages: messagesOf(m), acks: -1, compression }), log, `publish to ${m.topic}`)
      answer = { id: m.id }
    } catch (err) {
      answer = { id: m.id, error: (err as Error).message }
    }
    port.postMessage(answer)
  })
})

await producer.connect()
port.postMessage({ ready: true })
