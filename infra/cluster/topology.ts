/**
 * The local cluster's topology, as data: every node, port and role instance count. The process
 * launcher (infra/cluster/cli.ts), its status line and the docker-compose validation
 * (test/unit/infra/compose.test.ts) all read it, so the two deployments cannot drift apart.
 *
 * Ports sit in ranges of their own (1xxxx) beside the single-node stack's defaults (9092, 8123, 8000…),
 * so both can run at once on one machine.
 */

export const CLUSTER_NAME = 'lds'

export interface KafkaBrokerNode {
  /** KRaft node.id: every node is broker and controller (3 voters) */
  id: number
  port: number
  controllerPort: number
  /** the SASL/SCRAM listener of outside consumers */
  saslPort: number
}

export interface ClickHouseNode {
  /** 1-based, as the {shard} macro and Distributed's shard_num */
  shard: number
  /** 1-based within the shard */
  replica: number
  httpPort: number
  tcpPort: number
  /** port other replicas fetch parts from (real ClickHouse only; see clickhouseProcessNodes) */
  interserverPort: number
}

export interface KeeperNode { id: number; port: number; raftPort: number }

/** A role and how many instances of it run (`lds run --roles <roles>`). */
export interface RoleGroup {
  /** process and compose service name */
  name: string
  /** the --roles argument */
  roles: string
  instances: number
}

export const KAFKA_BROKERS: readonly KafkaBrokerNode[] = [
  { id: 1, port: 19092, controllerPort: 19093, saslPort: 19191 },
  { id: 2, port: 19094, controllerPort: 19095, saslPort: 19192 },
  { id: 3, port: 19096, controllerPort: 19097, saslPort: 19193 },
]

/** Copies of each topic, and how many must have a write before it is acknowledged (acks=all). */
export const KAFKA_REPLICATION = { factor: 3, minInsync: 2 } as const

export const CLICKHOUSE_SHARDS = 2
export const CLICKHOUSE_REPLICAS = 2

export const CLICKHOUSE_NODES: readonly ClickHouseNode[] = Array.from({ length: CLICKHOUSE_SHARDS * CLICKHOUSE_REPLICAS }, (_, i) => {
  const shard = Math.floor(i / CLICKHOUSE_REPLICAS) + 1
  const replica = (i % CLICKHOUSE_REPLICAS) + 1
  return { shard, replica, httpPort: 18123 + i, tcpPort: 19000 + i * 10, interserverPort: 19009 + i * 10 }
})

export const KEEPER_NODES: readonly KeeperNode[] = [
  { id: 1, port: 19181, raftPort: 19234 },
  { id: 2, port: 19182, raftPort: 19235 },
  { id: 3, port: 19183, raftPort: 19236 },
]

export const REGISTRY_PORT = 18081
export const REDIS_PORT = 16379
/** the one port the API processes answer on */
export const API_PORT = 18000
export const API_INSTANCES = 2

/** Processor roles; the four that carry the load run twice and share their topics' partitions. */
export const ROLE_GROUPS: readonly RoleGroup[] = [
  { name: 'table-sink', roles: 'table-sink', instances: 2 },
  { name: 'citation-network', roles: 'citation-network', instances: 2 },
  { name: 'search-index', roles: 'search-index', instances: 2 },
  { name: 'webhook-delivery', roles: 'webhook-delivery', instances: 2 },
  { name: 'docket-alerts', roles: 'docket-alerts', instances: 1 },
  { name: 'prayers', roles: 'prayers', instances: 1 },
  { name: 'archive-fetch', roles: 'archive-fetch', instances: 1 },
  { name: 'scheduler', roles: 'scheduler', instances: 1 },
  { name: 'audio', roles: 'audio', instances: 1 },
]

/**
 * The ClickHouse nodes the process cluster runs: the first replica of each shard. The engine we
 * ship (libchdb run as clickhouse-local) cannot serve the interserver endpoint replication needs,
 * nor run ON CLUSTER DDL (docs/decisions/cluster-clickhouse.md), so locally the shards are not
 * replicated and each node is migrated directly; docker-compose runs all of CLICKHOUSE_NODES.
 */
export const clickhouseProcessNodes = (): ClickHouseNode[] => CLICKHOUSE_NODES.filter((n) => n.replica === 1)

export const clickhouseNodeName = (n: Pick<ClickHouseNode, 'shard' | 'replica'>) => `clickhouse-s${n.shard}r${n.replica}`
export const kafkaBrokerName = (b: Pick<KafkaBrokerNode, 'id'>) => `kafka-${b.id}`
export const keeperName = (k: Pick<KeeperNode, 'id'>) => `keeper-${k.id}`

export const kafkaBootstrap = (host = '127.0.0.1') => KAFKA_BROKERS.map((b) => `${host}:${b.port}`).join(',')

/** `<remote_servers>` of the cluster, for a node's config; `host` names a node (a compose service, or 127.0.0.1). */
export function remoteServersXml(nodes: readonly ClickHouseNode[], host: (n: ClickHouseNode) => string, port: (n: ClickHouseNode) => number): string {
  const shards = [...new Set(nodes.map((n) => n.shard))].sort((a, b) => a - b).map((s) => {
    const replicas = nodes.filter((n) => n.shard === s).map((n) => `<replica><host>${host(n)}</host><port>${port(n)}</port></replica>`).join('')
    return `      <shard><internal_replication>true</internal_replication>${replicas}</shard>`
  })
  return `  <remote_servers>\n    <${CLUSTER_NAME}>\n${shards.join('\n')}\n    </${CLUSTER_NAME}>\n  </remote_servers>`
}
