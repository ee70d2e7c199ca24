/**
 * The search-index role's first stage: maps each entity change to the search documents it touches
 * (documents.ts `affected`: a court renamed touches every document that shows it, an opinion its
 * cluster's document…) and publishes their keys to the search documents topic (document-keys.ts),
 * where each document has one partition and so one owner among the indexer instances
 * (indexer.ts). Two instances used to build every document a change touched each, twice the
 * work, and a rename handled by one could miss a document the other was building.
 *
 * Before mapping a batch it waits until the table sink has applied it (the lookups read the sink's
 * tables, and a key published after that makes every build of it read the change). It commits
 * the batch's entity offsets only once the indexer group has committed past every key it
 * published: what this group has committed is built, searchable and percolated, as before the
 * split, and a crash between the two stages publishes the keys again (a build is idempotent).
 */
import type { Kafka, Producer } from 'kafkajs'
import type { Config } from '../../core/config.js'
import type { Db } from '../../core/clickhouse.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import { DependencyError } from '../../core/dependency-error.js'
import { idempotentProducer } from '../../core/kafka.js'
import { sql, ident } from '../../core/sql.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { entityTopic, dlqTopic, groupId, searchDocumentsTopic, createDecoder, validateEntityEvent, createVersioner, type EntityEvent } from '../../schemas/events/index.js'
import type { Watermarks } from '../../core/events/watermark-reader.js'
import { SEARCH_TYPES, type SearchType } from '../../domain/search/index.js'
import { startStream, keepAlive, type StreamDef, type Incoming, type BatchContext, type ConsumerTimeouts } from '../runner.js'
import { SEARCH_SOURCES, type DocumentSource, type Row } from './documents.js'
import { createParentLedger, parentsAfter } from './parents.js'
import { encodeDocumentKey, type ChangeAt, type DocumentKey } from './document-keys.js'
import { offsetKey } from './seen-changes.js'
import type { CommitWatch } from './commit-watch.js'

/**
 * The entity side's consumer group keeps the name the indexer had before the split: what it has
 * committed still means indexed and searchable, which readiness checks and tests wait for.
 */
export const SEARCH_REPARTITION = 'search-indexer'

/** How long a batch waits for the table sink before the runner backs off and tries again (see keepAlive). */
const SINK_WAIT_MS = 60_000
/** How long a batch waits for the indexer to build its documents: a catch-up batch can touch tens of thousands. */
const INDEXER_WAIT_MS = 15 * 60_000
/** Entity partitions whose batches are mapped and waited for at once. */
const ROUTES_IN_PARALLEL = 4
/** Keys per produce request. */
const SEND_CHUNK = 10_000

export interface RepartitionDeps {
  cfg: Config; kafka: Kafka; registry: Registry; log: Logger; db: Db; catalogue: Catalogue
  watermarks: Watermarks
  source: DocumentSource
  /** The indexer group's commits of the documents topic. */
  indexed: CommitWatch
  /** Partitions of the documents topic. */
  partitions: number
  consumerTimeouts?: ConsumerTimeouts
}

interface Change { resource: string; event: EntityEvent; source: Incoming }
interface PartitionOffset { topic: string; partition: number; offset: bigint }

/** The resources whose changes touch search documents, and their topics. */
export function searchedTopics(cfg: Pick<Config, 'topicPrefix'>, cat: Catalogue): Map<string, string> {
  const resources = [...new Set(Object.values(SEARCH_SOURCES).flat())].filter((r) => cat.has(r))
  return new Map(resources.map((r) => [entityTopic(cfg, r), r]))
}

export async function startRepartition(deps: RepartitionDeps) {
  const { cfg, db, catalogue: cat, source, watermarks, indexed } = deps
  const log = deps.log.child({ stream: 'search-repartition' })
  const decode = createDecoder(deps.registry)
  const version = createVersioner()
  const byTopic = searchedTopics(cfg, cat)
  const table = (name: string) => sql`${ident(db.database)}.${ident(name)}`
  const parents = createParentLedger(db)
  const topic = searchDocumentsTopic(cfg)
  const producer: Producer = idempotentProducer(deps.kafka)
  await producer.connect()

  async function sinkCaughtUp(last: readonly PartitionOffset[], batch: BatchContext | undefined): Promise<void> {
    for (const { topic: t, partition, offset } of last) {
      if (!await keepAlive(batch, SINK_WAIT_MS, (ms) => watermarks.waitUntilApplied(t, partition, String(offset), ms), 'waiting for the table sink')) {
        throw new DependencyError('table sink', t, `has not applied offset ${offset} of partition ${partition} within ${SINK_WAIT_MS / 1000} s; is the table-sink role running?`)
      }
    }
  }

  /** A deleted row's last live state (its relations say which documents held it); best effort. */
  async function lastLiveRows(resource: string, keys: string[]): Promise<Row[]> {
    const r = cat.get(resource)
    const typed = r.keyKind === 'int' ? keys.map(Number) : keys
    return db.withKeys<Row>(typed, r.keyKind === 'int' ? 'Int64' : 'String', (k) => sql`
      SELECT * FROM ${table(r.table)} WHERE ${ident(r.key)} IN ${k} AND _deleted = 0 ORDER BY _version DESC LIMIT 1 BY ${ident(r.key)}`)
  }

  /** The documents a batch of changes touches. */
  async function touched(changes: readonly Change[], after: readonly ChangeAt[], parentsBefore: Awaited<ReturnType<typeof parents.recorded>>): Promise<DocumentKey[]> {
    const rowsOf = new Map<string, Row[]>()
    const deleted = new Map<string, string[]>()
    for (const { resource, event } of changes) {
      if (event.op === 'upsert' && event.entity) {
        const list = rowsOf.get(resource) ?? []
        list.push(event.entity)
        rowsOf.set(resource, list)
      } else {
        deleted.set(resource, [...(deleted.get(resource) ?? []), event.key])
      }
    }
    for (const [resource, keys] of deleted) {
      const r = cat.get(resource)
      const gone = keys.map((k) => ({ [r.key]: r.keyKind === 'int' ? Number(k) : k }))
      rowsOf.set(resource, [...(rowsOf.get(resource) ?? []), ...gone, ...await lastLiveRows(resource, keys)])
    }
    const keys: DocumentKey[] = []
    for (const type of Object.keys(SEARCH_TYPES) as SearchType[]) {
      const ids = new Set<number>()
      const ifIndexed = new Set<number>()
      for (const resource of SEARCH_SOURCES[type]) {
        const rows = rowsOf.get(resource)
        // with the parents a moved or deleted row was last indexed under
        if (rows?.length) for (const id of await source.affected(type, resource, rows, [...parentsBefore.get(resource)?.values() ?? []].flat(), ifIndexed)) ids.add(id)
      }
      for (const id of ids) keys.push({ type, id, ifIndexed: false, after })
      for (const id of ifIndexed) if (!ids.has(id)) keys.push({ type, id, ifIndexed: true, after })
    }
    return keys
  }

  /** Publishes the keys; per partition of the documents topic, the offset after the last one. */
  async function publish(keys: readonly DocumentKey[]): Promise<Map<number, bigint>> {
    const ends = new Map<number, bigint>()
    for (let i = 0; i < keys.length; i += SEND_CHUNK) {
      const messages = keys.slice(i, i + SEND_CHUNK).map((k) => encodeDocumentKey(k, deps.partitions))
      const counts = new Map<number, number>()
      for (const m of messages) counts.set(m.partition, (counts.get(m.partition) ?? 0) + 1)
      for (const r of await producer.send({ topic, acks: -1, messages })) {
        const end = BigInt(r.baseOffset ?? '0') + BigInt(counts.get(r.partition) ?? 0)
        if ((ends.get(r.partition) ?? -1n) < end) ends.set(r.partition, end)
      }
    }
    return ends
  }

  async function route(changes: Change[], batch?: BatchContext): Promise<void> {
    if (!changes.length) return
    const last = lastOffsets(changes)
    await sinkCaughtUp(last, batch)
    const parentsNow = parentsAfter(changes.map((c) => ({ resource: c.resource, ...c.event })))
    const parentsBefore = await parents.recorded(parentsNow)
    const keys = await touched(changes, last.map((p) => [p.topic, p.partition, String(p.offset)] as const), parentsBefore)
    if (keys.length) {
      const ends = await publish(keys)
      if (!await keepAlive(batch, INDEXER_WAIT_MS, (ms) => indexed.reached(ends, ms), 'waiting for the search indexer')) {
        throw new DependencyError('Kafka', topic, `has no commit of the search indexer past a batch's keys within ${INDEXER_WAIT_MS / 60_000} min; is the search-index role running?`)
      }
    }
    // recorded once the documents are built: a batch retried reads the same old parents again
    await parents.record(parentsNow, parentsBefore, version())
    log.debug({ changes: changes.length, documents: keys.length }, 'search documents routed')
  }

  const def: StreamDef<Change, Change[]> = {
    name: 'search-repartition',
    groupId: groupId(cfg, SEARCH_REPARTITION),
    topics: [...byTopic.keys()],
    dlqTopic: dlqTopic(cfg, SEARCH_REPARTITION),
    async decode(m) {
      const resource = byTopic.get(m.topic)!
      return { resource, event: validateEntityEvent(await decode(m.message.value), cat.get(resource).key), source: m }
    },
    transform: (events) => events.map((e) => ({ ...e.event, source: e.source })),
    sink: route,
    // a batch mostly waits for the indexer: several partitions' batches wait together, and the
    // indexer gets their keys in fewer, larger batches (their rows and parents are apart: a key's
    // changes are all in one partition)
    concurrency: ROUTES_IN_PARALLEL,
    timeouts: deps.consumerTimeouts,
  }
  const stream = await startStream(def, deps)
  return {
    consumer: stream.consumer,
    async stop() { await stream.stop(); await producer.disconnect() },
  }
}

/** Per partition, the last offset of the changes. */
function lastOffsets(changes: readonly Change[]): PartitionOffset[] {
  const out = new Map<string, PartitionOffset>()
  for (const { source: s } of changes) {
    const key = offsetKey(s.topic, s.partition)
    const offset = BigInt(s.message.offset)
    const at = out.get(key)
    if (!at) out.set(key, { topic: s.topic, partition: s.partition, offset })
    else if (at.offset < offset) at.offset = offset
  }
  return [...out.values()]
}
