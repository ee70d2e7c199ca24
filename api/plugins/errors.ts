/**
 * One error handler for the whole API: our LdsErrors carry their status and reference-shaped
 * body; Fastify's own client errors (bad JSON, unsupported media type) keep their 4xx with a
 * {"detail"} body; anything else is logged and answered with a generic 500 without internals.
 */
import type { FastifyInstance, FastifyError } from 'fastify'
import { LdsError, ERRORS } from '../../core/errors.js'

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | LdsError, req, reply) => {
    if (err instanceof LdsError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v)
      if (err.wait !== undefined) reply.header('Retry-After', String(Math.ceil(err.wait)))
      return reply.status(err.status).send(err.toBody())
    }
    const status = (err as FastifyError).statusCode
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({ detail: err.message })
    }
    req.log.error({ err }, 'unhandled error')
    const unavailable = /ECONNREFUSED|ClickHouse|socket hang up|timeout/i.test(String(err?.message))
    const spec = unavailable ? ERRORS.LDS_ERR_UNAVAILABLE : ERRORS.LDS_ERR_INTERNAL
    return reply.status(spec.status).send({ detail: spec.detail })
  })
  app.setNotFoundHandler((req, reply) => reply.status(404).send({ detail: 'Not found.' }))
}
