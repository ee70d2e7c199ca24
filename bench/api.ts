/**
 * Reads at framework speed: the API's point reads and list pages against the framework's ceiling
 * (a Fastify hello-world) and a plain PostgreSQL peer, all measured in one run.
 *
 *   npx tsx bench/api.ts [--quick] [--opinions 100000] [--seconds 10] [--rounds 3] [--max-rounds 7] [--connections 64]
 *                        [--all-roles] [--reload] [--no-pg] [--profile] [--prefix bench.api] [--changes 50] [--citations] [--clean]
 *
 * 1. Data: the sample generator's corpus for N opinions in topics `bench.api.*` and the ClickHouse
 *    database `bench_api`, applied by the table sink running in this process (reused when a
 *    previous run loaded the same N; --reload loads again).
 * 2. The API in a process of its own (`lds run --roles api`, LOG_LEVEL=warn), so the load
 *    generator does not share its event loop; a user with an unlimited rate (the throttle still
 *    runs); we wait until its read model has applied the topics and the user's token works.
 *    --all-roles runs it as `npm start` does instead: every processor role beside the API in one
 *    process (`lds run --roles api,processors`), each caught up before the load starts, so the
 *    cases measure what idle processors cost the API.
 * 3. Peers, each in its own process: a Fastify hello-world (which also sends one detail's bytes
 *    as they are, on a route with an id), and Fastify + pg over a PostgreSQL 15
 *    instance started here (.data/bench/pg) holding the same dockets (bench/lib/pg-copy.ts).
 * 4. autocannon, closed loop, --connections connections, each case --seconds after a warm-up, in
 *    rounds whose order alternates: at least --rounds, more (up to --max-rounds) until every round's
 *    detail ÷ hello-world is within ±5 % of their median; medians of the rounds and that spread. Cases: hello, detail (random
 *    ids), hot list (one court's newest 20), cold list (a different court and date bound per
 *    request), and the peer's detail and cold list. The API's RSS is sampled during detail, and the
 *    CPU time of the hello-world and API processes per request is printed beside req/s (with the
 *    ratios of each round's detail and hello-world, as other work on the machine moves req/s).
 * 5. Change → visible: a docket's new case_name published through the publisher, polled on the
 *    detail and on a list that shows it, 50 times.
 * 6. Restart → serving: SIGTERM, start again on the same read model, time to the first detail 200.
 * Prints a table and writes .data/bench/api.json. --profile runs the API with --cpu-prof and
 * prints, per load case, where its time went (idle share, areas, functions; .data/bench/profiles/).
 * --prefix NAME uses another data set (topics NAME.*, database NAME with _ for dots); --clean
 * removes the data set (topics, groups, schemas, database, read model, PostgreSQL) and exits.
 * --citations also runs the citation network while loading (not needed by these reads).
 * The machine's load average is printed: other work on the same CPUs lowers every number.
 */
import { existsSync, mkdirSync, writeFileSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig, PROJECT_ROOT } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { createRuntime, stopAll, type Stoppable } from '../bin/runtime.js'
import { createUser } from '../bin/users.js'
import { waitForCatchUp } from '../bin/catch-up.js'
import { ensureData, entityTopics, resetData, type BenchData } from './lib/dataset.js'
import { processorGroups } from './lib/all-roles.js'
import { spawnChild, stopChildrenOnExit, stopAllChildren, freePort, waitUntil, sampleMemory, sleep, cpuMsOf, type Child, type Memory } from './lib/children.js'
import { runLoad, type LoadCase, type LoadResult } from './lib/load.js'
import { median, fmtInt, fmtMs, fmtRatio, table } from './lib/stats.js'
import { getJson } from './lib/http.js'
import { measureVisibility, type Visibility } from './lib/visibility.js'
import { startPostgres, type LocalPostgres } from './lib/postgres.js'
import { copyDocketsToPostgres } from './lib/pg-copy.js'
import { summarizeProfile, formatSummary, type Window, type WindowSummary } from './lib/profile.js'
import { readModelPath } from '../api/read-model/consumer.js'
import { storeFileName } from '../api/read-model/store.js'
import { listIndexesOf } from '../api/read-model/list-index.js'
import { catalogue } from '../schemas/catalogue/index.js'
import { mulberry32 } from '../test/kit/random.js'
import { parseFlags } from '../test/kit/args.js'

// ------------------------------------------------------------------------------ flags

const flags = parseFlags('npx tsx bench/api.ts', ({ quick }) => ({
  quick: { type: 'boolean', help: 'small sizes' },
  opinions: { type: 'number', default: quick ? 20_000 : 100_000, help: 'opinions in the data set' },
  seconds: { type: 'number', default: quick ? 3 : 10, help: 'seconds per case and round' },
  rounds: { type: 'number', default: quick ? 1 : 3, help: 'rounds at least (medians reported)' },
  'max-rounds': { type: 'number', default: quick ? 1 : 7, help: 'rounds at most, run while detail ÷ hello spreads beyond ±5 %' },
  'all-roles': { type: 'boolean', help: 'the API with every processor role in its process, as npm start runs it' },
  connections: { type: 'number', default: 64, help: 'autocannon connections' },
  changes: { type: 'number', default: 50, help: 'changes timed for visibility' },
  reload: { type: 'boolean', help: 'load the data set again' },
  'no-pg': { type: 'boolean', help: 'skip the PostgreSQL peer' },
  profile: { type: 'boolean', help: 'run the API with --cpu-prof' },
  prefix: { type: 'string', default: 'bench.api', help: 'topics NAME.* and database NAME (dots as _)' },
  citations: { type: 'boolean', help: 'also run the citation network while loading' },
  clean: { type: 'boolean', help: 'remove the data set of --prefix first' },
}))
for (const name of ['opinions', 'seconds', 'rounds', 'max-rounds', 'connections', 'changes'] as const) {
  if (!(flags[name] > 0)) throw new Error(`--${name} needs a positive number`)
}
const has = (name: 'reload' | 'no-pg' | 'profile' | 'citations' | 'clean' | 'all-roles') => flags[name]
const OPINIONS = flags.opinions
const SECONDS = flags.seconds
const ROUNDS = flags.rounds
const MAX_ROUNDS = Math.max(ROUNDS, flags['max-rounds'])
/** Rounds continue until every round's detail ÷ hello-world lies within this share of their median. */
const SPREAD_GOAL = 0.05
const ALL_ROLES = has('all-roles')
const CONNECTIONS = flags.connections
const WARMUP = Math.min(2, Math.max(1, SECONDS / 3))
const CHANGES = flags.changes
const RELOAD = has('reload')
const USE_PG = !has('no-pg')
const PROFILE = has('profile')
const SEED = 1

const out = path.join(PROJECT_ROOT, '.data', 'bench')
mkdirSync(out, { recursive: true })
const say = (m: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${m}`)
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')

stopChildrenOnExit()
/** --prefix NAME runs on topics `NAME.*` and database NAME (dots as _), e.g. for a second data set. */
const PREFIX = flags.prefix.replace(/\.+$/, '')
if (!/^[a-z][a-z0-9_.]*$/.test(PREFIX)) throw new Error('--prefix: lower-case letters, digits, dots and _')
const benchEnv = { LDS_TOPIC_PREFIX: `${PREFIX}.`, CLICKHOUSE_DATABASE: PREFIX.replace(/\./g, '_'), LOG_LEVEL: 'warn' }
const dataTag = PREFIX === 'bench.api' ? 'api' : PREFIX.replace(/\./g, '_')
/** Names of this run's outputs (the data set's marker and PostgreSQL copy go by dataTag). */
const tag = ALL_ROLES ? `${dataTag}-all-roles` : dataTag
const cfg = loadConfig({ ...process.env, ...benchEnv })
const rt = createRuntime(cfg, createLogger(cfg))
const stoppables: Stoppable[] = []

// ------------------------------------------------------------------------------ helpers

/** Seeded PRNG: the same ids and filters on every run. */
const rng = mulberry32
const DAY = 86_400_000
const dayNumber = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY)
const isoOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10)

function startApi(port: number, label: string): Child {
  const profDir = path.join(out, 'profiles')
  if (PROFILE) mkdirSync(profDir, { recursive: true })
  return spawnChild({
    name: label, cmd: process.execPath,
    // BENCH_API_NODE_ARGS: node flags for the API process only (e.g. --trace-gc, which NODE_OPTIONS refuses).
    args: ['--import', 'tsx', ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []), ...(process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? []), path.join(PROJECT_ROOT, 'bin', 'lds-cli.ts'), 'run', '--roles', ALL_ROLES ? 'api,processors' : 'api'],
    env: { ...process.env, ...benchEnv, PORT: String(port), HOST: '127.0.0.1' },
    cwd: PROJECT_ROOT, logFile: path.join(out, `${tag}-server.log`),
  })
}

function startNodeServer(name: string, file: string, env: Record<string, string>): Child {
  return spawnChild({
    name, cmd: process.execPath, args: ['--import', 'tsx', path.join(PROJECT_ROOT, 'bench', 'lib', file)],
    env: { ...process.env, ...env }, cwd: PROJECT_ROOT, logFile: path.join(out, `${name}.log`),
  })
}

const listening = (origin: string, child: Child, what: string) =>
  waitUntil(async () => (await fetch(origin + '/')).status > 0, { what, timeoutMs: 120_000, child, intervalMs: 100 })

// ------------------------------------------------------------------------------ the run

interface CaseStats { name: string; rounds: LoadResult[]; rps: number; p50: number; p99: number; errors: number; non2xx: number; bytes: number; cpuUsPerRequest?: number; netCpuUsPerRequest?: number }

if (has('clean')) {
  // --clean: remove what the benchmark keeps between runs (topics, groups, schemas, database, read model, PostgreSQL) and stop.
  await resetData(rt, say)
  for (const f of [`${dataTag}-data.json`, dataTag === 'api' ? 'pg' : `pg-${dataTag}`]) rmSync(path.join(out, f), { recursive: true, force: true })
  await rt.close()
  say(`removed the data of ${PREFIX}`)
  process.exit(0)
}

try {
  say(`bench/api${ALL_ROLES ? ' --all-roles (API and every processor in one process)' : ''}: ${OPINIONS.toLocaleString('en-US')} opinions, ${CONNECTIONS} connections, ${SECONDS} s per case × ${ROUNDS}–${MAX_ROUNDS} round(s); ${os.cpus().length} CPUs, load average ${load()}`)

  // 1. Data.
  const { data, processors, reused } = await ensureData(rt, {
    opinions: OPINIONS, seed: SEED, reload: RELOAD, roles: has('citations') ? ['table-sink', 'citation-network'] : ['table-sink'],
    markerFile: path.join(out, `${dataTag}-data.json`), log: say,
  })
  // --all-roles: the API process's own processors take over from the loader's.
  if (ALL_ROLES) await stopAll(rt, processors)
  else stoppables.push(...processors)
  say(`${reused ? 'reused' : 'loaded'}: ${data.dockets.toLocaleString('en-US')} dockets (ids ${data.minDocketId}–${data.maxDocketId})${data.loadSeconds ? `, load + apply took ${data.loadSeconds.toFixed(0)} s` : ''}`)

  // 2. The API process and a user.
  const user = await createUser(rt, `bench-api-${Date.now()}`, { rate: '1000000000/hour' })
  const token = user.token
  const auth = { Authorization: `Token ${token}` }
  const apiPort = await freePort()
  const api = `http://127.0.0.1:${apiPort}`
  // a store of the current layout is reused; one of an older layout (or none) is built from the topics
  const storeKept = existsSync(path.join(readModelPath(rt.cfg), storeFileName(listIndexesOf(catalogue))))
  let apiChild = startApi(apiPort, 'api')
  const firstApiPid = apiChild.pid
  let firstApiEndedAt = NaN
  let t0 = Date.now()
  await listening(api, apiChild, 'the API to listen')
  const firstListenSeconds = (Date.now() - t0) / 1000
  say(`API listening on ${api} (pid ${apiChild.pid}) after ${firstListenSeconds.toFixed(1)} s; waiting for its read model`)
  const rmPrefix = `${cfg.topicPrefix}read-model.`
  const admin = rt.kafka.admin()
  await admin.connect()
  // The API's read-model group is the one of the prefix with a member (older stores' groups may linger).
  const rmGroup = await waitUntil(async () => {
    const names = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(rmPrefix))
    if (!names.length) return undefined
    return (await admin.describeGroups(names)).groups.find((g) => g.members.length > 0)?.groupId
  }, { what: 'the read model consumer group', timeoutMs: 120_000, child: apiChild, intervalMs: 500 })
  await admin.disconnect()
  const topics = await entityTopics(rt)
  await waitForCatchUp(rt.kafka, rt.clock, [{ label: 'API read model', group: rmGroup, topics: async () => topics }, ...(ALL_ROLES ? processorGroups(rt) : [])], { progress: true, timeoutMs: 3 * 60 * 60_000 })
  const detailUrl = (id: number) => `/api/rest/v4/dockets/${id}/`
  await waitUntil(async () => (await getJson(api + detailUrl(data.maxDocketId), token)).status === 200, { what: 'a detail GET of the last docket with the bench token', timeoutMs: 120_000, child: apiChild, intervalMs: 200 })
  const readySeconds = (Date.now() - t0) / 1000
  say(`API serving the last docket ${readySeconds.toFixed(1)} s after it was started`)

  // 3. Peers.
  const helloPort = await freePort()
  // One detail's answer, which the hello-world server also sends as is (the "same bytes" case).
  const sampleFile = path.join(out, `${tag}-detail-sample.json`)
  writeFileSync(sampleFile, await (await fetch(api + detailUrl(data.maxDocketId), { headers: auth })).text())
  const hello = startNodeServer('hello-server', 'hello-server.ts', { PORT: String(helloPort), BODY_FILE: sampleFile })
  const helloOrigin = `http://127.0.0.1:${helloPort}`
  await listening(helloOrigin, hello, 'the hello-world server')
  let pgServer: LocalPostgres | undefined
  let peerOrigin: string | undefined
  let pgNote = USE_PG ? '' : 'skipped (--no-pg)'
  let pgCopy: { rows: number; seconds: number; reused: boolean } | undefined
  if (USE_PG) {
    try {
      pgServer = await startPostgres({ dir: path.join(out, dataTag === 'api' ? 'pg' : `pg-${dataTag}`), log: say })
      stoppables.push({ stop: () => pgServer!.stop() })
      say(`PostgreSQL 15 on port ${pgServer.port}; copying the dockets`)
      pgCopy = await copyDocketsToPostgres(rt, pgServer, { signature: `${data.loadedAt}|${data.dockets}`, log: say })
      say(`PostgreSQL holds ${pgCopy.rows.toLocaleString('en-US')} dockets${pgCopy.reused ? ' (copied by an earlier run)' : ` (copied and indexed in ${pgCopy.seconds.toFixed(1)} s)`}`)
      const peerPort = await freePort()
      const peer = startNodeServer('pg-peer', 'pg-peer-server.ts', { PORT: String(peerPort), PG_PORT: String(pgServer.port) })
      peerOrigin = `http://127.0.0.1:${peerPort}`
      await listening(peerOrigin, peer, 'the PostgreSQL peer')
    } catch (err) {
      pgNote = `skipped: ${(err as Error).message.split('\n')[0]}`
      say(`PostgreSQL peer ${pgNote}`)
      peerOrigin = undefined
    }
  }

  // The cases' URLs.
  const r = rng(42)
  const courts = data.courts.filter((c) => c.from && c.to)
  const hot = courts[0]
  const hotPath = `/api/rest/v4/dockets/?court=${encodeURIComponent(hot.court)}&order_by=-date_filed`
  const randomDetail = () => detailUrl(data.minDocketId + Math.floor(r() * (data.maxDocketId - data.minDocketId + 1)))
  const coldPath = () => {
    const c = courts[Math.floor(r() * courts.length)]
    const lo = dayNumber(c.from), hi = dayNumber(c.to)
    return `/api/rest/v4/dockets/?court=${encodeURIComponent(c.court)}&date_filed__gte=${isoOf(lo + Math.floor(r() * (hi - lo + 1)))}&order_by=-date_filed`
  }

  // The peer must answer what the API answers (origins aside).
  let peerCheck = 'not run'
  if (peerOrigin) {
    const id = data.minDocketId + Math.floor((data.maxDocketId - data.minDocketId) / 3)
    const a = JSON.stringify((await getJson(api + detailUrl(id), token)).body).replaceAll(api, '')
    const p = JSON.stringify((await getJson(peerOrigin + detailUrl(id))).body).replaceAll(peerOrigin, '')
    const cold = `/api/rest/v4/dockets/?court=${encodeURIComponent(hot.court)}&date_filed__gte=${hot.to.slice(0, 4)}-01-01&order_by=-date_filed`
    const al = (await getJson(api + cold, token)).body, pl = (await getJson(peerOrigin + cold)).body
    const ids = (b: any) => `${b?.count}:${(b?.results ?? []).map((o: any) => o.id).join(',')}`
    const keysA = Object.keys(JSON.parse(a)), keysP = Object.keys(JSON.parse(p))
    const differing = keysA.filter((k) => JSON.stringify(JSON.parse(a)[k]) !== JSON.stringify(JSON.parse(p)[k]))
    peerCheck = a === p && ids(al) === ids(pl) ? 'identical detail JSON and list (count, ids)'
      : `DIFFERS: detail ${a === p ? 'same' : `keys ${keysA.length}/${keysP.length}, differing: ${differing.join(', ') || 'order'}`}; list ${ids(al) === ids(pl) ? 'same' : `${ids(al).slice(0, 80)} vs ${ids(pl).slice(0, 80)}`}`
    say(`peer output check: ${peerCheck}`)
  }

  // 4. Load.
  const cases: LoadCase[] = [
    { name: 'hello-world (Fastify)', origin: helloOrigin, path: '/' },
    { name: 'Fastify, a detail\'s bytes', origin: helloOrigin, nextPath: () => `/same-bytes/${data.minDocketId + Math.floor(r() * (data.maxDocketId - data.minDocketId + 1))}/` },
    { name: 'API detail', origin: api, nextPath: randomDetail, headers: auth },
    { name: 'API hot list', origin: api, path: hotPath, headers: auth },
    { name: 'API cold list', origin: api, nextPath: coldPath, headers: auth },
    ...(peerOrigin ? [
      { name: 'PG peer detail', origin: peerOrigin, nextPath: randomDetail, headers: auth },
      { name: 'PG peer cold list', origin: peerOrigin, nextPath: coldPath, headers: auth },
    ] : []),
  ]
  const results = new Map<string, LoadResult[]>(cases.map((c) => [c.name, []]))
  // The server process's CPU per request: unlike req/s, it hardly moves with other work on the
  // machine or with the load generator's own cost (bigger answers cost autocannon more too).
  const serverPid = (c: LoadCase) => (c.origin === helloOrigin ? hello.pid : c.origin === api ? apiChild.pid : undefined)
  const cpuPerRequest = new Map<string, number[]>(cases.map((c) => [c.name, []]))
  /** The API's CPU per request less what it spends idle over the same time. */
  const netCpuPerRequest = new Map<string, number[]>(cases.map((c) => [c.name, []]))
  let rss: Memory | undefined
  const windows: Window[] = []
  // What the API process spends with no request (its consumers polling, timers): at a few hundred
  // requests a second (a machine shared with other work) this alone adds tens of µs to each request.
  const IDLE_SECONDS = 3
  // Once caught up, the API reads its rendered details once (api/read-model/consumer.ts, the warm
  // pass: seconds of CPU at 1M dockets). Wait for a second of less than 150 ms of CPU (at most 60 s),
  // so the idle figure is what the process spends with nothing to do, not what it spends starting.
  for (let waited = 0; waited < 60; waited++) {
    const before = cpuMsOf(apiChild.pid)
    await sleep(1000)
    const after = cpuMsOf(apiChild.pid)
    if (before === undefined || after === undefined || after - before < 150) break
    if (waited === 0) say('API process busy starting (the warm pass over its rendered details): waiting for it to end')
  }
  const idleBefore = cpuMsOf(apiChild.pid)
  await sleep(IDLE_SECONDS * 1000)
  const idleAfter = cpuMsOf(apiChild.pid)
  const apiIdleCpuMsPerSecond = idleBefore !== undefined && idleAfter !== undefined ? (idleAfter - idleBefore) / IDLE_SECONDS : NaN
  say(`API process idle: ${apiIdleCpuMsPerSecond.toFixed(1)} ms of CPU per second`)
  say(`warm-up: ${WARMUP} s per case`)
  /**
   * Requests still in flight when a case ends are abandoned by the client but not by the server:
   * one more request of the same case, alone, answers only once the server has worked through
   * them (its ClickHouse queue is first in, first out), so the next case starts on an idle server.
   */
  const drain = async (c: LoadCase) => {
    const started = Date.now()
    await fetch(c.origin + (c.nextPath ? c.nextPath() : c.path ?? '/'), { headers: c.headers, signal: AbortSignal.timeout(120_000) }).then((r) => r.arrayBuffer()).catch(() => undefined)
    return (Date.now() - started) / 1000
  }
  for (const c of cases) { await runLoad(c, { connections: CONNECTIONS, seconds: WARMUP }); await drain(c) }
  /** Every round's detail ÷ hello-world, and how far the farthest lies from their median (a share). */
  const detailOverHelloRounds = () => {
    const d = results.get('API detail')!, h = results.get('hello-world (Fastify)')!
    return d.map((x, i) => x.rps / h[i].rps)
  }
  const spreadOf = (xs: number[]) => { const m = median(xs); return xs.length ? Math.max(...xs.map((x) => Math.abs(x - m) / m)) : NaN }
  for (let round = 0; round < ROUNDS || (round < MAX_ROUNDS && !(spreadOf(detailOverHelloRounds()) <= SPREAD_GOAL)); round++) {
    const order = round % 2 === 0 ? cases : [...cases].reverse()
    for (const c of order) {
      const sampler = c.name === 'API detail' ? sampleMemory(apiChild.pid) : undefined
      const from = Date.now()
      const pid = serverPid(c)
      const cpuBefore = pid === undefined ? undefined : cpuMsOf(pid)
      const res = await runLoad(c, { connections: CONNECTIONS, seconds: SECONDS })
      const cpuAfter = pid === undefined ? undefined : cpuMsOf(pid)
      const loadSeconds = (Date.now() - from) / 1000
      if (cpuBefore !== undefined && cpuAfter !== undefined && res.requests > 0) {
        cpuPerRequest.get(c.name)!.push((cpuAfter - cpuBefore) * 1000 / res.requests)
        if (c.origin === api && Number.isFinite(apiIdleCpuMsPerSecond)) netCpuPerRequest.get(c.name)!.push(((cpuAfter - cpuBefore) - apiIdleCpuMsPerSecond * loadSeconds) * 1000 / res.requests)
      }
      if (c.origin === api) windows.push({ name: `${c.name}, round ${round + 1}`, fromMs: from, toMs: Date.now() })
      const m = sampler?.stop()
      if (m && (!rss || m.rssMb > rss.rssMb)) rss = m
      results.get(c.name)!.push(res)
      const drained = await drain(c)
      say(`round ${round + 1} ${c.name.padEnd(22)} ${fmtInt(res.rps).padStart(7)} req/s  p50 ${fmtMs(res.p50)} ms  p99 ${fmtMs(res.p99)} ms  non-2xx ${res.non2xx}  errors ${res.errors}  (drained in ${drained.toFixed(1)} s; load ${load()})`)
      await sleep(300)
    }
  }
  const stats = new Map<string, CaseStats>()
  for (const [name, rounds] of results) {
    stats.set(name, {
      name, rounds, rps: median(rounds.map((x) => x.rps)), p50: median(rounds.map((x) => x.p50)), p99: median(rounds.map((x) => x.p99)),
      errors: rounds.reduce((s, x) => s + x.errors, 0), non2xx: rounds.reduce((s, x) => s + x.non2xx, 0), bytes: median(rounds.map((x) => x.bytesPerRequest)),
      cpuUsPerRequest: cpuPerRequest.get(name)!.length ? median(cpuPerRequest.get(name)!) : undefined,
      netCpuUsPerRequest: netCpuPerRequest.get(name)!.length ? median(netCpuPerRequest.get(name)!) : undefined,
    })
  }

  // 5. Change → visible. A failure here (or in 6) is reported, not fatal: the load results stand.
  let change: Visibility | undefined
  let changeError = ''
  try {
    say(`change → visible: ${CHANGES} updates of a docket on the hot list page`)
    change = await measureVisibility(rt, { origin: api, token, listPath: hotPath, detailPath: detailUrl, changes: CHANGES, log: say })
    say(`change → visible: detail p50 ${fmtMs(change.detail.p50)} ms p99 ${fmtMs(change.detail.p99)} ms; list p50 ${fmtMs(change.list.p50)} ms p99 ${fmtMs(change.list.p99)} ms; publish ack p50 ${fmtMs(change.publishAck.p50)} ms${change.missed ? `; ${change.missed} not visible within 30 s` : ''}`)
  } catch (err) { changeError = (err as Error).message.split('\n')[0]; say(`change → visible failed: ${changeError}`) }

  // 6. Restart → serving.
  let stopSeconds = NaN, restartSeconds = NaN
  let restartError = ''
  try {
    say('restart: SIGTERM to the API, then start it again on its read model')
    t0 = Date.now()
    await apiChild.stop({ timeoutMs: 30_000 })
    firstApiEndedAt = Date.now()
    stopSeconds = (Date.now() - t0) / 1000
    t0 = Date.now()
    apiChild = startApi(apiPort, 'api (restarted)')
    const probe = detailUrl(data.maxDocketId)
    await waitUntil(async () => (await getJson(api + probe, token)).status === 200, { what: 'the restarted API to answer a detail GET', timeoutMs: 300_000, child: apiChild, intervalMs: 20 })
    restartSeconds = (Date.now() - t0) / 1000
    say(`restart: stopped in ${stopSeconds.toFixed(1)} s; serving a detail ${restartSeconds.toFixed(2)} s after it was started`)

  } catch (err) { restartError = (err as Error).message.split('\n').slice(0, 3).join(' | '); say(`restart failed: ${restartError}`) }

  // Report.
  const s = (n: string) => stats.get(n)
  const ratio = (a?: CaseStats, b?: CaseStats) => (a && b ? a.rps / b.rps : NaN)
  const ratios = {
    detailOverHello: ratio(s('API detail'), s('hello-world (Fastify)')),
    hotListOverHello: ratio(s('API hot list'), s('hello-world (Fastify)')),
    coldListOverPg: ratio(s('API cold list'), s('PG peer cold list')),
    detailOverPg: ratio(s('API detail'), s('PG peer detail')),
  }
  const goal = (ok: boolean | undefined) => (ok === undefined ? 'n/a' : ok ? 'met' : 'NOT met')
  const finite = (n: number) => (Number.isFinite(n) ? n : undefined)
  const helloStats = s('hello-world (Fastify)')!, bytesPeer = s('Fastify, a detail\'s bytes')!, detail = s('API detail')!, cold = s('API cold list')!, pgCold = s('PG peer cold list')
  const detailOverBytes = ratio(detail, bytesPeer)
  const rounds = detail.rounds.length
  const detailSpread = spreadOf(detailOverHelloRounds())
  const goals: [string, string, string][] = [
    ['detail ÷ Fastify sending its bytes ≥ 0.85', fmtRatio(detailOverBytes), goal(detailOverBytes >= 0.85)],
    ['detail p99 ≤ 1.5 × hello-world p99', `${fmtMs(detail.p99)} ms (${fmtRatio(detail.p99 / helloStats.p99)} ×)`, goal(detail.p99 <= 1.5 * helloStats.p99)],
    ['hot list ÷ hello ≥ 0.3', fmtRatio(ratios.hotListOverHello), goal(ratios.hotListOverHello >= 0.3)],
    ['cold list ÷ PG cold list ≥ 1.0', fmtRatio(ratios.coldListOverPg), goal(finite(ratios.coldListOverPg) !== undefined ? ratios.coldListOverPg >= 1 : undefined)],
    ['cold list p99 ≤ PG cold list p99', pgCold ? `${fmtMs(cold.p99)} ms (PG ${fmtMs(pgCold.p99)} ms)` : `${fmtMs(cold.p99)} ms`, goal(pgCold ? cold.p99 <= pgCold.p99 : undefined)],
    ['change → visible p99 ≤ 1 s (detail)', change ? `${fmtMs(change.detail.p99)} ms` : 'failed', goal(change ? change.detail.p99 <= 1000 : undefined)],
    ['change → visible p99 ≤ 1 s (list)', change ? `${fmtMs(change.list.p99)} ms` : 'failed', goal(change ? change.list.p99 <= 1000 : undefined)],
    ['restart → serving ≤ 10 s', restartError ? 'failed' : `${restartSeconds.toFixed(2)} s`, goal(restartError ? undefined : restartSeconds <= 10)],
    // The issue's goal sets the page cache aside: the mapped read model is file-backed and shared.
    ['API RSS ≤ 300 MB, page cache aside (anonymous, during detail)', rss ? `${fmtInt(rss.anonMb)} MB` : '–', goal(rss ? rss.anonMb <= 300 : undefined)],
    [`rounds' detail ÷ hello within ±${SPREAD_GOAL * 100} % of their median`, `±${(detailSpread * 100).toFixed(1)} % over ${rounds} rounds`, goal(detailSpread <= SPREAD_GOAL)],
  ]
  console.log(`\nbench/api — ${data.dockets.toLocaleString('en-US')} dockets (${OPINIONS.toLocaleString('en-US')} opinions), ${CONNECTIONS} connections, ${SECONDS} s × ${rounds} round(s), medians (detail ÷ hello spread ±${(detailSpread * 100).toFixed(1)} %)${ALL_ROLES ? ', --all-roles' : ''}; load average ${load()} on ${os.cpus().length} CPUs\n`)
  console.log(table([
    ['case', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'bytes/resp', 'server CPU µs/req', 'less idle CPU'],
    ...[...stats.values()].map((c) => [c.name, fmtInt(c.rps), fmtMs(c.p50), fmtMs(c.p99), fmtInt(c.non2xx), fmtInt(c.errors), fmtInt(c.bytes), c.cpuUsPerRequest === undefined ? '–' : c.cpuUsPerRequest.toFixed(1), c.netCpuUsPerRequest === undefined ? '–' : c.netCpuUsPerRequest.toFixed(1)]),
  ]))
  console.log('')
  console.log(table([['goal', 'measured', ''], ...goals]))
  // Rounds alternate the order of the cases, so a round's detail and hello-world ran minutes apart at most.
  const perRound = (a: string, b: string) => s(a)!.rounds.map((r, i) => fmtRatio(r.rps / s(b)!.rounds[i].rps)).join(', ')
  const cpuRatio = (a: string) => { const x = s(a)?.cpuUsPerRequest, h = s('hello-world (Fastify)')?.cpuUsPerRequest; return x && h ? fmtRatio(h / x) : '–' }
  console.log(`\n  per round: detail ÷ hello ${perRound('API detail', 'hello-world (Fastify)')}; hot list ÷ hello ${perRound('API hot list', 'hello-world (Fastify)')}`)
  console.log(`  Fastify sending a detail's bytes (no work to find them) ÷ hello ${ratio(s('Fastify, a detail\'s bytes'), s('hello-world (Fastify)')).toFixed(2)}: the most a detail of this size reaches; API detail ÷ it ${ratio(s('API detail'), s('Fastify, a detail\'s bytes')).toFixed(2)}`)
  console.log(`  server CPU per request, hello-world's ÷ the API's: detail ${cpuRatio('API detail')}, hot list ${cpuRatio('API hot list')} (other work on the machine moves req/s more than this)`)
  const netOf = (n: string) => s(n)?.netCpuUsPerRequest
  const bytesCpu = s('Fastify, a detail\'s bytes')?.cpuUsPerRequest
  console.log(`  API process idle ${apiIdleCpuMsPerSecond.toFixed(1)} ms CPU/s; less that, detail ${netOf('API detail')?.toFixed(1) ?? '–'} µs/req (Fastify sending the bytes ${bytesCpu?.toFixed(1) ?? '–'}: ratio ${bytesCpu && netOf('API detail') ? fmtRatio(bytesCpu / netOf('API detail')!) : '–'})`)
  console.log(`  detail ÷ PG detail ${fmtRatio(ratios.detailOverPg)}; API RSS during detail ${rss ? `${fmtInt(rss.rssMb)} MB (anon ${fmtInt(rss.anonMb)}, file-backed ${fmtInt(rss.fileMb)})` : '–'}`)
  console.log(change
    ? `  change → visible (${CHANGES}×): detail p50 ${fmtMs(change.detail.p50)} / p99 ${fmtMs(change.detail.p99)} ms; list p50 ${fmtMs(change.list.p50)} / p99 ${fmtMs(change.list.p99)} ms; publish ack p50 ${fmtMs(change.publishAck.p50)} ms${change.missed ? `; ${change.missed} never visible within 30 s` : ''}`
    : `  change → visible: failed (${changeError})`)
  console.log(restartError
    ? `  restart: failed (${restartError})`
    : `  restart: SIGTERM → exit ${stopSeconds.toFixed(1)} s; start → first detail 200 ${restartSeconds.toFixed(2)} s (first start of this run: ${readySeconds.toFixed(1)} s, read model ${storeKept ? 'reused' : 'built from the topics'})`)
  console.log(`  PostgreSQL peer: ${pgNote || peerCheck}`)
  let profile: WindowSummary[] | undefined
  if (PROFILE) {
    const dir = path.join(out, 'profiles')
    const file = readdirSync(dir).find((f) => f.includes(`.${firstApiPid}.0.`) && f.endsWith('.cpuprofile'))
    if (file && Number.isFinite(firstApiEndedAt)) {
      profile = summarizeProfile(path.join(dir, file), firstApiEndedAt, windows)
      const text = profile.map(formatSummary).join('\n\n')
      writeFileSync(path.join(dir, `summary-${tag}.txt`), text + '\n')
      console.log(`\nwhere the API process spent its time during the load cases (CPU profile ${path.join(dir, file)}):\n\n${text}`)
    } else console.log(`  CPU profile of the API process: not found in ${dir}`)
  }

  const report = {
    when: new Date().toISOString(), machine: { cpus: os.cpus().length, loadAverage: os.loadavg(), totalMemMb: Math.round(os.totalmem() / 2 ** 20) },
    options: { opinions: OPINIONS, seconds: SECONDS, rounds, minRounds: ROUNDS, maxRounds: MAX_ROUNDS, allRoles: ALL_ROLES, connections: CONNECTIONS, warmupSeconds: WARMUP, pg: USE_PG },
    data: { ...data, reused } satisfies BenchData & { reused: boolean },
    urls: { hot: hotPath, detail: '/api/rest/v4/dockets/<random id>/', cold: '/api/rest/v4/dockets/?court=<one of 50>&date_filed__gte=<random>&order_by=-date_filed' },
    apiIdleCpuMsPerSecond,
    cases: Object.fromEntries([...stats.values()].map((c) => [c.name, { rps: c.rps, p50Ms: c.p50, p99Ms: c.p99, non2xx: c.non2xx, errors: c.errors, bytesPerResponse: c.bytes, serverCpuUsPerRequest: c.cpuUsPerRequest, serverCpuUsPerRequestLessIdle: c.netCpuUsPerRequest, rounds: c.rounds }])),
    ratios: { ...ratios, detailOverBytes, detailP99OverHelloP99: detail.p99 / helloStats.p99, coldP99OverPgP99: pgCold ? cold.p99 / pgCold.p99 : undefined, detailOverHelloSpread: detailSpread }, rss, change: change ?? { error: changeError }, restart: restartError ? { error: restartError } : { stopSeconds, startToFirstDetailSeconds: restartSeconds, firstStartSeconds: readySeconds },
    peer: { note: pgNote || peerCheck, copy: pgCopy },
    goals: goals.map(([g, m, v]) => ({ goal: g, measured: m, verdict: v })),
    profile,
  }
  writeFileSync(path.join(out, `${tag}.json`), JSON.stringify(report, null, 2))
  console.log(`\nwritten: ${path.join(out, `${tag}.json`)}`)
} finally {
  await stopAllChildren()
  await stopAll(rt, stoppables)
  await rt.close()
}
process.exit(0)
