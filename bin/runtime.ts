/**
 * The composition root: builds the clients from one Config and starts roles (schema setup,
 * processors, API). Every process entry point (npm start, the CLI, tests) goes through here.
 */
import type { Kafka } from 'kafkajs'
import { loadConfig, type Config } from '../core/config.js'
import { createLogger, type Logger } from '../core/logger.js'
import { createKafka } from '../core/kafka.js'
import { kafkaIdAllocator, type IdAllocator } from '../core/ids.js'
import { createRegistry, type Registry } from '../core/registry.js'
import { createDb, type Db } from '../core/clickhouse.js'
import { systemClock, type Clock } from '../core/clock.js'
import { catalogue, type Catalogue } from '../schemas/catalogue/index.js'
import { migrate } from '../core/migrate.js'
import { registerEntitySchemas } from '../core/schema-registration.js'
import { ensureEntityTopics } from '../schemas/topics.js'
import { moveInternalEntityTopics } from '../core/events/internal-topics.js'
import { idsTopic } from '../schemas/events/names.js'
import { openPublisher } from '../core/events/publisher.js'
import { openWebhookQueue } from '../core/events/webhook-queue.js'
import { createWatermarks } from '../core/events/watermark-reader.js'
import { createMailer, type Mailer } from '../clients/mail.js'
import { recordsGatewayOf } from '../clients/records-gateway.js'
import { memoryRecordsSessions, redisRecordsSessions, type RecordsSessions } from '../clients/records-sessions.js'
import { sql, ident } from '../core/sql.js'

export interface Runtime {
  cfg: Config; log: Logger; kafka: Kafka; registry: Registry; db: Db; catalogue: Catalogue; clock: Clock
  /** Users' records-system sessions, from the API (fetch requests) to the archive fetcher. */
  recordsSessions: RecordsSessions
  /**
   * Ids for the rows this process creates (API writes, CLI commands, processors), leased in blocks
   * from the ids topic (core/ids.ts): nothing is leased until the first id is asked for.
   */
  ids: IdAllocator
  close(): Promise<void>
}

export function createRuntime(cfg: Config = loadConfig(), log: Logger = createLogger(cfg)): Runtime {
  const db = createDb(cfg)
  const recordsSessions = recordsSessionsOf(cfg)
  const kafka = createKafka(cfg, log)
  const ids = kafkaIdAllocator({ cfg, kafka, log }, idsTopic(cfg))
  return {
    cfg, log, db, catalogue, recordsSessions, kafka, ids,
    registry: createRegistry(cfg),
    clock: systemClock(cfg.timeScale),
    close: async () => { await ids.stop(); await db.close(); await recordsSessions.close() },
  }
}

/** In Redis when REDIS_URL is set (the API and the fetcher may run apart), else in this process. */
function recordsSessionsOf(cfg: Config): RecordsSessions {
  if (!cfg.redisUrl) return memoryRecordsSessions()
  // ioredis is loaded and connected on first use: most processes never need it
  let opened: Promise<RecordsSessions> | undefined
  const open = () => (opened ??= import('ioredis').then(({ Redis }) =>
    redisRecordsSessions(new Redis(cfg.redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 3_000 }), { ownsClient: true })))
  return {
    put: async (id, token, ttlMs) => (await open()).put(id, token, ttlMs),
    take: async (id) => (await open()).take(id),
    close: async () => { if (opened) await (await opened).close() },
  }
}

/** Seconds the API waits for ClickHouse before it answers 503: a reader should not wait minutes. */
const API_CLICKHOUSE_TIMEOUT_MS = 15_000

/** The runtime the API role is built from: its own ClickHouse client with a short deadline. */
export function apiDeps(rt: Runtime): Runtime {
  return { ...rt, db: createDb(rt.cfg, { requestTimeoutMs: API_CLICKHOUSE_TIMEOUT_MS }) }
}

/** Tables migrated and topic schemas registered: safe to run on every start. */
export async function prepare(rt: Runtime): Promise<void> {
  const migrated = (async () => {
    // An hour per statement: a side table's first fill copies every text of a large table (minutes).
    const admin = createDb(rt.cfg, { useDatabase: false, requestTimeoutMs: 3_600_000 })
    try {
      // Routine steps at debug; a long one (an index moved to a new layout) where the user sees it.
      await migrate(admin, rt.catalogue, (m) => rt.log.debug(m), (m) => rt.log.info(m), rt.cfg.clickhouseCluster, { textTables: rt.cfg.readModelTexts === 'clickhouse' })
    } finally { await admin.close() }
  })()
  // Three services, nothing shared: side by side. Every step ends before a failure is thrown.
  // Topics: created, then an internal resource's topic of an older version moved to its own name.
  const topics = ensureEntityTopics(rt.cfg, rt.kafka, rt.catalogue).then(() => moveInternalEntityTopics(rt.cfg, rt.kafka, rt.catalogue, rt.log))
  const steps = await Promise.allSettled([migrated, registerEntitySchemas(rt.cfg, rt.registry, rt.catalogue), topics])
  const failed = steps.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed) throw failed.reason
}

export interface Stoppable { stop(): Promise<void> }

/** The processor roles; each can run in its own process (`lds run --roles table-sink`) and in several instances. */
export const PROCESSOR_ROLES = ['table-sink', 'citation-network', 'search-index', 'webhook-delivery', 'docket-alerts', 'archive-fetch', 'prayers', 'scheduler', 'audio'] as const
export type ProcessorRole = (typeof PROCESSOR_ROLES)[number]

/**
 * Node options for a process that runs the search-index role (`npm start` passes them; give them
 * in NODE_OPTIONS to `lds run --roles search-index`, as docker-compose.yml does): the indexer's
 * batch rows and documents die young, and with node's default young generation it spent about
 * 10 % more CPU per document collecting them. Not for API processes: a larger young generation
 * raises their resident memory, and measured no faster.
 */
export const SEARCH_INDEX_NODE_OPTIONS = '--max-semi-space-size=64'

/**
 * Removes what a deployment of this runtime's topic prefix and database holds: its topics and its
 * ClickHouse database (a test's or a benchmark's, at its end). Best effort: what is already gone is fine.
 */
export async function removeDeployment(rt: Runtime): Promise<void> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const mine = (await admin.listTopics()).filter((name) => name.startsWith(rt.cfg.topicPrefix))
    if (mine.length) await admin.deleteTopics({ topics: mine }).catch(() => {})
  } finally { await admin.disconnect() }
  const root = createDb(rt.cfg, { useDatabase: false })
  try { await root.command(sql`DROP DATABASE IF EXISTS ${ident(rt.cfg.clickhouseDatabase)}`).catch(() => {}) } finally { await root.close() }
}

/** Starts the given processors in this process; the returned list stops them in reverse order. */
export async function startProcessors(rt: Runtime, roles: readonly ProcessorRole[] = PROCESSOR_ROLES): Promise<Stoppable[]> {
  // Loaded here, not at the top: a process that runs only the API does not pay for their code.
  const { startTableSink } = await import('../streams/table-sink.js')
  const { startCitationNetwork } = await import('../streams/citation-network.js')
  const { startWebhookDelivery } = await import('../streams/webhooks/delivery.js')
  const { startDocketAlertSender } = await import('../streams/alerts/docket-alerts.js')
  const { startArchiveFetcher } = await import('../streams/alerts/archive-fetch.js')
  const { startPrayerGranter } = await import('../streams/alerts/prayers.js')
  const { startScheduler } = await import('../streams/alerts/scheduler.js')
  const { startSearchIndexer } = await import('../streams/search/indexer.js')
  const { startPercolator } = await import('../streams/search/percolator.js')
  const { digestJobs } = await import('../streams/search/digests.js')
  const { startSearchCompaction } = await import('../streams/search/compaction.js')
  const { sharedEntityTables } = await import('../streams/lib/entity-table.js')
  const started: Stoppable[] = []
  if (roles.includes('table-sink')) started.push(await startTableSink(rt))
  if (roles.includes('citation-network')) {
    const publisher = await openPublisher(rt)
    started.push(publisher)
    started.push(await startCitationNetwork({ ...rt, publisher }))
  }
  if (roles.includes('audio')) {
    // Returns at once: ffmpeg may still be installing (see streams/audio/processor.ts).
    const { startAudioProcessor } = await import('../streams/audio/processor.js')
    const publisher = await openPublisher(rt)
    started.push(publisher, startAudioProcessor({ ...rt, publisher }))
  }
  // The webhook side: delivery and the event sources, sharing one publisher, queue and mailer.
  const sources = roles.filter((r) => ['search-index', 'webhook-delivery', 'docket-alerts', 'archive-fetch', 'prayers', 'scheduler'].includes(r))
  if (sources.length) {
    const publisher = await openPublisher(rt)
    const queue = await openWebhookQueue(rt)
    const mailer = mailerOf(rt.cfg)
    started.push(publisher, queue, { stop: async () => { await mailer?.close() } })
    // One reader of the table sink's watermarks for the roles here that wait on the sink (each
    // would otherwise read the whole watermark topic with a consumer of its own); it stops after them.
    const watermarks = roles.some((r) => ['search-index', 'webhook-delivery', 'docket-alerts', 'archive-fetch', 'prayers'].includes(r)) ? createWatermarks(rt) : undefined
    if (watermarks) { await watermarks.start(); started.push(watermarks) }
    // One table per entity topic (users, endpoints, alerts) for the roles here that keep one in memory.
    const tables = sharedEntityTables(rt)
    started.push(tables)
    const deps = { ...rt, publisher, queue, mailer, watermarks, tables }
    if (roles.includes('webhook-delivery')) started.push(await startWebhookDelivery(deps))
    if (roles.includes('docket-alerts')) started.push(await startDocketAlertSender(deps))
    // users' sessions come from an API in this process, or from any through Redis (REDIS_URL)
    if (roles.includes('archive-fetch')) started.push(await startArchiveFetcher({ ...deps, gateway: recordsGatewayOf(rt.cfg), sessions: rt.recordsSessions }))
    if (roles.includes('prayers')) started.push(await startPrayerGranter(deps))
    if (roles.includes('scheduler')) started.push(await startScheduler(deps, digestJobs(deps)))
    if (roles.includes('search-index')) {
      // The indexer hands each batch's documents to the search-alert percolator before committing.
      const percolator = await startPercolator(deps)
      started.push(percolator)
      started.push(await startSearchIndexer({ ...rt, watermarks }, percolator))
      started.push(startSearchCompaction(rt))
    }
  }
  return started
}

/** The SMTP mailer the configuration asks for, or none (no SMTP_HOST: alerts are not mailed). */
export function mailerOf(cfg: Config): Mailer | undefined {
  const s = cfg.smtp
  if (!s.host) return undefined
  return createMailer({ host: s.host, port: s.port, from: s.from, secure: s.secure, ...(s.user ? { auth: { user: s.user, pass: s.password } } : {}) })
}

/** Stops what was started, last first; failures are logged, not thrown, so every part gets its turn. */
export async function stopAll(rt: Runtime, parts: Stoppable[]): Promise<void> {
  for (const p of [...parts].reverse()) await p.stop().catch((err) => rt.log.warn({ err: (err as Error).message }, 'stop failed'))
}
