/**
 * The table sink is killed with SIGKILL in the middle of a large backlog, restarted, and every
 * event is applied exactly once: one row per key after FINAL, each at its latest version.
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { PROJECT_ROOT } from '../../core/config.js'
import { sql, ident } from '../../core/sql.js'
import { testStack, waitFor, countFinal } from '../helpers/stack.js'
import { openPublisher } from '../../core/events/publisher.js'
import { programArgs } from '../../core/programs.js'

const KEYS = 60_000

function startSink(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, programArgs('bin/lds-cli.ts', ['run', '--roles', 'processors']), {
    cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'],
  })
}

t.test('SIGKILL mid-batch, restart: every event applied exactly once', async (t) => {
  const rt = await testStack(t, { LDS_SINK_FETCH_BYTES: String(64 * 1024), LDS_PARTITIONS: '4' })
  const env = { LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, LDS_SINK_FETCH_BYTES: String(64 * 1024), LOG_LEVEL: 'error' }
  const pub = await openPublisher(rt)
  // Two versions of every key: the second (depth 2) must win everywhere.
  for (const depth of [1, 2]) for (let id = 1; id <= KEYS; id++) await pub.upsert('opinions-cited', { id, citing_opinion_id: id, cited_opinion_id: id + 1, depth })
  await pub.stop()

  const db = ident(rt.cfg.clickhouseDatabase)
  const rawCount = async () => Number((await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${db}.opinions_cited`))[0].n)

  let child = startSink(env)
  t.teardown(() => { child.kill('SIGKILL') })
  const seen = await waitFor(async () => { const n = await rawCount(); return n > 0 && n }, 'the first batches', 60_000, 20)
  child.kill('SIGKILL')
  await new Promise((r) => child.once('exit', r))
  const atKill = await rawCount()
  t.ok(atKill < 2 * KEYS, `killed in the middle: ${atKill} of ${2 * KEYS} events applied (first seen ${seen})`)

  child = startSink(env)
  await waitFor(async () => (await countFinal(rt, 'opinions_cited')) === KEYS &&
    Number((await rt.db.query<{ n: number }>(sql`SELECT countIf(depth = 2) AS n FROM ${db}.opinions_cited FINAL`))[0].n) === KEYS,
  'all keys at their latest version', 120_000, 250)
  child.kill('SIGTERM')

  const [check] = await rt.db.query<{ keys: number; rows: number; stale: number; minId: number; maxId: number }>(sql`
    SELECT uniqExact(id) AS keys, count() AS rows, countIf(depth != 2) AS stale, min(id) AS minId, max(id) AS maxId
    FROM ${db}.opinions_cited FINAL`)
  t.same({ keys: Number(check.keys), rows: Number(check.rows), stale: Number(check.stale), minId: Number(check.minId), maxId: Number(check.maxId) },
    { keys: KEYS, rows: KEYS, stale: 0, minId: 1, maxId: KEYS }, 'one row per key, none stale, none missing')
  const [versions] = await rt.db.query<{ bad: number }>(sql`
    SELECT count() AS bad FROM (SELECT id, max(_version) AS v FROM ${db}.opinions_cited GROUP BY id) AS latest
    INNER JOIN (SELECT id, _version FROM ${db}.opinions_cited FINAL) AS final USING id WHERE latest.v != final._version`)
  t.equal(Number(versions.bad), 0, 'FINAL shows the highest version of every key')
})
