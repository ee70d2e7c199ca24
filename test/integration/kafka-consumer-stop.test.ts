/**
 * A consumer that crashes while the application disconnects it stays stopped. kafkajs restarts a
 * crashed consumer after the crash's own disconnect, also when the application's disconnect() ran
 * meanwhile; the restarted consumer then runs for the life of the process (seen as a test process
 * that never exited: an API's read-model consumer crashing on deleted topics during teardown).
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { Kafka, logLevel, type Consumer, type ConsumerCrashEvent } from 'kafkajs'
import { loadConfig } from '../../core/config.js'
import { infraUp } from '../../infra/cli.js'
import { ensureTopics, stoppableConsumer } from '../../core/kafka.js'

const cfg = loadConfig()
const run = randomBytes(4).toString('hex')
/** Called when kafkajs logs a consumer crash: before the crash's own disconnect, the moment a shutdown can race it. */
let onCrashLogged = () => {}
const kafka = new Kafka({
  clientId: `consumer-stop-${run}`, brokers: [...cfg.kafkaBrokers], logLevel: logLevel.ERROR,
  logCreator: () => ({ log }) => { if (String(log.message).startsWith('Crash:')) onCrashLogged() },
})
const topic = `${cfg.topicPrefix}consumer-stop-${run}`
const retry = { retries: 1, initialRetryTime: 50 }

t.before(async () => {
  await infraUp(cfg, (m) => t.comment(m), ['kafka'])
  const admin = kafka.admin()
  await admin.connect()
  await ensureTopics(admin, [{ topic, numPartitions: 1 }])
  const producer = kafka.producer()
  await producer.connect()
  await producer.send({ topic, messages: [{ value: 'x' }] })
  await producer.disconnect()
  await admin.disconnect()
})
t.teardown(async () => {
  const admin = kafka.admin()
  await admin.connect()
  await admin.deleteTopics({ topics: [topic] }).catch(() => {})
  await admin.disconnect()
})

/**
 * Runs `consumer` until its first batch fails and the consumer crashes; the application disconnects
 * it as the crash begins (as a shutdown would, by chance). Counts the batches after that.
 */
async function crashWhileStopping(consumer: Consumer): Promise<{ crash: ConsumerCrashEvent['payload']; batchesAfterStop: number }> {
  let stopping: Promise<void> | undefined
  let batches = 0
  onCrashLogged = () => { stopping ??= consumer.disconnect() }
  const crashed = new Promise<ConsumerCrashEvent['payload']>((resolve) => consumer.on(consumer.events.CRASH, (e) => resolve(e.payload)))
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
  await consumer.run({ eachBatch: async () => { batches++; if (!stopping) throw new Error('failed') } })
  const crash = await crashed
  await stopping
  const before = batches
  // A restart would come 50 ms after the crash and read the topic from the start again.
  await new Promise((r) => setTimeout(r, 3_000))
  const batchesAfterStop = batches - before
  await consumer.disconnect()
  return { crash, batchesAfterStop }
}

t.test('a crash during disconnect does not restart the consumer', async (t) => {
  const { crash, batchesAfterStop } = await crashWhileStopping(stoppableConsumer(kafka, { groupId: `${topic}-stoppable`, retry }))
  t.equal(crash.restart, false, 'the crash is not followed by a restart')
  t.equal(batchesAfterStop, 0, 'nothing consumed after the disconnect')
})

t.test('control: the same race restarts a plain kafkajs consumer (so the test above does meet the race)', async (t) => {
  const { crash, batchesAfterStop } = await crashWhileStopping(kafka.consumer({ groupId: `${topic}-plain`, retry }))
  t.equal(crash.restart, true, 'restarted after the application disconnected it')
  t.ok(batchesAfterStop > 0, 'and consuming again')
})
