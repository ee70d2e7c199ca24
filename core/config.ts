/**
 * Configuration is read once, validated, given defaults in one place, and frozen.
 * No other module reads process.env: callers pass the result down.
 */
import os from 'node:os'
import path from 'node:path'
import { PROJECT_ROOT } from './programs.js'

export { PROJECT_ROOT }

/** The schema registry user the service writes as (the local registry's only writer). */
export const REGISTRY_SERVICE_USER = 'lds'

export interface Config {
  readonly kafkaBrokers: readonly string[]
  /**
   * Where outside consumers reach the SASL/SCRAM listener, as `lds consumers create` prints it
   * (LDS_KAFKA_SASL_BROKERS); by default the first broker's host at `ports.kafkaSasl`.
   */
  readonly kafkaSaslBrokers: readonly string[]
  /** The codec entity events are published with (LDS_KAFKA_COMPRESSION: lz4, the default, or none). */
  readonly kafkaCompression: 'lz4' | 'none'
  readonly schemaRegistryUrl: string
  /**
   * The login the service writes to the registry with (SCHEMA_REGISTRY_USER, SCHEMA_REGISTRY_PASSWORD);
   * unset: the local registry's own service login, kept beside its data (core/registry.ts). Readers
   * (decoding, outside consumers) need none.
   */
  readonly schemaRegistryAuth: Readonly<{ username: string; password: string }> | undefined
  readonly clickhouseUrl: string
  readonly clickhouseDatabase: string
  readonly port: number
  readonly host: string
  /** Public base URL used to build absolute resource URLs; defaults to http://host:port. */
  readonly publicBaseUrl: string
  /** Every scheduled delay (retries, digests, dormancy checks) is divided by this. */
  readonly timeScale: number
  readonly dataDir: string
  readonly logLevel: string
  /** Prefix for topic names, so tests and several deployments can share one cluster. */
  readonly topicPrefix: string
  /** Most bytes a processor fetches per partition in one batch (one ClickHouse insert). */
  readonly sinkFetchBytes: number
  /** Citation lookup: citations a user may look up per window ("60/min"), per request, and text size. */
  readonly citationRate: string
  readonly citationMaxPerRequest: number
  readonly citationMaxTextLength: number
  /** General request rates (see api/plugins/throttle.ts): "5000/hour", several windows comma-separated. */
  readonly rates: Readonly<{ user: string; anonV3: string; anonV4: string; tags: string; fetch: string; apiUsage: string; events: string }>
  /** Webhook targets may be http and loopback/private addresses (local use and tests only). */
  readonly webhooksAllowInsecure: boolean
  /** SMTP for alerts and failure notices; an empty host sends no mail. */
  readonly smtp: Readonly<{ host: string; port: number; from: string; user: string; password: string; secure: boolean }>
  /** The upstream court-records system used by archive fetch (empty URL: fetch requests fail with a clear message). */
  readonly records: Readonly<{ url: string; username: string; password: string }>
  /** HTTP date v3 answers give in their Sunset header. */
  readonly v3Sunset: string
  /** Redis for counters shared by several API processes; empty: counters live in the process. */
  readonly redisUrl: string
  /** Partitions of every topic created: the most instances of one processor that can share its work. */
  readonly partitions: number
  /** Change-feed readers (each a Kafka consumer) one API process serves at once; more wait (503, Retry-After). */
  readonly feedMaxReaders: number
  /** Opinions in the sample `npm start` publishes on its first run (with their dockets, judges, …). */
  readonly sampleOpinions: number
  /** Serialized objects the API keeps between requests (0: none). */
  readonly objectCacheEntries: number
  /** The most MB of rendered details the API reads once after its read model caught up (0: none). */
  readonly readModelWarmMb: number
  /**
   * The most GB of large texts (fields marked `large`, which the read model does not store) an API
   * process keeps after fetching them from ClickHouse: an LRU by bytes, keyed by row version (0: none).
   */
  readonly readModelMaxGb: number
  /**
   * Where the API's read model keeps the fields marked `large` (opinions' texts and the like):
   * 'local' in the read model, as every other field (a detail costs no query; the store grows with
   * the corpus), or 'clickhouse': read from ClickHouse by key when an answer shows them and kept in
   * an LRU of readModelMaxGb (the store stays small; a text not kept costs a query).
   */
  readonly readModelTexts: 'local' | 'clickhouse'
  /**
   * The most GB the read model's rendered details (v4 detail JSON kept per row) take on a host. Past
   * it, each resource's oldest rows (lowest keys) lose theirs and are built per request (no query);
   * 0: none kept.
   */
  readonly readModelRenderedGb: number
  /** `kafkaSasl`: the SASL/SCRAM listener outside consumers use (`lds consumers create`); the service itself uses `kafka`. */
  readonly ports: Readonly<{ kafka: number; kafkaController: number; kafkaSasl: number; registry: number; clickhouseHttp: number; clickhouseTcp: number }>
  /**
   * The most memory one query of the local ClickHouse may take, in MB (default 40 % of RAM): a
   * heavy query fails alone instead of taking the whole server's memory, which fails every other
   * query; large GROUP BYs and sorts spill to disk from half of it.
   */
  readonly clickhouseQueryMemoryMb: number
  /**
   * The search index's compaction (streams/search/compaction.ts): how often the search-index role
   * checks the share of postings left by replaced and deleted documents (0: never), and the share
   * from which it compacts.
   */
  readonly searchCompaction: Readonly<{ everyMs: number; staleShare: number }>
  /**
   * Instances of the search-index role in the deployment (LDS_SEARCH_INSTANCES, default 1). Above
   * 1 the role runs in two stages (streams/search/repartition.ts), so that each document is built
   * by one instance; at 1 it builds from the entity topics directly, with no topic in between.
   */
  readonly searchInstances: number
  /** Replication factor and min.insync.replicas of the topics the service creates (LDS_KAFKA_REPLICATION; 1 on one broker). */
  readonly kafkaReplication: number
  /**
   * A ClickHouse cluster to lay the tables out on (LDS_CLICKHOUSE_CLUSTER): sharded local tables
   * behind Distributed ones. `replicated` (LDS_CLICKHOUSE_REPLICATED, default 1) picks the
   * Replicated engines; `onCluster` (LDS_CLICKHOUSE_ON_CLUSTER, default 1) sends each DDL statement
   * ON CLUSTER, else the caller runs it on every node. Undefined: one node, plain tables.
   */
  readonly clickhouseCluster?: Readonly<{ name: string; replicated: boolean; onCluster: boolean }>
  /** The audio role: storage root of originals and MP3s, seals folder, logo file, parallel transcodes, http/loopback originals (tests). */
  readonly audio: Readonly<{ storageDir: string; sealsDir: string; logoFile: string; concurrency: number; allowInsecure: boolean }>
}

export class ConfigError extends Error {}

function int(env: Record<string, string | undefined>, name: string, dflt: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return dflt
  const n = Number(raw)
  if (!Number.isFinite(n)) throw new ConfigError(`${name} must be a number, got ${JSON.stringify(raw)}`)
  return n
}

function oneOf<T extends string>(env: Record<string, string | undefined>, name: string, allowed: readonly T[], dflt: T): T {
  const raw = env[name]
  if (raw === undefined || raw === '') return dflt
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`)
  return raw as T
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const ports = {
    kafka: int(env, 'LDS_KAFKA_PORT', 9092),
    kafkaController: int(env, 'LDS_KAFKA_CONTROLLER_PORT', 9093),
    kafkaSasl: int(env, 'LDS_KAFKA_SASL_PORT', 9094),
    registry: int(env, 'LDS_REGISTRY_PORT', 8081),
    clickhouseHttp: int(env, 'LDS_CLICKHOUSE_HTTP_PORT', 8123),
    clickhouseTcp: int(env, 'LDS_CLICKHOUSE_TCP_PORT', 9000),
  }
  const port = int(env, 'PORT', 8000)
  const host = env.HOST || '127.0.0.1'
  const timeScale = int(env, 'LDS_TIME_SCALE', 1)
  if (timeScale <= 0) throw new ConfigError('LDS_TIME_SCALE must be positive')
  const partitions = int(env, 'LDS_PARTITIONS', 4)
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > 256) throw new ConfigError('LDS_PARTITIONS must be a whole number from 1 to 256')
  const cfg: Config = {
    kafkaBrokers: (env.KAFKA_BROKERS || `127.0.0.1:${ports.kafka}`).split(',').map((s) => s.trim()).filter(Boolean),
    kafkaSaslBrokers: (env.LDS_KAFKA_SASL_BROKERS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    schemaRegistryUrl: env.SCHEMA_REGISTRY_URL || `http://127.0.0.1:${ports.registry}/apis/ccompat/v7`,
    schemaRegistryAuth: env.SCHEMA_REGISTRY_PASSWORD ? { username: env.SCHEMA_REGISTRY_USER || REGISTRY_SERVICE_USER, password: env.SCHEMA_REGISTRY_PASSWORD } : undefined,
    clickhouseUrl: env.CLICKHOUSE_URL || `http://127.0.0.1:${ports.clickhouseHttp}`,
    clickhouseDatabase: env.CLICKHOUSE_DATABASE || 'lds',
    port,
    host,
    publicBaseUrl: (env.LDS_PUBLIC_URL || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/+$/, ''),
    timeScale,
    dataDir: path.resolve(PROJECT_ROOT, env.LDS_DATA_DIR || '.data'),
    logLevel: env.LOG_LEVEL || (env.LDS_TEST ? 'warn' : 'info'),
    topicPrefix: env.LDS_TOPIC_PREFIX || 'lds.',
    kafkaCompression: oneOf(env, 'LDS_KAFKA_COMPRESSION', ['lz4', 'none'] as const, 'lz4'),
    citationRate: env.LDS_CITATION_RATE || '60/min',
    citationMaxPerRequest: int(env, 'LDS_CITATION_MAX_PER_REQUEST', 250),
    citationMaxTextLength: int(env, 'LDS_CITATION_MAX_TEXT', 64_000),
    // Compressed bytes per partition per fetch. 2 MiB holds a few MB of incompressible rows (a
    // healthy insert) and bounds the heap for rows that compress 30:1 (docs/benchmarks.md, "The fetch size").
    sinkFetchBytes: int(env, 'LDS_SINK_FETCH_BYTES', 2 * 1024 * 1024),
    partitions,
    objectCacheEntries: Math.max(0, int(env, 'LDS_OBJECT_CACHE_ENTRIES', 5_000)),
    feedMaxReaders: Math.max(1, int(env, 'LDS_FEED_MAX_READERS', 200)),
    sampleOpinions: Math.max(1, int(env, 'LDS_SAMPLE_OPINIONS', 10_000)),
    readModelWarmMb: Math.max(0, int(env, 'LDS_READ_MODEL_WARM_MB', Math.floor(os.totalmem() / 4 / 2 ** 20))),
    readModelMaxGb: Math.max(0, int(env, 'LDS_READ_MODEL_MAX_GB', 1)),
    readModelTexts: oneOf(env, 'LDS_READ_MODEL_TEXTS', ['local', 'clickhouse'] as const, 'local'),
    readModelRenderedGb: Math.max(0, int(env, 'LDS_READ_MODEL_RENDERED_GB', 4)),
    rates: Object.freeze({
      user: env.LDS_RATE_USER || '5000/hour', anonV3: env.LDS_RATE_ANON_V3 || '100/day', anonV4: env.LDS_RATE_ANON_V4 || '1000/hour',
      tags: env.LDS_RATE_TAGS || '1000/hour', fetch: env.LDS_RATE_FETCH || '30/min', apiUsage: env.LDS_RATE_API_USAGE || '10/min,120/hour',
      events: env.LDS_RATE_EVENTS || '60/hour',
    }),
    redisUrl: env.REDIS_URL || '',
    v3Sunset: env.LDS_V3_SUNSET || 'Wed, 30 Jun 2027 00:00:00 GMT',
    webhooksAllowInsecure: env.LDS_WEBHOOKS_ALLOW_INSECURE === '1' || env.LDS_WEBHOOKS_ALLOW_INSECURE === 'true',
    smtp: Object.freeze({
      host: env.SMTP_HOST || '', port: int(env, 'SMTP_PORT', 25), from: env.SMTP_FROM || 'Legal Data Service <alerts@localhost>',
      user: env.SMTP_USER || '', password: env.SMTP_PASSWORD || '', secure: env.SMTP_SECURE === '1',
    }),
    records: Object.freeze({ url: env.LDS_RECORDS_URL || '', username: env.LDS_RECORDS_USERNAME || '', password: env.LDS_RECORDS_PASSWORD || '' }),
    ports,
    clickhouseQueryMemoryMb: int(env, 'LDS_CLICKHOUSE_QUERY_MEMORY_MB', Math.floor((os.totalmem() * 0.4) / 2 ** 20)),
    kafkaReplication: int(env, 'LDS_KAFKA_REPLICATION', 1),
    clickhouseCluster: env.LDS_CLICKHOUSE_CLUSTER
      ? Object.freeze({ name: env.LDS_CLICKHOUSE_CLUSTER, replicated: env.LDS_CLICKHOUSE_REPLICATED !== '0', onCluster: env.LDS_CLICKHOUSE_ON_CLUSTER !== '0' })
      : undefined,
    searchCompaction: Object.freeze({ everyMs: int(env, 'LDS_SEARCH_COMPACT_EVERY_S', 600) * 1000, staleShare: int(env, 'LDS_SEARCH_COMPACT_SHARE', 0.2) }),
    searchInstances: int(env, 'LDS_SEARCH_INSTANCES', 1),
    audio: Object.freeze({
      storageDir: path.resolve(PROJECT_ROOT, env.LDS_STORAGE_DIR || path.join(env.LDS_DATA_DIR || '.data', 'storage')), sealsDir: env.LDS_SEALS_DIR ? path.resolve(env.LDS_SEALS_DIR) : '',
      logoFile: env.LDS_AUDIO_LOGO ? path.resolve(env.LDS_AUDIO_LOGO) : '', concurrency: Math.max(1, int(env, 'LDS_AUDIO_CONCURRENCY', os.availableParallelism())),
      allowInsecure: env.LDS_AUDIO_ALLOW_INSECURE === '1' || env.LDS_AUDIO_ALLOW_INSECURE === 'true',
    }),
  }
  if (!(cfg.searchCompaction.everyMs >= 0)) throw new ConfigError('LDS_SEARCH_COMPACT_EVERY_S must be 0 (never) or more')
  if (!(cfg.searchCompaction.staleShare > 0 && cfg.searchCompaction.staleShare <= 1)) throw new ConfigError('LDS_SEARCH_COMPACT_SHARE must be above 0 and at most 1')
  if (!(Number.isInteger(cfg.searchInstances) && cfg.searchInstances >= 1)) throw new ConfigError('LDS_SEARCH_INSTANCES must be a whole number, 1 or more')
  if (!(Number.isInteger(cfg.kafkaReplication) && cfg.kafkaReplication >= 1)) throw new ConfigError('LDS_KAFKA_REPLICATION must be a whole number from 1')
  if (cfg.clickhouseCluster && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(cfg.clickhouseCluster.name)) throw new ConfigError('LDS_CLICKHOUSE_CLUSTER must be a plain identifier (letters, digits, _)')
  if (!(cfg.clickhouseQueryMemoryMb >= 64)) throw new ConfigError('LDS_CLICKHOUSE_QUERY_MEMORY_MB must be at least 64')
  return Object.freeze({ ...cfg, ports: Object.freeze(ports) })
}
