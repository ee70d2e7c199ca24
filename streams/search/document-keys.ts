/**
 * The search documents a change touches, as messages of the internal topic between the
 * search-index role's two stages (repartition.ts publishes them, indexer.ts builds them).
 *
 * A document's partition is the murmur2 hash of `type:id`, as any Kafka producer would place that
 * key, so every key of one document lands in one partition and so with one indexer instance: a
 * document is built by its owner only, in the order its changes were applied. A message carries
 * up to KEYS_PER_MESSAGE keys of one partition (encodeDocumentKeys).
 *
 * A work queue, not compacted: a key marked `ifIndexed` (a court renamed: rebuild the documents
 * that show it, if they are indexed) would replace, under compaction, an earlier key that asks for
 * the document's first build, and the document would never be built. The repartition stage
 * commits its entity offsets once its keys are durable here, so the retention (a week) is how long
 * the builders may fall behind it before keys are lost; both stages run in every instance of the
 * role and need the same ClickHouse, so they stop together.
 */
import { Partitioners, type Message, type PartitionerArgs } from 'kafkajs'
import type { Config } from '../../core/config.js'
import { plainTopic } from '../../core/kafka.js'
import { searchDocumentsTopic } from '../../schemas/events/index.js'
import { SEARCH_TYPES, type SearchType } from '../../domain/search/index.js'
import { offsetKey } from './seen-changes.js'

/** A week: an indexer down that long still finds its keys (and a longer outage is published again). */
const RETENTION_MS = 7 * 24 * 3600_000

export const documentKeysTopicConfig = (cfg: Pick<Config, 'topicPrefix' | 'partitions'>) => plainTopic(searchDocumentsTopic(cfg), cfg.partitions, RETENTION_MS)

/** One entity change that asked for a document: where it is in its topic. */
export type ChangeAt = readonly [topic: string, partition: number, offset: string]

export interface DocumentKey {
  type: SearchType
  id: number
  /**
   * Build the document only if it is already in the index (a row many documents show changed:
   * one not yet indexed reads the row as it is when its own first build comes). Decided by the
   * owner, in order with the document's other keys: decided earlier, a first build in flight
   * elsewhere could be missed and keep the old row.
   */
  ifIndexed: boolean
  /** Per source partition, the last entity change that asked for it (the indexer skips a build that already saw them). */
  after: readonly ChangeAt[]
}

const partitioner = Partitioners.DefaultPartitioner()
const metadataCache = new Map<number, PartitionerArgs['partitionMetadata']>()

/** The partition of a document's keys among `partitions`: Kafka's default partitioner on the message key. */
export function partitionOf(type: SearchType, id: number, partitions: number): number {
  let metadata = metadataCache.get(partitions)
  if (!metadata) metadataCache.set(partitions, metadata = Array.from({ length: partitions }, (_, partitionId) => ({ partitionErrorCode: 0, partitionId, leader: 0, replicas: [0], isr: [0], offlineReplicas: [] })))
  return partitioner({ topic: '', partitionMetadata: metadata, message: { key: `${type}:${id}`, value: null } })
}

export function encodeDocumentKey(k: DocumentKey, partitions: number): Message & { partition: number } {
  return { key: `${k.type}:${k.id}`, partition: partitionOf(k.type, k.id, partitions), value: JSON.stringify({ type: k.type, id: k.id, ifIndexed: k.ifIndexed, after: k.after }) }
}

/**
 * Keys per message. A message per key cost the repartition stage more in KafkaJS (record encoding,
 * CRC, the producer's grouping; then the consumer's decoding) than its mapping: about 2.8 keys
 * are published per build. Keys of one batch share their change positions (`after`), written once.
 */
export const KEYS_PER_MESSAGE = 1_000

/**
 * A batch's keys as messages, each for one partition, in order: `{"after": [...], "keys": [[type,
 * id, ifIndexed 0|1], ...]}`. Every key of a message has the message's `after`.
 */
export function encodeDocumentKeys(keys: readonly DocumentKey[], partitions: number): (Message & { partition: number })[] {
  const groups = new Map<string, { partition: number; after: readonly ChangeAt[]; keys: [SearchType, number, 0 | 1][] }>()
  const out: (Message & { partition: number })[] = []
  const flush = (g: { partition: number; after: readonly ChangeAt[]; keys: [SearchType, number, 0 | 1][] }) => {
    out.push({ key: String(g.partition), partition: g.partition, value: JSON.stringify({ after: g.after, keys: g.keys }) })
    g.keys = []
  }
  const afterIds = new Map<readonly ChangeAt[], number>()
  for (const k of keys) {
    const partition = partitionOf(k.type, k.id, partitions)
    let afterId = afterIds.get(k.after)
    if (afterId === undefined) afterIds.set(k.after, afterId = afterIds.size)
    const id = `${partition}:${afterId}`
    let g = groups.get(id)
    if (!g) groups.set(id, g = { partition, after: k.after, keys: [] })
    g.keys.push([k.type, k.id, k.ifIndexed ? 1 : 0])
    if (g.keys.length >= KEYS_PER_MESSAGE) flush(g)
  }
  for (const g of groups.values()) if (g.keys.length) flush(g)
  return out
}

/** A message of the topic as its keys (encodeDocumentKeys, or one key as encodeDocumentKey writes it); throws (the runner dead-letters it) when it is neither. */
export function decodeDocumentKeys(value: Buffer | null): DocumentKey[] {
  if (!value) throw new Error('a search document key without a value')
  const v = JSON.parse(value.toString('utf8')) as { after?: unknown; keys?: unknown }
  if (!Array.isArray(v.keys)) return [decodeDocumentKey(value)]
  const after = changePositions(v.after)
  return v.keys.map((k: unknown) => {
    if (!Array.isArray(k)) throw new Error(`bad search document key ${JSON.stringify(k)}`)
    return checked({ type: k[0], id: k[1], ifIndexed: k[2] === 1 }, after)
  })
}

function changePositions(value: unknown): ChangeAt[] {
  const after = Array.isArray(value) ? value as ChangeAt[] : []
  for (const a of after) {
    if (!Array.isArray(a) || typeof a[0] !== 'string' || !Number.isInteger(a[1]) || !/^\d+$/.test(String(a[2]))) throw new Error(`bad change position ${JSON.stringify(a)}`)
  }
  return after
}

function checked(v: { type?: unknown; id?: unknown; ifIndexed?: unknown }, after: readonly ChangeAt[]): DocumentKey {
  if (typeof v.type !== 'string' || !Object.hasOwn(SEARCH_TYPES, v.type)) throw new Error(`unknown search type ${JSON.stringify(v.type)}`)
  if (!Number.isSafeInteger(v.id)) throw new Error(`search document id ${JSON.stringify(v.id)} is not a whole number`)
  return { type: v.type as SearchType, id: v.id as number, ifIndexed: v.ifIndexed === true, after }
}

/** A message of one key (encodeDocumentKey) as a DocumentKey; throws when it is not one. */
export function decodeDocumentKey(value: Buffer | null): DocumentKey {
  if (!value) throw new Error('a search document key without a value')
  const v = JSON.parse(value.toString('utf8')) as Partial<DocumentKey>
  return checked(v, changePositions(v.after))
}

/** What a batch asks of one document: built unless every key asked only if indexed; the last change per source partition. */
export interface Wanted { ifIndexed: boolean; after: Map<string, bigint> }

/** A batch's keys by type and document: a document asked for several times is built once. */
export function wantedOf(keys: readonly DocumentKey[]): Map<SearchType, Map<number, Wanted>> {
  const out = new Map<SearchType, Map<number, Wanted>>()
  for (const k of keys) {
    let ofType = out.get(k.type)
    if (!ofType) out.set(k.type, ofType = new Map())
    let w = ofType.get(k.id)
    if (!w) ofType.set(k.id, w = { ifIndexed: true, after: new Map() })
    w.ifIndexed &&= k.ifIndexed
    for (const [t, partition, offset] of k.after) {
      const key = offsetKey(t, partition)
      const at = BigInt(offset)
      if ((w.after.get(key) ?? -1n) < at) w.after.set(key, at)
    }
  }
  return out
}
