/**
 * Which changes a search document's last build already saw, so the indexer can leave out a
 * build that would change nothing.
 *
 * The indexer builds a document from the tables the table sink keeps, not from the change that
 * asked for it, and a build sees every row the sink had applied when it began. So a change at an
 * offset the sink had applied before a document's last build began is already in that build. In a
 * catch-up this is the common case: a cluster is touched by its own topic, by its opinions', its
 * citations' and its docket's, and its first build (the sink being ahead) already holds them all;
 * building it again for each was ~2.8 builds per document.
 *
 * Per document, the number of its last build; per build, the sink's applied offsets when it began
 * (one map for the documents of a chunk). A build is recorded only once its documents are written
 * and searchable: a batch that fails and is retried builds them again. Bounded on both sides: past
 * `documents` per type (2M, about 30 bytes each) the oldest documents are forgotten, past `builds`
 * (10,000, a few KB each) the oldest builds; a document whose build is forgotten is built again
 * when a change touches it.
 */

/** `topic/partition` → an offset. */
export type Offsets = ReadonlyMap<string, bigint>

const keys = new Map<string, string[]>()
/** The key of a partition (one string per partition, shared by every map that holds it). */
export function offsetKey(topic: string, partition: number): string {
  let ofTopic = keys.get(topic)
  if (!ofTopic) keys.set(topic, ofTopic = [])
  return (ofTopic[partition] ??= `${topic}/${partition}`)
}

export interface SeenChanges {
  /**
   * Whether the document's last recorded build began after the sink had applied every change of
   * `last` (per partition, the last offset of the changes that touch it).
   */
  saw(type: string, id: number, last: Offsets): boolean
  /** Records that these documents were built from the tables as the sink had applied `applied` (offset after the last applied). */
  record(type: string, ids: readonly number[], applied: Offsets): void
  /** Documents remembered, for tests and logs. */
  size(): number
}

export function createSeenChanges(limits: { documents?: number; builds?: number } = {}): SeenChanges {
  const maxDocuments = limits.documents ?? 2_000_000
  const maxBuilds = limits.builds ?? 10_000
  const byType = new Map<string, Map<number, number>>()
  const builds = new Map<number, Offsets>()
  let next = 0
  return {
    saw(type, id, last) {
      const build = byType.get(type)?.get(id)
      const applied = build === undefined ? undefined : builds.get(build)
      if (!applied) return false
      for (const [key, offset] of last) if ((applied.get(key) ?? -1n) <= offset) return false
      return true
    },
    record(type, ids, applied) {
      if (!ids.length) return
      const build = next++
      builds.set(build, applied)
      for (const oldest of builds.keys()) {
        if (builds.size <= maxBuilds) break
        builds.delete(oldest)
      }
      let docs = byType.get(type)
      if (!docs) byType.set(type, docs = new Map())
      for (const id of ids) {
        // deleted first so that the map's order stays the order of builds (the oldest go first)
        docs.delete(id)
        docs.set(id, build)
      }
      for (const id of docs.keys()) {
        if (docs.size <= maxDocuments) break
        docs.delete(id)
      }
    },
    size: () => [...byType.values()].reduce((n, m) => n + m.size, 0),
  }
}
