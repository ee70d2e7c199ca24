/**
 * What both modes of the search-index role do with a batch of entity changes before they know the
 * documents it touches (indexer.ts one stage, repartition.ts two): wait for the table sink, and
 * gather the changed rows.
 */
import type { Config } from '../../core/config.js'
import type { Db } from '../../core/clickhouse.js'
import { DependencyError } from '../../core/dependency-error.js'
import { sql, ident } from '../../core/sql.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { entityTopic, validateEntityEvent, type EntityEvent } from '../../schemas/events/index.js'
import type { Watermarks } from '../../core/events/watermark-reader.js'
import { keepAlive, type Incoming, type BatchContext, type StreamDef } from '../runner.js'
import { SEARCH_SOURCES, type Row } from './documents.js'
import { offsetKey } from './seen-changes.js'
import { parentsAfter, type createParentLedger, type ParentsOf } from './parents.js'

/**
 * How long a batch waits for the table sink before the runner backs off and tries again. Longer
 * than the consumer's session timeout: the runner heartbeats meanwhile, and the wait (in slices)
 * gives the batch up once it is stale (rebalance, stop).
 */
const SINK_WAIT_MS = 60_000

export interface Change { resource: string; event: EntityEvent; source: Incoming }

/** The resources whose changes touch search documents, and their topics. */
export function searchedTopics(cfg: Pick<Config, 'topicPrefix'>, cat: Catalogue): Map<string, string> {
  const resources = [...new Set(Object.values(SEARCH_SOURCES).flat())].filter((r) => cat.has(r))
  return new Map(resources.map((r) => [entityTopic(cfg, r), r]))
}

/** Waits until the table sink has applied every message of the batch. */
export async function sinkCaughtUp(watermarks: Watermarks, last: readonly PartitionOffset[], batch: BatchContext | undefined): Promise<void> {
  for (const { topic, partition, offset } of last) {
    if (!await keepAlive(batch, SINK_WAIT_MS, (ms) => watermarks.waitUntilApplied(topic, partition, String(offset), ms), 'waiting for the table sink')) {
      throw new DependencyError('table sink', topic, `has not applied offset ${offset} of partition ${partition} within ${SINK_WAIT_MS / 1000} s; is the table-sink role running?`)
    }
  }
}
/** Deleted rows' last live states (their relations say which documents held them); best effort. */
async function lastLiveRows(db: Db, cat: Catalogue, resource: string, keys: string[]): Promise<Row[]> {
  const r = cat.get(resource)
  const typed = r.keyKind === 'int' ? keys.map(Number) : keys
  return db.withKeys<Row>(typed, r.keyKind === 'int' ? 'Int64' : 'String', (k) => sql`
    SELECT * FROM ${ident(db.database)}.${ident(r.table)} WHERE ${ident(r.key)} IN ${k} AND _deleted = 0 ORDER BY _version DESC LIMIT 1 BY ${ident(r.key)}`)
}

/** A batch's rows by resource: upserts as they are, deletes as their key with the row's last live state. */
export async function changedRows(db: Db, cat: Catalogue, changes: readonly Change[]): Promise<Map<string, Row[]>> {
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
    rowsOf.set(resource, [...(rowsOf.get(resource) ?? []), ...gone, ...await lastLiveRows(db, cat, resource, keys)])
  }
  return rowsOf
}

/** Per partition, the last offset of the changes. */
export function lastOffsets(changes: readonly Change[]): PartitionOffset[] {
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

export interface PartitionOffset { topic: string; partition: number; offset: bigint }

/** Both stages' stream decoding: a message of a searched topic as a change of its resource. */
export function changeStream(cat: Catalogue, byTopic: ReadonlyMap<string, string>, decode: (value: Buffer | null) => Promise<unknown>): Pick<StreamDef<Change, Change[]>, 'decode' | 'transform'> {
  return {
    async decode(m) {
      const resource = byTopic.get(m.topic)!
      return { resource, event: validateEntityEvent(await decode(m.message.value), cat.get(resource).key), source: m }
    },
    transform: (events) => events.map((e) => ({ ...e.event, source: e.source })),
  }
}

/**
 * What both stages read of a batch before they know its documents: its last offset per partition
 * (once the table sink has applied them), its rows, and the parents its rows have now and had when
 * last recorded.
 */
export async function readBatch(o: { db: Db; cat: Catalogue; watermarks: Watermarks; parents: ReturnType<typeof createParentLedger> }, changes: readonly Change[], batch: BatchContext | undefined):
  Promise<{ last: PartitionOffset[]; rowsOf: Map<string, Row[]>; parentsNow: ParentsOf; parentsBefore: ParentsOf }> {
  const last = lastOffsets(changes)
  await sinkCaughtUp(o.watermarks, last, batch)
  const rowsOf = await changedRows(o.db, o.cat, changes)
  const parentsNow = parentsAfter(changes.map((c) => ({ resource: c.resource, ...c.event })))
  const parentsBefore = await o.parents.recorded(parentsNow)
  return { last, rowsOf, parentsNow, parentsBefore }
}
