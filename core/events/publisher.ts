/**
 * Publishes entity changes to their compacted topics: Avro in the registry's wire format
 * (magic byte, schema id, body), keyed by id, through an idempotent producer. Writes are
 * buffered per topic and sent in batches; `flush` returns once Kafka has acknowledged them.
 * One batch is in flight at a time (so a key's changes reach Kafka in the order they were made)
 * while the next one is encoded: encoding and the broker's acknowledgement overlap.
 */
import avro from 'avsc'
import type { Kafka, Producer, Message } from 'kafkajs'
import type { Config } from '../config.js'
import type { Logger } from '../logger.js'
import type { Registry } from '../registry.js'
import { idempotentProducer, sendUntilDelivered } from '../kafka.js'
import { ensureEntityTopics } from '../../schemas/topics.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { toAvro } from '../../schemas/avro.js'
import { registerEntitySchemas } from '../schema-registration.js'
import { entityTopic, createVersioner, wireEncode, createWireWriter } from '../../schemas/events/index.js'
import { createEntityCodec, InvalidRecord, type EntityCodec } from '../../schemas/events/entity-codec.js'
import { compressionOf } from '../kafka-compression.js'

export { createVersioner }

export interface PublisherStats { published: number; invalid: number; bytes: number }

export interface Publisher {
  start(): Promise<void>
  /**
   * Queue an upsert; resolves when buffered. When the buffer is full it is sent, after the batch
   * in flight was acknowledged (whose failure, if any, is thrown here).
   */
  upsert(resource: string, record: Record<string, unknown>): Promise<void>
  delete(resource: string, key: string | number): Promise<void>
  flush(): Promise<void>
  stop(): Promise<void>
  /**
   * Publishes one change now, on its own (a write of the API): resolves with where it landed once
   * Kafka acknowledged it from all in-sync replicas, so a reader can wait until it is applied.
   * Invalid records are refused with InvalidRecord.
   */
  write(resource: string, change: { upsert: Record<string, unknown> } | { delete: string | number }): Promise<Written>
  readonly stats: PublisherStats
}

/** Where a published change landed. */
export interface Written { topic: string; partition: number; offset: string; key: string; version: number }

/** What publishing to one resource's topic needs: its name, the registry's schema id, the Avro type and the codec. */
export interface EntityTopic { name: string; schemaId: number; type: avro.Type; codec: EntityCodec }

interface Topic extends EntityTopic { buffer: Message[]; bytes: number }

/** The publishers' part of a connector's work: queue changes, wait for Kafka, stop. */
export type BatchPublisher = Pick<Publisher, 'start' | 'upsert' | 'delete' | 'flush' | 'stop' | 'stats'>

/** The prepared topic of a resource; an unknown resource is the record's fault (InvalidRecord). */
export function topicFor<T>(topics: ReadonlyMap<string, T>, resource: string): T {
  const t = topics.get(resource)
  if (!t) throw new InvalidRecord(`unknown resource ${resource}`)
  return t
}

/** Creates the entity topics that are missing, registers their schemas, and returns each resource's topic. */
export async function prepareEntityTopics(deps: Pick<PublisherDeps, 'cfg' | 'kafka' | 'registry' | 'catalogue'>): Promise<Map<string, EntityTopic>> {
  const { cfg, kafka, registry, catalogue: cat } = deps
  await ensureEntityTopics(cfg, kafka, cat)
  const ids = await registerEntitySchemas(cfg, registry, cat)
  const out = new Map<string, EntityTopic>()
  for (const r of cat.stored) {
    out.set(r.name, { name: entityTopic(cfg, r), schemaId: ids.get(r.name)!, type: avro.Type.forSchema(toAvro(cat, r) as avro.Schema), codec: createEntityCodec(cat, r) })
  }
  return out
}

/** Whether an encoding failure is the record's fault (refused and reported) rather than ours (thrown). */
export function isInvalidRecord(err: unknown): boolean {
  return err instanceof InvalidRecord || (err instanceof Error && /invalid/i.test(err.message))
}

/** Upserts per batch: large enough that kafkajs's per-request work is small, small enough that its per-batch array copies stay cheap. */
const BATCH_SIZE = 2000

export function createPublisher(deps: {
  cfg: Config; kafka: Kafka; registry: Registry; catalogue: Catalogue; log: Logger
  batchSize?: number; batchBytes?: number
  onInvalid?: (resource: string, record: Record<string, unknown>, reason: string) => void
  version?: () => number
}): Publisher {
  const { kafka, log } = deps
  const compression = compressionOf(deps.cfg.kafkaCompression)
  const batchSize = deps.batchSize ?? BATCH_SIZE
  const batchBytes = deps.batchBytes ?? 4 * 1024 * 1024
  const version = deps.version ?? createVersioner()
  const stats: PublisherStats = { published: 0, invalid: 0, bytes: 0 }
  const topics = new Map<string, Topic>()
  let producer: Producer | undefined
  const wire = createWireWriter()
  /**
   * Batches being sent. One at a time when one caller publishes; callers that publish at once (the
   * mirror's ranges) may each have one in flight, and a flush waits for all of them.
   */
  const inFlight = new Set<Promise<void>>()
  /** The failure of a batch, thrown once, by the next send or flush of any caller. */
  let failure: Error | undefined

  /** Waits until no batch is in flight; a batch's failure is thrown here, once. */
  async function settle() {
    while (inFlight.size) await Promise.all(inFlight)
    if (failure) { const err = failure; failure = undefined; throw err }
  }

  /** Starts sending the topic's buffer once the batches in flight are acknowledged; resolves when it started. */
  async function send(t: Topic) {
    await settle()
    if (t.buffer.length === 0) return
    const messages = t.buffer
    t.buffer = []; t.bytes = 0
    const sending: Promise<void> = sendUntilDelivered(() => producer!.send({ topic: t.name, messages, acks: -1, compression }), log, `publish to ${t.name}`)
      .then(() => { stats.published += messages.length }, (err: Error) => { failure ??= err })
      .finally(() => inFlight.delete(sending))
    inFlight.add(sending)
  }

  async function enqueue(resource: string, key: Buffer, value: Buffer) {
    const t = topics.get(resource)!
    t.buffer.push({ key, value })
    t.bytes += value.length
    stats.bytes += value.length
    if (t.buffer.length >= batchSize || t.bytes >= batchBytes) await send(t)
  }

  const topicOf = (resource: string): Topic => topicFor(topics, resource)

  return {
    stats,
    async start() {
      for (const [name, t] of await prepareEntityTopics(deps)) topics.set(name, { ...t, buffer: [], bytes: 0 })
      producer = idempotentProducer(kafka)
      await producer.connect()
    },
    async upsert(resource, record) {
      let key: Buffer, value: Buffer
      try {
        const t = topicOf(resource)
        const entity = t.codec.toEntity(record)
        const k = t.codec.keyOf(record)
        value = wire.value(t.schemaId, t.type, { op: 'upsert', version: version(), key: k, entity })
        key = wire.key(k)
      } catch (err) {
        if (!isInvalidRecord(err)) throw err
        stats.invalid++
        deps.onInvalid?.(resource, record, (err as Error).message)
        return
      }
      await enqueue(resource, key, value)
    },
    async write(resource, change) {
      const t = topicOf(resource)
      const v = version()
      let key: string, value: Buffer
      if ('upsert' in change) {
        const entity = t.codec.toEntity(change.upsert)
        key = t.codec.keyOf(change.upsert)
        value = wireEncode(t.schemaId, t.type.toBuffer({ op: 'upsert', version: v, key, entity }))
      } else {
        key = String(change.delete)
        value = wireEncode(t.schemaId, t.type.toBuffer({ op: 'delete', version: v, key, entity: null }))
      }
      const [meta] = await producer!.send({ topic: t.name, messages: [{ key, value }], acks: -1, compression })
      stats.published++
      return { topic: t.name, partition: meta.partition, offset: String(meta.baseOffset ?? meta.offset), key, version: v }
    },
    async delete(resource, key) {
      const t = topicOf(resource)
      await enqueue(resource, wire.key(String(key)), wire.value(t.schemaId, t.type, { op: 'delete', version: version(), key: String(key), entity: null }))
    },
    async flush() {
      for (const t of topics.values()) await send(t)
      await settle()
    },
    async stop() {
      await this.flush()
      await producer?.disconnect()
      log.debug({ stats }, 'publisher stopped')
    },
  }
}

export interface PublisherDeps { cfg: Config; kafka: Kafka; registry: Registry; catalogue: Catalogue; log: Logger }

/** A started publisher: topics exist, schemas are registered, the producer is connected. */
export async function openPublisher(deps: PublisherDeps, onInvalid?: (resource: string, record: Record<string, unknown>, reason: string) => void): Promise<Publisher> {
  const pub = createPublisher({ ...deps, onInvalid })
  await pub.start()
  return pub
}
