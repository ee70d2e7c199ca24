/**
 * Large texts out of the read model (LDS_READ_MODEL_TEXTS=clickhouse, issue 24): what a cold
 * opinion detail costs when its texts are read from ClickHouse, against the default (texts in the
 * read model), on a data set bench/api.ts loaded:
 *
 *   npx tsx bench/large-texts.ts [--prefix bench.q28] [--opinions 20000] [--before <git ref>]
 *                                [--seconds 5] [--rounds 2] [--connections 32] [--queries 300] [--layouts]
 *
 * 1. Data: the sample corpus of --opinions in topics `<prefix>.*` and database `<prefix>` (dots as
 *    _), reused when bench/api.ts (or this) loaded it; migrated first (on an older deployment that
 *    creates the texts' side tables and fills them: the time is printed).
 * 2. ClickHouse alone: --queries point reads of random opinions, one after another, as
 *    large-texts.ts makes them (`SELECT id, _version, <8 texts> … FINAL WHERE id IN [id]`), from the
 *    main table and from its side table `opinions_texts`, and a read of one small column (a
 *    query's floor), after 50 reads to warm up; with the ClickHouse server's CPU time per read (all
 *    its threads, from /proc: other work on the server counts too). --layouts also copies the texts into scratch tables of other granularities
 *    (`_lt_*`, dropped after) and reads them the same way: how the side table's setting was chosen.
 * 3. API processes (`lds run --roles api`), each with a read model of its own (LDS_DATA_DIR
 *    .data/bench/large-texts/<mode>, kept between runs), no serialized objects kept
 *    (LDS_OBJECT_CACHE_ENTRIES=0) and, in clickhouse mode, no texts kept (LDS_READ_MODEL_MAX_GB=0),
 *    so every detail is cold: `local` (texts in the read model), `clickhouse` (this tree: the side
 *    table) and, with --before REF[,REF…], `clickhouse@REF` (the API of REF, checked out in a git
 *    worktree under .data/bench/large-texts/: e.g. the commit before the side tables, which read the
 *    main table). Cases, each --seconds after a warm-up, in --rounds rounds of alternating order:
 *    an opinion detail of a random id, and a page of 20 opinions from a random id (a list: one
 *    texts query per page). Medians of the rounds. Writes .data/bench/large-texts.json.
 * The machine's load average is printed: other work on the same CPUs lowers every number.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { loadConfig, PROJECT_ROOT } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { createDb } from '../core/clickhouse.js'
import { migrate } from '../core/migrate.js'
import { sql, ident, join, raw } from '../core/sql.js'
import { createRuntime, stopAll, type Stoppable } from '../bin/runtime.js'
import { createUser } from '../bin/users.js'
import { waitForCatchUp } from '../bin/catch-up.js'
import { ensureData, entityTopics } from './lib/dataset.js'
import { spawnChild, stopChildrenOnExit, stopAllChildren, freePort, waitUntil, treeCpuMsOf, type Child } from './lib/children.js'
import { runLoad, type LoadResult } from './lib/load.js'
import { median, percentile, fmtInt, fmtMs, table } from './lib/stats.js'
import { getJson } from './lib/http.js'
import { catalogue } from '../schemas/catalogue/index.js'
import { largeColumnsOfTable } from '../schemas/tables.js'
import { mulberry32 } from '../test/kit/random.js'
import { parseFlags } from '../test/kit/args.js'

const flags = parseFlags('npx tsx bench/large-texts.ts', {
  prefix: { type: 'string', default: 'bench.q28', help: 'topics NAME.* and database NAME (dots as _), as bench/api.ts names them' },
  opinions: { type: 'number', default: 20_000, help: 'opinions in the data set (loaded when it holds another number)' },
  before: { type: 'string', default: '', help: 'git refs (comma-separated) whose API is measured too in clickhouse mode, e.g. the commit before the side tables' },
  seconds: { type: 'number', default: 5, help: 'seconds per case and round' },
  rounds: { type: 'number', default: 2, help: 'rounds (medians reported)' },
  connections: { type: 'number', default: 32, help: 'autocannon connections' },
  queries: { type: 'number', default: 300, help: 'point reads per table in ClickHouse alone' },
  layouts: { type: 'boolean', help: 'also read scratch copies of the texts at other granularities' },
})
const PREFIX = flags.prefix.replace(/\.+$/, '')
if (!/^[a-z][a-z0-9_.]*$/.test(PREFIX)) throw new Error('--prefix: lower-case letters, digits, dots and _')
const out = path.join(PROJECT_ROOT, '.data', 'bench')
const own = path.join(out, 'large-texts')
mkdirSync(own, { recursive: true })
const say = (m: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${m}`)
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')
stopChildrenOnExit()

const benchEnv = { LDS_TOPIC_PREFIX: `${PREFIX}.`, CLICKHOUSE_DATABASE: PREFIX.replace(/\./g, '_'), LOG_LEVEL: 'warn' }
const cfg = loadConfig({ ...process.env, ...benchEnv })
const rt = createRuntime(cfg, createLogger(cfg))
const stoppables: Stoppable[] = []
const opinions = catalogue.get('opinions')
const texts = largeColumnsOfTable(catalogue, opinions)

/** The local ClickHouse server's CPU time so far (ms), when it runs here. */
function clickhouseCpuMs(): number | undefined {
  const file = path.join(cfg.dataDir, 'run', 'clickhouse.pid')
  const pid = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : NaN
  return Number.isInteger(pid) ? treeCpuMsOf(pid) : undefined
}

/** Serial point reads of random ids: p50 and p99 in ms, and the server's CPU ms per read. */
async function pointReads(tableName: string, columns: readonly string[], ids: readonly number[]): Promise<{ p50: number; p99: number; cpuMs: number }> {
  const cpu0 = clickhouseCpuMs()
  const list = join(['id', '_version', ...columns].map((c) => sql`${ident(c)}`), ', ')
  const from = sql`${ident(rt.db.database)}.${ident(tableName)}`
  const ms: number[] = []
  for (const id of ids) {
    const t0 = performance.now()
    const rows = await rt.db.query(sql`SELECT ${list} FROM ${from} FINAL WHERE id IN ${[id]}`)
    ms.push(performance.now() - t0)
    if (rows.length !== 1) throw new Error(`opinion ${id} not in ${tableName}`)
  }
  const cpu1 = clickhouseCpuMs()
  ms.sort((a, b) => a - b)
  return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), cpuMs: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / ids.length : NaN }
}

async function tableSize(name: string): Promise<{ mb: number; marks: number }> {
  const [r] = await rt.db.query<{ c: string; m: string }>(sql`SELECT sum(data_compressed_bytes) AS c, sum(marks) AS m FROM system.parts WHERE database = ${rt.db.database} AND table = ${name} AND active`)
  return { mb: Number(r.c) / 1e6, marks: Number(r.m) }
}

interface Mode { label: string; root: string; env: Record<string, string> }

/** The API of `ref` in a worktree of its own (node_modules shared), made once. */
function worktree(ref: string): string {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim()
  const dir = path.join(own, `tree-${sha.slice(0, 10)}`)
  if (!existsSync(dir)) {
    execFileSync('git', ['worktree', 'add', '--detach', dir, sha], { cwd: PROJECT_ROOT, stdio: 'ignore' })
    symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'))
  }
  return dir
}

function startApi(mode: Mode, port: number): Child {
  const dataDir = path.join(own, mode.label.replace(/[^\w.-]/g, '_'))
  mkdirSync(dataDir, { recursive: true })
  // The local registry's password (read by the API's start-up migration) lives in the main data folder.
  const registry = path.join(dataDir, 'registry')
  if (!existsSync(registry) && existsSync(path.join(cfg.dataDir, 'registry'))) symlinkSync(path.join(cfg.dataDir, 'registry'), registry)
  return spawnChild({
    name: `api-${mode.label}`, cmd: process.execPath,
    args: ['--import', 'tsx', path.join(mode.root, 'bin', 'lds-cli.ts'), 'run', '--roles', 'api'],
    env: { ...process.env, ...benchEnv, ...mode.env, PORT: String(port), HOST: '127.0.0.1', LDS_DATA_DIR: dataDir, LDS_OBJECT_CACHE_ENTRIES: '0', LDS_READ_MODEL_WARM_MB: '0' },
    cwd: mode.root, logFile: path.join(own, `${mode.label.replace(/[^\w.-]/g, '_')}-server.log`),
  })
}

try {
  say(`bench/large-texts: ${PREFIX}, ${flags.connections} connections, ${flags.seconds} s per case × ${flags.rounds} round(s); ${os.cpus().length} CPUs, load average ${load()}`)

  // 1. Data, migrated (the side tables made and filled once on a deployment that had none).
  const admin = createDb(cfg, { useDatabase: false, requestTimeoutMs: 3_600_000 })
  const t0 = Date.now()
  const applied = await migrate(admin, catalogue, () => {}, () => {}, undefined, { textTables: true })
  await admin.close()
  const fills = applied.filter((m) => m.id.startsWith('fill:')).map((m) => m.id)
  say(`migrated in ${((Date.now() - t0) / 1000).toFixed(1)} s${fills.length ? ` (${fills.join(', ')})` : ''}`)
  const { data, processors, reused } = await ensureData(rt, {
    opinions: flags.opinions, seed: 1, reload: false, roles: ['table-sink'],
    markerFile: path.join(out, `${PREFIX === 'bench.api' ? 'api' : PREFIX.replace(/\./g, '_')}-data.json`), log: say,
  })
  stoppables.push(...processors)
  const [{ n, lo, hi, avg }] = await rt.db.query<{ n: string; lo: string; hi: string; avg: number }>(sql`SELECT count() AS n, min(id) AS lo, max(id) AS hi,
    avg(${join(texts.map((c) => sql`length(${ident(c)})`), ' + ')}) AS avg FROM ${ident(rt.db.database)}.opinions FINAL`)
  const [minId, maxId] = [Number(lo), Number(hi)]
  say(`${reused ? 'reused' : 'loaded'}: ${fmtInt(Number(n))} opinions (ids ${minId}–${maxId}), ${fmtInt(avg)} bytes of texts each; ${fmtInt(data.dockets)} dockets`)
  const rng = mulberry32(7)
  const randomId = () => minId + Math.floor(rng() * (maxId - minId + 1))

  // 2. ClickHouse alone.
  const layouts: [string, string][] = [['opinions', 'the main table (default granularity)'], ['opinions_texts', 'the side table']]
  const scratch = flags.layouts ? [['g256', 'index_granularity = 256'], ['g32', 'index_granularity = 32'], ['b64k', 'index_granularity_bytes = 65536'], ['b256k', 'index_granularity_bytes = 262144']] : []
  const cols = join(['id', '_version', '_deleted', ...texts].map((c) => sql`${ident(c)}`), ', ')
  for (const [name, setting] of scratch) {
    const t = `_lt_${name}`
    await rt.db.command(sql`DROP TABLE IF EXISTS ${ident(rt.db.database)}.${ident(t)}`)
    await rt.db.command(sql`CREATE TABLE ${ident(rt.db.database)}.${ident(t)} AS ${ident(rt.db.database)}.opinions_texts ENGINE = ReplacingMergeTree(_version, _deleted) ORDER BY id SETTINGS ${raw(setting)}`)
    await rt.db.command(sql`INSERT INTO ${ident(rt.db.database)}.${ident(t)} (${cols}) SELECT ${cols} FROM ${ident(rt.db.database)}.opinions`)
    layouts.push([t, `scratch copy, ${setting}`])
  }
  const chRows: string[][] = [['table', 'read', 'p50', 'p99', 'server CPU per read', 'compressed', 'marks']]
  const chJson: Record<string, unknown>[] = []
  await pointReads('opinions', ['author_str'], Array.from({ length: 50 }, randomId))
  const floor = await pointReads('opinions', ['author_str'], Array.from({ length: flags.queries }, randomId))
  chRows.push(['opinions', 'one small column (a query\'s floor)', `${fmtMs(floor.p50)} ms`, `${fmtMs(floor.p99)} ms`, `${fmtMs(floor.cpuMs)} ms`, '', ''])
  for (const [name, what] of layouts) {
    const r = await pointReads(name, texts, Array.from({ length: flags.queries }, randomId))
    const size = await tableSize(name)
    chRows.push([`${name} (${what})`, `id, _version, ${texts.length} texts`, `${fmtMs(r.p50)} ms`, `${fmtMs(r.p99)} ms`, `${fmtMs(r.cpuMs)} ms`, `${size.mb.toFixed(1)} MB`, fmtInt(size.marks)])
    chJson.push({ table: name, what, ...r, ...size })
  }
  for (const [name] of scratch) await rt.db.command(sql`DROP TABLE IF EXISTS ${ident(rt.db.database)}.${ident(`_lt_${name}`)}`)
  console.log(`\nClickHouse point reads, ${flags.queries} random opinions one after another (load average ${load()}):\n${table(chRows)}\n`)

  // 3. The API processes.
  const modes: Mode[] = [
    { label: 'local', root: PROJECT_ROOT, env: { LDS_READ_MODEL_TEXTS: 'local' } },
    { label: 'clickhouse', root: PROJECT_ROOT, env: { LDS_READ_MODEL_TEXTS: 'clickhouse', LDS_READ_MODEL_MAX_GB: '0' } },
    ...flags.before.split(',').filter(Boolean).map((ref) => ({ label: `clickhouse@${ref}`, root: worktree(ref), env: { LDS_READ_MODEL_TEXTS: 'clickhouse', LDS_READ_MODEL_MAX_GB: '0' } })),
  ]
  const user = await createUser(rt, `bench-lt-${Date.now()}`, { rate: '1000000000/hour' })
  const auth = { Authorization: `Token ${user.token}` }
  const topics = await entityTopics(rt)
  const kafkaAdmin = rt.kafka.admin()
  await kafkaAdmin.connect()
  const seenGroups = new Set<string>()
  const origins = new Map<string, string>()
  for (const mode of modes) {
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const child = startApi(mode, port)
    const started = Date.now()
    await waitUntil(async () => (await fetch(origin + '/').catch(() => undefined))?.status, { what: `the ${mode.label} API to listen`, timeoutMs: 180_000, child, intervalMs: 200 })
    // Its read model's group: the prefix's group with a member that no API started before has.
    const rmPrefix = `${cfg.topicPrefix}read-model.`
    const group = await waitUntil(async () => {
      const names = (await kafkaAdmin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(rmPrefix) && !seenGroups.has(g))
      if (!names.length) return undefined
      return (await kafkaAdmin.describeGroups(names)).groups.find((g) => g.members.length > 0)?.groupId
    }, { what: `the ${mode.label} API's read-model group`, timeoutMs: 180_000, child, intervalMs: 500 })
    seenGroups.add(group)
    await waitForCatchUp(rt.kafka, rt.clock, [{ label: `${mode.label} read model`, group, topics: async () => topics }], { progress: false, timeoutMs: 10 * 60_000 })
    await waitUntil(async () => (await getJson(`${origin}/api/rest/v4/opinions/${maxId}/`, user.token)).status === 200, { what: `the ${mode.label} API to serve an opinion`, timeoutMs: 180_000, child, intervalMs: 200 })
    say(`${mode.label}: serving on ${origin} after ${((Date.now() - started) / 1000).toFixed(0)} s`)
    origins.set(mode.label, origin)
  }
  await kafkaAdmin.disconnect()

  const cases = [
    { name: 'opinion detail (random id, cold)', next: () => `/api/rest/v4/opinions/${randomId()}/` },
    { name: 'opinions list (20 from a random id)', next: () => `/api/rest/v4/opinions/?order_by=id&id__gte=${randomId()}` },
  ]
  const results = new Map<string, LoadResult[]>()
  for (let round = 0; round < flags.rounds; round++) {
    const order = round % 2 ? [...modes].reverse() : modes
    for (const c of cases) for (const mode of order) {
      const origin = origins.get(mode.label)!
      await runLoad({ name: c.name, origin, nextPath: c.next, headers: auth }, { connections: flags.connections, seconds: 1 })
      const r = await runLoad({ name: c.name, origin, nextPath: c.next, headers: auth }, { connections: flags.connections, seconds: flags.seconds })
      if (r.non2xx || r.errors) say(`${mode.label} ${c.name}: ${r.non2xx} non-2xx, ${r.errors} errors`)
      const key = `${c.name}|${mode.label}`
      results.set(key, [...(results.get(key) ?? []), r])
      say(`round ${round + 1} ${mode.label} ${c.name}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50)} ms, p99 ${fmtMs(r.p99)} ms, ${fmtInt(r.bytesPerRequest)} B (load average ${load()})`)
    }
  }
  const rows: string[][] = [['case', 'mode', 'req/s', 'p50', 'p99', 'bytes', '÷ local']]
  const summary: Record<string, unknown>[] = []
  for (const c of cases) {
    const localRps = median(results.get(`${c.name}|local`)!.map((r) => r.rps))
    for (const mode of modes) {
      const rs = results.get(`${c.name}|${mode.label}`)!
      const s = { case: c.name, mode: mode.label, rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)), bytes: median(rs.map((r) => r.bytesPerRequest)), rounds: rs.map((r) => Math.round(r.rps)) }
      summary.push(s)
      rows.push([c.name, mode.label, `${fmtInt(s.rps)} (${s.rounds.join(', ')})`, `${fmtMs(s.p50)} ms`, `${fmtMs(s.p99)} ms`, fmtInt(s.bytes), (s.rps / localRps).toFixed(2)])
    }
  }
  console.log(`\nAPI, ${flags.connections} connections, ${flags.seconds} s per case, ${flags.rounds} round(s) (medians; req/s of each round in brackets):\n${table(rows)}\n`)
  writeFileSync(path.join(out, 'large-texts.json'), JSON.stringify({ date: new Date().toISOString(), prefix: PREFIX, opinions: Number(n), textBytes: avg, before: flags.before.split(',').filter(Boolean), clickhouse: chJson, floor, api: summary }, null, 2))
} finally {
  await stopAllChildren()
  await stopAll(rt, stoppables)
  await rt.close()
}
process.exit(0)
