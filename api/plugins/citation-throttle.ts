/**
 * The citation-count throttle of citation lookup: counts citations looked up, not requests.
 * A request is refused when the citations already counted in the window reach the limit; a
 * single large request is admitted into an empty window but occupies it proportionally
 * longer (count / limit windows). State lives in this process: one API process per
 * deployment, or a shared store later, behind the same two calls.
 */
import type { Clock } from '../../core/clock.js'
import { LdsError } from '../../core/errors.js'
import type { Rate } from './rates.js'

export { parseRate, type Rate } from './rates.js'

export function createCitationThrottle(clock: Clock, defaultRate: Rate) {
  const history = new Map<string, { until: number; count: number }[]>()
  return {
    /** Throws the reference's 429 when the caller's window is full. */
    check(userKey: string, rate: Rate = defaultRate): void {
      const now = clock.now()
      const entries = (history.get(userKey) ?? []).filter((e) => e.until > now)
      history.set(userKey, entries)
      const used = entries.reduce((n, e) => n + e.count, 0)
      if (rate.count === 0 || used >= rate.count) {
        const until = rate.count === 0 ? now + rate.windowMs : Math.min(...entries.map((e) => e.until))
        throw new LdsError('LDS_ERR_THROTTLED', {
          body: { error_message: `Too many requests (allowed rate: ${rate.text}).`, wait_until: new Date(until).toISOString() },
        })
      }
    },
    record(userKey: string, count: number, rate: Rate = defaultRate): void {
      if (count <= 0) return
      const now = clock.now()
      const span = Math.max(count / Math.max(rate.count, 1), 1) * rate.windowMs
      const entries = history.get(userKey) ?? []
      entries.push({ until: now + span, count })
      history.set(userKey, entries)
    },
  }
}
