/**
 * The matched route's url and config, read once per request. Fastify's `request.routeOptions` is a
 * getter that builds a new object of thirteen properties on every read, and the hooks every request
 * passes (auth, throttle, metrics) read it five times.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify'

export interface MatchedRoute {
  /** The route's pattern (`/api/rest/v4/dockets/:id/`); undefined when nothing matched (404). */
  url: string | undefined
  config: FastifyContextConfig | undefined
}

const kRoute = Symbol('lds.route')

declare module 'fastify' {
  interface FastifyRequest { [kRoute]: MatchedRoute | null }
}

/** Declares the per-request slot; call on the root instance before the hooks that use routeOf. */
export function installRouteOf(app: FastifyInstance): void {
  app.decorateRequest(kRoute, null)
}

export function routeOf(req: FastifyRequest): MatchedRoute {
  let route = req[kRoute]
  if (route == null) {
    const options = req.routeOptions
    route = { url: options.url, config: options.config }
    req[kRoute] = route
  }
  return route
}
