/**
 * Keeps the read model current: consumes every entity topic and applies each batch to the LMDB
 * store in one transaction together with the offsets it reached, then commits them to Kafka.
 * The consumer group is named after the store, so the API processes of one host (one store)
 * share the partitions, and a new store (a new host, a deleted folder) reads from the beginning.
 *
 * Visibility: `waitUntilApplied(topic, partition, offset)` resolves once the store holds the event
 * at that offset, whichever process of the host applied it (offsets are read from the store).
 */
import path from 'node:path'
import type { Consumer, Kafka } from 'kafkajs'
import type { Config } from '../../core/config.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import { CoPartitionedAssigner } from '../../core/kafka-assigner.js'
import { subscribeAll, endOffsets, stoppableConsumer, commitBatch, IDLE_FETCH_WAIT_MS } from '../../core/kafka.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { entityTopic, resourceOfTopic, createDecoder, validateEntityEvent } from '../../schemas/events/index.js'
import { openReadStore, type ReadStore, type AppliedEvent } from './store.js'
import { refColumnsOf, keyKindsOf, largeColumnsOf } from './refs.js'
import { listIndexesOf } from './list-index.js'
import { renderedResourcesOf, type DetailRenderer } from './rendered-details.js'

export interface ReadModel {
  readonly store: ReadStore
  start(): Promise<void>
  stop(): Promise<void>
  /** Resolves once the event at `offset` of this entity-topic partition is in the store; false on timeout. */
  waitUntilApplied(topic: string, partition: number, offset: string, timeoutMs: number): Promise<boolean>
  /** True once the store holds everything the topics held when this process started. */
  caughtUp(): boolean
  /** Renders the details batches made stale, beside the consumer (the API builds its serializers after the consumer starts). */
  setRenderer?(renderer: DetailRenderer): void
}


/**
 * Once caught up, the API reads every rendered detail once (store.warmRendered), so their pages are
 * mapped in this process. The kernel may drop file pages no process maps (memory pressure, or
 * proactive reclaim: on this machine DAMON pages out unmapped page cache idle for seconds), and a
 * restarted API then read its first tens of thousands of details from disk: the first 10 s of
 * detail reads after a restart served a quarter to half of the rate of the next. Bounded by
 * LDS_READ_MODEL_WARM_MB (a quarter of memory by default), a chunk per turn of the event loop.
 */
async function warmWhenCaughtUp(model: Pick<ReadModel, 'store' | 'caughtUp'>, maxMb: number, stopped: () => boolean, log: Logger): Promise<void> {
  for (;;) {
    if (stopped()) return
    if (model.caughtUp()) break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const started = Date.now()
  const r = await model.store.warmRendered({ maxBytes: maxMb * 2 ** 20, stopped })
  const mb = Math.round(r.bytes / 2 ** 20)
  if ('entries' in r) log.info({ entries: r.entries, mb, seconds: (Date.now() - started) / 1000 }, 'rendered details read once (warm)')
  else if (r.skipped === 'too large') log.info({ mb, limitMb: maxMb }, 'rendered details not warmed: larger than LDS_READ_MODEL_WARM_MB')
}

export interface ReadModelDeps { cfg: Config; kafka: Kafka; registry: Registry; catalogue: Catalogue; log: Logger }

/** Where a deployment's store lives: one per data folder, topic prefix and database. */
export function readModelPath(cfg: Pick<Config, 'dataDir' | 'topicPrefix' | 'clickhouseDatabase'>): string {
  const name = `${cfg.topicPrefix}${cfg.clickhouseDatabase}`.replace(/[^A-Za-z0-9_.-]/g, '_')
  return path.join(cfg.dataDir, 'read-model', name)
}

export function createReadModel(deps: ReadModelDeps, opts: { path?: string } = {}): ReadModel {
  const { cfg, catalogue: cat } = deps
  const log = deps.log.child({ component: 'read-model' })
  const store = openReadStore(opts.path ?? readModelPath(cfg), refColumnsOf(cat), keyKindsOf(cat), listIndexesOf(cat), renderedResourcesOf(cat),
    cfg.readModelTexts === 'clickhouse' ? largeColumnsOf(cat) : new Map(), { renderedMaxBytes: cfg.readModelRenderedGb * 2 ** 30 })
  let renderer: DetailRenderer | undefined
  const decode = createDecoder(deps.registry)
  const keyFieldOf = new Map(cat.resources.map((r) => [r.name, r.key]))
  let consumer: Consumer | undefined
  /** End offsets at start: the read model has caught up once the store reaches all of them. */
  let targets: { topic: string; partition: number; offset: bigint }[] | undefined
  let caughtUpOnce = false
  let stopping = false
  const waiters = new Set<() => void>()
  let warming: Promise<void> | undefined
  const wake = () => { for (const w of [...waiters]) w() }

  const model: ReadModel = {
    store,
    async start() {
      const admin = deps.kafka.admin()
      await admin.connect()
      try {
        const ends = await endOffsets(admin, cat.stored.map((r) => entityTopic(cfg, r)))
        targets = [...ends].flatMap(([topic, partitions]) => [...partitions].map(([partition, offset]) => ({ topic, partition, offset })))
      } finally { await admin.disconnect() }
      consumer = stoppableConsumer(deps.kafka, {
        groupId: `${cfg.topicPrefix}read-model.${store.storeId}`, partitionAssigners: [CoPartitionedAssigner],
        sessionTimeout: 30_000, heartbeatInterval: 3_000,
        // The broker answers a fetch as soon as any partition has data, so a long wait costs no
        // latency; it only stops an idle API from polling ~240 partitions many times a second.
        maxWaitTimeInMs: IDLE_FETCH_WAIT_MS,
        // Small fetches while catching up: what a fetch returns is decoded and held at once.
        maxBytesPerPartition: 1024 * 1024, maxBytes: 4 * 1024 * 1024,
      })
      await consumer.connect()
      await subscribeAll(consumer, cat.stored.map((r) => entityTopic(cfg, r)))
      // Not awaited: joining the group can take a rebalance (seconds, more after a crash), and the
      // API serves from the store meanwhile; details of keys it lacks are read from ClickHouse.
      const c = consumer
      void c.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 2,
        eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isStale }) => {
          const resource = resourceOfTopic(cfg, batch.topic)
          if (!resource || batch.messages.length === 0) return
          const events: AppliedEvent[] = []
          for (const m of batch.messages) {
            try { events.push({ resource, event: validateEntityEvent(await decode(m.value), keyFieldOf.get(resource)) }) }
            catch (err) { log.debug({ topic: batch.topic, offset: m.offset, err: (err as Error).message }, 'skipping an undecodable event (the table sink dead-letters it)') }
          }
          if (isStale()) return
          const next = (BigInt(batch.lastOffset()) + 1n).toString()
          await store.apply(events, [{ topic: batch.topic, partition: batch.partition, offset: next }])
          resolveOffset(batch.lastOffset())
          await commitBatch(commitOffsetsIfNecessary, batch.topic, batch.partition, next)
          wake()
          // The batch's changes are visible already (stale texts were dropped with them); rendering
          // only makes their details fast again, so it runs beside the consumer, not in its way.
          void renderer?.drain()
          await heartbeat()
        },
      }).then(() => log.info({ path: opts.path ?? readModelPath(cfg) }, 'read model consuming'),
        (err) => log.error({ err: (err as Error).message }, 'the read model consumer did not start'))
      if (cfg.readModelWarmMb > 0) {
        warming = warmWhenCaughtUp(model, cfg.readModelWarmMb, () => stopping, log)
          .catch((err) => log.warn({ err: (err as Error).message }, 'warming the rendered details failed (reads are served as they are)'))
      }
    },
    setRenderer(r) {
      renderer = r
      void r.drain() // what batches before it left stale, or a crash left
    },
    async stop() {
      stopping = true
      await warming
      await consumer?.disconnect()
      await renderer?.stop()
      wake()
      await store.close()
    },
    waitUntilApplied(topic, partition, offset, timeoutMs) {
      const done = () => BigInt(store.offset(topic, partition) ?? '0') > BigInt(offset)
      if (done()) return Promise.resolve(true)
      return new Promise((resolve) => {
        const check = () => { if (done()) finish(true) }
        // Another process of this host may apply it: look at the shared store now and then too.
        const poll = setInterval(check, 20)
        const timer = setTimeout(() => finish(false), timeoutMs)
        const finish = (ok: boolean) => { clearInterval(poll); clearTimeout(timer); waiters.delete(check); resolve(ok) }
        waiters.add(check)
      })
    },
    caughtUp() {
      if (caughtUpOnce) return true
      if (!targets) return false
      caughtUpOnce = targets.every((t) => t.offset === 0n || BigInt(store.offset(t.topic, t.partition) ?? '0') >= t.offset)
      return caughtUpOnce
    },
  }
  return model
}
