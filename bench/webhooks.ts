/**
 * The event side's benchmark:
 *   npx tsx bench/webhooks.ts [--quick] [--events N] [--entries N] [--alerts N] [--docs N] [--matching-only] [--profile]
 *
 * On the real stack (Kafka, registry, ClickHouse; its own topic prefix and database, removed at
 * the end), with a local receiver that answers 200 at once:
 * 1. Delivery throughput: N events queued for 16 endpoints by concurrent emits (→ queued/s), then
 *    the delivery consumer starts on the full queue; from the first arrival to the last, through
 *    signatures, status rows and commits → deliveries/s. The table sink runs in a child process.
 *    The peer, in the same run: the same bodies POSTed by a bare undici loop at the consumer's
 *    concurrency (the ceiling of this receiver on this machine). Goal ≥ 2,000/s.
 * 2. Docket entry → webhook: entries published one at a time to a followed docket; latency from
 *    the publish acknowledgement to the receiver → p50, p99. Goal p99 ≤ 1 s.
 * 3. Alert matching (in process): 100,000 stored search alerts over a 30,000-word Zipf vocabulary,
 *    documents of 1,000 words matched through the percolation index in batches of 500 (as the
 *    percolator takes a consumed batch) → documents/s (median of 3 rounds), and one at a time; the peer is trying every alert per document
 *    (measured on a sample of documents). Goal ≥ 5,000 documents/s.
 */
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import { Agent, request } from 'undici'
import pMap from 'p-map'
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { loadConfig, PROJECT_ROOT } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { createRuntime, prepare, removeDeployment, startProcessors, stopAll, type Runtime } from '../bin/runtime.js'
import { createUser } from '../bin/users.js'
import { openPublisher } from '../core/events/publisher.js'
import { openWebhookQueue } from '../core/events/webhook-queue.js'
import { createWebhookEmitter } from '../core/events/webhook-emitter.js'
import { createEntityTable } from '../streams/lib/entity-table.js'
import { searchRequest, requestAst, compileMatcher, analyzeDocument, createQueryIndex, type StoredQuery } from '../domain/search/index.js'
import { percentile, fmtInt, fmtMs, fmtRatio, table } from './lib/stats.js'
import { spawnChild, stopChildrenOnExit, type Child } from './lib/children.js'
import { createRng } from '../connectors/sample/random.js'
import { parseFlags } from '../test/kit/args.js'
import { waitFor } from '../test/kit/wait-for.js'

const flags = parseFlags('npx tsx bench/webhooks.ts', ({ quick }) => ({
  quick: { type: 'boolean', help: 'small sizes' },
  events: { type: 'number', default: quick ? 4_000 : 20_000, help: 'webhook events to deliver' },
  entries: { type: 'number', default: quick ? 40 : 200, help: 'docket entries fanned out to alerts' },
  alerts: { type: 'number', default: 100_000, help: 'stored alerts in the matching case' },
  docs: { type: 'number', default: quick ? 2_000 : 10_000, help: 'documents matched against the alerts' },
  'matching-only': { type: 'boolean', help: 'alert matching alone, no infrastructure (for profiling the percolator)' },
  profile: { type: 'boolean', help: 'a CPU profile of this process while the delivery consumer empties the queue' },
}))
const quick = flags.quick
/** Alert matching alone: no infrastructure needed (for profiling the percolator). */
const MATCHING_ONLY = flags['matching-only']
/** A CPU profile of this process while the delivery consumer empties the queue. */
const PROFILE = flags.profile
const EVENTS = flags.events
const ENTRIES = flags.entries
const ALERTS = flags.alerts
const DOCS = flags.docs
const ENDPOINTS = 16
const CONCURRENCY = 64
/** Emits in flight at once while the queue is fed. */
const EMITTERS = 8
/** Documents analyzed at a time in the matching case. */
const CHUNK = 500
/** Rounds of the matching case (the median is reported). */
const MATCH_ROUNDS = quick ? 1 : 3

stopChildrenOnExit()
const log = (s: string) => process.stdout.write(s + '\n')
const step = (s: string) => process.stderr.write(`[webhooks] ${s}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A receiver that answers 200 at once and notes when each event arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>()
  let count = 0
  const server = http.createServer((req, res) => {
    const key = String(req.headers['idempotency-key'] ?? '')
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      count++
      if (key && !arrivals.has(key)) arrivals.set(key, performance.now())
      const marker = /"description":"(entry-[^"]+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1]
      if (marker && !arrivals.has(marker)) arrivals.set(marker, performance.now())
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return { url: `http://127.0.0.1:${port}/hook`, arrivals, get count() { return count }, close: () => new Promise<void>((r) => server.close(() => r())) }
}

/**
 * A deployment of its own, with the table sink in a process of its own (as deployed: it would
 * otherwise share this process's CPU with the delivery consumer being measured).
 */
/** The V8 profiler of this process, from now until stop (written as a .cpuprofile for DevTools). */
async function startProfiler() {
  const { Session } = await import('node:inspector/promises')
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  return {
    async stop(file: string) {
      const { profile } = await session.post('Profiler.stop')
      writeFileSync(file, JSON.stringify(profile))
      session.disconnect()
      return file
    },
  }
}

async function withStack<T>(run: (rt: Runtime) => Promise<T>): Promise<T> {
  const id = `benchwh${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  const env = { ...process.env, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LDS_WEBHOOKS_ALLOW_INSECURE: '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }
  const cfg = loadConfig(env)
  const rt = createRuntime(cfg, createLogger(cfg))
  let sink: Child | undefined
  try {
    await prepare(rt)
    sink = spawnChild({
      name: 'table-sink', cmd: process.execPath, args: ['--import', 'tsx', path.join(PROJECT_ROOT, 'bin', 'lds-cli.ts'), 'run', '--roles', 'table-sink'],
      env, cwd: PROJECT_ROOT, logFile: path.join(PROJECT_ROOT, '.data', 'bench', 'webhooks-table-sink.log'),
    })
    return await run(rt)
  } finally {
    await sink?.stop()
    await removeDeployment(rt)
    await rt.close()
  }
}

async function pipelineCases() {
  return withStack(async (rt) => {
    const receiver = await startReceiver()
    const streams = await startProcessors(rt, ['docket-alerts'])
    const publisher = await openPublisher(rt)
    const queue = await openWebhookQueue(rt)
    try {
      step('creating the user, endpoints and a docket alert')
      const { id: userId } = await createUser(rt, 'bench', { email: '' })
      const now = new Date().toISOString()
      const hookIds: number[] = []
      for (let i = 0; i < ENDPOINTS; i++) {
        const id = 9_000_000 + i
        hookIds.push(id)
        await publisher.upsert('webhooks', { id, user_id: userId, url: receiver.url, event_type: i === 0 ? 1 : 2, version: 2, enabled: true, failure_count: 0, secret: `whsec_${randomBytes(24).toString('base64')}`, date_created: now, date_modified: now })
      }
      await publisher.upsert('courts', { id: 'bench', full_name: 'Bench Court', short_name: 'Bench', jurisdiction: 'FD', position: 1, date_modified: now })
      await publisher.upsert('dockets', { id: 1, court_id: 'bench', case_name: 'Bench v. Mark', source: 0, date_created: now, date_modified: now })
      await publisher.upsert('docket-alerts', { id: 1, user_id: userId, docket_id: 1, alert_type: 1, secret_key: 'k'.repeat(40), date_created: now, date_modified: now, date_last_hit: null })
      await publisher.flush()
      // The emitter reads endpoints as the event sources do: from the topic, once they are there.
      const endpoints = createEntityTable(rt, 'webhooks')
      await endpoints.start()
      await waitFor(() => [...endpoints.values()].length >= ENDPOINTS, `the ${ENDPOINTS} endpoints read from their topic`, 60_000)
      const emitter = createWebhookEmitter({ queue, publisher, clock: rt.clock, endpointsOf: (u, type) => [...endpoints.values()].filter((w) => Number(w.user_id) === u && Number(w.event_type) === type) })
      step(`queueing ${fmtInt(EVENTS)} events for ${ENDPOINTS - 1} endpoints (the delivery consumer not started yet)`)
      const rounds = Math.ceil(EVENTS / (ENDPOINTS - 1))
      const target = rounds * (ENDPOINTS - 1)
      const t0 = performance.now()
      // Event sources emit concurrently (one alert run, many users): several emits in flight.
      let queued = 0
      const ids: string[] = []
      await pMap(Array.from({ length: rounds }, (_, i) => i), async (i) => {
        const events = await emitter.emit({ userId, eventType: 2, payload: () => ({ results: [{ n: i, text: 'x'.repeat(400) }], alert: { id: 1 } }) })
        for (const e of events) ids.push(e.event_id)
        if (++queued % 50 === 0) process.stderr.write(`\r  queued ${fmtInt(queued * (ENDPOINTS - 1))}   `)
      }, { concurrency: EMITTERS })
      const queuedPerS = target / ((performance.now() - t0) / 1000)
      process.stderr.write('\n')

      // Delivery throughput: the consumer starts on a full queue; the rate runs from the first
      // arrival to the last (the group join before it is a start-up cost, not throughput).
      step(`delivering them: the delivery consumer starts`)
      const profiler = PROFILE ? await startProfiler() : undefined
      streams.push(...await startProcessors(rt, ['webhook-delivery']))
      const before = receiver.count
      await waitFor(() => {
        process.stderr.write(`\r  received ${fmtInt(receiver.count - before)} of ${fmtInt(target)}   `)
        return receiver.count - before >= target
      }, `${fmtInt(target)} deliveries`, 30 * 60_000, 200)
      process.stderr.write('\n')
      if (profiler) step(`delivery phase profiled: ${await profiler.stop(path.join(PROJECT_ROOT, '.data', 'bench', 'webhooks-delivery.cpuprofile'))}`)
      const times = ids.map((id) => receiver.arrivals.get(id)!).sort((a, b) => a - b)
      const deliverySeconds = (times[times.length - 1] - times[0]) / 1000
      const deliveriesPerS = (target - 1) / deliverySeconds

      step('peer: the same bodies by a bare undici loop')
      const agent = new Agent({ connections: 256 })
      const body = JSON.stringify({ payload: { results: [{ n: 0, text: 'x'.repeat(400) }] } })
      const p0 = performance.now()
      await pMap(Array.from({ length: target }, (_, i) => i), async (i) => {
        const r = await request(receiver.url, { method: 'POST', body, dispatcher: agent, headers: { 'content-type': 'application/json', 'idempotency-key': `peer-${i}` } })
        await r.body.dump()
      }, { concurrency: CONCURRENCY })
      const peerPerS = target / ((performance.now() - p0) / 1000)
      await agent.close()

      step(`docket entry → webhook, ${ENTRIES} entries one at a time`)
      const latencies: number[] = []
      for (let i = 0; i < ENTRIES; i++) {
        const marker = `entry-${i}-${randomBytes(3).toString('hex')}`
        const at = new Date().toISOString()
        const sent = performance.now()
        await publisher.write('docket-entries', { upsert: { id: 100_000 + i, docket_id: 1, entry_number: i + 1, description: marker, date_filed: at.slice(0, 10), date_created: at, date_modified: at } })
        await waitFor(() => receiver.arrivals.has(marker), `entry ${i} delivered`, 30_000, 2).catch(() => false)
        latencies.push((receiver.arrivals.get(marker) ?? Infinity) - sent)
        process.stderr.write(`\r  ${i + 1}/${ENTRIES}`)
        await sleep(50)
      }
      process.stderr.write('\n')
      await endpoints.stop()
      latencies.sort((a, b) => a - b)
      return { deliveriesPerS, peerPerS, deliverySeconds, queuedPerS, delivered: target, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), lost: latencies.filter((x) => !Number.isFinite(x)).length }
    } finally {
      await publisher.stop()
      await queue.stop()
      await stopAll(rt, streams)
      await receiver.close()
    }
  })
}

/**
 * A synthetic vocabulary with Zipf-distributed frequencies, as in real text: documents draw their
 * words from it by frequency; alerts ask for words a user would search for (not the hundred most
 * common, which any document holds).
 */
const VOCABULARY = 30_000
const vocabulary = Array.from({ length: VOCABULARY }, (_, i) => `w${i.toString(36)}`)
const zipfCdf = (() => {
  const w = vocabulary.map((_, i) => 1 / (i + 1))
  const total = w.reduce((a, b) => a + b, 0)
  let acc = 0
  return w.map((x) => (acc += x / total))
})()

function matchingCase() {
  // A real PRNG: the hand-rolled LCG this used lost precision in floating point and drew 99.6 % of
  // the alerts from one of the eight shapes and a fifth of the vocabulary.
  const rng = createRng(42)
  const rand = (n: number) => rng.int(0, n - 1)
  const pick = () => vocabulary[100 + rand(VOCABULARY - 100)]
  const frequent = () => {
    const u = rand(1_000_000) / 1_000_000
    let lo = 0, hi = VOCABULARY - 1
    while (lo < hi) { const mid = (lo + hi) >> 1; if (zipfCdf[mid] < u) lo = mid + 1; else hi = mid }
    return vocabulary[lo]
  }
  const shapes = [
    () => `q=${pick()}`, () => `q=${pick()}%20AND%20${pick()}`, () => `q=${pick()}%20OR%20${pick()}`,
    () => `q=%22${pick()}%20${pick()}%22`, () => `q=${pick()}%20${pick()}%20-${pick()}`, () => `q=caseName:${pick()}`,
    () => `q=${pick()}&court=${rand(2) ? 'scotus' : 'ca9'}`, () => `q=${pick().slice(0, 4)}*`,
  ]
  step(`compiling ${fmtInt(ALERTS)} alerts`)
  const index = createQueryIndex<StoredQuery>()
  const all: StoredQuery[] = []
  const c0 = performance.now()
  for (let id = 1; id <= ALERTS; id++) {
    const ast = requestAst(searchRequest(new URLSearchParams(shapes[rand(shapes.length)]())))
    const q = { id, type: 'o' as const, ast, matches: compileMatcher(ast, 'o') }
    all.push(q)
    index.add(q)
  }
  const compileSeconds = (performance.now() - c0) / 1000
  const makeDoc = (id: number) => analyzeDocument('o', {
    id, case_name: `${frequent()} v. ${frequent()}`, court_id: rand(2) ? 'scotus' : 'ca9',
    text: Array.from({ length: 1_000 }, frequent).join(' '),
  })
  // Documents arrive as a stream and are dropped once matched: analyzed a chunk at a time (not
  // timed), so the heap does not hold millions of tokens the collector would walk during matching.
  step(`matching ${fmtInt(DOCS)} documents through the index, analyzed ${CHUNK} at a time`)
  // Rounds of fresh documents; the median round is reported (this machine's other work varies).
  let hits = 0
  const rates: number[] = []
  for (let round = 0; round < MATCH_ROUNDS; round++) {
    let matchMs = 0
    for (let start = 0; start < DOCS; start += CHUNK) {
      const chunk = Array.from({ length: Math.min(CHUNK, DOCS - start) }, (_, j) => makeDoc(round * DOCS + start + j))
      const m0 = performance.now()
      // As the percolator does with a consumed batch: the whole chunk at once.
      for (const matched of index.matchBatch('o', chunk)) hits += matched.length
      matchMs += performance.now() - m0
    }
    rates.push(DOCS / (matchMs / 1000))
    step(`  round ${round + 1}: ${fmtInt(rates[round])} documents/s`)
  }
  const indexedPerS = rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)]
  const sample = Array.from({ length: Math.max(20, Math.round(DOCS / 100)) }, (_, i) => makeDoc(MATCH_ROUNDS * DOCS + i))
  step(`peer: every alert per document, on ${sample.length} documents`)
  let naiveHits = 0
  const n0 = performance.now()
  for (const d of sample) for (const q of all) if (q.matches(d)) naiveHits++
  const naivePerS = sample.length / ((performance.now() - n0) / 1000)
  // One document at a time (a batch of one, as a lone update arrives): the same answer, its own rate.
  let sampleHits = 0
  const o0 = performance.now()
  for (const d of sample) sampleHits += index.match('o', d).length
  const oneAtATimePerS = sample.length / ((performance.now() - o0) / 1000)
  const batchHits = index.matchBatch('o', sample).reduce((n, x) => n + x.length, 0)
  return { compileSeconds, indexedPerS, oneAtATimePerS, naivePerS, hitsPerDoc: hits / (DOCS * MATCH_ROUNDS), agree: sampleHits === naiveHits && batchHits === naiveHits }
}

const m = matchingCase()
if (MATCHING_ONLY) {
  log(`alert matching, ${fmtInt(ALERTS)} alerts: ${fmtInt(m.indexedPerS)} docs/s in batches of ${CHUNK}, ${fmtInt(m.oneAtATimePerS)} one at a time (every alert: ${fmtInt(m.naivePerS)}); ${m.hitsPerDoc.toFixed(1)} hits per document; agree: ${m.agree}`)
  process.exit(m.agree ? 0 : 1)
}
const p = await pipelineCases()

log('')
log(`# Event side (bench/webhooks.ts${quick ? ' --quick' : ''}), ${new Date().toISOString()}`)
log('')
log(table([
  ['case', 'measured', 'peer (same run)', 'ratio', 'goal'],
  ['deliveries/s to a local receiver', fmtInt(p.deliveriesPerS), `${fmtInt(p.peerPerS)} (bare undici)`, fmtRatio(p.deliveriesPerS / p.peerPerS), '≥ 2,000/s'],
  [`events queued/s (${EMITTERS} emits in flight)`, fmtInt(p.queuedPerS), '', '', ''],
  ['docket entry → webhook p50 (ms)', fmtMs(p.p50), '', '', ''],
  ['docket entry → webhook p99 (ms)', fmtMs(p.p99), '', '', '≤ 1,000 ms'],
  [`alert matching, ${fmtInt(ALERTS)} alerts, one at a time (docs/s)`, fmtInt(m.oneAtATimePerS), '', '', ''],
  [`alert matching, ${fmtInt(ALERTS)} alerts, batches of ${CHUNK} (docs/s)`, fmtInt(m.indexedPerS), `${fmtInt(m.naivePerS)} (every alert)`, fmtRatio(m.indexedPerS / m.naivePerS), '≥ 5,000/s'],
]))
log('')
log(`${fmtInt(p.delivered)} events delivered in ${p.deliverySeconds.toFixed(1)} s (queued beforehand at ${fmtInt(p.queuedPerS)}/s by ${EMITTERS} concurrent emits); ${p.lost} entries never arrived; ${m.hitsPerDoc.toFixed(1)} alert hits per document; index and every-alert agree: ${m.agree}; ${fmtInt(ALERTS)} alerts compiled in ${m.compileSeconds.toFixed(1)} s`)
process.exit(m.agree && p.lost === 0 ? 0 : 1)
