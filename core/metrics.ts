/** Prometheus metrics shared by every component of a process; served at /metrics. */
import client from 'prom-client'

export const metricsRegistry = new client.Registry()
/**
 * The event loop's delay is sampled every 100 ms: prom-client's default (10 ms) is a timer that
 * woke every process a hundred times a second, most of an idle `npm start`'s wake-ups (issue 26).
 * A stall longer than that is still measured; shorter ones between samples are not.
 */
export const EVENT_LOOP_SAMPLE_MS = 100
client.collectDefaultMetrics({ register: metricsRegistry, prefix: 'lds_', eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS })

export const streamEvents = new client.Counter({
  name: 'lds_stream_events_total', help: 'Events handled by stream processors, by outcome (applied, dead_lettered).',
  labelNames: ['stream', 'topic', 'outcome'], registers: [metricsRegistry],
})
export const consumerLag = new client.Gauge({
  name: 'lds_consumer_lag', help: 'Messages between the high watermark and the last committed offset, per partition.',
  labelNames: ['group', 'topic', 'partition'], registers: [metricsRegistry],
})
export const sinkInsertSeconds = new client.Histogram({
  name: 'lds_sink_insert_seconds', help: 'Duration of one ClickHouse batch insert.', labelNames: ['stream'],
  buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [metricsRegistry],
})
/** API requests by method, route and status, tallied in a plain map and handed to prom-client when
 * scraped: prom-client's label lookup on every request cost a detail GET more than the count. */
const requestTally = new Map<string, Map<number, { labels: { method: string; route: string; status: string }; n: number }>>()
export function countRequest(method: string, route: string, status: number): void {
  // GETs (nearly every request) by route alone, so no key is built per request; routes start with '/'.
  const key = method === 'GET' ? route : `${method} ${route}`
  let byStatus = requestTally.get(key)
  if (!byStatus) requestTally.set(key, (byStatus = new Map()))
  const entry = byStatus.get(status)
  if (entry) entry.n++
  else byStatus.set(status, { labels: { method, route, status: String(status) }, n: 1 })
}
export const httpRequests = new client.Counter({
  name: 'lds_http_requests_total', help: 'API requests by route and status.', labelNames: ['method', 'route', 'status'], registers: [metricsRegistry],
  collect() {
    this.reset()
    for (const byStatus of requestTally.values()) for (const { labels, n } of byStatus.values()) this.inc(labels, n)
  },
})
export const sinkRetries = new client.Counter({
  name: 'lds_sink_retries_total', help: 'Sink writes attempted again after a failure.', labelNames: ['stream'], registers: [metricsRegistry],
})
