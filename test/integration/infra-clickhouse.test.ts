/**
 * The local ClickHouse (infra/clickhouse-server.ts): starts idempotently on cfg.clickhouseUrl, behaves
 * like a real ClickHouse 26.x server for what the project relies on (ReplacingMergeTree + FINAL,
 * bound query parameters, ALTER ADD COLUMN and OPTIMIZE FINAL for migrations, synchronous inserts
 * and mutations), and keeps MergeTree data across a restart (on a private instance with its own
 * data dir and ports, so the shared one is never stopped under other tests).
 */
import t from 'tap'
import { createClient, type ClickHouseClient } from '@clickhouse/client'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { loadConfig, type Config } from '../../core/config.js'
import { clickhouse } from '../../infra/clickhouse-server.js'

const cfg = loadConfig()
const log = (m: string) => t.comment(m)
const DB = `t_infra_ch_${process.pid}_${Date.now().toString(36)}`

async function rows<T>(c: ClickHouseClient, query: string, query_params?: Record<string, unknown>): Promise<T[]> {
  const rs = await c.query({ query, query_params, format: 'JSONEachRow' })
  return rs.json<T>()
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

t.test('start is idempotent and the server answers', async (t) => {
  await clickhouse.install(cfg, log)
  await clickhouse.start(cfg, log)
  await clickhouse.start(cfg, log) // already running: no second process, no error
  const st = await clickhouse.status(cfg)
  t.equal(st.running, true)
  t.match(st.detail, /ClickHouse 2[6-9]\./)
  const ping = await fetch(`${cfg.clickhouseUrl}/ping`)
  t.equal((await ping.text()).trim(), 'Ok.')
})

t.test('ReplacingMergeTree, FINAL, bound parameters, migrations', async (t) => {
  const c = createClient({ url: cfg.clickhouseUrl, request_timeout: 20_000 })
  t.teardown(async () => {
    await c.command({ query: `DROP DATABASE IF EXISTS ${DB} SYNC` }).catch(() => {})
    await c.close()
  })

  // Server-wide defaults the launcher sets: inserts and mutations are synchronous.
  const [s] = await rows<{ a: string | number | boolean; m: string | number }>(c, `SELECT getSetting('async_insert') AS a, getSetting('mutations_sync') AS m`)
  t.equal(Number(s.a), 0, 'async_insert=0')
  t.equal(Number(s.m), 1, 'mutations_sync=1')

  await c.command({ query: `CREATE DATABASE ${DB}` })
  await c.command({
    query: `CREATE TABLE ${DB}.docs (id UInt64, version UInt64, title String, filed DateTime64(3, 'UTC'))
            ENGINE = ReplacingMergeTree(version) ORDER BY id`,
  })
  // Duplicates with different versions, in separate inserts (separate parts) and within one.
  await c.insert({ table: `${DB}.docs`, format: 'JSONEachRow', values: [
    { id: 1, version: 1, title: 'one v1', filed: '2024-01-01 00:00:00.000' },
    { id: 1, version: 3, title: 'one v3', filed: '2024-01-03 00:00:00.000' },
    { id: 2, version: 1, title: 'two v1', filed: '2024-01-01 00:00:00.000' },
  ] })
  await c.insert({ table: `${DB}.docs`, format: 'JSONEachRow', values: [
    { id: 1, version: 2, title: 'one v2', filed: '2024-01-02 00:00:00.000' },
    { id: 2, version: 5, title: 'two v5', filed: '2024-01-05 00:00:00.000' },
  ] })
  const latest = await rows<{ id: number; version: string | number; title: string }>(c, `SELECT id, version, title FROM ${DB}.docs FINAL ORDER BY id`)
  t.same(latest.map((r) => [r.id, Number(r.version), r.title]), [[1, 3, 'one v3'], [2, 5, 'two v5']], 'FINAL keeps the highest version')

  // Query parameters are bound by the server, never spliced into the SQL text.
  const hostile = [
    `x' OR 1=1 --`,
    `'; DROP DATABASE ${DB}; --`,
    `\\'); DROP TABLE ${DB}.docs; SELECT ('`,
    `{p:String} \`back\` "dq" \\ \\\\ \n\t\r ünïcødé 🙂`,
  ]
  for (const p of hostile) {
    const [echo] = await rows<{ v: string }>(c, 'SELECT {p:String} AS v', { p })
    t.equal(echo.v, p, `echoed exactly: ${JSON.stringify(p)}`)
    const hits = await rows(c, `SELECT id FROM ${DB}.docs FINAL WHERE title = {p:String}`, { p })
    t.equal(hits.length, 0, 'matches nothing, as a plain string would')
    await c.command({ query: `INSERT INTO ${DB}.docs SELECT 100 + {n:UInt8}, 1, {p:String}, now64(3)`, query_params: { p, n: hostile.indexOf(p) } })
  }
  const stored = await rows<{ title: string }>(c, `SELECT title FROM ${DB}.docs WHERE id >= 100 ORDER BY id`)
  t.same(stored.map((r) => r.title), hostile, 'stored byte for byte')
  const [alive] = await rows<{ n: string | number }>(c, `SELECT count() AS n FROM system.tables WHERE database = {db:String} AND name = 'docs'`, { db: DB })
  t.equal(Number(alive.n), 1, 'database and table are still there')

  // What a migration runner needs: ADD COLUMN and OPTIMIZE FINAL.
  await c.command({ query: `ALTER TABLE ${DB}.docs ADD COLUMN IF NOT EXISTS court LowCardinality(String) DEFAULT 'scotus' AFTER title` })
  await c.command({ query: `ALTER TABLE ${DB}.docs ADD COLUMN IF NOT EXISTS court LowCardinality(String) DEFAULT 'scotus' AFTER title` })
  const [withCol] = await rows<{ court: string }>(c, `SELECT court FROM ${DB}.docs FINAL WHERE id = 1`)
  t.equal(withCol.court, 'scotus', 'new column has its default on old rows')
  await c.command({ query: `OPTIMIZE TABLE ${DB}.docs FINAL` })
  const plain = await rows<{ id: number; title: string }>(c, `SELECT id, title FROM ${DB}.docs WHERE id < 100 ORDER BY id`)
  t.same(plain.map((r) => r.title), ['one v3', 'two v5'], 'OPTIMIZE FINAL merged the duplicates away (no FINAL needed)')
  const [parts] = await rows<{ n: string | number }>(c, `SELECT count() AS n FROM system.parts WHERE database = {db:String} AND table = 'docs' AND active`, { db: DB })
  t.equal(Number(parts.n), 1, 'one active part after OPTIMIZE FINAL')

  // Mutations return once applied (mutations_sync=1).
  await c.command({ query: `ALTER TABLE ${DB}.docs UPDATE title = 'redacted' WHERE id = 2` })
  const [upd] = await rows<{ title: string }>(c, `SELECT title FROM ${DB}.docs WHERE id = 2`)
  t.equal(upd.title, 'redacted')

  await c.command({ query: `DROP DATABASE ${DB} SYNC` })
  const [gone] = await rows<{ n: string | number }>(c, 'SELECT count() AS n FROM system.databases WHERE name = {db:String}', { db: DB })
  t.equal(Number(gone.n), 0, 'database dropped')
})

t.test('MergeTree data survives a restart (private instance)', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lds-ch-test-'))
  const own: Config = loadConfig({ ...process.env, LDS_DATA_DIR: dataDir, LDS_CLICKHOUSE_HTTP_PORT: String(await freePort()), LDS_CLICKHOUSE_TCP_PORT: String(await freePort()), CLICKHOUSE_URL: '' })
  t.teardown(async () => {
    await clickhouse.stop(own, log).catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  })
  await clickhouse.start(own, log)
  let c = createClient({ url: own.clickhouseUrl, request_timeout: 20_000 })
  await c.command({ query: 'CREATE DATABASE keep' })
  await c.command({ query: 'CREATE TABLE keep.t (id UInt64, s String) ENGINE = MergeTree ORDER BY id' })
  await c.command({ query: 'INSERT INTO keep.t SELECT number, toString(number) FROM numbers(5000)' })
  await c.command({ query: 'CREATE TABLE keep.r (id UInt64, version UInt64, s String) ENGINE = ReplacingMergeTree(version) ORDER BY id' })
  await c.command({ query: "INSERT INTO keep.r SELECT number, 1, 'old' FROM numbers(1000)" })
  await c.command({ query: "INSERT INTO keep.r SELECT number, 2, 'new' FROM numbers(500)" })
  await c.close()

  await clickhouse.stop(own, log)
  t.equal((await clickhouse.status(own)).running, false, 'stopped')
  await clickhouse.start(own, log)

  c = createClient({ url: own.clickhouseUrl, request_timeout: 20_000 })
  t.teardown(() => c.close())
  const [r] = await rows<{ n: string | number; total: string | number; latest: string | number; news: string | number }>(c,
    `SELECT (SELECT count() FROM keep.t) AS n, (SELECT sum(id) FROM keep.t) AS total,
            (SELECT count() FROM keep.r FINAL) AS latest, (SELECT countIf(s = 'new') FROM keep.r FINAL) AS news`)
  t.same([Number(r.n), Number(r.total), Number(r.latest), Number(r.news)], [5000, 12_497_500, 1000, 500], 'tables, rows and versions are back')

  // A broad KILL QUERY also cancels the launcher's keep-alive query, which ends the engine; the
  // launcher then starts it again on the same data.
  const pidBefore = (await clickhouse.status(own)).pid
  await c.command({ query: "KILL QUERY WHERE query LIKE 'SELECT sleepEachRow(1)%' SYNC" }).catch(() => {})
  const deadline = Date.now() + 20_000
  let back = false
  await new Promise((r) => setTimeout(r, 300))
  while (!back && Date.now() < deadline) {
    back = await fetch(`${own.clickhouseUrl}/ping`).then((res) => res.ok, () => false)
    if (!back) await new Promise((r) => setTimeout(r, 200))
  }
  t.ok(back, 'serves again after its keep-alive query was killed')
  t.equal((await clickhouse.status(own)).pid, pidBefore, 'same launcher')
  const [again] = await rows<{ n: string | number }>(c, 'SELECT count() AS n FROM keep.t')
  t.equal(Number(again.n), 5000)
  await clickhouse.stop(own, log)
  await clickhouse.reset(own, log)
  t.equal((await clickhouse.status(own)).running, false)
})

t.test('one heavy query fails alone: a per-query memory limit, large GROUP BYs spill to disk (private instance)', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lds-ch-mem-'))
  const own: Config = loadConfig({
    ...process.env, LDS_DATA_DIR: dataDir, LDS_CLICKHOUSE_HTTP_PORT: String(await freePort()), LDS_CLICKHOUSE_TCP_PORT: String(await freePort()),
    CLICKHOUSE_URL: '', LDS_CLICKHOUSE_QUERY_MEMORY_MB: '256',
  })
  t.teardown(async () => {
    await clickhouse.stop(own, log).catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  })
  await clickhouse.start(own, log)
  const c = createClient({ url: own.clickhouseUrl, request_timeout: 60_000 })
  t.teardown(() => c.close())
  // about 1.6 GB in one array: over the query's 256 MB, far under the server's own limit
  const heavy = rows(c, 'SELECT length(groupArray(number)) AS n FROM numbers(200000000)')
  const small = rows<{ n: string | number }>(c, 'SELECT count() AS n FROM numbers(1000)')
  await t.rejects(heavy, /Query memory limit exceeded/, 'the heavy query fails with the per-query limit')
  t.equal(Number((await small)[0].n), 1000, 'a query beside it answers')
  t.equal(Number((await rows<{ n: string | number }>(c, 'SELECT count() AS n FROM numbers(10)'))[0].n), 10, 'and queries after it too')
  // 8 million groups take more than 256 MB in memory; from 64 MB the GROUP BY spills to disk
  const [g] = await rows<{ groups: string | number }>(c, 'SELECT count() AS groups FROM (SELECT number AS k, any(toString(number)) AS s FROM numbers(8000000) GROUP BY k)')
  t.equal(Number(g.groups), 8_000_000, 'a GROUP BY over the limit is answered from disk')
})
