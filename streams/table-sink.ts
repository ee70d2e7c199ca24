/**
 * The generic table sink: every entity topic of the catalogue into its ReplacingMergeTree
 * table. One insert per table per batch, its upserts as RowBinary (typed columns: no JSON to
 * build or parse); the event version becomes `_version`, a delete becomes a row with
 * `_deleted = 1` that FINAL hides.
 */
import type { Kafka } from 'kafkajs'
import type { Config } from '../core/config.js'
import type { Db } from '../core/clickhouse.js'
import type { Logger } from '../core/logger.js'
import type { Registry } from '../core/registry.js'
import { sinkInsertSeconds } from '../core/metrics.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import type { ResourceDef } from '../schemas/define.js'
import { columnsOf, type ColumnDef } from '../schemas/tables.js'
import { entityTopic, dlqTopic, groupId, watermarkTopic, PROCESSORS, createDecoder, validateEntityEvent, createTopicCodec, WATERMARK, type EntityEvent, type Watermark } from '../schemas/events/index.js'
import { ensureTopics, compactedTopic, idempotentProducer } from '../core/kafka.js'
import { startStream, type StreamDef, type Incoming } from './runner.js'

/** Rows of one table from one batch: upserts as arrays in column order, deletes as tombstone objects. */
export interface TableBatch { columns: readonly ColumnDef[]; upserts: unknown[][]; deletes: Record<string, unknown>[] }
export type TableRows = Map<string, TableBatch>

/** Storage columns of a resource (name and ClickHouse type) followed by the version columns: the order of upsert rows. */
export const sinkColumns = (cat: Catalogue, r: ResourceDef): readonly ColumnDef[] => columnsOf(cat, r)

/** Pure: events → rows per table, without copying entities (the hot path of ingest). */
export function eventsToRows(cat: Catalogue, events: { event: EntityEvent; resource: ResourceDef }[]): TableRows {
  const out: TableRows = new Map()
  for (const { event, resource } of events) {
    let batch = out.get(resource.table)
    if (!batch) out.set(resource.table, (batch = { columns: sinkColumns(cat, resource), upserts: [], deletes: [] }))
    if (event.op === 'upsert') {
      const e = event.entity!
      const row = new Array(batch.columns.length)
      for (let i = 0; i < batch.columns.length - 2; i++) row[i] = e[batch.columns[i].name]
      row[row.length - 2] = event.version
      row[row.length - 1] = 0
      batch.upserts.push(row)
    } else {
      batch.deletes.push({ [resource.key]: resource.keyKind === 'int' ? Number(event.key) : event.key, _version: event.version, _deleted: 1 })
    }
  }
  return out
}

/** Batches (partitions) the table sink works on at once: one decoded while another is inserted. */
export const SINK_CONCURRENCY = 4
/** Events per ClickHouse insert when a batch is larger (the next chunk is decoded meanwhile). */
export const SINK_CHUNK = 8_192

/** Whether a message key (bytes) spells `key`, without decoding the bytes for the common ASCII key. */
export function keyEquals(bytes: Buffer, key: string): boolean {
  if (bytes.length !== key.length) return bytes.toString('utf8') === key
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    if (c > 0x7f) return bytes.toString('utf8') === key
    if (bytes[i] !== c) return false
  }
  return true
}

/** Where a sink announces what it has applied (see schemas/events/watermarks.ts). */
export interface WatermarkSender { send(w: Watermark): Promise<void> }

export function tableSinkDef(deps: { cfg: Config; db: Db; registry: Registry; catalogue: Catalogue; resources?: string[]; watermarks?: WatermarkSender }): StreamDef<{ event: EntityEvent; resource: ResourceDef }, TableRows> {
  const { cfg, db, catalogue: cat } = deps
  const resources = deps.resources ? deps.resources.map((n) => cat.get(n)) : [...cat.stored]
  const byTopic = new Map(resources.map((r) => [entityTopic(cfg, r), r]))
  const decode = createDecoder(deps.registry)
  return {
    name: PROCESSORS.tableSink,
    groupId: groupId(cfg, PROCESSORS.tableSink),
    topics: [...byTopic.keys()],
    dlqTopic: dlqTopic(cfg, PROCESSORS.tableSink),
    fetchBytes: cfg.sinkFetchBytes,
    // Batches of different partitions are independent (each commits its own partition, rows are
    // versioned upserts): while one is inserted, the next is decoded. Within a batch, chunks of
    // SINK_CHUNK events are inserted one after another while the next chunk is decoded.
    concurrency: SINK_CONCURRENCY,
    chunkMessages: SINK_CHUNK,
    async decode(m: Incoming) {
      const resource = byTopic.get(m.topic)!
      const event = validateEntityEvent(await decode(m.message.value), resource.key)
      if (m.message.key && !keyEquals(m.message.key, event.key)) throw new Error(`message key ${m.message.key.toString('utf8')} differs from event key ${event.key}`)
      return { event, resource }
    },
    transform: (events) => eventsToRows(cat, events.map((e) => e.event)),
    async sink(rows) {
      const end = sinkInsertSeconds.startTimer({ stream: 'table-sink' })
      await Promise.all([...rows].flatMap(([table, b]) => [db.insertRows(table, b.columns, b.upserts), db.insert(table, b.deletes)]))
      end()
    },
    async afterCommit(c) {
      await deps.watermarks?.send({ sink: PROCESSORS.tableSink, topic: c.topic, partition: c.partition, offset: c.offset, at: Date.now() })
    },
  }
}

/** The watermark topic (compacted by sink, topic and partition) and a producer for it. */
export async function openWatermarks(deps: { cfg: Config; kafka: Kafka; registry: Registry }): Promise<WatermarkSender & { stop(): Promise<void> }> {
  const topic = watermarkTopic(deps.cfg)
  const codec = await createTopicCodec(topic, deps.registry, WATERMARK)
  const admin = deps.kafka.admin()
  await admin.connect()
  try { await ensureTopics(admin, [compactedTopic(topic, 1)]) } finally { await admin.disconnect() }
  const producer = idempotentProducer(deps.kafka)
  await producer.connect()
  return {
    async send(w) { await producer.send({ topic, acks: -1, messages: [{ key: WATERMARK.key(w), value: codec.encode(w) }] }) },
    stop: () => producer.disconnect(),
  }
}

export async function startTableSink(deps: { cfg: Config; db: Db; registry: Registry; catalogue: Catalogue; kafka: Kafka; log: Logger; resources?: string[] }) {
  const watermarks = await openWatermarks(deps)
  const stream = await startStream(tableSinkDef({ ...deps, watermarks }), deps)
  return {
    consumer: stream.consumer,
    async stop() { await stream.stop(); await watermarks.stop() },
  }
}
