/**
 * Cached list answers, as the bytes of their JSON (sent as they are: nothing is encoded per hit).
 * An entry is keyed by the normalized request (version, origin, path, sorted query, and who may see
 * what: public, any user, or one user) and remembers the epochs of the resources its answer was
 * built from (the listed resource, those its objects embed, those its filters join), as they were
 * before the answer was computed; it is served only while all those epochs are current. An epoch
 * moves when the table sink applies more (the page's keys come from ClickHouse) and when the read
 * model does (its rows come from there): an answer built while either lagged the other is replaced
 * once the lagging one catches up. Least recently used entries go first when the byte budget is spent.
 * A list is kept only from its second request on (a doorkeeper of keys seen once): a stream of
 * one-off lists, a new filter each, would otherwise fill the budget with answers nobody asks again.
 */
export interface Epochs { epoch(resource: string): number }

interface Entry { body: Buffer; deps: readonly string[]; epochs: number[] }

export interface ListCache {
  get(key: string): Buffer | undefined
  /** The epochs of `deps` now: take them before the answer is computed, give them to `set`. */
  snapshot(deps: readonly string[]): number[]
  /** Stores the answer, unless an epoch moved since `epochsBefore` (the answer may mix old and new). */
  set(key: string, deps: readonly string[], epochsBefore: number[], body: Buffer): void
  readonly stats: { hits: number; misses: number; bytes: number; entries: number }
}

export function createListCache(epochs: Epochs, opts: { maxBytes?: number; maxEntryBytes?: number; maxSeen?: number } = {}): ListCache {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024
  const maxEntryBytes = opts.maxEntryBytes ?? 2 * 1024 * 1024
  const entries = new Map<string, Entry>()
  const maxSeen = opts.maxSeen ?? 100_000
  let seenOnce = new Set<string>()
  /** Keys whose answer the next `set` keeps: missed a second time, or dropped as stale (they were kept before). */
  const admit = new Set<string>()
  const stats = { hits: 0, misses: 0, bytes: 0, entries: 0 }
  const drop = (key: string, e: Entry) => { entries.delete(key); stats.bytes -= e.body.length; stats.entries = entries.size }
  return {
    stats,
    get(key) {
      const e = entries.get(key)
      if (!e) {
        stats.misses++
        if (seenOnce.has(key)) { seenOnce.delete(key); if (admit.size < maxSeen) admit.add(key) }
        else { if (seenOnce.size >= maxSeen) seenOnce = new Set(); seenOnce.add(key) }
        return undefined
      }
      for (let i = 0; i < e.deps.length; i++) {
        if (epochs.epoch(e.deps[i]) !== e.epochs[i]) { drop(key, e); stats.misses++; if (admit.size < maxSeen) admit.add(key); return undefined }
      }
      entries.delete(key)
      entries.set(key, e) // most recently used last
      stats.hits++
      return e.body
    },
    snapshot: (deps) => deps.map((d) => epochs.epoch(d)),
    set(key, deps, epochsBefore, body) {
      if (body.length > maxEntryBytes) return
      if (!admit.has(key)) return
      const old = entries.get(key)
      if (old) drop(key, old)
      // Built across a change: it would be served as of the old epochs with part of the new data.
      for (let i = 0; i < deps.length; i++) if (epochs.epoch(deps[i]) !== epochsBefore[i]) return
      admit.delete(key)
      entries.set(key, { body, deps, epochs: epochsBefore })
      stats.bytes += body.length
      for (const [k, e] of entries) {
        if (stats.bytes <= maxBytes) break
        drop(k, e)
      }
      stats.entries = entries.size
    },
  }
}

/**
 * The cache key of a list request: the URL as sent (parsing and sorting its query would cost a hit
 * more than the rare miss of the same parameters in another order), the origin its absolute URLs
 * use, and who is asking.
 */
export function listKey(parts: { version: string; origin: string; url: string; viewer: string }): string {
  return `${parts.version}|${parts.viewer}|${parts.origin}${parts.url}`
}
