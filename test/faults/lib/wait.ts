/** Waiting on facts: poll a condition until it holds, or fail naming what was awaited. */
import { waitFor as kitWaitFor, type Truthy } from '../../kit/wait-for.js'

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

export { GiveUp } from '../../kit/wait-for.js'

/** The kit's waitFor, polling every 250 ms by default (the suite's checks query Kafka and ClickHouse). */
export function waitFor<T>(check: () => Promise<T> | T, what: string, timeoutMs: number, intervalMs = 250): Promise<Truthy<T>> {
  return kitWaitFor(check, what, timeoutMs, intervalMs)
}

/**
 * Waits until `lag()` reads 0 `quietReads` times in a row. Fails when the lag has not reached a
 * new low for `stallMs` (no progress: stuck, not slow), or after `maxMs` in all; the message
 * carries the last reading. A machine under load is slower, not stuck, so this does not fail it.
 */
export async function waitDrained(lag: () => Promise<number>, what: string, opts: { stallMs: number; maxMs: number; quietReads?: number; intervalMs?: number }): Promise<number> {
  const t0 = Date.now()
  let best = Infinity, bestAt = Date.now(), quiet = 0, last = NaN
  for (;;) {
    try {
      last = await lag()
      if (last < best) { best = last; bestAt = Date.now() }
      quiet = last === 0 ? quiet + 1 : 0
      if (quiet >= (opts.quietReads ?? 1)) return (Date.now() - t0) / 1000
    } catch { /* a reading that failed: try again */ }
    const now = Date.now()
    if (now - bestAt > opts.stallMs) throw new Error(`${what}: no progress for ${Math.round(opts.stallMs / 1000)} s (lag ${last}, lowest ${best})`)
    if (now - t0 > opts.maxMs) throw new Error(`${what}: not done after ${Math.round(opts.maxMs / 1000)} s (lag ${last}, lowest ${best})`)
    await sleep(opts.intervalMs ?? 500)
  }
}
