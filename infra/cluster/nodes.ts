/**
 * The local cluster's infrastructure processes, from infra/cluster/topology.ts: where each keeps
 * its files under <dataDir>/cluster/, and the configuration every role process of the cluster
 * runs with. Pure: nothing here starts anything.
 */
import { writeFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { loadConfig, type Config } from '../../core/config.js'
import type { KafkaNode } from '../kafka-server.js'
import { kafkaPaths } from '../kafka-server.js'
import type { ClickHouseNode as ClickHouseProcess } from '../clickhouse-server.js'
import {
  API_PORT, CLUSTER_NAME, KAFKA_BROKERS, KAFKA_REPLICATION, REDIS_PORT, REGISTRY_PORT,
  clickhouseNodeName, clickhouseProcessNodes, kafkaBootstrap, kafkaBrokerName, remoteServersXml,
} from './topology.js'

/** <dataDir>/cluster: everything the cluster keeps, beside the single-node stack's files. */
export const clusterDir = (mainDataDir: string) => path.join(mainDataDir, 'cluster')

/** Memory of one ClickHouse query on a cluster node: two nodes share this machine with the rest. */
const CLICKHOUSE_QUERY_MEMORY_MB = 2048

/**
 * The environment of every process of the cluster (roles, `lds` commands against it). Tables are
 * sharded over both nodes but not replicated, and migrated node by node: the engine here cannot
 * replicate nor run ON CLUSTER (docs/decisions/cluster-clickhouse.md).
 */
export function clusterEnv(mainDataDir: string): Record<string, string> {
  const [first] = clickhouseProcessNodes()
  return {
    LDS_DATA_DIR: clusterDir(mainDataDir),
    KAFKA_BROKERS: kafkaBootstrap(),
    LDS_KAFKA_SASL_PORT: String(KAFKA_BROKERS[0].saslPort),
    LDS_KAFKA_REPLICATION: String(KAFKA_REPLICATION.factor),
    LDS_REGISTRY_PORT: String(REGISTRY_PORT),
    SCHEMA_REGISTRY_URL: `http://127.0.0.1:${REGISTRY_PORT}/apis/ccompat/v7`,
    CLICKHOUSE_URL: `http://127.0.0.1:${first.httpPort}`,
    LDS_CLICKHOUSE_HTTP_PORT: String(first.httpPort),
    LDS_CLICKHOUSE_TCP_PORT: String(first.tcpPort),
    LDS_CLICKHOUSE_CLUSTER: CLUSTER_NAME,
    LDS_CLICKHOUSE_REPLICATED: '0',
    LDS_CLICKHOUSE_ON_CLUSTER: '0',
    LDS_CLICKHOUSE_QUERY_MEMORY_MB: String(CLICKHOUSE_QUERY_MEMORY_MB),
    PORT: String(API_PORT),
    REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
  }
}

/** The cluster's configuration, as its role processes read it. */
export const clusterConfig = (mainCfg: Config): Config => loadConfig({ ...process.env, ...clusterEnv(mainCfg.dataDir) })

export function kafkaNodes(mainCfg: Config): KafkaNode[] {
  const dir = clusterDir(mainCfg.dataDir)
  const voters = KAFKA_BROKERS.map((b) => `${b.id}@127.0.0.1:${b.controllerPort}`).join(',')
  return KAFKA_BROKERS.map((b) => {
    const name = kafkaBrokerName(b)
    return {
      name, nodeId: b.id, port: b.port, controllerPort: b.controllerPort, saslPort: b.saslPort, voters,
      replication: KAFKA_REPLICATION.factor, minInsync: KAFKA_REPLICATION.minInsync,
      lib: kafkaPaths(mainCfg).lib, // the single-node stack's jars: one install serves both
      home: path.join(dir, name),
      log: path.join(dir, 'logs', `${name}.log`),
      pid: path.join(dir, 'run', `${name}.pid`),
      lock: path.join(dir, 'run', `${name}.lock`),
      clusterIdFile: path.join(dir, 'kafka-cluster-id'),
      heap: { min: '128m', max: '512m' },
      // Three JVMs starting at once on two cores: a broker waits for the others' controllers too.
      startTimeoutMs: 240_000,
    }
  })
}

export function clickhouseNodes(mainCfg: Config): ClickHouseProcess[] {
  const dir = clusterDir(mainCfg.dataDir)
  return clickhouseProcessNodes().map((n) => {
    const name = clickhouseNodeName(n)
    return {
      name, httpPort: n.httpPort, tcpPort: n.tcpPort,
      data: path.join(dir, name),
      log: path.join(dir, 'logs', `${name}.log`),
      serverLog: path.join(dir, 'logs', `${name}-server.log`),
      pid: path.join(dir, 'run', `${name}.pid`),
      lock: path.join(dir, 'run', `${name}.lock`),
      configFile: path.join(dir, 'config', `${name}.xml`),
      settings: {
        // An INSERT into a Distributed table returns once every shard has its rows (a sink
        // commits its offsets after that), not once they are queued on this node.
        distributed_foreground_insert: 1,
        // IN / JOIN over another Distributed table: its rows come from every shard, not only this one's.
        distributed_product_mode: 'global',
      },
    }
  })
}

/** A node's server config: its {shard}/{replica} macros and the cluster's shards. */
export function clickhouseNodeConfigXml(shard: number, replica: number): string {
  const nodes = clickhouseProcessNodes()
  return `<clickhouse>
  <macros><shard>${shard}</shard><replica>${replica}</replica></macros>
${remoteServersXml(nodes, () => '127.0.0.1', (n) => n.tcpPort)}
</clickhouse>
`
}

export function writeClickhouseConfigs(mainCfg: Config): void {
  const procs = clickhouseNodes(mainCfg)
  clickhouseProcessNodes().forEach((n, i) => {
    mkdirSync(path.dirname(procs[i].configFile!), { recursive: true })
    writeFileSync(procs[i].configFile!, clickhouseNodeConfigXml(n.shard, n.replica))
  })
}
