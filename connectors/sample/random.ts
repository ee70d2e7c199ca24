/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) and the draws the generator needs.
 * The same seed gives the same sample data set on every machine; nothing here reads the clock.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number
  pick<T>(items: readonly T[]): T
  chance(p: number): boolean
  /** Picks by weight: [[item, weight], ...]. For hot paths use `picker`. */
  weighted<T>(items: readonly (readonly [T, number])[]): T
  /** `n` lowercase hex digits. */
  hex(n: number): string
  /** `k` distinct items of `items` (all of them when k >= length), in random order. */
  sample<T>(items: readonly T[], k: number): T[]
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x9e3779b9) >>> 0
    let z = s
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    return (z ^ (z >>> 16)) >>> 0
  }
}

const HEX = '0123456789abcdef'

export function createRng(seed: number): Rng {
  const init = splitmix32(seed)
  let a = init(), b = init(), c = init(), d = init()
  const u32 = () => {
    const t = (((a + b) >>> 0) + d) >>> 0
    d = (d + 1) >>> 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) >>> 0
    c = ((c << 21) | (c >>> 11)) >>> 0
    c = (c + t) >>> 0
    return t
  }
  for (let i = 0; i < 12; i++) u32()
  const next = () => u32() / 4294967296
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
    weighted(items) {
      let total = 0
      for (const [, w] of items) total += w
      let r = next() * total
      for (const [item, w] of items) if ((r -= w) < 0) return item
      return items[items.length - 1][0]
    },
    hex(n) {
      let s = ''
      while (s.length < n) {
        let v = u32()
        for (let i = 0; i < 8 && s.length < n; i++, v >>>= 4) s += HEX[v & 15]
      }
      return s
    },
    sample(items, k) {
      const copy = items.slice()
      const n = Math.min(k, copy.length)
      for (let i = 0; i < n; i++) {
        const j = i + Math.floor(next() * (copy.length - i))
        const tmp = copy[i]; copy[i] = copy[j]; copy[j] = tmp
      }
      return copy.slice(0, n)
    },
  }
}

/** A weighted draw compiled once (cumulative weights, binary search): for draws made per record. */
export function picker<T>(items: readonly (readonly [T, number])[]): (rng: Rng) => T {
  const values = items.map(([v]) => v)
  const cumulative: number[] = []
  let total = 0
  for (const [, w] of items) cumulative.push((total += w))
  if (!(total > 0)) throw new Error('picker: weights must add up to more than 0')
  return (rng) => {
    const r = rng.next() * total
    let lo = 0, hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cumulative[mid] > r) hi = mid
      else lo = mid + 1
    }
    return values[lo]
  }
}
