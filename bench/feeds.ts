/**
 * The public feed's benchmark:
 *   npx tsx bench/feeds.ts [--quick] [--events N] [--clients N]
 *
 * On the real stack (its own topic prefix and database, removed at the end), N docket changes
 * published, then read back:
 * 1. An outside consumer (kafkajs with the registry client, as examples/node does) reading the
 *    dockets topic from the beginning → events/s and µs of this process's CPU per event, on the
 *    internal PLAINTEXT listener and as a consumer of `lds consumers create` on the SASL/SCRAM one,
 *    in alternating rounds (best of each): SASL ÷ internal, goal ≥ 0.8. The internal read is the
 *    peer for the HTTP feed below.
 * 2. The HTTP change feed as Server-Sent Events (GET /api/rest/v4/changes/): one client from the
 *    beginning → events/s, and `--clients` clients at once → events/s delivered in all.
 * 3. Change → client: with the clients caught up, one change every 50 ms for 10 s; from the
 *    publish acknowledgement to the event at each client → p50, p99. Goal p99 ≤ 1 s.
 * The API runs in this process (as in the test suite), so its CPU and the clients' share it.
 * The table goes to stdout and .data/bench/feeds.json.
 */
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { Kafka, logLevel } from 'kafkajs'
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry'
// the outside consumer reads LZ4 batches as any kafkajs consumer must: with the codec registered
import '../core/kafka-compression.js'
import { createParser } from 'eventsource-parser'
import { loadConfig, PROJECT_ROOT } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { createRuntime, prepare, removeDeployment } from '../bin/runtime.js'
import { createUser } from '../bin/users.js'
import { openPublisher } from '../core/events/publisher.js'
import { entityTopic } from '../schemas/events/names.js'
import { createConsumer, revokeConsumer, type ConsumerDeps } from '../bin/commands/consumers.js'
import { scramUsers } from '../infra/scram-users.js'
import { buildApp } from '../api/app.js'
import { parseFlags } from '../test/kit/args.js'
import { waitFor } from '../test/kit/wait-for.js'

const flags = parseFlags('npx tsx bench/feeds.ts', ({ quick }) => ({
  quick: { type: 'boolean', help: 'small sizes' },
  events: { type: 'number', default: quick ? 20_000 : 100_000, help: 'docket changes published and read back' },
  clients: { type: 'number', default: quick ? 20 : 100, help: 'event-stream clients at once' },
  rounds: { type: 'number', default: quick ? 2 : 3, help: 'reads of the topic on each listener, alternating' },
}))

const ts = '2024-03-01T10:00:00.123456+00:00'
const say = (m: string) => process.stderr.write(`${m}\n`)
const percentile = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN }

const id = `bench${randomBytes(3).toString('hex')}`
const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LOG_LEVEL: 'error', LDS_RATE_USER: '1000000000/hour' })
const rt = createRuntime(cfg, createLogger(cfg))
const consumers: ConsumerDeps = { ...rt, scram: scramUsers(cfg, say) }
const saslName = `${id}-bench`

interface Read { eventsPerSecond: number; cpuUsPerEvent: number }
const best = (reads: Read[]): Read => ({ eventsPerSecond: Math.max(...reads.map((r) => r.eventsPerSecond)), cpuUsPerEvent: Math.min(...reads.map((r) => r.cpuUsPerEvent)) })

/** Reads the dockets topic from the beginning in a new group, decoding every value as a consumer would. */
async function readDockets(kafka: Kafka, groupId: string, registry: SchemaRegistry): Promise<Read> {
  const consumer = kafka.consumer({ groupId })
  await consumer.connect()
  await consumer.subscribe({ topic: entityTopic(cfg, 'dockets'), fromBeginning: true })
  let consumed = 0
  let firstAt = 0
  let cpuAtFirst = process.cpuUsage()
  const done = new Promise<{ at: number; cpu: NodeJS.CpuUsage }>((resolve) => {
    void consumer.run({
      eachBatch: async ({ batch }) => {
        if (!firstAt) { firstAt = performance.now(); cpuAtFirst = process.cpuUsage() }
        for (const m of batch.messages) { await registry.decode(m.value!); consumed++ }
        if (consumed >= flags.events) resolve({ at: performance.now(), cpu: process.cpuUsage(cpuAtFirst) })
      },
    })
  })
  const end = await done
  await consumer.disconnect()
  return { eventsPerSecond: flags.events / ((end.at - firstAt) / 1000), cpuUsPerEvent: (end.cpu.user + end.cpu.system) / flags.events }
}

/** Reads SSE `changes` events from the feed until `until` says enough; calls `onChange` per change. */
async function follow(base: string, token: string, after: string, onChange: (c: { key: string; entity: Record<string, unknown> | null }) => void, until: () => boolean): Promise<void> {
  const controller = new AbortController()
  const res = await fetch(`${base}/api/rest/v4/changes/?resources=dockets&limit=1000&after=${after}`, { headers: { authorization: `Token ${token}`, accept: 'text/event-stream' }, signal: controller.signal })
  if (res.status !== 200) throw new Error(`the feed answered ${res.status}`)
  const parser = createParser({ onEvent: (e) => { if (e.event === 'changes') for (const c of (JSON.parse(e.data) as { results: { key: string; entity: Record<string, unknown> | null }[] }).results) onChange(c) } })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  try {
    while (!until()) {
      const next = await reader.read()
      if (next.done) break
      parser.feed(decoder.decode(next.value, { stream: true }))
    }
  } finally { controller.abort() }
}

try {
  await prepare(rt)
  const app = await buildApp(rt)
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const { token } = await createUser(rt, `bench-feeds-${Date.now()}`, { rate: '1000000000/hour' })
  await waitFor(async () => (await fetch(`${base}/api/rest/v4/api-usage/`, { headers: { authorization: `Token ${token}` } })).status === 200, 'the bench token works', 120_000, 200)

  const pub = await openPublisher(rt)
  say(`publishing ${flags.events} docket changes…`)
  for (let i = 1; i <= flags.events; i++) {
    await pub.upsert('dockets', { id: i, court_id: 'nysd', case_name: `Case ${i}`, docket_number: `1:26-cv-${i}`, source: 0, date_created: ts, date_modified: ts })
  }
  await pub.flush()

  // 1. The outside consumer on the internal listener (the peer) and on the SASL one.
  const registry = new SchemaRegistry({ host: cfg.schemaRegistryUrl })
  const internal = new Kafka({ clientId: 'bench-feeds', brokers: [...cfg.kafkaBrokers], logLevel: logLevel.WARN })
  say(`creating the SASL consumer ${saslName}…`)
  const { brokers, sasl, ssl } = await createConsumer(consumers, saslName)
  const outside = new Kafka({ clientId: 'bench-feeds-sasl', brokers, sasl, ssl, logLevel: logLevel.WARN })
  const internalReads: Read[] = []
  const saslReads: Read[] = []
  for (let round = 1; round <= flags.rounds; round++) {
    // Alternating which goes first, so neither always reads a warmer cache.
    const order = round % 2 ? ['internal', 'sasl'] as const : ['sasl', 'internal'] as const
    for (const which of order) {
      say(`outside consumer, ${which} listener, round ${round}…`)
      if (which === 'internal') internalReads.push(await readDockets(internal, `${cfg.topicPrefix}bench-outside-${round}`, registry))
      else saslReads.push(await readDockets(outside, `${saslName}.bench-${round}`, registry))
    }
  }
  const internalRead = best(internalReads)
  const saslRead = best(saslReads)
  const outsideRate = internalRead.eventsPerSecond

  // 2. One event-stream client, then many at once.
  say('one event-stream client…')
  let got = 0
  let start = performance.now()
  await follow(base, token, '0', () => { got++ }, () => got >= flags.events)
  const oneClient = flags.events / ((performance.now() - start) / 1000)
  say(`${flags.clients} event-stream clients…`)
  const counts = new Array<number>(flags.clients).fill(0)
  // The process serves every client a consumer of its own: its memory is part of the answer.
  const peak = { rssMb: 0, heapMb: 0 }
  const sample = () => { const m = process.memoryUsage(); peak.rssMb = Math.max(peak.rssMb, m.rss / 2 ** 20); peak.heapMb = Math.max(peak.heapMb, m.heapUsed / 2 ** 20) }
  const sampler = setInterval(sample, 250)
  start = performance.now()
  await Promise.all(counts.map((_, i) => follow(base, token, '0', () => { counts[i]++ }, () => counts[i] >= flags.events))).finally(() => clearInterval(sampler))
  const manyClients = (flags.clients * flags.events) / ((performance.now() - start) / 1000)

  // 3. Change → client latency, with 10 clients caught up.
  say('change → client latency…')
  const sentAt = new Map<string, number>()
  const latencies: number[] = []
  let stopLatency = false
  const CHANGES = 200
  const backlog = new Array<number>(10).fill(0)
  const followers = backlog.map((_, i) => follow(base, token, '0', (c) => {
    backlog[i]++
    const at = sentAt.get(c.key)
    if (at !== undefined && c.entity && String(c.entity.case_name).startsWith('Changed')) latencies.push(performance.now() - at)
  }, () => stopLatency))
  // Timed from when every follower has read the backlog: a change then waits for nothing but itself.
  await waitFor(() => backlog.every((n) => n >= flags.events), 'the followers caught up', 300_000, 100)
  for (let i = 1; i <= CHANGES; i++) {
    const key = String(i)
    await pub.write('dockets', { upsert: { id: i, court_id: 'nysd', case_name: `Changed ${i}`, docket_number: `1:26-cv-${i}`, source: 0, date_created: ts, date_modified: ts } })
    sentAt.set(key, performance.now())
    await new Promise((r) => setTimeout(r, 50))
  }
  await waitFor(() => latencies.length >= CHANGES * 10, 'every change at every follower', 60_000).catch(() => undefined)
  stopLatency = true
  // A follower blocked in read() ends when the next bytes come: the heartbeat or the app's close.
  await app.close()
  await Promise.allSettled(followers)
  await pub.stop()

  const result = {
    events: flags.events, clients: flags.clients,
    outsideConsumer: { eventsPerSecond: Math.round(outsideRate), cpuUsPerEvent: +internalRead.cpuUsPerEvent.toFixed(1) },
    saslConsumer: {
      eventsPerSecond: Math.round(saslRead.eventsPerSecond), cpuUsPerEvent: +saslRead.cpuUsPerEvent.toFixed(1),
      ratioToInternal: +(saslRead.eventsPerSecond / internalRead.eventsPerSecond).toFixed(2),
      cpuRatioToInternal: +(internalRead.cpuUsPerEvent / saslRead.cpuUsPerEvent).toFixed(2),
      rounds: { internal: internalReads.map((r) => Math.round(r.eventsPerSecond)), sasl: saslReads.map((r) => Math.round(r.eventsPerSecond)) },
    },
    eventStream: { oneClientEventsPerSecond: Math.round(oneClient), manyClientsEventsPerSecond: Math.round(manyClients), manyClientsPeakRssMb: Math.round(peak.rssMb), manyClientsPeakHeapMb: Math.round(peak.heapMb), ratioToOutsideConsumer: +(oneClient / outsideRate).toFixed(2) },
    changeToClient: { samples: latencies.length, p50Ms: +percentile(latencies, 0.5).toFixed(1), p99Ms: +percentile(latencies, 0.99).toFixed(1) },
  }
  console.log(`| case | result | goal |
|---|---:|---|
| outside consumer (kafkajs + registry), dockets from the beginning, internal listener | ${result.outsideConsumer.eventsPerSecond.toLocaleString('en-US')} events/s, ${result.outsideConsumer.cpuUsPerEvent} µs CPU/event | the peer |
| the same over SASL/SCRAM-SHA-512 (\`lds consumers create\`) | ${result.saslConsumer.eventsPerSecond.toLocaleString('en-US')} events/s (${result.saslConsumer.ratioToInternal} of internal), ${result.saslConsumer.cpuUsPerEvent} µs CPU/event (${result.saslConsumer.cpuRatioToInternal} of internal's rate per CPU) | ≥ 0.8 |
| event stream, one client from the beginning | ${result.eventStream.oneClientEventsPerSecond.toLocaleString('en-US')} events/s (${result.eventStream.ratioToOutsideConsumer} of the consumer) | |
| event stream, ${flags.clients} clients at once | ${result.eventStream.manyClientsEventsPerSecond.toLocaleString('en-US')} events/s in all; peak RSS ${result.eventStream.manyClientsPeakRssMb} MB, heap ${result.eventStream.manyClientsPeakHeapMb} MB (API and clients in one process) | |
| change → client (10 clients, ${CHANGES} changes) | p50 ${result.changeToClient.p50Ms} ms, p99 ${result.changeToClient.p99Ms} ms | p99 ≤ 1 s |`)
  const out = path.join(PROJECT_ROOT, '.data', 'bench')
  mkdirSync(out, { recursive: true })
  writeFileSync(path.join(out, 'feeds.json'), JSON.stringify(result, null, 2))
} finally {
  await revokeConsumer(consumers, saslName).catch(() => undefined)
  await removeDeployment(rt).catch(() => undefined)
  await rt.close()
}
