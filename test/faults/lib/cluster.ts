/**
 * The fault suite on the local cluster (`npm run faults -- --cluster`): its environment, its
 * infrastructure up and down, and the faults a cluster adds (one broker of three SIGKILLed or
 * restarted, one ClickHouse node SIGKILLed). The cluster is the one `npm run cluster` runs
 * (infra/cluster/topology.ts): each case still gets its own topic prefix and database, and runs
 * its own role processes, so the cluster's own roles (if running) are neither used nor disturbed.
 */
import type { Admin } from 'kafkajs'
import { loadConfig, type Config } from '../../../core/config.js'
import { createDb } from '../../../core/clickhouse.js'
import { sql, ident } from '../../../core/sql.js'
import { brokerReady, startKafkaNode, stopKafkaNode, type KafkaNode } from '../../../infra/kafka-server.js'
import { pingNode, nodeUrl, startClickHouseNode, type ClickHouseNode } from '../../../infra/clickhouse-server.js'
import { isAlive, readPid } from '../../../infra/process.js'
import { clusterDown, clusterInfraUp, migrateClusterNodes } from '../../../infra/cluster/cli.js'
import { clickhouseNodes, clusterConfig, clusterDir, clusterEnv, kafkaNodes } from '../../../infra/cluster/nodes.js'
import { DROPPED, type Env } from './env.js'
import type { Log } from './log.js'
import { killBrokerProcess } from './infra.js'
import { waitFor } from './wait.js'

/** The port the cases' own API processes answer on: beside the cluster's own API (18000). */
const CASE_API_PORT = '18010'

/** The environment of everything a `--cluster` case runs: the parent's, minus its addresses, plus the cluster's. */
export function clusterInstanceEnv(parent: Record<string, string | undefined>, main: Config, partitions: number): Env {
  const env: Env = {}
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && !DROPPED.includes(k)) env[k] = v
  Object.assign(env, clusterEnv(main.dataDir))
  env.PORT = parent.LDS_FAULTS_API_PORT || CASE_API_PORT
  env.LOG_LEVEL = parent.LDS_FAULTS_LOG_LEVEL || 'info'
  env.LDS_PARTITIONS = parent.LDS_FAULTS_PARTITIONS || String(partitions)
  return env
}

export const clusterMain = (): Config => loadConfig(process.env)

/** Brings the cluster's infrastructure up; says whether it was already running (then the suite leaves it up). */
export async function upCluster(main: Config, log: Log): Promise<{ wasRunning: boolean }> {
  const wasRunning = (await Promise.all(kafkaNodes(main).map((n) => brokerReady(n.port).catch(() => false)))).every(Boolean)
  await clusterInfraUp(main, (m) => log(`cluster: ${m}`))
  return { wasRunning }
}

export const downCluster = (main: Config, log: Log) => clusterDown(main, (m) => log(`cluster: ${m}`))

/** Hooks of a case stack on the cluster: its database on every node, made and dropped. */
export function clusterStackHooks(main: Config, log: Log) {
  return {
    prepare: (cfg: Config) => migrateClusterNodes(main, cfg, () => {}),
    async drop(cfg: Config) {
      for (const n of clickhouseNodes(main)) {
        const db = createDb({ clickhouseUrl: nodeUrl(n), clickhouseDatabase: cfg.clickhouseDatabase }, { useDatabase: false })
        try { await db.command(sql`DROP DATABASE IF EXISTS ${ident(cfg.clickhouseDatabase)} SYNC`) } catch (err) { log(`${n.name}: drop of ${cfg.clickhouseDatabase} failed: ${(err as Error).message}`) } finally { await db.close() }
      }
    },
  }
}

/** SIGKILL of one broker of the cluster; resolves once it and its ports are gone. */
export const killBroker = (n: KafkaNode, log: Log) => killBrokerProcess({ name: n.name, pidFile: n.pid, port: n.port, controllerPort: n.controllerPort }, log)

export const startBroker = (n: KafkaNode, log: Log) => startKafkaNode(n, (m) => log(m))
/** A controlled shutdown (SIGTERM; the broker hands its leaderships over first). */
export const stopBroker = (main: Config, n: KafkaNode, log: Log) => stopKafkaNode(n, clusterDir(main.dataDir), (m) => log(m))

/** SIGKILL of one ClickHouse node (launcher and engine); resolves once it no longer answers. */
export async function killClickHouseNode(n: ClickHouseNode, log: Log): Promise<void> {
  const pid = readPid(n.pid)
  if (!pid || !isAlive(pid)) throw new Error(`${n.name}: no running engine in ${n.pid}`)
  try { process.kill(-pid, 'SIGKILL') } catch { process.kill(pid, 'SIGKILL') }
  await waitFor(async () => !isAlive(pid) && !(await pingNode(n, 200)), `${n.name} (pid ${pid}) gone after SIGKILL`, 30_000, 50)
  log(`${n.name}: SIGKILLed (pid ${pid})`)
}

export const startClickHouse = (main: Config, n: ClickHouseNode, log: Log) => startClickHouseNode(n, clusterConfig(main), (m) => log(m))

/** Partitions of `topics` whose in-sync replicas are fewer than their replicas (0 once a restarted broker has caught up). */
export async function underReplicated(admin: Admin, topics: string[]): Promise<number> {
  const { topics: meta } = await admin.fetchTopicMetadata({ topics })
  return meta.reduce((n, t) => n + t.partitions.filter((p) => p.isr.length < p.replicas.length).length, 0)
}
