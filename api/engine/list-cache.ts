/**
 * Cached list answers, as JSON text. An entry is keyed by the normalized request (version,
 * origin, path, sorted query, and who may see what: public, any user, or one user) and remembers
 * the epochs of the resources its answer was built from (the listed resource, those its objects
 * embed, those its filters join), as they were before the answer was computed; it is served only
 * while all those epochs are current, so no answer is older than what the table sink has applied. Least recently used entries go first
 * when the byte budget is spent.
 */
export interface Epochs { epoch(resource: string): number }

interface Entry { json: string; deps: readonly string[]; epochs: number[] }

export interface ListCache {
  get(key: string): string | undefined
  /** The epochs of `deps` now: take them before the answer is computed, give them to `set`. */
  snapshot(deps: readonly string[]): number[]
  set(key: string, deps: readonly string[], epochsBefore: number[], json: string): void
  readonly stats: { hits: number; misses: number; bytes: number; entries: number }
}

export function createListCache(epochs: Epochs, opts: { maxBytes?: number; maxEntryBytes?: number } = {}): ListCache {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024
  const maxEntryBytes = opts.maxEntryBytes ?? 2 * 1024 * 1024
  const entries = new Map<string, Entry>()
  const stats = { hits: 0, misses: 0, bytes: 0, entries: 0 }
  const drop = (key: string, e: Entry) => { entries.delete(key); stats.bytes -= e.json.length; stats.entries = entries.size }
  return {
    stats,
    get(key) {
      const e = entries.get(key)
      if (!e) { stats.misses++; return undefined }
      for (let i = 0; i < e.deps.length; i++) {
        if (epochs.epoch(e.deps[i]) !== e.epochs[i]) { drop(key, e); stats.misses++; return undefined }
      }
      entries.delete(key)
      entries.set(key, e) // most recently used last
      stats.hits++
      return e.json
    },
    snapshot: (deps) => deps.map((d) => epochs.epoch(d)),
    set(key, deps, epochsBefore, json) {
      if (json.length > maxEntryBytes) return
      const old = entries.get(key)
      if (old) drop(key, old)
      // Epochs from before the query: if the sink applied more meanwhile, the entry is already stale.
      entries.set(key, { json, deps, epochs: epochsBefore })
      stats.bytes += json.length
      for (const [k, e] of entries) {
        if (stats.bytes <= maxBytes) break
        drop(k, e)
      }
      stats.entries = entries.size
    },
  }
}

/** The cache key of a list request: query parameters sorted so that their order does not matter. */
export function listKey(parts: { version: string; origin: string; path: string; params: Map<string, string[]>; viewer: string }): string {
  const q = [...parts.params].flatMap(([k, vs]) => vs.map((v) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).sort().join('&')
  return `${parts.version}|${parts.viewer}|${parts.origin}${parts.path}?${q}`
}
