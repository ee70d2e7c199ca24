/**
 * A publisher for connectors that publish many changes (`ingest bulk`, `publish`): the calling
 * thread checks and encodes each change (the same wire format as publisher.ts) and worker threads
 * (publish-worker.ts), each with its own idempotent producer, send them to Kafka. kafkajs costs
 * about 25 µs of CPU per message on one thread, which capped a single-threaded publisher near 40k
 * events/s on an idle core; with workers the reading, checking and encoding overlap with it.
 *
 * Order per key: the partition of a key is chosen here, as kafkajs's default partitioner does
 * (murmur2, the same partition as Java clients choose), and a partition always belongs to the same
 * worker, which sends its batches one at a time in the order they were made. `flush` returns once
 * every worker has had every batch it was given acknowledged, so a checkpoint taken after it
 * covers only what Kafka holds.
 */
import { availableParallelism } from 'node:os'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { pathToFileURL } from 'node:url'
import { COMPILED, programFile } from '../programs.js'
import type { Config } from '../config.js'
import type { AvroEncoder } from '../../schemas/events/wire.js'
import { createVersioner, prepareEntityTopics, topicFor, isInvalidRecord, type BatchPublisher, type EntityTopic, type PublisherDeps, type PublisherStats } from './publisher.js'

/** Kafka's key hash as kafkajs's default partitioner computes it (a Java client's murmur2). */
const murmur2 = createRequire(import.meta.url)('kafkajs/src/producer/partitioners/default/murmur2.js') as (key: Buffer) => number

/** What a worker is started with. */
export interface WorkerSetup { index: number; brokers: string[]; logLevel: string; compression: Config['kafkaCompression'] }
/** One batch for one topic: keys and values back to back in `data`; `ends` holds each message's key end and value end. */
export interface PublishBatch { id: number; topic: string; data: Uint8Array; ends: Uint32Array; partitions: Uint16Array }
export type WorkerAnswer = { id: number; error?: string }

/**
 * Messages per batch sent to a worker. kafkajs groups a send's messages by partition by copying
 * the partition's array once per message, so its cost per message grows with the batch: 1,000
 * over a worker's partitions costs less than publisher.ts's 2,000 and still fills a request.
 */
const BATCH_SIZE = 1000
const BATCH_BYTES = 4 * 1024 * 1024
/** Batches a worker may have queued before the caller waits: enough to keep it busy, bounded memory. */
const QUEUED_PER_WORKER = 4

/** The partition kafkajs's default partitioner gives a key. */
export function partitionOf(key: Buffer, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions
}

/** Encodes messages for one worker and topic into one growing buffer, transferred whole. */
class BatchBuilder {
  data = Buffer.allocUnsafeSlow(256 * 1024)
  pos = 0
  ends: number[] = []
  partitions: number[] = []

  private grow(need: number) {
    const next = Buffer.allocUnsafeSlow(Math.max(2 * this.data.length, this.pos + need))
    this.data.copy(next, 0, 0, this.pos)
    this.data = next
  }

  /** Writes a message's key (UTF-8 bytes). */
  key(key: Buffer) {
    if (this.data.length - this.pos < key.length) this.grow(key.length)
    this.pos += key.copy(this.data, this.pos)
    this.ends.push(this.pos)
  }

  /** Writes the value after the key just written (magic byte, schema id, Avro body); returns its size. */
  value(schemaId: number, type: AvroEncoder, value: unknown): number {
    for (;;) {
      if (this.data.length - this.pos < 64) this.grow(64)
      const end = type.encode(value, this.data, this.pos + 5)
      if (end >= 0) {
        this.data[this.pos] = 0
        this.data.writeUInt32BE(schemaId, this.pos + 1)
        const n = end - this.pos
        this.pos = end
        this.ends.push(end)
        return n
      }
      // avsc answers with the bytes missing (negative) when the rest of the buffer is too small.
      this.grow(5 - end)
    }
  }

  /** Forgets the key written last (its value could not be encoded). */
  dropKey(length: number) { this.pos -= length; this.ends.pop() }

  get bytes() { return this.pos }
  get count() { return this.partitions.length }
}

interface Lane { worker: Worker; batches: Map<string, BatchBuilder>; queued: Promise<void>[]; exited: Promise<void> }

export function createParallelPublisher(deps: PublisherDeps & {
  threads?: number; batchSize?: number; batchBytes?: number
  onInvalid?: (resource: string, record: Record<string, unknown>, reason: string) => void
}): BatchPublisher {
  const { cfg, kafka, log } = deps
  const batchSize = deps.batchSize ?? BATCH_SIZE
  const batchBytes = deps.batchBytes ?? BATCH_BYTES
  const version = createVersioner()
  const stats: PublisherStats = { published: 0, invalid: 0, bytes: 0 }
  let topics = new Map<string, EntityTopic & { partitions: number }>()
  const lanes: Lane[] = []
  const waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void; count: number }>()
  let nextId = 0
  /** The first failure of a batch or a worker: thrown by the next call, as the single-thread publisher does. */
  let failed: Error | undefined
  let stopping = false

  function fail(err: Error) {
    failed ??= err
    for (const w of waiting.values()) w.reject(err)
    waiting.clear()
  }

  function startWorker(index: number): Promise<Lane> {
    const entry = pathToFileURL(programFile('core/events/publish-worker.ts')).href
    // Under the sources the worker's entry is TypeScript: tsx is registered in it first (a worker
    // does not inherit the loader). Compiled, it is imported as it is.
    const source = COMPILED
      ? `import(${JSON.stringify(entry)})`
      : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(entry)}) })`
    const setup: WorkerSetup = { index, brokers: [...cfg.kafkaBrokers], logLevel: cfg.logLevel, compression: cfg.kafkaCompression }
    const worker = new Worker(source, { eval: true, workerData: setup })
    const lane: Lane = { worker, batches: new Map(), queued: [], exited: new Promise((resolve) => worker.once('exit', () => resolve())) }
    return new Promise((resolve, reject) => {
      worker.on('message', (m: WorkerAnswer | { ready: true } | { stopped: true }) => {
        if ('ready' in m) { resolve(lane); return }
        if ('stopped' in m) { void worker.terminate(); return }
        const w = waiting.get(m.id)
        if (!w) return
        waiting.delete(m.id)
        // A batch Kafka refused stops the publisher: no batch is handed over after it.
        if (m.error) { const err = new Error(m.error); w.reject(err); fail(err) }
        else { stats.published += w.count; w.resolve() }
      })
      worker.once('error', (err: Error) => { reject(err); fail(err) })
      worker.once('exit', (code) => { if (code !== 0 && !stopping) fail(new Error(`publish worker ${index} stopped (exit ${code})`)) })
    })
  }

  /** Hands a batch to its worker; waits first while the worker has too many queued. */
  async function post(lane: Lane, topic: string, b: BatchBuilder) {
    lane.batches.delete(topic)
    if (b.count === 0) return
    while (lane.queued.length >= QUEUED_PER_WORKER) await lane.queued.shift()
    if (failed) throw failed
    const id = nextId++
    const data = new Uint8Array(b.data.buffer, b.data.byteOffset, b.pos)
    const batch: PublishBatch = { id, topic, data, ends: Uint32Array.from(b.ends), partitions: Uint16Array.from(b.partitions) }
    const acked = new Promise<void>((resolve, reject) => waiting.set(id, { resolve, reject, count: b.count }))
    acked.catch(() => {}) // awaited by a later post or flush, which throw its failure
    lane.queued.push(acked)
    lane.worker.postMessage(batch, [batch.data.buffer as ArrayBuffer, batch.ends.buffer as ArrayBuffer, batch.partitions.buffer as ArrayBuffer])
  }

  function builder(lane: Lane, topic: string): BatchBuilder {
    let b = lane.batches.get(topic)
    if (!b) { b = new BatchBuilder(); lane.batches.set(topic, b) }
    return b
  }

  let scratch = Buffer.allocUnsafe(1024)
  /** The key's UTF-8 bytes (in a reused buffer: only hashed and copied). */
  function keyBytes(key: string): Buffer {
    if (scratch.length < 3 * key.length) scratch = Buffer.allocUnsafe(3 * key.length)
    return scratch.subarray(0, scratch.write(key, 0, 'utf8'))
  }

  /** Encodes one change into the batch of its partition's worker, which is sent once full. */
  async function add(t: EntityTopic & { partitions: number }, key: string, event: unknown, onError?: (err: unknown) => void) {
    if (failed) throw failed
    const bytes = keyBytes(key)
    const partition = partitionOf(bytes, t.partitions)
    const lane = lanes[partition % lanes.length]
    const b = builder(lane, t.name)
    b.key(bytes)
    try {
      stats.bytes += b.value(t.schemaId, t.type, event)
    } catch (err) {
      b.dropKey(bytes.length)
      if (!onError) throw err
      onError(err)
      return
    }
    b.partitions.push(partition)
    if (b.count >= batchSize || b.bytes >= batchBytes) await post(lane, t.name, b)
  }

  const topicOf = (resource: string) => topicFor(topics, resource)

  return {
    stats,
    async start() {
      const prepared = await prepareEntityTopics(deps)
      const admin = kafka.admin()
      await admin.connect()
      try {
        const meta = await admin.fetchTopicMetadata({ topics: [...prepared.values()].map((t) => t.name) })
        const counts = new Map(meta.topics.map((m) => [m.name, m.partitions.length]))
        topics = new Map([...prepared].map(([r, t]) => [r, { ...t, partitions: counts.get(t.name) ?? cfg.partitions }]))
      } finally { await admin.disconnect() }
      const most = Math.max(...[...topics.values()].map((t) => t.partitions))
      // The calling thread reads, checks and encodes: the workers get the other cores.
      const threads = Math.max(1, Math.min(deps.threads ?? availableParallelism() - 1, most))
      lanes.push(...await Promise.all(Array.from({ length: threads }, (_, i) => startWorker(i))))
      log.debug({ threads }, 'parallel publisher started')
    },
    async upsert(resource, record) {
      let t, entity, key
      try {
        t = topicOf(resource)
        entity = t.codec.toEntity(record)
        key = t.codec.keyOf(record)
      } catch (err) {
        if (!isInvalidRecord(err)) throw err
        stats.invalid++
        deps.onInvalid?.(resource, record, (err as Error).message)
        return
      }
      await add(t, key, { op: 'upsert', version: version(), key, entity }, (err) => {
        if (!isInvalidRecord(err)) throw err
        stats.invalid++
        deps.onInvalid?.(resource, record, (err as Error).message)
      })
    },
    async delete(resource, key) {
      const k = String(key)
      await add(topicOf(resource), k, { op: 'delete', version: version(), key: k, entity: null })
    },
    async flush() {
      for (const lane of lanes) for (const [topic, b] of [...lane.batches]) await post(lane, topic, b)
      for (const lane of lanes) while (lane.queued.length) await lane.queued.shift()
      if (failed) throw failed
    },
    async stop() {
      try { if (!failed) await this.flush() } finally {
        stopping = true
        await Promise.all(lanes.map((lane) => {
          lane.worker.postMessage({ stop: true })
          // A worker that cannot disconnect (its broker gone) is ended after a while.
          const ending = setTimeout(() => { void lane.worker.terminate() }, 15_000)
          return lane.exited.finally(() => clearTimeout(ending))
        }))
        lanes.length = 0
        log.debug({ stats }, 'parallel publisher stopped')
      }
    },
  }
}

/** A started parallel publisher: topics exist, schemas are registered, the workers' producers are connected. */
export async function openParallelPublisher(deps: PublisherDeps, opts: { threads?: number; onInvalid?: (resource: string, record: Record<string, unknown>, reason: string) => void } = {}): Promise<BatchPublisher> {
  const pub = createParallelPublisher({ ...deps, ...opts })
  await pub.start()
  return pub
}
