/** Waiting on facts: poll a condition until it holds, or fail naming what was awaited. */

/** Thrown by a check to stop waiting at once (the awaited fact can no longer come true). */
export class GiveUp extends Error {}

export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>

/**
 * Polls `check` every `intervalMs` until it returns a truthy value, which it returns. A thrown
 * error counts as "not yet" (its message is kept for the timeout error), except `GiveUp`, which
 * ends the wait at once. Fails with `what` once `timeoutMs` have passed.
 */
export async function waitFor<T>(check: () => Promise<T> | T, what: string, timeoutMs = 30_000, intervalMs = 100): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs
  let lastError: unknown
  for (;;) {
    try {
      const v = await check()
      if (v) return v as Truthy<T>
    } catch (err) {
      if (err instanceof GiveUp) throw err
      lastError = err
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
