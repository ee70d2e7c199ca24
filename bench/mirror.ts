/**
 * Mirror against its floor: how fast `lds ingest mirror` copies a local, unthrottled source (an
 * API process of this service over a deployment of --records dockets) into another deployment's
 * topics, against only reading the same pages from the source (the same client, nothing
 * published) — what any reader of that API must spend. Goal: ≥ 5,000 records/s.
 *   npx tsx bench/mirror.ts [--records 20000] [--parallel N] [--keep]
 * The source deployment and the target deployment (own topic prefixes and ClickHouse databases)
 * are removed at the end unless --keep. Needs the local infrastructure (npm run infra -- up).
 */
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../core/config.js'
import { createLogger } from '../core/logger.js'
import { createRuntime, prepare, removeDeployment, startProcessors, type Runtime } from '../bin/runtime.js'
import { openPublisher } from '../core/events/publisher.js'
import { createUser } from '../bin/users.js'
import { runMirror } from '../connectors/mirror/mirror.js'
import { planMirror } from '../connectors/mirror/plan.js'
import { firstPageUrl } from '../connectors/mirror/mirror.js'
import { createSource } from '../connectors/mirror/source.js'
import { catalogue } from '../schemas/catalogue/index.js'
import { sql, ident } from '../core/sql.js'
import { parseFlags } from '../test/kit/args.js'
import { spawnChild, stopChildrenOnExit, freePort, waitUntil } from './lib/children.js'

const flags = parseFlags('npx tsx bench/mirror.ts', {
  records: { type: 'number', default: 20_000, help: 'dockets in the source' },
  keep: { type: 'boolean', help: 'keep both deployments at the end' },
  parallel: { type: 'number', default: 0, help: 'date_modified ranges read at once (0: the mirror\'s default, 4 without a budget)' },
})
const log = (m: string) => console.log(m)
stopChildrenOnExit()

function deployment(name: string): Runtime {
  const id = `bench${name}${randomBytes(3).toString('hex')}`
  const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LOG_LEVEL: 'warn' })
  return createRuntime(cfg, createLogger(cfg, { stderr: true }))
}

const source = deployment('src')
const target = deployment('dst')
try {
  await prepare(source)
  await prepare(target)

  // The source: courts and --records dockets, each modified at its own instant, applied by the table sink.
  log(`source: ${flags.records.toLocaleString('en-US')} dockets into ${source.cfg.clickhouseDatabase}`)
  const sink = await startProcessors(source, ['table-sink'])
  const pub = await openPublisher(source)
  const base = Date.parse('2025-01-01T00:00:00Z')
  await pub.upsert('courts', { id: 'nysd', full_name: 'District Court, S.D. New York', short_name: 'S.D.N.Y.', citation_string: 'S.D.N.Y.', jurisdiction: 'FD', position: 1, in_use: true, date_modified: new Date(base).toISOString() })
  for (let i = 1; i <= flags.records; i++) {
    const at = new Date(base + i * 1000).toISOString()
    await pub.upsert('dockets', { id: i, court_id: 'nysd', case_name: `Doe ${i} v. Roe`, docket_number: `1:25-cv-${i}`, slug: 'doe-v-roe', source: 1, date_filed: '2025-01-02', date_created: at, date_modified: at, blocked: false })
  }
  await pub.stop()
  const { id: userId, token } = await createUser(source, 'bench-mirror')
  await waitUntil(async () => {
    const [row] = await source.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${ident(source.cfg.clickhouseDatabase)}.dockets FINAL`)
    return Number(row.n) === flags.records
  }, { what: 'the source applied', timeoutMs: 600_000 })
  for (const s of sink.reverse()) await s.stop()
  void userId

  // The source's API in a process of its own, as a remote source would be.
  const port = await freePort()
  const api = spawnChild({
    name: 'source-api', cmd: process.execPath, args: ['--import', 'tsx', path.resolve('bin/lds-cli.ts'), 'run', '--roles', 'api'],
    env: { ...process.env, LDS_TOPIC_PREFIX: source.cfg.topicPrefix, CLICKHOUSE_DATABASE: source.cfg.clickhouseDatabase, PORT: String(port), LOG_LEVEL: 'warn', LDS_RATE_USER: '100000000/hour' },
    logFile: path.join(source.cfg.dataDir, 'logs', 'bench-mirror-source.log'),
  })
  const root = `http://127.0.0.1:${port}/api/rest/v4/`
  const headers = { authorization: `Token ${token}` }
  await waitUntil(async () => {
    const res = await fetch(`${root}dockets/?count=on`, { headers }).catch(() => undefined)
    return res?.ok === true && (await res.json() as { count: number }).count === flags.records
  }, { what: 'the source API with every docket', timeoutMs: 600_000, child: api })

  // (a) the floor: the pages alone.
  const load0 = os.loadavg()[0]
  const step = planMirror(catalogue, ['dockets'])[0]
  const reader = createSource(root, { token, budgetPerHour: 0 })
  let read = 0
  const t0 = Date.now()
  let url: string | null = firstPageUrl(step, null)
  while (url) {
    const page = await reader.get(url) as { next: string | null; results: unknown[] }
    read += page.results.length
    url = page.next
  }
  const readSeconds = (Date.now() - t0) / 1000
  await reader.close()

  // (b) the mirror: the same pages, mapped, published and checkpointed.
  const report = await runMirror(target, { from: root, token, resources: ['dockets'], budgetPerHour: 0, ...(flags.parallel ? { parallelRanges: flags.parallel } : {}) })
  const load1 = os.loadavg()[0]
  await api.stop()

  const rate = (n: number, s: number) => Math.round(n / s)
  log(`\nload average ${load0.toFixed(1)} → ${load1.toFixed(1)}; ${report.requests} requests of 20 records`)
  log('| step | records | wall s | records/s | ÷ floor | goal |')
  log('|---|---:|---:|---:|---:|---|')
  log(`| reading the pages (the floor) | ${read.toLocaleString('en-US')} | ${readSeconds.toFixed(1)} | ${rate(read, readSeconds).toLocaleString('en-US')} | 1.00 | |`)
  // The walk of the list, without the start (topics ensured, schemas registered, checkpoints read).
  const walked = report.resources[0]
  const mirrorRate = rate(walked.records, walked.seconds)
  log(`| \`ingest mirror\` → Kafka | ${walked.records.toLocaleString('en-US')} | ${walked.seconds.toFixed(1)} (${report.seconds.toFixed(1)} with its start) | ${mirrorRate.toLocaleString('en-US')} | ${(mirrorRate / rate(read, readSeconds)).toFixed(2)} | ≥ 5,000/s: ${mirrorRate >= 5000 ? 'met' : '**not met**'} |`)
} finally {
  if (!flags.keep) { await removeDeployment(source); await removeDeployment(target) }
  await source.close()
  await target.close()
}
process.exit(0)
