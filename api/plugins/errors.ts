/**
 * One error handler for the whole API: our LdsErrors carry their status and reference-shaped
 * body; a dependency that cannot be reached (typed where its response arrives, see
 * core/clickhouse.ts) is a 503 with a JSON body and Retry-After; Fastify's own client errors (bad
 * JSON, unsupported media type) keep their 4xx with a {"detail"} body; anything else is logged and
 * answered with a generic 500 that shows no internals (no SQL, no stack).
 */
import type { FastifyInstance, FastifyError } from 'fastify'
import { LdsError, ERRORS } from '../../core/errors.js'
import { DependencyError } from '../../core/dependency-error.js'

/** Seconds a client is asked to wait before trying again while a dependency is down. */
const UNAVAILABLE_RETRY_AFTER = 5

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | LdsError | DependencyError, req, reply) => {
    if (err instanceof LdsError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v)
      if (err.wait !== undefined) reply.header('Retry-After', String(Math.ceil(err.wait)))
      return reply.status(err.status).send(err.toBody())
    }
    if (err instanceof DependencyError) {
      req.log.warn({ service: err.service, err: err.message }, 'dependency unavailable')
      return reply.status(ERRORS.LDS_ERR_UNAVAILABLE.status).header('Retry-After', String(UNAVAILABLE_RETRY_AFTER)).send({ detail: ERRORS.LDS_ERR_UNAVAILABLE.detail })
    }
    const status = (err as FastifyError).statusCode
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({ detail: err.message })
    }
    req.log.error({ err }, 'unhandled error')
    return reply.status(ERRORS.LDS_ERR_INTERNAL.status).send({ detail: ERRORS.LDS_ERR_INTERNAL.detail })
  })
  app.setNotFoundHandler((req, reply) => reply.status(404).send({ detail: 'Not found.' }))
}
