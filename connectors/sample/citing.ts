/**
 * What later opinions may cite: earlier clusters kept in bounded rings (per court, circuit and
 * state), a ring of the most recent and a reservoir sample of all, so memory stays constant
 * however large the corpus; and the landmark decisions of each area, kept whole (a few hundred),
 * which opinions of that area cite by preference. Drawing a target follows the courts a court
 * usually cites: the Supreme Court, its own circuit or state, anything.
 */
import { circuitOn, type Family, type PoolCourt } from './court-pool.js'
import type { Rng } from './random.js'
import type { CiteTarget } from './text.js'

/** A fixed-size ring of the most recent items. */
export class Ring<T> {
  private items: T[] = []
  private at = 0
  constructor(private readonly size: number) {}
  push(x: T) {
    if (this.items.length < this.size) this.items.push(x)
    else { this.items[this.at] = x; this.at = (this.at + 1) % this.size }
  }
  pick(rng: Rng): T | undefined { return this.items.length ? this.items[rng.int(0, this.items.length - 1)] : undefined }
}

/** A uniform sample of everything pushed so far (reservoir sampling). */
export class Reservoir<T> {
  private items: T[] = []
  private seen = 0
  constructor(private readonly size: number) {}
  push(x: T, rng: Rng) {
    this.seen++
    if (this.items.length < this.size) this.items.push(x)
    else { const j = rng.int(0, this.seen - 1); if (j < this.size) this.items[j] = x }
  }
  pick(rng: Rng): T | undefined { return this.items.length ? this.items[rng.int(0, this.items.length - 1)] : undefined }
}

export interface Citable { cluster: number; day: number; scotus: boolean; target: CiteTarget }

/** Share of citations an opinion draws from the landmarks of its own area, when there are some. */
const LANDMARK_SHARE = 0.12

export interface CitationIndex {
  /** Makes a cluster citable; `landmarkArea` files it with the landmarks of that area too. */
  add(entry: Citable, court: PoolCourt, rng: Rng, landmarkArea?: string): void
  /** An earlier cluster for an opinion of `court` and `area` decided on `day` to cite, none already `chosen`. */
  choose(rng: Rng, court: PoolCourt, area: string, day: number, self: number, chosen: Set<number>): Citable | undefined
}

function groupKeys(court: PoolCourt, day: number): string[] {
  const keys = [`court:${court.id}`]
  if (court.family === 'circuit') keys.push(`circ:${court.id}`)
  if (court.family === 'district' || court.family === 'bankruptcy') keys.push(`circ:${circuitOn(court, day)}`)
  if (court.family === 'supreme' || court.family === 'appellate') keys.push(`state:${court.state}`)
  return keys
}

/** Where a court's opinions draw their citations from, with weights. */
function sourcesOf(court: PoolCourt, day: number): [string, number][] {
  const sources: Record<Family, () => [string, number][]> = {
    scotus: () => [['court:scotus', 0.7], ['global', 0.3]],
    circuit: () => [['court:scotus', 0.35], [`circ:${court.id}`, 0.45], ['global', 0.2]],
    district: () => [['court:scotus', 0.3], [`circ:${circuitOn(court, day)}`, 0.35], [`court:${court.id}`, 0.15], ['global', 0.2]],
    bankruptcy: () => [['court:scotus', 0.15], [`circ:${circuitOn(court, day)}`, 0.45], ['global', 0.4]],
    supreme: () => [['court:scotus', 0.2], [`state:${court.state}`, 0.6], ['global', 0.2]],
    appellate: () => [['court:scotus', 0.15], [`state:${court.state}`, 0.65], ['global', 0.2]],
  }
  return sources[court.family]()
}

export function createCitationIndex(): CitationIndex {
  const groups = new Map<string, Ring<Citable>>()
  const recent = new Ring<Citable>(3000)
  const history = new Reservoir<Citable>(3000)
  const landmarks = new Map<string, Citable[]>()

  function fromLandmarks(rng: Rng, area: string, day: number, self: number, chosen: Set<number>): Citable | undefined {
    const list = landmarks.get(area)
    if (!list?.length) return undefined
    const c = list[rng.int(0, list.length - 1)]
    return c.day <= day && c.cluster !== self && !chosen.has(c.cluster) ? c : undefined
  }

  return {
    add(entry, court, rng, landmarkArea) {
      for (const key of groupKeys(court, entry.day)) {
        let ring = groups.get(key)
        if (!ring) groups.set(key, (ring = new Ring(300)))
        ring.push(entry)
      }
      recent.push(entry)
      history.push(entry, rng)
      if (landmarkArea) landmarks.set(landmarkArea, [...(landmarks.get(landmarkArea) ?? []), entry])
    },
    choose(rng, court, area, day, self, chosen) {
      if (rng.chance(LANDMARK_SHARE)) { const l = fromLandmarks(rng, area, day, self, chosen); if (l) return l }
      const from = sourcesOf(court, day)
      for (let tries = 0; tries < 6; tries++) {
        const key = tries < 4 ? rng.weighted(from) : 'global'
        const c = key === 'global' ? (rng.chance(0.5) ? recent.pick(rng) : history.pick(rng)) : groups.get(key)?.pick(rng)
        if (c && c.day <= day && c.cluster !== self && !chosen.has(c.cluster)) return c
      }
      return undefined
    },
  }
}
