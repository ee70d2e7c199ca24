/**
 * The search documents a change touches, as messages of the internal topic between the
 * search-index role's two stages (repartition.ts publishes them, indexer.ts builds them).
 *
 * Keyed by `type:id`, placed by the key's murmur2 hash as any Kafka producer would, so every key
 * of one document lands in one partition and so with one indexer instance: a document is built by
 * its owner only, in the order its changes were applied.
 *
 * A work queue, not compacted: a key marked `ifIndexed` (a court renamed: rebuild the documents
 * that show it, if they are indexed) would replace, under compaction, an earlier key that asks for
 * the document's first build, and the document would never be built. The retention only bounds
 * the disk: the repartition stage commits its entity offsets only once the indexer has committed
 * past its keys, so keys the indexer never read are published again.
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

/** A message of the topic as a DocumentKey; throws (the runner dead-letters it) when it is not one. */
export function decodeDocumentKey(value: Buffer | null): DocumentKey {
  if (!value) throw new Error('a search document key without a value')
  const v = JSON.parse(value.toString('utf8')) as Partial<DocumentKey>
  if (typeof v.type !== 'string' || !Object.hasOwn(SEARCH_TYPES, v.type)) throw new Error(`unknown search type ${JSON.stringify(v.type)}`)
  if (!Number.isSafeInteger(v.id)) throw new Error(`search document id ${JSON.stringify(v.id)} is not a whole number`)
  const after = Array.isArray(v.after) ? v.after : []
  for (const a of after) {
    if (!Array.isArray(a) || typeof a[0] !== 'string' || !Number.isInteger(a[1]) || !/^\d+$/.test(String(a[2]))) throw new Error(`bad change position ${JSON.stringify(a)}`)
  }
  return { type: v.type as SearchType, id: v.id!, ifIndexed: v.ifIndexed === true, after }
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
