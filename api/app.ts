/**
 * Builds the Fastify app. Collaborators are passed in, so tests build it against a database
 * of their own and drive it with `inject`.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyBaseLogger } from 'fastify'
import type { Kafka } from 'kafkajs'
import type { Config } from '../core/config.js'
import type { Db } from '../core/clickhouse.js'
import type { Logger } from '../core/logger.js'
import { systemClock, type Clock } from '../core/clock.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { installErrorHandling } from './plugins/errors.js'
import { installNegotiation } from './plugins/negotiation.js'
import { installRequestLog } from './plugins/request-log.js'
import { installAuth } from './plugins/auth.js'
import { installBodyParsers } from './plugins/body.js'
import { createCitationThrottle, parseRate } from './plugins/citation-throttle.js'
import { compileSerializers } from './engine/serialize.js'
import { citationOverlays } from './plugins/citation-overlays.js'
import { registerRoot } from './routes/root.js'
import { registerResourceRoutes } from './routes/resources.js'
import { registerCitationLookup } from './routes/citation-lookup.js'
import { registerHealth } from './routes/health.js'

export interface AppDeps { cfg: Config; db: Db; catalogue: Catalogue; log: Logger; kafka?: Kafka; clock?: Clock }

declare module 'fastify' {
  interface FastifyInstance { clock: Clock }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // The configured time scale reaches every throttle window and schedule the API keeps (issue 6).
  const clock = deps.clock ?? systemClock(deps.cfg.timeScale)
  const app = Fastify({
    loggerInstance: deps.log.child({ component: 'api' }) as unknown as FastifyBaseLogger,
    // One line per request at debug and a summary per minute at info (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: true,
    routerOptions: { maxParamLength: 200 },
    bodyLimit: 2 * 1024 * 1024,
  })
  app.decorate('clock', clock)
  installRequestLog(app)
  installErrorHandling(app)
  installNegotiation(app)
  installBodyParsers(app)
  installAuth(app, { db: deps.db, clock })
  registerHealth(app, deps)
  registerRoot(app)
  const serializers = compileSerializers(deps.catalogue, citationOverlays)
  registerResourceRoutes(app, { ...deps, serializers })
  const defaultRate = parseRate(deps.cfg.citationRate)
  registerCitationLookup(app, {
    db: deps.db, catalogue: deps.catalogue, serializer: serializers.get('clusters')!,
    throttle: createCitationThrottle(clock, defaultRate), defaultRate,
    limits: { maxCitationsPerRequest: deps.cfg.citationMaxPerRequest, maxTextLength: deps.cfg.citationMaxTextLength },
  })
  return app
}
