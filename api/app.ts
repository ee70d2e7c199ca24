/**
 * Builds the Fastify app. Collaborators are passed in, so tests build it against a database
 * of their own and drive it with `inject`.
 */
import Fastify, { type FastifyInstance, type FastifyBaseLogger } from 'fastify'
import type { Kafka } from 'kafkajs'
import type { Db } from '../core/clickhouse.js'
import type { Logger } from '../core/logger.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { installErrorHandling } from './plugins/errors.js'
import { registerRoot } from './routes/root.js'
import { registerResourceRoutes } from './routes/resources.js'
import { registerHealth } from './routes/health.js'

export interface AppDeps { db: Db; catalogue: Catalogue; log: Logger; kafka?: Kafka }

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log.child({ component: 'api' }) as unknown as FastifyBaseLogger,
    trustProxy: true,
    ignoreTrailingSlash: false,
    routerOptions: { maxParamLength: 200 },
    disableRequestLogging: true,
  })
  installErrorHandling(app)
  registerHealth(app, deps)
  registerRoot(app)
  registerResourceRoutes(app, deps)
  return app
}
