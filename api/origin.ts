import type { FastifyRequest } from 'fastify'

/** Scheme and host the client used, so resource URLs are absolute and follow the caller's address. */
export function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`
}
