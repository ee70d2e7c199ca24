/**
 * A seeded PRNG for tests and benchmarks: the same seed gives the same sequence, so a generated
 * corpus or a fuzz run can be repeated. Production code has its own (connectors/sample/random.ts).
 */

/** A source of numbers in [0, 1). */
export type Rng = () => number

/** mulberry32: 32 bits of state, fast, good enough for test data (not for secrets). */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = Math.imul(state ^ (state >>> 15), state | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** An integer in [lo, hi], both included. */
export const intBetween = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1))

/** One element of a non-empty list, each equally likely. */
export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]

/** True with probability p. */
export const chance = (rng: Rng, p: number): boolean => rng() < p
