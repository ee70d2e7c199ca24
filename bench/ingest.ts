/**
 * Ingest throughput: events per second from Kafka into ClickHouse through the table sink,
 * for N generated opinions (default 1,000,000), against a peer measured in the same run:
 * the same rows inserted straight into ClickHouse (batches of 50k) in the sink's own insert
 * format (RowBinary; --peer-format json for the JSON insert the sink used before), the ceiling
 * the sink cannot beat. Sink and peer run in --rounds rounds (default 3) whose order alternates;
 * prints the medians of both rates and of the rounds' ratios.
 *   npx tsx bench/ingest.ts [--opinions 1000000] [--text-bytes 400] [--rounds 3] [--peer-format rowbinary|json] [--threads N] [--single] [--publish-only] [--profile]
 * Publishing goes through the parallel publisher that `ingest bulk` and `publish` use (--threads
 * workers, default one per core but one); --single measures the single-thread publisher instead.
 * --profile writes a CPU profile of each phase (publish.cpuprofile, sink.cpuprofile); BENCH_TRACE=1
 * prints the sink consumer's group join, first fetches and batches with their times. Both phases
 * also print this process's CPU time per event (less sensitive to the machine's load than rates).
 * Needs the local infrastructure (npm run infra -- up). Uses its own topics and database,
 * removed at the end.
 */
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import inspector from 'node:inspector/promises'
import cliProgress from 'cli-progress'
import { loadConfig } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { sql, ident } from '../core/sql.js'
import { createDb } from '../core/clickhouse.js'
import { createRuntime, prepare } from '../bin/runtime.js'
import { openPublisher } from '../core/events/publisher.js'
import { openParallelPublisher } from '../core/events/parallel-publisher.js'
import { startTableSink, sinkColumns } from '../streams/table-sink.js'
import { createEntityCodec } from '../schemas/events/entity-codec.js'
import { groupId, PROCESSORS } from '../schemas/events/index.js'
import { machineCpuSeconds, serverCpuSeconds, serverCpuSpent, SERVERS, type Server } from './lib/machine-cpu.js'

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}
const N = arg('opinions', 1_000_000)
const TEXT = arg('text-bytes', 400)
const THREADS = process.argv.includes('--threads') ? arg('threads', 2) : undefined
const SINGLE = process.argv.includes('--single')
/** Sink and peer rounds, their order alternating; the median ratio is reported. */
const ROUNDS = arg('rounds', 3)
const PEER_FORMAT = process.argv.includes('--peer-format') ? process.argv[process.argv.indexOf('--peer-format') + 1] : 'rowbinary'
if (PEER_FORMAT !== 'rowbinary' && PEER_FORMAT !== 'json') throw new Error(`--peer-format: rowbinary or json, not ${PEER_FORMAT}`)

const TEXTS = new Map<number, string>()
const words = 'the court held that plaintiff appeal reversed remanded statute judgment evidence jury motion denied granted'.split(' ')
/** 64 distinct texts, built once: generating text per event would make the bench measure the generator. */
function textFor(id: number): string {
  const k = id % 64
  let text = TEXTS.get(k)
  if (text === undefined) {
    text = ''
    for (let i = 0; text.length < TEXT; i++) text += words[(k * 7 + i * 13) % words.length] + ' '
    TEXTS.set(k, text)
  }
  return text
}

function opinion(id: number): Record<string, unknown> {
  const text = textFor(id)
  return {
    id, cluster_id: Math.ceil(id / 2), author_id: null, type: '010combined', per_curiam: false, sha1: id.toString(16).padStart(40, '0'),
    plain_text: text, html: '', date_created: '2024-01-01T00:00:00+00:00', date_modified: '2024-01-02T00:00:00+00:00', extracted_by_ocr: false,
  }
}

function bar(label: string) {
  const b = new cliProgress.SingleBar({ format: `${label} |{bar}| {value}/{total} | {rate}/s`, hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000 }, cliProgress.Presets.shades_classic)
  b.start(N, 0, { rate: 0 })
  return b
}

const id = `bench${randomBytes(3).toString('hex')}`
const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LOG_LEVEL: 'warn' })
const rt = createRuntime(cfg, createLogger(cfg))
await prepare(rt)
const table = sql`${ident(id)}.${ident('opinions')}`
const count = async () => Number((await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${table}`))[0].n)

/** Ends the run early (--publish-only); the topics and database are still removed. */
class Done extends Error {}

try {
  // 1. Publish (also measured: the connector side).
  let b = bar('publish')
  const profiler = process.argv.includes('--profile') ? new inspector.Session() : undefined
  if (profiler) { profiler.connect(); await profiler.post('Profiler.enable'); await profiler.post('Profiler.start') }
  let t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const pub = SINGLE ? await openPublisher(rt) : await openParallelPublisher(rt, { threads: THREADS })
  const startSeconds = (performance.now() - t0) / 1000
  for (let i = 1; i <= N; i++) {
    await pub.upsert('opinions', opinion(i))
    if (i % 10_000 === 0) b.update(i, { rate: Math.round(i / ((performance.now() - t0) / 1000)) })
  }
  await pub.stop()
  b.update(N); b.stop()
  const publishRate = N / ((performance.now() - t0) / 1000)
  const publishCpu = process.cpuUsage(cpu0)
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop')
    writeFileSync('publish.cpuprofile', JSON.stringify(profile))
    console.log('CPU profile of the publish phase written to publish.cpuprofile')
    await profiler.post('Profiler.start')
  }

  if (process.argv.includes('--publish-only')) {
    console.log(`\npublish (connector → Kafka)  ${Math.round(publishRate).toLocaleString()} events/s  (${SINGLE ? 'single-thread publisher' : `parallel publisher, ${THREADS ?? 'default'} worker(s)`}; ${((publishCpu.user + publishCpu.system) / N).toFixed(1)} µs CPU per event, all threads)`)
    throw new Done()
  }

  // 2. The sink drains the backlog into ClickHouse, and the peer inserts the same rows straight
  // into a copy of the table: in rounds whose order alternates (sink first, then peer first), as
  // the machine's load moves by 2–3× within minutes and a ratio of two phases run once each, one
  // after the other, measured that as much as the sink.
  await rt.db.command(sql`CREATE TABLE ${ident(id)}.opinions_peer AS ${table}`)
  const codec = createEntityCodec(rt.catalogue, rt.catalogue.get('opinions'))
  const columns = sinkColumns(rt.catalogue, rt.catalogue.get('opinions'))
  const rounds: { sinkSeconds: number; startSeconds: number; fetchedSeconds: number; firstRowSeconds?: number; cpu: NodeJS.CpuUsage; peakHeapMb: number; machineCpu?: number; servers: Partial<Record<Server, number>>; peerSeconds: number; peerMachineCpu?: number; peerServers: Partial<Record<Server, number>> }[] = []
  for (let r = 1; r <= ROUNDS; r++) {
    const sinkFirst = r % 2 === 1
    let peer: { seconds: number; machineCpu?: number; servers: Partial<Record<Server, number>> } = { seconds: 0, servers: {} }
    let sinkRun: Awaited<ReturnType<typeof runSink>> | undefined
    for (const phase of sinkFirst ? ['sink', 'peer'] : ['peer', 'sink']) {
      if (phase === 'sink') sinkRun = await runSink(r, profiler && r === 1 ? profiler : undefined)
      else peer = await runPeer(r)
    }
    const peerSeconds = peer.seconds
    rounds.push({ ...sinkRun!, peerSeconds, peerMachineCpu: peer.machineCpu, peerServers: peer.servers })
    console.log(`round ${r} (${sinkFirst ? 'sink first' : 'peer first'}): sink ${Math.round(N / sinkRun!.sinkSeconds).toLocaleString()} events/s, peer ${Math.round(N / peerSeconds).toLocaleString()} rows/s, ratio ${((N / sinkRun!.sinkSeconds) / (N / peerSeconds)).toFixed(2)}`)
  }

  /** One sink run over the whole topic: a fresh group and an empty table each round. */
  async function runSink(round: number, prof: inspector.Session | undefined) {
    await rt.db.command(sql`TRUNCATE TABLE ${table}`)
    const b = bar(`sink ${round} `)
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const machine0 = machineCpuSeconds()
    const servers0 = serverCpuSeconds(rt.cfg.dataDir)
    const sink = await startTableSink({ ...rt, resources: ['opinions'] })
    const startSeconds = (performance.now() - t0) / 1000
    if (process.env.BENCH_TRACE) {
      const at = () => ((performance.now() - t0) / 1000).toFixed(2)
      const c = sink.consumer
      c.on(c.events.GROUP_JOIN, (e) => console.error(`${at()} s group joined (${e.payload.duration} ms)`))
      let fetches = 0
      c.on(c.events.FETCH, (e) => { if (fetches++ < 3) console.error(`${at()} s fetch ${e.payload.numberOfBatches} batches (${e.payload.duration} ms)`) })
      c.on(c.events.START_BATCH_PROCESS, (e) => console.error(`${at()} s batch start p${e.payload.partition} ${e.payload.batchSize} messages`))
      c.on(c.events.END_BATCH_PROCESS, (e) => console.error(`${at()} s batch end   p${e.payload.partition} (${e.payload.duration} ms)`))
    }
    // When the first fetch has come back (its first batch starts): the rest is the sink's own work.
    let fetchedSeconds: number | undefined
    const offBatch = sink.consumer.on(sink.consumer.events.START_BATCH_PROCESS, () => { fetchedSeconds ??= (performance.now() - t0) / 1000 })
    let firstRowSeconds: number | undefined
    // The process's largest heap while the sink drains (what its fetches hold at once).
    let peakHeapMb = 0
    const sampler = setInterval(() => { peakHeapMb = Math.max(peakHeapMb, process.memoryUsage().heapUsed / 2 ** 20) }, 50)
    // Rows are counted each time the sink reports a batch done (its inserts returned before it
    // committed) and every 250 ms besides: the end is seen a count's latency after it, where a
    // 250 ms poll alone saw it up to 250 ms late (at 300k, a tenth of the sink's time), while the
    // peer is timed to its last insert.
    let batchEnded = false
    let wake: (() => void) | undefined
    const offEnd = sink.consumer.on(sink.consumer.events.END_BATCH_PROCESS, () => { batchEnded = true; wake?.() })
    for (;;) {
      batchEnded = false
      const n = await count()
      if (n > 0) firstRowSeconds ??= (performance.now() - t0) / 1000
      b.update(n, { rate: Math.round(n / ((performance.now() - t0) / 1000)) })
      if (n >= N) break
      if (!batchEnded) await new Promise<void>((res) => { wake = res; setTimeout(res, 250) })
      wake = undefined
    }
    offEnd()
    const sinkSeconds = (performance.now() - t0) / 1000
    const machine1 = machineCpuSeconds()
    const servers = serverCpuSpent(servers0, serverCpuSeconds(rt.cfg.dataDir))
    clearInterval(sampler)
    offBatch()
    const cpu = process.cpuUsage(cpu0)
    b.stop()
    if (prof) {
      const { profile } = await prof.post('Profiler.stop')
      writeFileSync('sink.cpuprofile', JSON.stringify(profile))
      console.log('CPU profile of the first sink phase written to sink.cpuprofile')
    }
    await sink.stop()
    // The next round reads the topic from its start again.
    const admin = rt.kafka.admin()
    await admin.connect()
    try { await admin.deleteGroups([groupId(rt.cfg, PROCESSORS.tableSink)]) } finally { await admin.disconnect() }
    const machineCpu = machine0 === undefined || machine1 === undefined ? undefined : machine1 - machine0
    return { sinkSeconds, startSeconds, fetchedSeconds: fetchedSeconds ?? sinkSeconds, firstRowSeconds, cpu, peakHeapMb, machineCpu, servers }
  }

  /** The same rows straight into the peer table; rows are built outside the timed part (the peer measures ClickHouse, not the generator). */
  async function runPeer(round: number): Promise<{ seconds: number; machineCpu?: number; servers: Partial<Record<Server, number>> }> {
    await rt.db.command(sql`TRUNCATE TABLE ${ident(id)}.opinions_peer`)
    const b = bar(`peer ${round} `)
    let peerMs = 0
    let machineCpu: number | undefined = 0
    const servers: Partial<Record<Server, number>> = {}
    for (let start = 1; start <= N; start += 50_000) {
      const rows: Record<string, unknown>[] = []
      for (let i = start; i < Math.min(N + 1, start + 50_000); i++) rows.push({ ...codec.toEntity(opinion(i)), _version: i, _deleted: 0 })
      const arrays = PEER_FORMAT === 'rowbinary' ? rows.map((r) => columns.map((c) => r[c.name])) : []
      const t1 = performance.now()
      const m1 = machineCpuSeconds()
      const s1 = serverCpuSeconds(rt.cfg.dataDir)
      if (PEER_FORMAT === 'rowbinary') await rt.db.insertRows('opinions_peer', columns, arrays)
      else await rt.db.insert('opinions_peer', rows)
      peerMs += performance.now() - t1
      const m2 = machineCpuSeconds()
      for (const [name, spent] of Object.entries(serverCpuSpent(s1, serverCpuSeconds(rt.cfg.dataDir))) as [Server, number][]) servers[name] = (servers[name] ?? 0) + spent
      machineCpu = machineCpu === undefined || m1 === undefined || m2 === undefined ? undefined : machineCpu + m2 - m1
      b.update(Math.min(N, start + 49_999), { rate: Math.round((start + 49_999) / (peerMs / 1000)) })
    }
    b.stop()
    return { seconds: peerMs / 1000, machineCpu, servers }
  }

  const median = (xs: number[]) => { const v = [...xs].sort((a, b) => a - b); return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2 }
  const ratios = rounds.map((x) => x.peerSeconds / x.sinkSeconds)
  const sinkRate = median(rounds.map((x) => N / x.sinkSeconds))
  const peerRate = median(rounds.map((x) => N / x.peerSeconds))
  const first = rounds[0]
  console.log('\ningest benchmark')
  console.log(`  events                       ${N.toLocaleString()} opinions, ~${TEXT} bytes of text each`)
  const perEvent = (u: NodeJS.CpuUsage) => ((u.user + u.system) / N).toFixed(1)
  console.log(`  publish (connector → Kafka)  ${Math.round(publishRate).toLocaleString()} events/s  (${SINGLE ? 'single-thread publisher' : `parallel publisher, ${THREADS ?? 'default'} worker(s)`}; start ${startSeconds.toFixed(1)} s; ${perEvent(publishCpu)} µs CPU per event, all threads)`)
  console.log(`  sink (Kafka → ClickHouse)    ${Math.round(sinkRate).toLocaleString()} events/s  (median of ${ROUNDS}; round 1: ${first.sinkSeconds.toFixed(1)} s, started in ${first.startSeconds.toFixed(1)} s, first rows by ${first.firstRowSeconds?.toFixed(1)} s; ${perEvent(first.cpu)} µs CPU per event in this process)`)
  console.log(`  peer (direct insert)         ${Math.round(peerRate).toLocaleString()} rows/s    (median of ${ROUNDS}; ${PEER_FORMAT === 'rowbinary' ? 'RowBinary, as the sink inserts' : 'JSONEachRow'})`)
  console.log(`  sink / peer                  ${median(ratios).toFixed(2)} (median of the rounds' ratios: ${ratios.map((x) => x.toFixed(2)).join(', ')}; goal ≥ 0.85)`)
  // The same without the sink's start and its first fetch (the consumer's join, and a fetch that
  // kafkajs does not overlap with the batches before it): the rate of the decoding and inserting.
  const after = rounds.map((x) => x.peerSeconds / (x.sinkSeconds - x.fetchedSeconds))
  console.log(`  sink's peak heap             ${rounds.map((x) => `${Math.round(x.peakHeapMb)} MB`).join(', ')} (per round; LDS_SINK_FETCH_BYTES ${rt.cfg.sinkFetchBytes.toLocaleString()} per partition)`)
  console.log(`  sink / peer after 1st fetch  ${median(after).toFixed(2)} (median: ${after.map((x) => x.toFixed(2)).join(', ')}; first fetch back at ${rounds.map((x) => x.fetchedSeconds.toFixed(2)).join(', ')} s)`)
  // What each costs the whole machine (this process, the broker, ClickHouse): on few cores the
  // sink's rate cannot exceed the peer's by more than their costs allow.
  const sinkMachine = rounds.map((x) => x.machineCpu).filter((x): x is number => x !== undefined)
  const peerMachine = rounds.map((x) => x.peerMachineCpu).filter((x): x is number => x !== undefined)
  if (sinkMachine.length && peerMachine.length) {
    const sinkUs = median(sinkMachine) / N * 1e6
    const peerUs = median(peerMachine) / N * 1e6
    console.log(`  machine CPU per event        sink ${sinkUs.toFixed(1)} µs, peer ${peerUs.toFixed(1)} µs, peer ÷ sink ${(peerUs / sinkUs).toFixed(2)} (all processes, /proc/stat; medians; cores used while running: sink ${(median(sinkMachine) / median(rounds.map((x) => x.sinkSeconds))).toFixed(2)}, peer ${(median(peerMachine) / median(rounds.map((x) => x.peerSeconds))).toFixed(2)})`)
  }
  // Each server's own CPU (not moved by other work on the machine, unlike the total above).
  for (const name of SERVERS) {
    const sink = rounds.map((x) => x.servers[name]).filter((x): x is number => x !== undefined)
    const peer = rounds.map((x) => x.peerServers[name]).filter((x): x is number => x !== undefined)
    if (sink.length) console.log(`  ${`${name} CPU per event`.padEnd(29)}sink ${(median(sink) / N * 1e6).toFixed(1)} µs${peer.length ? `, peer ${(median(peer) / N * 1e6).toFixed(1)} µs` : ''} (medians)`)
  }
  console.log(`  goal (≥ 50,000 events/s)     ${sinkRate >= 50_000 ? 'met' : 'not met'}`)
} catch (err) {
  if (!(err instanceof Done)) throw err
} finally {
  const admin = rt.kafka.admin()
  await admin.connect()
  const mine = (await admin.listTopics()).filter((t) => t.startsWith(`${id}.`))
  if (mine.length) await admin.deleteTopics({ topics: mine }).catch(() => {})
  await admin.disconnect()
  const root = createDb(cfg, { useDatabase: false })
  await root.command(sql`DROP DATABASE IF EXISTS ${ident(id)}`)
  await root.close()
  await rt.close()
}
process.exit(0)
