/**
 * Request throttling with @fastify/rate-limit, as the reference throttles:
 *   user       every authenticated request, per user (default LDS_RATE_USER, 5000/hour);
 *   anon       anonymous requests, per IP (v3: LDS_RATE_ANON_V3, 100/day; v4: LDS_RATE_ANON_V4);
 *   scopes     routes that name one replace the user scope: tags, fetch, api_usage, events.
 * A user's `rate` (set at runtime with `lds users set-rate`) replaces the user scope's rates;
 * `0/<unit>` blocks the account. Several windows per scope ("10/min,300/day") are all counted and
 * checked tightest first. Every answer carries RateLimit-Limit/-Remaining/-Reset for the window
 * closest to its limit; a refusal is a 429 with the reference's body and Retry-After.
 * Counters live in this process, or in Redis (REDIS_URL) when several API processes share them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import { LdsError } from '../../core/errors.js'
import { parseRates, isBlocking, type Rate } from './rates.js'
import type { UsageCounter } from './usage.js'

export type ThrottleScope = 'user' | 'anon' | 'tags' | 'fetch' | 'api_usage' | 'events'

declare module 'fastify' {
  interface FastifyContextConfig { throttle?: Exclude<ThrottleScope, 'user' | 'anon'> | 'none' }
  interface FastifyInstance { throttles: Throttles }
}

export interface ThrottleConfig {
  user: string; anonV3: string; anonV4: string
  scopes: Record<'tags' | 'fetch' | 'api_usage' | 'events', string>
}

export const DEFAULT_THROTTLES: ThrottleConfig = {
  user: '5000/hour', anonV3: '100/day', anonV4: '1000/hour',
  scopes: { tags: '1000/hour', fetch: '30/min', api_usage: '10/min,120/hour', events: '60/hour' },
}

export interface WindowState { rate: Rate; used: number; remaining: number; resetMs: number; exceeded: boolean }
export interface ScopeUsage { scope: ThrottleScope; key: string; rates: Rate[]; blocked: boolean; windows: WindowState[] }

export interface Throttles {
  /** The scope, key and rates that apply to a request (or to a user, for api-usage). */
  scopeOf(req: FastifyRequest): { scope: ThrottleScope; key: string; rates: Rate[] }
  ratesFor(scope: ThrottleScope, user: { rate: string } | null, version: 'v3' | 'v4'): Rate[]
  /** Counts (or, with increment false, reads) every window of a scope for a key. */
  measure(scope: ThrottleScope, key: string, rates: Rate[], increment: boolean): Promise<WindowState[]>
}

const K = Symbol('throttle-call')
interface Call { key: string; max: number }

export async function installThrottles(app: FastifyInstance, opts: { config?: ThrottleConfig; redis?: Redis; usage?: UsageCounter }): Promise<void> {
  const config = opts.config ?? DEFAULT_THROTTLES
  await app.register(rateLimit, { global: false, ...(opts.redis ? { redis: opts.redis, nameSpace: 'lds-rate-' } : {}) })
  const parsed = new Map<string, Rate[]>()
  const rates = (text: string) => { let r = parsed.get(text); if (!r) { r = parseRates(text); parsed.set(text, r) } return r }
  for (const text of [config.user, config.anonV3, config.anonV4, ...Object.values(config.scopes)]) rates(text) // refuse bad config at boot

  // One limiter per window length; the key and the limit come with each call.
  const limiters = new Map<number, ReturnType<FastifyInstance['createRateLimit']>>()
  const limiter = (windowMs: number) => {
    let l = limiters.get(windowMs)
    if (!l) {
      l = app.createRateLimit({
        timeWindow: windowMs,
        keyGenerator: (req) => (req as unknown as { [K]: Call })[K].key,
        max: (req) => (req as unknown as { [K]: Call })[K].max,
      })
      limiters.set(windowMs, l)
    }
    return l
  }

  const throttles: Throttles = {
    ratesFor(scope, user, version) {
      if (scope === 'anon') return rates(version === 'v3' ? config.anonV3 : config.anonV4)
      if (scope === 'user') return rates(user?.rate || config.user)
      return user?.rate && isBlocking(rates(user.rate)) ? rates(user.rate) : rates(config.scopes[scope])
    },
    scopeOf(req) {
      const version = req.url.startsWith('/api/rest/v3/') ? 'v3' : 'v4'
      const named = req.routeOptions.config?.throttle
      if (!req.user) return { scope: 'anon', key: `ip:${req.ip}`, rates: this.ratesFor('anon', null, version) }
      const scope: ThrottleScope = named && named !== 'none' ? named : 'user'
      return { scope, key: `user:${req.user.id}`, rates: this.ratesFor(scope, req.user, version) }
    },
    async measure(scope, key, list, increment) {
      const out: WindowState[] = []
      for (const rate of list) {
        const call = { [K]: { key: `${scope}:${rate.windowMs}:${key}`, max: rate.count }, routeOptions: { config: {} }, ip: key } as unknown as FastifyRequest
        const r = await limiter(rate.windowMs)(call, { increment })
        if (r.isAllowed) { out.push({ rate, used: 0, remaining: rate.count, resetMs: 0, exceeded: false }); continue } // never: no allow list
        out.push({ rate, used: r.isExceeded ? rate.count + 1 : rate.count - r.remaining, remaining: r.remaining, resetMs: r.ttl, exceeded: r.isExceeded })
      }
      return out
    },
  }
  app.decorate('throttles', throttles)

  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.throttle === 'none' || !req.routeOptions.url) return
    const { scope, key, rates: list } = throttles.scopeOf(req)
    if (isBlocking(list)) throw new LdsError('LDS_ERR_THROTTLED', { detail: 'Request was throttled. Your account is currently blocked from making API requests.' })
    const windows = await throttles.measure(scope, key, list, true)
    if (req.user) { const counted = opts.usage?.increment(req.user.id); if (counted) await counted }
    const exceeded = windows.find((w) => w.exceeded)
    const closest = exceeded ?? windows.reduce((a, b) => (b.remaining / b.rate.count < a.remaining / a.rate.count ? b : a))
    reply.header('RateLimit-Limit', String(closest.rate.count))
    reply.header('RateLimit-Remaining', String(closest.remaining))
    reply.header('RateLimit-Reset', String(Math.ceil(closest.resetMs / 1000)))
    if (exceeded) {
      const wait = Math.max(1, Math.ceil(exceeded.resetMs / 1000))
      const detail = scope === 'anon'
        ? `Request was throttled. Expected available in ${wait} seconds.`
        : `Request was throttled. Rate limit exceeded: ${exceeded.rate.text}. Expected available in ${wait} seconds.`
      throw new LdsError('LDS_ERR_THROTTLED', { detail, wait })
    }
  })
}
