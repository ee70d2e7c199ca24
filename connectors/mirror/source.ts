/**
 * The HTTP side of a mirror: GETs a source v4 API politely. Every request, retries included,
 * waits for the request budget (the source's advertised rate, 5,000 an hour by default); a `429`
 * waits as long as its `Retry-After` says (or a minute) without giving up; a 5xx or a failed
 * connection is retried with exponential backoff; each request names the mirror in its User-Agent.
 */
import { Agent, request } from 'undici'
import pRetry, { AbortError } from 'p-retry'
import { RateLimiter } from 'limiter'

export const USER_AGENT = 'lds-mirror/0.1 (legal-data-service ingest mirror)'

export interface SourceOptions {
  token?: string
  /** Requests per hour; 0 for no limit (a local source). */
  budgetPerHour: number
  /** The budget's window, an hour unless a test shortens it. */
  budgetWindowMs?: number
  /** First backoff after a 5xx, doubled per retry up to a minute. */
  minBackoffMs?: number
  retries?: number
  /** The wait when a 429 carries no usable Retry-After. */
  defaultRetryAfterMs?: number
  /** Told about each wait for the source (429s and 5xx), for the progress line. */
  onWait?: (reason: string, ms: number) => void
}

export interface SourceStats { requests: number; throttled: number; failed: number }

export interface Source {
  /** The JSON body of `url` (a path under the API root, or an absolute URL rebased onto the source's origin). */
  get(url: string): Promise<unknown>
  readonly root: URL
  readonly stats: SourceStats
  readonly budgetPerHour: number
  close(): Promise<void>
}

class ServerError extends Error {}

/** Seconds or an HTTP date, as `Retry-After` may give them; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(header) ? header[0] : header
  if (!text) return undefined
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function createSource(base: string, opts: SourceOptions): Source {
  const root = new URL(base.endsWith('/') ? base : `${base}/`)
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 16 })
  const limiter = opts.budgetPerHour > 0 ? new RateLimiter({ tokensPerInterval: opts.budgetPerHour, interval: opts.budgetWindowMs ?? 3_600_000 }) : undefined
  const stats: SourceStats = { requests: 0, throttled: 0, failed: 0 }
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' }
  if (opts.token) headers.authorization = `Token ${opts.token}`

  /** A link the source gave (its `next`) is followed on the origin the mirror was pointed at. */
  function resolve(url: string): URL {
    const u = new URL(url, root)
    return new URL(u.pathname + u.search, root.origin)
  }

  async function once(url: URL): Promise<unknown> {
    for (;;) {
      await limiter?.removeTokens(1)
      stats.requests++
      const res = await request(url, { headers, dispatcher: agent, headersTimeout: 60_000, bodyTimeout: 60_000 })
      if (res.statusCode === 429) {
        await res.body.dump()
        stats.throttled++
        const wait = retryAfterMs(res.headers['retry-after']) ?? opts.defaultRetryAfterMs ?? 60_000
        opts.onWait?.(`429, waiting ${Math.ceil(wait / 1000)} s`, wait)
        await sleep(wait)
        continue
      }
      if (res.statusCode >= 500) {
        await res.body.dump()
        throw new ServerError(`${res.statusCode} from ${url.pathname}`)
      }
      if (res.statusCode !== 200) {
        const body = await res.body.text()
        throw new AbortError(`${url.pathname}${url.search}: ${res.statusCode} ${body.slice(0, 300)}`)
      }
      return res.body.json()
    }
  }

  return {
    root, stats, budgetPerHour: opts.budgetPerHour,
    get: (url) => {
      const target = resolve(url)
      return pRetry(() => once(target), {
        retries: opts.retries ?? 8, factor: 2, minTimeout: opts.minBackoffMs ?? 1000, maxTimeout: 60_000,
        onFailedAttempt: ({ error, retriesLeft }) => {
          stats.failed++
          if (retriesLeft > 0) opts.onWait?.(`${error.message}, retrying`, 0)
        },
      })
    },
    close: () => agent.close(),
  }
}

/** An error whose answer was a 404: a cursor or page the source no longer accepts. */
export const isNotFound = (err: unknown) => err instanceof Error && / 404 /.test(err.message)
