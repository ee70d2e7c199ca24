/** Waiting on facts: poll a condition until it holds, or fail naming what was awaited. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Thrown by a check to stop waiting at once (the awaited fact can no longer come true). */
export class GiveUp extends Error {}

/** Polls `check` until it returns a truthy value; a thrown error counts as "not yet", except GiveUp. */
export async function waitFor<T>(check: () => Promise<T> | T, what: string, timeoutMs: number, intervalMs = 250): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  for (;;) {
    try {
      const v = await check()
      if (v) return v as Exclude<T, false | null | undefined | 0 | ''>
    } catch (err) {
      if (err instanceof GiveUp) throw err
      lastError = err
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`)
    await sleep(intervalMs)
  }
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
