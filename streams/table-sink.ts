/**
 * The generic table sink: every entity topic of the catalogue into its ReplacingMergeTree
 * table. One insert per table per batch, its upserts as RowBinary (typed columns: no JSON to
 * build or parse); the event version becomes `_version`, a delete becomes a row with
 * `_deleted = 1` that FINAL hides. An upsert's row is transcoded from its Avro bytes
 * (core/avro-row-binary.ts) without decoding it into objects; what the transcoder hands back
 * (deletes, text that is not UTF-8, a writer schema it cannot read) is decoded the generic way.
 */
import type { Kafka, RecordsInPlace } from 'kafkajs'
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
import { coalesce, compileRowTranscoder, RowSlab, type RowTranscoder } from '../core/avro-row-binary.js'
import { startStream, type StreamDef, type Incoming, type RecordCollector } from './runner.js'

/**
 * Rows of one table from one batch: upserts already in RowBinary (`encoded`, transcoded from their
 * Avro bytes) or as arrays in column order (`upserts`, decoded the generic way), deletes as tombstone objects.
 */
export interface TableBatch { columns: readonly ColumnDef[]; encoded: Buffer[]; upserts: unknown[][]; deletes: Record<string, unknown>[] }
export type TableRows = Map<string, TableBatch>

/** Storage columns of a resource (name and ClickHouse type) followed by the version columns: the order of upsert rows. */
export const sinkColumns = (cat: Catalogue, r: ResourceDef): readonly ColumnDef[] => columnsOf(cat, r)

/** Pure: events → rows per table, without copying entities (the hot path of ingest). */
export function eventsToRows(cat: Catalogue, events: { event: EntityEvent; resource: ResourceDef }[]): TableRows {
  const out: TableRows = new Map()
  for (const { event, resource } of events) {
    let batch = out.get(resource.table)
    if (!batch) out.set(resource.table, (batch = { columns: sinkColumns(cat, resource), encoded: [], upserts: [], deletes: [] }))
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
/**
 * Events per ClickHouse insert when a batch is larger (the next chunk is decoded meanwhile). The
 * server's cost per row falls with the insert's size: at 8,192 it spent 9.0–11.8 µs of CPU per
 * opinion, at 65,536 4.6–6.6 (bench/ingest.ts, docs/benchmarks.md); a fetch (LDS_SINK_FETCH_BYTES)
 * bounds a batch, and so an insert, before this does for all but small rows.
 */
export const SINK_CHUNK = 65_536

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

/** One message for the sink: its row already in RowBinary, or its event decoded the generic way. */
export type SinkEvent = { resource: ResourceDef; row: Buffer; event?: undefined } | { resource: ResourceDef; event: EntityEvent; row?: undefined }

/** Rows per table from a batch of sink events (the transcoded rows' views joined where they touch). */
export function sinkRows(cat: Catalogue, events: readonly SinkEvent[]): TableRows {
  const generic: { event: EntityEvent; resource: ResourceDef }[] = []
  const rows = new Map<string, { resource: ResourceDef; rows: Buffer[] }>()
  for (const e of events) {
    if (!e.row) { generic.push(e); continue }
    let t = rows.get(e.resource.table)
    if (!t) rows.set(e.resource.table, (t = { resource: e.resource, rows: [] }))
    t.rows.push(e.row)
  }
  const out = eventsToRows(cat, generic)
  for (const [table, t] of rows) {
    let batch = out.get(table)
    if (!batch) out.set(table, (batch = { columns: sinkColumns(cat, t.resource), encoded: [], upserts: [], deletes: [] }))
    batch.encoded = coalesce(t.rows)
  }
  return out
}

/**
 * The Avro → RowBinary transcoders of one sink, one per writer schema id and table, compiled on
 * first use (undefined: that schema's events take the generic path).
 */
function transcoders(registry: Registry, cat: Catalogue) {
  const ready = new Map<string, RowTranscoder | undefined>()
  const pending = new Map<string, Promise<RowTranscoder | undefined>>()
  return {
    /** The transcoder when it is known (null: not compiled yet). */
    known(schemaId: number, r: ResourceDef): RowTranscoder | undefined | null {
      const id = `${schemaId}:${r.table}`
      return ready.has(id) ? ready.get(id) : null
    },
    compile,
  }
  async function compile(schemaId: number, r: ResourceDef): Promise<RowTranscoder | undefined> {
    const id = `${schemaId}:${r.table}`
    if (ready.has(id)) return ready.get(id)
    let p = pending.get(id)
    if (!p) {
      p = (async () => {
        const type = (await registry.client.getSchema(schemaId)) as unknown as { schema?: () => unknown }
        return typeof type.schema === 'function' ? compileRowTranscoder(type.schema(), sinkColumns(cat, r), r.key) : undefined
      })()
      pending.set(id, p)
    }
    try {
      const t = await p
      ready.set(id, t)
      return t
    } catch {
      // The generic decoder names the failure (an unknown schema id) for the dead-letter record.
      return undefined
    } finally {
      pending.delete(id)
    }
  }
}

export function tableSinkDef(deps: { cfg: Config; db: Db; registry: Registry; catalogue: Catalogue; resources?: string[]; watermarks?: WatermarkSender }): StreamDef<SinkEvent, TableRows> {
  const { cfg, db, catalogue: cat } = deps
  const resources = deps.resources ? deps.resources.map((n) => cat.get(n)) : [...cat.stored]
  const byTopic = new Map(resources.map((r) => [entityTopic(cfg, r), r]))
  const decode = createDecoder(deps.registry)
  const rowTranscoders = transcoders(deps.registry, cat)
  // One slab per topic partition: a partition's messages are decoded in order by one batch, so
  // its rows lie one after another and an insert sends a few long pieces.
  const slabs = new Map<string, RowSlab[]>()
  const decodeGeneric = async (m: Incoming, resource: ResourceDef): Promise<SinkEvent> => {
    const event = validateEntityEvent(await decode(m.message.value), resource.key)
    if (m.message.key && !keyEquals(m.message.key, event.key)) throw new Error(`message key ${m.message.key.toString('utf8')} differs from event key ${event.key}`)
    return { event, resource }
  }
  /** The message's row by `transcode`, or its event decoded the generic way where there is none or it hands the message back. */
  const decodeWith = (transcode: RowTranscoder | undefined, m: Incoming, resource: ResourceDef): SinkEvent | Promise<SinkEvent> => {
    const row = transcode?.(m.message.value!, m.message.key, slabOf(m))
    return row ? { resource, row } : decodeGeneric(m, resource)
  }
  const slabOf = (m: { topic: string; partition: number }) => {
    let byPartition = slabs.get(m.topic)
    if (!byPartition) slabs.set(m.topic, (byPartition = []))
    return (byPartition[m.partition] ??= new RowSlab())
  }
  /**
   * The records of one chunk read in place (the runner's opt-in, no object per message): each
   * upsert's row transcoded into its partition's slab, the rows kept as the runs of slab they fill
   * (no view per row); what the transcoder hands back is decoded the generic way from the record's
   * message, as `decode` does. The rows are those `decode` and `transform` make of the same messages.
   */
  const collector = (topic: string, partition: number): RecordCollector<TableRows> => {
    const resource = byTopic.get(topic)!
    const slab = slabOf({ topic, partition })
    const runs: Buffer[] = []
    let run: Buffer | undefined
    let runStart = 0
    let runEnd = 0
    const generic: { event: EntityEvent; resource: ResourceDef }[] = []
    const keepGeneric = async (records: RecordsInPlace, i: number) => {
      const e = await decodeGeneric({ topic, partition, message: records.message(i) }, resource)
      generic.push(e as { event: EntityEvent; resource: ResourceDef })
      c.size++
    }
    const addWith = (transcode: RowTranscoder | undefined, records: RecordsInPlace, i: number): void | Promise<void> => {
      const buf = records.buffer(i)
      const keyStart = records.keyStart(i)
      if (!transcode || !transcode.into(buf, records.valueStart(i), records.valueEnd(i), keyStart < 0 ? null : buf, keyStart, records.keyEnd(i), slab)) return keepGeneric(records, i)
      c.size++
      if (slab.current === run && slab.rowStart === runEnd) { runEnd = slab.offset; return }
      if (run) runs.push(run.subarray(runStart, runEnd))
      run = slab.current
      runStart = slab.rowStart
      runEnd = slab.offset
    }
    const c = {
      size: 0,
      add(records: RecordsInPlace, i: number): void | Promise<void> {
        const buf = records.buffer(i)
        const from = records.valueStart(i)
        if (from < 0 || records.valueEnd(i) - from <= 5 || buf[from] !== 0) return keepGeneric(records, i)
        const schemaId = buf.readUInt32BE(from + 1)
        const known = rowTranscoders.known(schemaId, resource)
        return known === null ? rowTranscoders.compile(schemaId, resource).then((t) => addWith(t, records, i)) : addWith(known, records, i)
      },
      done(): TableRows {
        const out = eventsToRows(cat, generic)
        if (run) {
          runs.push(run.subarray(runStart, runEnd))
          run = undefined
          let batch = out.get(resource.table)
          if (!batch) out.set(resource.table, (batch = { columns: sinkColumns(cat, resource), encoded: [], upserts: [], deletes: [] }))
          batch.encoded = runs
        }
        return out
      },
    }
    return c
  }
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
    // At once (no promise) for an event whose schema's transcoder is compiled and that it takes;
    // the first event of a schema waits for its compilation.
    decode(m: Incoming): SinkEvent | Promise<SinkEvent> {
      const resource = byTopic.get(m.topic)!
      const value = m.message.value
      if (!value || value.length <= 5 || value[0] !== 0) return decodeGeneric(m, resource)
      const schemaId = value.readUInt32BE(1)
      const known = rowTranscoders.known(schemaId, resource)
      return known === null ? rowTranscoders.compile(schemaId, resource).then((t) => decodeWith(t, m, resource)) : decodeWith(known, m, resource)
    },
    transform: (events) => sinkRows(cat, events.map((e) => e.event)),
    inPlace: { collector },
    async sink(rows) {
      const end = sinkInsertSeconds.startTimer({ stream: 'table-sink' })
      await Promise.all([...rows].flatMap(([table, b]) => [db.insertRows(table, b.columns, b.upserts, b.encoded), db.insert(table, b.deletes)]))
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
  // The watermark producer and the stream start at the same time; a batch's watermark waits for it.
  const opening = openWatermarks(deps)
  opening.catch(() => {})
  const [opened, streamed] = await Promise.allSettled([opening, startStream(tableSinkDef({ ...deps, watermarks: { send: async (w) => (await opening).send(w) } }), deps)])
  if (opened.status === 'rejected' || streamed.status === 'rejected') {
    await Promise.allSettled([opened.status === 'fulfilled' && opened.value.stop(), streamed.status === 'fulfilled' && streamed.value.stop()])
    throw opened.status === 'rejected' ? opened.reason : (streamed as PromiseRejectedResult).reason
  }
  const watermarks = opened.value
  const stream = streamed.value
  return {
    consumer: stream.consumer,
    async stop() { await stream.stop(); await watermarks.stop() },
  }
}
