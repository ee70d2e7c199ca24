/** Prometheus metrics shared by every component of a process; served at /metrics. */
import client from 'prom-client'

export const metricsRegistry = new client.Registry()
client.collectDefaultMetrics({ register: metricsRegistry, prefix: 'lds_' })

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
export const httpRequests = new client.Counter({
  name: 'lds_http_requests_total', help: 'API requests by route and status.', labelNames: ['method', 'route', 'status'], registers: [metricsRegistry],
})
export const sinkRetries = new client.Counter({
  name: 'lds_sink_retries_total', help: 'Sink writes attempted again after a failure.', labelNames: ['stream'], registers: [metricsRegistry],
})
