/**
 * When a failed original is tried again: a bounded schedule (data, like the webhooks'), after
 * which the record stays failed until its original changes.
 */
export const AUDIO_RETRY_DELAYS_MS: readonly number[] = [60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000]

/** The delay before attempt `failures + 1`, or null once `failures` attempts have failed and none is left. */
export function audioRetryDelay(failures: number, delays: readonly number[] = AUDIO_RETRY_DELAYS_MS): number | null {
  if (failures < 1 || failures > delays.length) return null
  return delays[failures - 1]
}
