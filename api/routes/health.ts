import type { FastifyInstance } from 'fastify'
import type { Kafka } from 'kafkajs'
import type { Db } from '../../core/clickhouse.js'
import { metricsRegistry, countRequest } from '../../core/metrics.js'
import { routeOf } from '../plugins/route-of.js'

/** /healthz checks the dependencies reads and writes need; /metrics serves Prometheus text. */
export function registerHealth(app: FastifyInstance, deps: { db: Db; kafka?: Kafka }): void {
  app.get('/healthz', async (_req, reply) => {
    const checks: Record<string, string> = {}
    checks.clickhouse = await deps.db.ping().then((ok) => (ok ? 'ok' : 'down'), () => 'down')
    if (deps.kafka) {
      const admin = deps.kafka.admin()
      checks.kafka = await admin.connect().then(() => admin.describeCluster()).then(() => 'ok', () => 'down').finally(() => admin.disconnect())
    }
    const ok = Object.values(checks).every((v) => v === 'ok')
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks })
  })
  app.get('/metrics', async (_req, reply) => reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics()))
  app.addHook('onResponse', (req, reply, done) => {
    countRequest(req.method, routeOf(req).url ?? 'unmatched', reply.statusCode)
    done()
  })
}
