/**
 * A small entity topic kept in memory by a processor that needs the current state of every row
 * (webhook endpoints, users, docket alerts): each process reads the whole compacted topic with a
 * consumer group of its own, `ready()` resolves once it has read what the topic held at start, and
 * `onChange` reports each row that changed (old and new, null for a delete). Local changes the
 * processor makes itself can be applied at once with `set`, ahead of their round trip.
 * `waitUntil` lets a processor catch the table up to end offsets it fetched itself (say, when it
 * consumed a batch), so a row published just before an event about it is not missed.
 */
import { randomUUID } from 'node:crypto'
import type { Consumer, Kafka } from 'kafkajs'
import type { Config } from '../../core/config.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import { retryRetriable, subscribeAll, stoppableConsumer, SOLE_MEMBER_CONSUMER } from '../../core/kafka.js'
import { entityTopic, createDecoder, validateEntityEvent } from '../../schemas/events/index.js'

export type Row = Record<string, unknown>


export interface EntityTable<K extends string | number = number> {
  start(): Promise<void>
  ready(): Promise<void>
  stop(): Promise<void>
  get(key: K): Row | undefined
  /** The version of the key's latest event read (or set), a delete's too; undefined if none. */
  versionOf(key: K): number | undefined
  values(): IterableIterator<Row>
  set(key: K, row: Row | null, version?: number): void
  onChange(fn: (key: K, before: Row | null, after: Row | null) => void): void
  /** The topic the table reads. */
  readonly topic: string
  /**
   * Resolves true once the table has read each partition up to `ends` (partition → the offset after
   * the last message wanted, as a topic's end offsets give it); false after `timeoutMs` or on stop.
   */
  waitUntil(ends: ReadonlyMap<number, bigint>, timeoutMs: number): Promise<boolean>
}

export function createEntityTable<K extends string | number = number>(deps: { cfg: Config; kafka: Kafka; registry: Registry; log: Logger }, resource: string, keyOf: (raw: string) => K = (raw) => Number(raw) as K): EntityTable<K> {
  const topic = entityTopic(deps.cfg, resource)
  const rows = new Map<K, { v: number; row: Row | null }>()
  const listeners: ((key: K, before: Row | null, after: Row | null) => void)[] = []
  const decode = createDecoder(deps.registry)
  let consumer: Consumer | undefined
  let targets = new Map<number, bigint>()
  let readyResolve: () => void = () => {}
  const readyPromise = new Promise<void>((r) => { readyResolve = r })
  const reached = new Map<number, bigint>()
  const hasRead = (ends: ReadonlyMap<number, bigint>) => [...ends].every(([p, end]) => (reached.get(p) ?? 0n) >= end)
  const checkReady = () => { if (hasRead(targets)) readyResolve() }
  const waiters = new Set<(stopped?: boolean) => void>()

  const apply = (key: K, version: number, row: Row | null) => {
    const old = rows.get(key)
    if (old && old.v >= version) return
    rows.set(key, { v: version, row })
    for (const fn of listeners) fn(key, old?.row ?? null, row)
  }

  return {
    async start() {
      const admin = deps.kafka.admin()
      await admin.connect()
      try { targets = new Map((await retryRetriable(() => admin.fetchTopicOffsets(topic))).map((p) => [p.partition, BigInt(p.high)])) } finally { await admin.disconnect() }
      checkReady()
      // The broker answers a fetch as soon as a row arrives, so a long wait adds no latency; a short
      // one had each table of an idle process fetching twenty times a second.
      consumer = stoppableConsumer(deps.kafka, { groupId: `${deps.cfg.topicPrefix}table.${resource}.${randomUUID()}`, ...SOLE_MEMBER_CONSUMER })
      await consumer.connect()
      await subscribeAll(consumer, [topic])
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          for (const m of batch.messages) {
            try {
              const e = validateEntityEvent(await decode(m.value))
              apply(keyOf(e.key), e.version, e.op === 'upsert' ? e.entity : null)
            } catch (err) { deps.log.debug({ topic, offset: m.offset, err: (err as Error).message }, 'skipping an unreadable event') }
          }
          reached.set(batch.partition, BigInt(batch.lastOffset()) + 1n)
          checkReady()
          for (const wake of [...waiters]) wake()
        },
      })
    },
    ready: () => readyPromise,
    async stop() {
      await consumer?.disconnect()
      for (const wake of [...waiters]) wake(true)
    },
    get: (key) => rows.get(key)?.row ?? undefined,
    versionOf: (key) => rows.get(key)?.v,
    *values() { for (const { row } of rows.values()) if (row) yield row },
    set(key, row, version = Date.now() * 1000) { apply(key, version, row) },
    onChange(fn) { listeners.push(fn) },
    topic,
    waitUntil(ends, timeoutMs) {
      if (hasRead(ends)) return Promise.resolve(true)
      return new Promise((resolve) => {
        const wake = (stopped = false) => { if (stopped) finish(false); else if (hasRead(ends)) finish(true) }
        const timer = setTimeout(() => finish(false), timeoutMs)
        const finish = (ok: boolean) => { clearTimeout(timer); waiters.delete(wake); resolve(ok) }
        waiters.add(wake)
      })
    },
  }
}

/**
 * The entity tables of one process, one per resource, shared by the roles that read it (users and
 * webhook endpoints are read by every event source and by webhook delivery). Each table is a
 * consumer that fetches and heartbeats for the life of the process: one per role made an idle
 * `npm start` run fourteen of them for four topics. A role's `stop()` of a shared table does
 * nothing; the tables stop with `stop()` here, after the roles (started before them, stopped after).
 */
export interface EntityTables {
  open(resource: string): EntityTable
  stop(): Promise<void>
}

export function sharedEntityTables(deps: { cfg: Config; kafka: Kafka; registry: Registry; log: Logger }): EntityTables {
  const tables = new Map<string, { table: EntityTable; started?: Promise<void> }>()
  return {
    open(resource) {
      const entry = tables.get(resource) ?? { table: createEntityTable(deps, resource) }
      tables.set(resource, entry)
      return { ...entry.table, start: () => (entry.started ??= entry.table.start()), stop: async () => {} }
    },
    async stop() { await Promise.all([...tables.values()].map(({ table }) => table.stop())) },
  }
}

/** The process's shared table of `resource` when it has them, else one of the caller's own. */
export function openEntityTable(deps: { cfg: Config; kafka: Kafka; registry: Registry; log: Logger; tables?: EntityTables }, resource: string): EntityTable {
  return deps.tables ? deps.tables.open(resource) : createEntityTable(deps, resource)
}
