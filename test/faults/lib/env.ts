/**
 * The fault suite's own infrastructure instance and the environment of everything that runs on
 * it. The instance has its own data dir and ports (defaults below, each overridable with an
 * LDS_FAULTS_* variable), so killing its Kafka or ClickHouse never touches the stack other tests
 * and `npm start` use. Every case adds its own topic prefix and ClickHouse database.
 *
 * Config is always made by loadConfig(env) from these maps: nothing here reads process.env except
 * `faultInstanceEnv`, which is given the parent environment by the entry point.
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { loadConfig, PROJECT_ROOT, type Config } from '../../../core/config.js'

export type Env = Record<string, string>

/** Defaults of the fault instance, and the variable that overrides each. */
const INSTANCE: readonly { name: string; override: string; dflt: string }[] = [
  { name: 'LDS_DATA_DIR', override: 'LDS_FAULTS_DATA_DIR', dflt: '.data/faults' },
  { name: 'LDS_KAFKA_PORT', override: 'LDS_FAULTS_KAFKA_PORT', dflt: '19092' },
  { name: 'LDS_KAFKA_CONTROLLER_PORT', override: 'LDS_FAULTS_KAFKA_CONTROLLER_PORT', dflt: '19093' },
  { name: 'LDS_KAFKA_SASL_PORT', override: 'LDS_FAULTS_KAFKA_SASL_PORT', dflt: '19098' },
  { name: 'LDS_REGISTRY_PORT', override: 'LDS_FAULTS_REGISTRY_PORT', dflt: '18081' },
  { name: 'LDS_CLICKHOUSE_HTTP_PORT', override: 'LDS_FAULTS_CLICKHOUSE_HTTP_PORT', dflt: '18123' },
  { name: 'LDS_CLICKHOUSE_TCP_PORT', override: 'LDS_FAULTS_CLICKHOUSE_TCP_PORT', dflt: '19001' },
  { name: 'PORT', override: 'LDS_FAULTS_API_PORT', dflt: '18000' },
]

/** Addresses that would point a child at another instance: derived from the ports instead. */
export const DROPPED = ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'CLICKHOUSE_URL', 'LDS_TOPIC_PREFIX', 'CLICKHOUSE_DATABASE', 'LDS_TEST', 'LDS_PUBLIC_URL']

/**
 * The environment of the fault instance: the parent's, minus its addresses, plus our ports.
 * `partitions`: of every topic the cases create (LDS_FAULTS_PARTITIONS overrides it).
 */
export function faultInstanceEnv(parent: Record<string, string | undefined>, partitions = 4): Env {
  const env: Env = {}
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && !DROPPED.includes(k)) env[k] = v
  for (const { name, override, dflt } of INSTANCE) env[name] = parent[override] || dflt
  env.LDS_DATA_DIR = path.resolve(PROJECT_ROOT, env.LDS_DATA_DIR)
  env.LOG_LEVEL = parent.LDS_FAULTS_LOG_LEVEL || 'info'
  env.LDS_PARTITIONS = parent.LDS_FAULTS_PARTITIONS || String(partitions)
  return env
}

/** A case's environment: the instance's, with a fresh topic prefix and database. */
export function caseEnv(instance: Env, label: string, extra: Env = {}): Env {
  const id = `f${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  return { ...instance, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, ...extra }
}

export const configOf = (env: Env): Config => loadConfig(env)
