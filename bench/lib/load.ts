/**
 * The load generator: autocannon, closed loop, `connections` keep-alive connections each with
 * one request in flight, for `seconds`. A case gives a fixed path or a function drawing the
 * next path (random ids, a different filter per request). Latencies are taken from every
 * response with sub-millisecond precision (autocannon's own histogram keeps whole ms of 2xx only).
 */
import type { EventEmitter } from 'node:events'
import autocannon from 'autocannon'
import { percentile } from './stats.js'

export interface LoadCase {
  name: string
  /** Origin of the server, e.g. http://127.0.0.1:8000 */
  origin: string
  path?: string
  nextPath?: () => string
  headers?: Record<string, string>
}

export interface LoadResult {
  rps: number
  p50: number
  p99: number
  requests: number
  /** Connection errors and timeouts. */
  errors: number
  non2xx: number
  /** Response bytes per request (2xx), to see that the cases returned what they should. */
  bytesPerRequest: number
}

export async function runLoad(c: LoadCase, opts: { connections: number; seconds: number }): Promise<LoadResult> {
  const latencies: number[] = []
  const next = c.nextPath
  const instance = autocannon({
    url: c.origin + (c.path ?? '/'),
    connections: opts.connections,
    pipelining: 1,
    duration: opts.seconds,
    headers: c.headers,
    timeout: 10,
    // setupRequest runs before every request of a connection: a fresh path each time.
    requests: next ? [{ setupRequest: (req) => ({ ...req, path: next() }) }] : undefined,
  }) as unknown as EventEmitter & PromiseLike<autocannon.Result> // without a callback: the tracker, which is also a promise
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => { latencies.push(ms) })
  const r = await instance
  latencies.sort((a, b) => a - b)
  const ok = r['2xx']
  return {
    rps: (r.requests.total ?? 0) / r.duration,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requests: r.requests.total,
    errors: r.errors,
    non2xx: r.non2xx,
    bytesPerRequest: ok ? r.throughput.total / ok : 0,
  }
}
