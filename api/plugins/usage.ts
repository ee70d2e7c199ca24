/**
 * Requests per user per day, for api-usage's 14-day history: in this process, or in Redis when
 * several API processes share counters (days expire after 15 days there).
 */
import type { Redis } from 'ioredis'

export interface UsageCounter {
  increment(userId: number, at?: Date): Promise<void> | void
  /** Requests on each of these days (YYYY-MM-DD), in order. */
  days(userId: number, days: readonly string[]): Promise<number[]>
}

export const dayOf = (d: Date) => d.toISOString().slice(0, 10)

/** Today's date (UTC), worked out again at most once a second: every request counts under it. */
function today(): string {
  const now = Date.now()
  if (now - todayAt >= 1000) { todayAt = now; todayText = dayOf(new Date(now)) }
  return todayText
}
let todayAt = 0
let todayText = ''

export function memoryUsage(): UsageCounter {
  const counts = new Map<string, number>()
  return {
    // Not async: the throttle hook awaits only what returns a promise (Redis), not a map update per request.
    increment(userId, at) { const k = `${userId}:${at ? dayOf(at) : today()}`; counts.set(k, (counts.get(k) ?? 0) + 1) },
    async days(userId, days) { return days.map((d) => counts.get(`${userId}:${d}`) ?? 0) },
  }
}

export function redisUsage(redis: Redis): UsageCounter {
  const key = (userId: number, day: string) => `lds-usage:${userId}:${day}`
  return {
    async increment(userId, at = new Date()) {
      const k = key(userId, dayOf(at))
      await redis.multi().incr(k).expire(k, 15 * 86_400).exec()
    },
    async days(userId, days) {
      const values = await redis.mget(days.map((d) => key(userId, d)))
      return values.map((v) => Number(v ?? 0))
    },
  }
}

/** Counts of increment-event's labels per day (the site's own page-event tallies). */
export interface EventCounter {
  increment(label: string, at?: Date): Promise<number>
  /** Every label counted on a day (YYYY-MM-DD), with its count. */
  day(day: string): Promise<Record<string, number>>
}

export function memoryEvents(): EventCounter {
  const days = new Map<string, Map<string, number>>()
  return {
    async increment(label, at = new Date()) {
      const day = days.get(dayOf(at)) ?? new Map<string, number>()
      days.set(dayOf(at), day)
      const n = (day.get(label) ?? 0) + 1
      day.set(label, n)
      return n
    },
    async day(d) { return Object.fromEntries(days.get(d) ?? []) },
  }
}

export function redisEvents(redis: Redis): EventCounter {
  const key = (day: string) => `lds-events:${day}`
  return {
    async increment(label, at = new Date()) {
      const k = key(dayOf(at))
      const [[, n]] = (await redis.multi().hincrby(k, label, 1).expire(k, 400 * 86_400).exec()) as [[unknown, number]]
      return Number(n)
    },
    async day(d) {
      const all = await redis.hgetall(key(d))
      return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, Number(v)]))
    },
  }
}
