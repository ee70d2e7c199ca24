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
 * Per document, the sink's applied offsets when its last build began (one map shared by the
 * documents of a chunk, gone with the last of them). A build is recorded
 * only once its documents are written and searchable: a batch that fails and is retried builds
 * them again. Bounded: past `limit` documents of a type, the oldest are forgotten, and built again
 * if a change touches them.
 */

/** `topic/partition` → an offset. */
export type Offsets = ReadonlyMap<string, bigint>

export const offsetKey = (topic: string, partition: number) => `${topic}/${partition}`

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

export function createSeenChanges(limit = 500_000): SeenChanges {
  const byType = new Map<string, Map<number, Offsets>>()
  return {
    saw(type, id, last) {
      const applied = byType.get(type)?.get(id)
      if (!applied) return false
      for (const [key, offset] of last) if ((applied.get(key) ?? -1n) <= offset) return false
      return true
    },
    record(type, ids, applied) {
      let docs = byType.get(type)
      if (!docs) byType.set(type, docs = new Map())
      for (const id of ids) {
        // deleted first so that the map's order stays the order of builds (the oldest go first)
        docs.delete(id)
        docs.set(id, applied)
      }
      for (const id of docs.keys()) {
        if (docs.size <= limit) break
        docs.delete(id)
      }
    },
    size: () => [...byType.values()].reduce((n, m) => n + m.size, 0),
  }
}
