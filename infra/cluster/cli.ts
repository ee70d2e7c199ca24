/**
 * The local cluster, as processes on this machine, beside the single-node stack (ports and
 * topology in infra/cluster/topology.ts, files under <dataDir>/cluster):
 *
 *   npm run cluster -- up|down|status [--json]
 *
 *   up      3 Kafka brokers (KRaft, 3 controllers; topics RF 3, min.insync.replicas 2), a schema
 *           registry, ClickHouse 2 shards (Distributed tables over local ones; not replicated
 *           here: docs/decisions/cluster-clickhouse.md), Redis; migrates every ClickHouse node,
 *           registers the schemas and creates the topics; then the processor instances one after
 *           another (each until it logs "running"), and the API workers behind one port.
 *           Idempotent: what runs is left alone.
 *   down    stops everything `up` started, roles first.
 *   status  a line per process; with --json one line:
 *           {"kafka": {"brokers": [...]}, "clickhouse": {"cluster": "<name>", "urls": [...]}, "api": "<base URL>"}
 *           Exit 1 when something is down.
 *
 * Progress goes to stderr. Exit codes: 0 done, 1 failed (or down, for status), 2 usage.
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig, type Config } from '../../core/config.js'
import { createDb } from '../../core/clickhouse.js'
import { migrate } from '../../core/migrate.js'
import { catalogue } from '../../schemas/catalogue/index.js'
import { createRuntime, prepare } from '../../bin/runtime.js'
import { kafka, brokerReady, startKafkaNode, stopKafkaNode } from '../kafka-server.js'
import { registry } from '../registry-server.js'
import { clickhouse, clickHouseNodeStatus, nodeUrl, startClickHouseNode, stopClickHouseNode } from '../clickhouse-server.js'
import { tcpPortOpen, waitFor } from '../process.js'
import { API_PORT, CLUSTER_NAME } from './topology.js'
import { clickhouseNodes, clusterConfig, clusterDir, clusterEnv, kafkaNodes, writeClickhouseConfigs } from './nodes.js'
import { ensureRedisServer, processPid, redisProcess, roleProcesses, startProcess, startRole, stopClusterProcess } from './processes.js'

type Log = (m: string) => void

const USAGE = 'usage: npm run cluster -- up|down|status [--json]'
const API_READY_TIMEOUT_MS = 180_000
const ROLE_START_TIMEOUT_MS = 180_000

export const apiBaseUrl = () => `http://127.0.0.1:${API_PORT}`

/** The cluster's installed jars are the single-node stack's: one download serves both. */
function shareInstalledJars(main: Config): void {
  const dir = clusterDir(main.dataDir)
  mkdirSync(dir, { recursive: true })
  const link = path.join(dir, 'lib')
  if (!existsSync(link)) symlinkSync(path.join('..', 'lib'), link)
}

async function apiReady(): Promise<boolean> {
  const res = await fetch(`${apiBaseUrl()}/healthz`, { signal: AbortSignal.timeout(2000) })
  return res.ok
}

/**
 * Migrates `cfg`'s database on every ClickHouse node of the cluster: the engine here runs no ON
 * CLUSTER DDL, so every node gets the same statements directly.
 */
export async function migrateClusterNodes(main: Config, cfg: Config, log: Log): Promise<void> {
  for (const n of clickhouseNodes(main)) {
    const db = createDb({ clickhouseUrl: nodeUrl(n), clickhouseDatabase: cfg.clickhouseDatabase }, { useDatabase: false })
    try {
      const applied = await migrate(db, catalogue, () => {}, log, cfg.clickhouseCluster, { textTables: cfg.readModelTexts === 'clickhouse' })
      log(`${n.name}: ${applied.length ? `${applied.length} migrations applied` : 'schema current'}`)
    } finally { await db.close() }
  }
}

/**
 * The cluster's infrastructure (brokers, registry, ClickHouse nodes, Redis), every node migrated,
 * the schemas registered and the topics made: what the roles need, without the roles (the
 * fault suite's `--cluster` runs its own).
 */
export async function clusterInfraUp(main: Config, log: Log): Promise<void> {
  const t0 = Date.now()
  const cfg = clusterConfig(main)
  const dir = clusterDir(main.dataDir)
  shareInstalledJars(main)
  await kafka.install(main, log)
  await registry.install(cfg, log)
  await clickhouse.install(main, log)
  await ensureRedisServer(log)
  writeClickhouseConfigs(main)
  // All brokers at once: each waits for a majority of the 3 controllers.
  const results = await Promise.allSettled([
    ...kafkaNodes(main).map((n) => startKafkaNode(n, log)),
    ...clickhouseNodes(main).map((n) => startClickHouseNode(n, cfg, log)),
    registry.start(cfg, log),
    (async () => {
      const redis = redisProcess(dir)
      if (startProcess(redis)) log('redis: started')
      await waitFor(() => tcpPortOpen('127.0.0.1', Number(new URL(cfg.redisUrl).port)), { what: 'redis', timeoutMs: 10_000, logFile: redis.log })
    })(),
  ])
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
  if (failed.length) throw new Error(`cluster up: ${failed.map((r) => (r.reason as Error).message).join('\n\n')}`)
  log(`infrastructure ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

  await migrateClusterNodes(main, cfg, log)

  // Schemas and topics once, here: fourteen role processes registering a hundred schemas each at
  // the same moment time the registry out.
  const rt = createRuntime(cfg)
  try { await prepare(rt) } finally { await rt.close() }
  log('schemas registered, topics created')
}

export async function clusterUp(main: Config, log: Log): Promise<void> {
  const t0 = Date.now()
  await clusterInfraUp(main, log)
  const dir = clusterDir(main.dataDir)
  for (const p of roleProcesses(dir, clusterEnv(main.dataDir))) {
    const ts = Date.now()
    if (p.name === 'api') { if (startProcess(p)) log('api: workers starting') } else if (await startRole(p, ROLE_START_TIMEOUT_MS)) log(`${p.name}: running (${((Date.now() - ts) / 1000).toFixed(1)} s)`)
  }
  await waitFor(apiReady, { what: `the API on ${apiBaseUrl()}/healthz`, timeoutMs: API_READY_TIMEOUT_MS, logFile: path.join(dir, 'logs', 'api.log') })
  log(`cluster up in ${((Date.now() - t0) / 1000).toFixed(1)} s; API on ${apiBaseUrl()}`)
}

export async function clusterDown(main: Config, log: Log): Promise<void> {
  const cfg = clusterConfig(main)
  const dir = clusterDir(main.dataDir)
  // Roles first (they finish and commit their batches), then what they used.
  await Promise.all(roleProcesses(dir, {}).reverse().map(async (p) => { if (await stopClusterProcess(p)) log(`${p.name}: stopped`) }))
  await Promise.all([
    registry.stop(cfg, log),
    ...clickhouseNodes(main).map((n) => stopClickHouseNode(n, log)),
    (async () => { if (await stopClusterProcess(redisProcess(dir))) log('redis: stopped') })(),
  ])
  // Together: a broker stopping alone waits for the quorum the others still form.
  await Promise.all(kafkaNodes(main).map((n) => stopKafkaNode(n, dir, log)))
  log('cluster down')
}

export interface ClusterStatus {
  kafka: { brokers: string[] }
  clickhouse: { cluster: string; urls: string[] }
  api: string
}

interface Row { name: string; up: boolean; address: string; pid?: number }

async function statusRows(main: Config): Promise<Row[]> {
  const cfg = clusterConfig(main)
  const dir = clusterDir(main.dataDir)
  const rows: Row[] = []
  for (const n of kafkaNodes(main)) rows.push({ name: n.name, up: await brokerReady(n.port).catch(() => false), address: `127.0.0.1:${n.port}` })
  for (const n of clickhouseNodes(main)) { const s = await clickHouseNodeStatus(n); rows.push({ name: n.name, up: s.running, address: s.address, pid: s.pid }) }
  const reg = await registry.status(cfg)
  rows.push({ name: 'registry', up: reg.running, address: reg.address, pid: reg.pid })
  const redis = redisProcess(dir)
  rows.push({ name: 'redis', up: processPid(redis) !== undefined, address: new URL(cfg.redisUrl).host, pid: processPid(redis) })
  for (const p of roleProcesses(dir, {})) {
    const pid = processPid(p)
    const up = p.name === 'api' ? pid !== undefined && await apiReady().catch(() => false) : pid !== undefined
    rows.push({ name: p.name, up, address: p.name === 'api' ? apiBaseUrl() : '-', pid })
  }
  return rows
}

export function clusterStatusLine(main: Config): ClusterStatus {
  return {
    kafka: { brokers: kafkaNodes(main).map((n) => `127.0.0.1:${n.port}`) },
    clickhouse: { cluster: CLUSTER_NAME, urls: clickhouseNodes(main).map(nodeUrl) },
    api: apiBaseUrl(),
  }
}

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json')
  const args = argv.filter((a) => a !== '--json')
  if (args[0] === '--help' || args[0] === '-h' || args[0] === 'help') { console.log(USAGE); return 0 }
  if (args.length !== 1 || !['up', 'down', 'status'].includes(args[0]) || (json && args[0] !== 'status')) { console.error(USAGE); return 2 }
  const cfg = loadConfig()
  const t0 = Date.now()
  const log: Log = (m) => process.stderr.write(`[cluster +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}\n`)
  try {
    if (args[0] === 'up') await clusterUp(cfg, log)
    else if (args[0] === 'down') await clusterDown(cfg, log)
    else {
      const rows = await statusRows(cfg)
      if (json) console.log(JSON.stringify(clusterStatusLine(cfg)))
      else for (const r of rows) console.log(`${r.name.padEnd(20)} ${r.up ? 'up  ' : 'down'}  ${r.address.padEnd(24)} ${r.pid ?? '-'}`)
      return rows.every((r) => r.up) ? 0 : 1
    }
    return 0
  } catch (err) {
    log(`error: ${(err as Error).message}`)
    return 1
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    console.error(`[cluster] ${(err as Error)?.stack ?? err}`)
    process.exit(1)
  })
}
