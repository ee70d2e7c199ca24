/**
 * Serialized objects kept between requests: a docket as a detail or a list row costs a row decode,
 * its embedded objects and a read per related set; the same docket asked again costs a map lookup.
 *
 * Each resource has one slot, valid while the epochs of every resource its objects are built from
 * (dependencies.ts `serializedFrom`: itself, its related sets, embedded objects, overlays) are those
 * the slot was filled at. Any change to one of them empties the slot, which is coarse but never
 * stale: objects built during a request are stored only if no epoch moved meanwhile (the list
 * cache's rule). Objects depend on the API version and origin (their URLs), never on the caller:
 * resources whose rows depend on who asks are not cached by the reader. Served objects are shared:
 * callers copy before they change one (field selection builds new objects). An object is kept
 * from its second request on (a doorkeeper of keys seen once, as the list cache does): random
 * one-off reads, a detail load over a million ids, would otherwise fill the memory and churn it.
 */
import type { Epochs } from './list-cache.js'

/** One request's use of a slot: what it finds, and what it built to be kept. */
export interface ObjectLease {
  get(key: unknown): Record<string, unknown> | undefined
  put(key: unknown, obj: Record<string, unknown>): void
  /** Keeps what was put, unless a dependency changed since the lease began. */
  end(): void
}

export interface ObjectCache {
  /** A lease on the slot of `resource`, whose objects are built from `deps` (resource names). */
  lease(resource: string, deps: readonly string[], version: string, origin: string): ObjectLease
  readonly stats: { hits: number; misses: number; entries: number }
}

interface Slot { deps: readonly string[]; at: number[]; objects: Map<string, Record<string, unknown>>; seenOnce: Set<string>; admit: Set<string> }

export function createObjectCache(epochs: Epochs, opts: { maxEntries?: number } = {}): ObjectCache {
  const maxEntries = opts.maxEntries ?? 5_000
  const stats = { hits: 0, misses: 0, entries: 0 }
  const slots = new Map<string, Slot>()
  const now = (deps: readonly string[]) => deps.map((d) => epochs.epoch(d))
  const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i])

  /** Room for `n` more: drops the oldest tenth of every slot (maps iterate in insertion order). */
  function makeRoom(n: number) {
    if (stats.entries + n <= maxEntries) return
    stats.entries = 0
    for (const s of slots.values()) {
      let drop = Math.max(Math.ceil(s.objects.size / 10), n)
      for (const k of s.objects.keys()) { if (drop-- <= 0) break; s.objects.delete(k) }
      stats.entries += s.objects.size
    }
  }

  return {
    stats,
    lease(resource, deps, version, origin) {
      let slot = slots.get(resource)
      if (!slot) { slot = { deps, at: [], objects: new Map(), seenOnce: new Set(), admit: new Set() }; slots.set(resource, slot) }
      const s = slot
      const begun = now(s.deps)
      if (!same(begun, s.at)) {
        // Kept objects were asked for before: their next build is kept again at once.
        for (const k of s.objects.keys()) if (s.admit.size < maxEntries) s.admit.add(k)
        stats.entries -= s.objects.size
        s.objects.clear()
        s.at = begun
      }
      const prefix = `${version}|${origin}|`
      let built: [string, Record<string, unknown>][] | undefined
      return {
        get(key) {
          const k = prefix + String(key)
          const obj = s.objects.get(k)
          if (obj) { stats.hits++; return obj }
          stats.misses++
          if (s.seenOnce.delete(k)) { if (s.admit.size < maxEntries) s.admit.add(k) }
          else { if (s.seenOnce.size >= 4 * maxEntries) s.seenOnce.clear(); s.seenOnce.add(k) }
          return undefined
        },
        put(key, obj) {
          const k = prefix + String(key)
          if (s.admit.has(k)) (built ??= []).push([k, obj])
        },
        end() {
          if (!built || !same(now(s.deps), begun) || !same(s.at, begun)) return
          makeRoom(built.length)
          for (const [k, obj] of built) {
            s.admit.delete(k)
            if (!s.objects.has(k)) stats.entries++
            s.objects.set(k, obj)
          }
        },
      }
    },
  }
}
