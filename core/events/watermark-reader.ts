/**
 * What the table sink has applied to ClickHouse, per entity-topic partition, read from the
 * watermark topic. The API uses it twice:
 *  - list caching: each resource has an epoch that moves whenever the sink applies more of its
 *    topic; a cached list is valid only while the epochs it was built at are current;
 *  - read-your-writes in lists: a write waits until the sink has applied its offset.
 * Each API process reads the whole (compacted) topic with a consumer group of its own.
 */
import { randomUUID } from 'node:crypto'
import type { Consumer, Kafka } from 'kafkajs'
import type { Config } from '../config.js'
import type { Logger } from '../logger.js'
import type { Registry } from '../registry.js'
import { ensureTopics, compactedTopic, subscribeAll, stoppableConsumer, SOLE_MEMBER_CONSUMER } from '../kafka.js'
import { watermarkTopic, resourceOfTopic, createTopicCodec, WATERMARK, PROCESSORS, type Watermark } from '../../schemas/events/index.js'

export interface Watermarks {
  start(): Promise<void>
  stop(): Promise<void>
  /** A number that changes whenever the sink applies more of this resource's topic. */
  epoch(resource: string): number
  /** Resolves true once the sink has applied `offset` of this partition; false on timeout. */
  waitUntilApplied(topic: string, partition: number, offset: string, timeoutMs: number): Promise<boolean>
  /** The next offset the sink has yet to apply, per partition of `topic` it has reported on. */
  appliedOf(topic: string): ReadonlyMap<number, bigint>
}

/**
 * The watermarks a processor reads: the process's own when it has them (`deps.watermarks`, one
 * reader shared by the roles of a process), else a reader of the processor's own, started here.
 * `release` stops only a reader started here.
 */
export async function useWatermarks(deps: { cfg: Config; kafka: Kafka; registry: Registry; log: Logger; watermarks?: Watermarks }): Promise<{ watermarks: Watermarks; release(): Promise<void> }> {
  if (deps.watermarks) return { watermarks: deps.watermarks, release: async () => {} }
  const own = createWatermarks(deps)
  await own.start()
  return { watermarks: own, release: () => own.stop() }
}

export function createWatermarks(deps: { cfg: Config; kafka: Kafka; registry: Registry; log: Logger }): Watermarks {
  const { cfg } = deps
  const applied = new Map<string, bigint>()
  const byTopic = new Map<string, Map<number, bigint>>()
  const none: ReadonlyMap<number, bigint> = new Map()
  const epochs = new Map<string, number>()
  const waiters = new Set<() => void>()
  let consumer: Consumer | undefined
  const topic = watermarkTopic(cfg)

  const reached = (t: string, p: number, offset: string) => (applied.get(`${t}/${p}`) ?? -1n) > BigInt(offset)

  return {
    async start() {
      const codec = await createTopicCodec<Watermark>(topic, deps.registry, WATERMARK)
      const admin = deps.kafka.admin()
      await admin.connect()
      try { await ensureTopics(admin, [compactedTopic(topic, 1)]) } finally { await admin.disconnect() }
      // The broker answers a fetch as soon as a watermark arrives: a long wait adds no latency, and
      // keeps an idle API from polling fifty times a second.
      consumer = stoppableConsumer(deps.kafka, { groupId: `${cfg.topicPrefix}watermarks.${randomUUID()}`, ...SOLE_MEMBER_CONSUMER })
      await consumer.connect()
      await subscribeAll(consumer, [topic])
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ message }) => {
          let w: Watermark
          try { w = await codec.decode(message.value) } catch (err) { deps.log.debug({ err: (err as Error).message }, 'unreadable watermark'); return }
          if (w.sink !== PROCESSORS.tableSink) return
          const key = `${w.topic}/${w.partition}`
          const offset = BigInt(w.offset)
          if ((applied.get(key) ?? -1n) >= offset) return
          applied.set(key, offset)
          if (!byTopic.has(w.topic)) byTopic.set(w.topic, new Map())
          byTopic.get(w.topic)!.set(w.partition, offset)
          const resource = resourceOfTopic(cfg, w.topic)
          if (resource) epochs.set(resource, (epochs.get(resource) ?? 0) + 1)
          for (const wake of [...waiters]) wake()
        },
      })
    },
    async stop() {
      await consumer?.disconnect()
      for (const wake of [...waiters]) wake()
    },
    epoch: (resource) => epochs.get(resource) ?? 0,
    appliedOf: (t) => byTopic.get(t) ?? none,
    waitUntilApplied(t, p, offset, timeoutMs) {
      if (reached(t, p, offset)) return Promise.resolve(true)
      return new Promise((resolve) => {
        const check = () => { if (reached(t, p, offset)) finish(true) }
        const timer = setTimeout(() => finish(false), timeoutMs)
        const finish = (ok: boolean) => { clearTimeout(timer); waiters.delete(check); resolve(ok) }
        waiters.add(check)
      })
    },
  }
}
