/**
 * Request logs at `debug` (one line per request), and once a minute at `info` a summary of the
 * minute: requests, p50/p99 latency and errors. Logging every request at info floods the console
 * and costs throughput (issue 6).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js'

/** Latencies kept per minute for the percentiles; beyond this a uniform sample is kept. */
const SAMPLE = 10_000

export interface RequestSummary { requests: number; p50_ms: number; p99_ms: number; client_errors: number; server_errors: number }

export function createRequestStats() {
  let latencies: number[] = []
  let seen = 0, clientErrors = 0, serverErrors = 0
  return {
    record(ms: number, status: number) {
      seen++
      if (latencies.length < SAMPLE) latencies.push(ms)
      else { const j = Math.floor(Math.random() * seen); if (j < SAMPLE) latencies[j] = ms }
      if (status >= 500) serverErrors++
      else if (status >= 400) clientErrors++
    },
    /** The summary since the last call, which starts a new period. */
    take(): RequestSummary | null {
      if (seen === 0) return null
      const sorted = latencies.sort((a, b) => a - b)
      const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10
      const out = { requests: seen, p50_ms: at(0.5), p99_ms: at(0.99), client_errors: clientErrors, server_errors: serverErrors }
      latencies = []; seen = 0; clientErrors = 0; serverErrors = 0
      return out
    },
  }
}

/** What installRequestLog returns: how a request answered outside Fastify's hooks is counted too. */
export interface RequestLog {
  /** True when every request is logged at debug (an answer outside the hooks would miss its line). */
  readonly perRequest: boolean
  record(ms: number, status: number): void
}

export function installRequestLog(app: FastifyInstance, opts: { summaryEveryMs?: number } = {}): RequestLog {
  const stats = createRequestStats()
  const debugOn = ['trace', 'debug'].includes(app.log.level)
  // Callback-style hooks (here and in health.ts, root.ts) cost no promise per request.
  app.addHook('onResponse', (req, reply, done) => {
    const ms = reply.elapsedTime
    stats.record(ms, reply.statusCode)
    if (debugOn) req.log.debug({ method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(ms * 10) / 10 }, 'request')
    done()
  })
  const timer = setInterval(() => {
    const s = stats.take()
    if (s) app.log.info(s, 'requests in the last minute')
  }, opts.summaryEveryMs ?? 60_000)
  timer.unref()
  app.addHook('onClose', async () => clearInterval(timer))
  return { perRequest: debugOn, record: (ms, status) => stats.record(ms, status) }
}

/**
 * A request's logger (Fastify's childLoggerFactory), made only when the request logs something.
 * Few requests log (warnings, errors, debug lines); a pino child for every request cost a detail
 * GET about 3 % of its time.
 */
export function lazyRequestLogger(this: unknown, parent: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, opts) as unknown as FastifyBaseLogger
}

type LogArgs = Parameters<FastifyBaseLogger['info']>

class LazyRequestLogger {
  #made: FastifyBaseLogger | undefined
  constructor(private readonly parent: FastifyBaseLogger, private readonly bindings: Bindings, private readonly opts: ChildLoggerOptions) {}
  private get made(): FastifyBaseLogger { return (this.#made ??= this.parent.child(this.bindings, this.opts)) }
  get level(): string { return this.#made?.level ?? this.parent.level }
  set level(level: string) { this.made.level = level }
  fatal(...args: LogArgs) { this.made.fatal(...args) }
  error(...args: LogArgs) { this.made.error(...args) }
  warn(...args: LogArgs) { this.made.warn(...args) }
  info(...args: LogArgs) { this.made.info(...args) }
  debug(...args: LogArgs) { this.made.debug(...args) }
  trace(...args: LogArgs) { this.made.trace(...args) }
  silent(...args: LogArgs) { this.made.silent(...args) }
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger { return this.made.child(bindings, opts) }
}
