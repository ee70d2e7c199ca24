/**
 * GET /api/rest/v4/api-usage/: the caller's own throttle state per scope (what is used, what is
 * left, when the window resets, whether the account is blocked), requests per day for the last 14
 * days, and membership. Reading it does not count against the scopes it reports; the request
 * itself counts against the api_usage scope.
 */
import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../core/clock.js'
import { isBlocking } from '../plugins/rates.js'
import type { ThrottleScope } from '../plugins/throttle.js'
import { dayOf, type UsageCounter } from '../plugins/usage.js'

const REPORTED: ThrottleScope[] = ['user', 'tags', 'fetch', 'api_usage', 'events']
const HISTORY_DAYS = 14

export function registerApiUsage(app: FastifyInstance, deps: { usage: UsageCounter; clock: Clock }): void {
  app.get('/api/rest/v4/api-usage/', { config: { auth: 'required', throttle: 'api_usage', describe: { name: 'Api Usage', description: 'Your request counts and limits.' } } }, async (req) => {
    const user = req.user!
    const key = `user:${user.id}`
    const now = deps.clock.now()
    const current_usage = []
    for (const scope of REPORTED) {
      const rates = app.throttles.ratesFor(scope, user, 'v4')
      const blocked = isBlocking(rates)
      const windows = await app.throttles.measure(scope, key, rates, false)
      for (const w of windows) {
        current_usage.push({
          scope, rate: w.rate.text, used: Math.min(w.used, w.rate.count), limit: w.rate.count, remaining: w.remaining,
          window_seconds: w.rate.windowMs / 1000, reset_at: new Date(now + (w.resetMs || w.rate.windowMs)).toISOString(), blocked,
        })
      }
    }
    const days = Array.from({ length: HISTORY_DAYS }, (_, i) => dayOf(new Date(now - (HISTORY_DAYS - 1 - i) * 86_400_000)))
    const counts = await deps.usage.days(user.id, days)
    const historical_usage: Record<string, number> = Object.fromEntries(days.map((d, i) => [d, counts[i]]))
    historical_usage.total = counts.reduce((a, b) => a + b, 0)
    return { current_usage, historical_usage, membership: null }
  })
}
