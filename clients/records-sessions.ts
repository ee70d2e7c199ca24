/**
 * Users' records-system sessions between the API and the archive fetcher. The API logs in with
 * the credentials a fetch request carries and keeps the session token here under the request's
 * id; the fetcher takes it (once) to buy in the user's own account. The password itself is never
 * kept anywhere, and a token is kept only while the records system says it lasts (at most
 * MAX_KEEP_MS), so a request left waiting longer fails with a message asking for it again.
 *
 * In the process (when the API and the fetcher run in one, as `npm start` runs them), or in
 * Redis (REDIS_URL) when they run apart: SET with an expiry, GETDEL to take.
 */
import type { Redis } from 'ioredis'

export interface RecordsSessions {
  /** Keeps a request's session token for `ttlMs` (capped at MAX_KEEP_MS). */
  put(requestId: number, token: string, ttlMs: number): Promise<void>
  /** The request's token, removed as it is read; undefined when there is none or it expired. */
  take(requestId: number): Promise<string | undefined>
  close(): Promise<void>
}

/** The longest a token is kept, whatever the records system says. */
export const MAX_KEEP_MS = 60 * 60_000

const keep = (ttlMs: number) => Math.max(1, Math.min(Math.floor(ttlMs), MAX_KEEP_MS))

/** In this process: what the API puts, a fetcher of the same process takes. */
export function memoryRecordsSessions(now: () => number = Date.now): RecordsSessions {
  const tokens = new Map<number, { token: string; until: number }>()
  return {
    async put(id, token, ttlMs) {
      const t = now()
      for (const [k, v] of tokens) if (v.until <= t) tokens.delete(k) // expired ones go on the next write
      tokens.set(id, { token, until: t + keep(ttlMs) })
    },
    async take(id) {
      const hit = tokens.get(id)
      tokens.delete(id)
      return hit && hit.until > now() ? hit.token : undefined
    },
    async close() { tokens.clear() },
  }
}

/** In Redis, for an API and a fetcher in different processes. */
export function redisRecordsSessions(redis: Redis, opts: { prefix?: string; ownsClient?: boolean } = {}): RecordsSessions {
  const key = (id: number) => `${opts.prefix ?? 'lds-records-session:'}${id}`
  return {
    async put(id, token, ttlMs) { await redis.set(key(id), token, 'PX', keep(ttlMs)) },
    async take(id) { return (await redis.getdel(key(id))) ?? undefined },
    async close() { if (opts.ownsClient) redis.disconnect() },
  }
}
