/**
 * Builds the Fastify app. Collaborators are passed in, so tests build it against a database
 * of their own and drive it with `inject`.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyBaseLogger } from 'fastify'
import type { Kafka } from 'kafkajs'
import type { Config } from '../core/config.js'
import type { Db } from '../core/clickhouse.js'
import type { Logger } from '../core/logger.js'
import { systemClock, type Clock } from '../core/clock.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { installErrorHandling } from './plugins/errors.js'
import { installNegotiation } from './plugins/negotiation.js'
import { installRequestLog, lazyRequestLogger } from './plugins/request-log.js'
import { installAuth } from './plugins/auth.js'
import { installRouteOf } from './plugins/route-of.js'
import { installBodyParsers } from './plugins/body.js'
import { createCitationThrottle, parseRate } from './plugins/citation-throttle.js'
import { compileSerializers } from './engine/serialize.js'
import { citationOverlays, OVERLAY_DEPENDENCIES } from './plugins/citation-overlays.js'
import { registerRoot } from './routes/root.js'
import { registerResourceRoutes } from './routes/resources.js'
import { registerCitationLookup } from './routes/citation-lookup.js'
import { registerHealth } from './routes/health.js'
import { registerApiUsage } from './routes/api-usage.js'
import { registerSearch } from './routes/search.js'
import { registerAudioFiles } from './routes/audio-files.js'
import { registerPodcasts } from './routes/podcasts.js'
import { createSearchEngine } from './search/engine.js'
import { alertQueries } from './search/alert-queries.js'
import { registerOpenApi } from './routes/openapi.js'
import { registerAsyncApi } from './routes/asyncapi.js'
import { registerChanges } from './routes/changes.js'
import { registerWrites, writableResources } from './routes/writes.js'
import { registerWebhookActions } from './routes/webhooks.js'
import { openWebhookQueue, type WebhookQueue } from '../core/events/webhook-queue.js'
import { createWebhookEmitter } from '../core/events/webhook-emitter.js'
import { compileReader } from './engine/list.js'
import { openPublisher, type Publisher } from '../core/events/publisher.js'
import { installThrottles } from './plugins/throttle.js'
import { memoryEvents, memoryUsage, redisEvents, redisUsage, type EventCounter } from './plugins/usage.js'
import { createReadModel, type ReadModel } from './read-model/consumer.js'
import { createDetailRenderer, withOriginBytes } from './read-model/rendered-details.js'
import { createDetailLane, installDetailLane } from './routes/detail-lane.js'
import { createUserDirectory } from './read-model/users.js'
import { createWatermarks, type Watermarks } from '../core/events/watermark-reader.js'
import { createListCache } from './engine/list-cache.js'
import { clickhouseSource, readModelSource } from './engine/source.js'
import { listIndexAccess } from './read-model/list-access.js'
import { createObjectCache } from './engine/object-cache.js'
import { refColumnsOf } from './read-model/refs.js'
import { createLargeTexts } from './read-model/large-texts.js'
import type { Redis } from 'ioredis'
import { recordsGatewayOf } from '../clients/records-gateway.js'
import { memoryRecordsSessions, type RecordsSessions } from '../clients/records-sessions.js'
import type { Registry } from '../core/registry.js'
import { kafkaIdAllocator, type IdSource } from '../core/ids.js'
import { idsTopic } from '../schemas/events/names.js'

export interface AppDeps {
  cfg: Config; db: Db; catalogue: Catalogue; log: Logger; clock?: Clock
  /** With Kafka and the registry the app keeps its own read model (started here, stopped on close). */
  kafka?: Kafka; registry?: Registry
  /** A read model shared with the caller (tests, several apps in one process). */
  readModel?: ReadModel
  /** Where users' records-system sessions go for the archive fetcher (default: this process). */
  recordsSessions?: RecordsSessions
  /** Ids of the rows writes create (the runtime's, shared by the process); without it the app leases its own. */
  ids?: IdSource
}

declare module 'fastify' {
  interface FastifyInstance { clock: Clock; readModel: ReadModel | null; watermarks: Watermarks | null; events: EventCounter }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // The configured time scale reaches every throttle window and schedule the API keeps (issue 6).
  const clock = deps.clock ?? systemClock(deps.cfg.timeScale)
  const app = Fastify({
    loggerInstance: deps.log.child({ component: 'api' }) as unknown as FastifyBaseLogger,
    // One line per request at debug and a summary per minute at info (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    trustProxy: true,
    // Long ids reach the routes and get the reference's 404 rather than the router's own 414.
    routerOptions: { maxParamLength: 8192 },
    bodyLimit: 2 * 1024 * 1024,
  })
  app.decorate('clock', clock)
  const readModel = deps.readModel ?? (deps.kafka && deps.registry ? createReadModel({ ...deps, kafka: deps.kafka, registry: deps.registry }) : null)
  const watermarks = readModel && deps.kafka && deps.registry ? createWatermarks({ ...deps, kafka: deps.kafka, registry: deps.registry }) : null
  const writable = readModel && watermarks && deps.kafka && deps.registry ? new Set(writableResources(deps.catalogue).map((r) => r.name)) : undefined
  // The Kafka side starts in parallel (each part waits on the broker and the registry, not on the
  // others). The read model only has to open: the API serves while it catches up.
  const kafkaDeps = { ...deps, kafka: deps.kafka!, registry: deps.registry! }
  const started = await Promise.allSettled([
    readModel && !deps.readModel ? readModel.start().then(() => readModel) : undefined,
    watermarks?.start().then(() => watermarks),
    writable ? openPublisher(kafkaDeps) : undefined,
    writable ? openWebhookQueue(kafkaDeps) : undefined,
  ] as const)
  const failed = started.find((x) => x.status === 'rejected')
  if (failed) {
    for (const x of started) if (x.status === 'fulfilled' && x.value) await x.value.stop().catch(() => {})
    throw (failed as PromiseRejectedResult).reason
  }
  const [, , publisherStarted, queueStarted] = started.map((x) => (x as PromiseFulfilledResult<unknown>).value) as [unknown, unknown, Publisher | undefined, WebhookQueue | undefined]
  if (readModel && !deps.readModel) app.addHook('onClose', async () => { await readModel.stop() })
  app.decorate('readModel', readModel)
  if (watermarks) app.addHook('onClose', async () => { await watermarks.stop() })
  app.decorate('watermarks', watermarks)
  // Loaded only when configured: most deployments and every test run without Redis.
  const redis: Redis | undefined = deps.cfg.redisUrl
    ? new (await import('ioredis')).Redis(deps.cfg.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2, connectTimeout: 3_000 })
    : undefined
  if (redis) app.addHook('onClose', async () => { redis.disconnect() })
  const usage = redis ? redisUsage(redis) : memoryUsage()
  installRouteOf(app)
  const requestLog = installRequestLog(app)
  installErrorHandling(app)
  installNegotiation(app)
  installBodyParsers(app)
  const users = readModel ? createUserDirectory(readModel.store) : undefined
  installAuth(app, { users })
  const r = deps.cfg.rates
  await installThrottles(app, { redis, usage, config: { user: r.user, anonV3: r.anonV3, anonV4: r.anonV4, scopes: { tags: r.tags, fetch: r.fetch, api_usage: r.apiUsage, events: r.events } } })
  registerHealth(app, deps)
  app.decorate('events', redis ? redisEvents(redis) : memoryEvents())
  registerRoot(app, { v3Sunset: deps.cfg.v3Sunset, events: app.events })
  const serializers = compileSerializers(deps.catalogue, citationOverlays)
  // Lists are cached only where watermarks say when they change. A list page's keys come from
  // ClickHouse and its rows from the read model: an entry is valid while neither has moved.
  const storageName = (name: string) => (deps.catalogue.has(name) ? deps.catalogue.storageOf(deps.catalogue.get(name)).name : name)
  const epochs = watermarks && readModel ? { epoch: (name: string) => { const s = storageName(name); return watermarks.epoch(s) + readModel.store.epoch(s) } } : undefined
  const listCache = epochs ? createListCache(epochs) : undefined
  // Serialized objects (details and list rows) kept while what they are built from is unchanged.
  const objects = epochs && deps.cfg.objectCacheEntries > 0 ? createObjectCache(epochs, { maxEntries: deps.cfg.objectCacheEntries }) : undefined
  // Whole rows (details, list pages, related sets) from the read model; ClickHouse chooses list pages.
  // With LDS_READ_MODEL_TEXTS=clickhouse, large texts (opinions' and the like), which the read model
  // then does not store, come from ClickHouse by key and are kept in an LRU.
  const tables = clickhouseSource(deps.db, deps.catalogue)
  const texts = readModel && deps.cfg.readModelTexts === 'clickhouse' ? createLargeTexts({ db: deps.db, catalogue: deps.catalogue, maxBytes: deps.cfg.readModelMaxGb * 2 ** 30, fallback: tables }) : undefined
  const source = readModel ? readModelSource(readModel.store, refColumnsOf(deps.catalogue), tables, () => readModel.caughtUp(), deps.catalogue, texts) : undefined
  // Lists the read model's list indexes cover come from there, while it holds all ClickHouse holds.
  const lists = readModel && watermarks ? listIndexAccess(deps.cfg, readModel, watermarks) : undefined
  const searchEngine = createSearchEngine(deps.db)
  // Details the read model keeps rendered (renderedDetail resources), built as their rows change.
  if (readModel) readModel.setRenderer?.(createDetailRenderer({ store: readModel.store, catalogue: deps.catalogue, serializers, refColumns: refColumnsOf(deps.catalogue), db: deps.db, log: deps.log }))
  const rendered = readModel ? (resource: string, key: string | number) => readModel.store.rendered(resource, key) : undefined
  const renderedBytes = readModel ? (resource: string, key: string | number, origin: string) => readModel.store.renderedBytes(resource, key, (text) => withOriginBytes(text, origin)) : undefined
  const routes = registerResourceRoutes(app, { ...deps, serializers, listCache, overlayDeps: OVERLAY_DEPENDENCIES, source, writable, lists, objects, rendered, renderedBytes })
  // A plain detail GET of a rendered row is answered before Fastify routes it (routes/detail-lane.ts):
  // a hook added to every request must also be done there, or the lane must leave such requests.
  if (readModel) installDetailLane(app, createDetailLane({ catalogue: deps.catalogue, store: readModel.store, users, throttles: app.throttles, usage, requestLog }))
  if (writable && readModel && watermarks && publisherStarted && queueStarted) {
    const publisher = publisherStarted
    const queue = queueStarted
    app.addHook('onClose', async () => { await publisher.stop(); await queue.stop() })
    // Created rows' ids: the process's allocator, or one of the app's own (leased lazily, stopped with it).
    const own = deps.ids ? undefined : kafkaIdAllocator({ cfg: deps.cfg, kafka: deps.kafka!, log: deps.log }, idsTopic(deps.cfg))
    const ids = deps.ids ?? own!
    app.addHook('onClose', async () => { await own?.stop() })
    const endpointsOf = (userId: number, eventType: number) => readModel.store.keysWhere('webhooks', 'user_id', userId)
      .map((k) => readModel.store.get('webhooks', k)!).filter((w) => w && Number(w.event_type) === eventType)
    const emitter = createWebhookEmitter({ queue, publisher, clock, endpointsOf })
    const gateway = recordsGatewayOf(deps.cfg)
    registerWrites(app, {
      catalogue: deps.catalogue, clock, publisher, readModel, watermarks, search: alertQueries(searchEngine, () => clock.now()),
      records: gateway ? { gateway, sessions: deps.recordsSessions ?? memoryRecordsSessions() } : undefined,
      readerOf: (r) => routes.readers.get(r.name)!, contextOf: routes.contextOf,
      allowInsecureWebhooks: deps.cfg.webhooksAllowInsecure, ids,
      reenableWebhook: async (w) => queue.send([{ kind: 'reenable', event_id: `reenable-${String(w.id)}-${clock.now()}`, webhook_id: Number(w.id), user_id: Number(w.user_id), event_type: Number(w.event_type), content: '', debug: false, retry_counter: 0, due_at: clock.now(), date_created: new Date(clock.now()).toISOString() }]),
    })
    registerWebhookActions(app, { catalogue: deps.catalogue, readModel, emitter, events: compileReader(deps.catalogue, deps.catalogue.get('webhook-events'), serializers.get('webhook-events')!, deps.db.database), contextOf: routes.contextOf })
  }
  registerOpenApi(app, { catalogue: deps.catalogue })
  registerAsyncApi(app, { catalogue: deps.catalogue, cfg: deps.cfg })
  if (deps.kafka && deps.registry) registerChanges(app, { catalogue: deps.catalogue, kafka: deps.kafka, registry: deps.registry, log: deps.log, topicPrefix: deps.cfg.topicPrefix, maxReaders: deps.cfg.feedMaxReaders })
  const defaultRate = parseRate(deps.cfg.citationRate)
  registerCitationLookup(app, {
    db: deps.db, catalogue: deps.catalogue, serializer: serializers.get('clusters')!,
    throttle: createCitationThrottle(clock, defaultRate), defaultRate,
    limits: { maxCitationsPerRequest: deps.cfg.citationMaxPerRequest, maxTextLength: deps.cfg.citationMaxTextLength },
  })
  registerApiUsage(app, { usage, clock })
  registerSearch(app, { db: deps.db, engine: searchEngine })
  await registerAudioFiles(app, { db: deps.db, storageDir: deps.cfg.audio.storageDir })
  registerPodcasts(app, { db: deps.db, storageDir: deps.cfg.audio.storageDir, publicBaseUrl: deps.cfg.publicBaseUrl })
  return app
}
