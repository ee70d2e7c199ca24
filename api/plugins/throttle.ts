/**
 * Request throttling with @fastify/rate-limit's counter stores, as the reference throttles:
 *   user       every authenticated request, per user (default LDS_RATE_USER, 5000/hour);
 *   anon       anonymous requests, per IP (v3: LDS_RATE_ANON_V3, 100/day; v4: LDS_RATE_ANON_V4);
 *   scopes     routes that name one replace the user scope: tags, fetch, api_usage, events.
 * A user's `rate` (set at runtime with `lds users set-rate`) replaces the user scope's rates;
 * `0/<unit>` blocks the account. Several windows per scope ("10/min,300/day") are all counted and
 * checked tightest first. Every answer carries RateLimit-Limit/-Remaining/-Reset for the window
 * closest to its limit; a refusal is a 429 with the reference's body and Retry-After.
 * Counters live in this process, or in Redis (REDIS_URL) when several API processes share them.
 */
import { createRequire } from 'node:module'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { LdsError } from '../../core/errors.js'
import { parseRates, isBlocking, type Rate } from './rates.js'
import type { UsageCounter } from './usage.js'
import { routeOf } from './route-of.js'

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
  /** True when counters live in this process: measure() then answers at once, never with a promise. */
  readonly local: boolean
  /** Counts (or, with increment false, reads) every window of a scope for a key: at once in process, later with Redis. */
  measure(scope: ThrottleScope, key: string, rates: Rate[], increment: boolean): WindowState[] | Promise<WindowState[]>
}

/** The window an answer's RateLimit headers describe: the one exceeded, else the one closest to its limit. */
export function closestWindow(windows: readonly WindowState[]): WindowState {
  const exceeded = windows.find((w) => w.exceeded)
  if (exceeded) return exceeded
  let closest = windows[0]
  for (const w of windows) if (w.remaining / w.rate.count < closest.remaining / closest.rate.count) closest = w
  return closest
}

/** A window's count after a request (or as it stands): @fastify/rate-limit's store contract. */
interface Count { current: number; ttl: number }
type Store = { incr: StoreCall; read: StoreCall }
type StoreCall = (key: string, cb: (err: Error | null, res: Count) => void, windowMs: number, max: number) => void
const require = createRequire(import.meta.url)
// The plugin's own stores, used directly: its hook machinery (an async hook per limiter, a promise
// per store call) cost a detail GET about a tenth of its time. In this process the store answers
// synchronously, so a request is throttled without a promise; with Redis it answers later.
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => Store
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, nameSpace?: string) => Store

/** Keys kept by the in-process store (least recently used dropped beyond): the plugin's default. */
const LOCAL_KEYS = 5000

export async function installThrottles(app: FastifyInstance, opts: { config?: ThrottleConfig; redis?: Redis; usage?: UsageCounter }): Promise<void> {
  const config = opts.config ?? DEFAULT_THROTTLES
  const store = opts.redis ? new RedisStore(false, false, opts.redis, 'lds-rate-') : new LocalStore(false, false, LOCAL_KEYS)
  const parsed = new Map<string, Rate[]>()
  const rates = (text: string) => { let r = parsed.get(text); if (!r) { r = parseRates(text); parsed.set(text, r) } return r }
  for (const text of [config.user, config.anonV3, config.anonV4, ...Object.values(config.scopes)]) rates(text) // refuse bad config at boot

  const windowOf = (rate: Rate, c: Count): WindowState => {
    const exceeded = c.current > rate.count
    const remaining = Math.max(0, rate.count - c.current)
    return { rate, used: exceeded ? rate.count + 1 : rate.count - remaining, remaining, resetMs: c.ttl, exceeded }
  }
  /** One window: synchronously when the store answers at once (in process), else a promise. */
  const count = (rate: Rate, scope: ThrottleScope, key: string, increment: boolean): WindowState | Promise<WindowState> => {
    let now: WindowState | undefined
    let failed: Error | undefined
    let answer: { resolve(w: WindowState): void; reject(err: Error): void } | undefined
    ;(increment ? store.incr : store.read).call(store, `${scope}:${rate.windowMs}:${key}`, (err, res) => {
      if (err) { if (answer) answer.reject(err); else failed = err; return }
      const w = windowOf(rate, res)
      if (answer) answer.resolve(w); else now = w
    }, rate.windowMs, rate.count)
    if (failed) throw failed
    return now ?? new Promise<WindowState>((resolve, reject) => { answer = { resolve, reject } })
  }

  const throttles: Throttles = {
    local: !opts.redis,
    ratesFor(scope, user, version) {
      if (scope === 'anon') return rates(version === 'v3' ? config.anonV3 : config.anonV4)
      if (scope === 'user') return rates(user?.rate || config.user)
      return user?.rate && isBlocking(rates(user.rate)) ? rates(user.rate) : rates(config.scopes[scope])
    },
    scopeOf(req) {
      const version = req.url.startsWith('/api/rest/v3/') ? 'v3' : 'v4'
      const named = routeOf(req).config?.throttle
      if (!req.user) return { scope: 'anon', key: `ip:${req.ip}`, rates: this.ratesFor('anon', null, version) }
      const scope: ThrottleScope = named && named !== 'none' ? named : 'user'
      return { scope, key: `user:${req.user.id}`, rates: this.ratesFor(scope, req.user, version) }
    },
    measure(scope, key, list, increment) {
      const out = list.map((rate) => count(rate, scope, key, increment))
      return out.every((w): w is WindowState => !(w instanceof Promise)) ? out : Promise.all(out)
    },
  }
  app.decorate('throttles', throttles)

  /** Headers for the window closest to its limit, and the refusal when one is exceeded. */
  const settle = (scope: ThrottleScope, reply: FastifyReply, windows: WindowState[]): LdsError | undefined => {
    const exceeded = windows.find((w) => w.exceeded)
    const closest = closestWindow(windows)
    reply.header('RateLimit-Limit', String(closest.rate.count))
    reply.header('RateLimit-Remaining', String(closest.remaining))
    reply.header('RateLimit-Reset', String(Math.ceil(closest.resetMs / 1000)))
    if (!exceeded) return undefined
    const wait = Math.max(1, Math.ceil(exceeded.resetMs / 1000))
    const detail = scope === 'anon'
      ? `Request was throttled. Expected available in ${wait} seconds.`
      : `Request was throttled. Rate limit exceeded: ${exceeded.rate.text}. Expected available in ${wait} seconds.`
    return new LdsError('LDS_ERR_THROTTLED', { detail, wait })
  }

  // Callback style: with in-process counters a request is throttled without a promise.
  app.addHook('onRequest', (req, reply, done) => {
    const route = routeOf(req)
    if (route.config?.throttle === 'none' || !route.url) return done()
    const { scope, key, rates: list } = throttles.scopeOf(req)
    if (isBlocking(list)) return done(new LdsError('LDS_ERR_THROTTLED', { detail: 'Request was throttled. Your account is currently blocked from making API requests.' }))
    let windows: WindowState[] | Promise<WindowState[]>
    let counted: Promise<void> | void
    try {
      windows = throttles.measure(scope, key, list, true)
      counted = req.user ? opts.usage?.increment(req.user.id) : undefined
    } catch (err) { return done(err as Error) }
    if (!(windows instanceof Promise) && !counted) return done(settle(scope, reply, windows))
    Promise.all([windows, counted]).then(([w]) => done(settle(scope, reply, w)), done)
  })
}
