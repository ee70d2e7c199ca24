/**
 * Authentication, shared by every endpoint, in the reference's order: a bearer token (no OAuth
 * provider here, so any bearer token is refused), HTTP Basic (username and password), and
 * `Authorization: Token <key>`. A header without a known scheme does not authenticate (the request
 * stays anonymous, as in the reference). Routes declare what they need with `config.auth`:
 *   'public'   anyone (bad credentials are still refused with 401),
 *   'required' any authenticated user, else 401.
 * Credentials are checked against the read model (api/read-model/users.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { LdsError } from '../../core/errors.js'
import type { ApiUser, UserDirectory } from '../read-model/users.js'
import { routeOf } from './route-of.js'

export type { ApiUser }

declare module 'fastify' {
  interface FastifyRequest { user: ApiUser | null }
  interface FastifyContextConfig { auth?: 'public' | 'required'; resource?: string }
}

export function notAuthenticated(): LdsError {
  return new LdsError('LDS_ERR_NOT_AUTHENTICATED', { headers: { 'WWW-Authenticate': 'Bearer realm="api"' } })
}

export type Credentials =
  | { scheme: 'token' | 'bearer'; key: string }
  | { scheme: 'basic'; username: string; password: string }
  | { scheme: 'none' }

export function parseAuthorization(header: string | undefined): Credentials {
  if (!header) return { scheme: 'none' }
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(header)
  if (!m) return { scheme: 'none' }
  const scheme = m[1].toLowerCase()
  if (scheme === 'token') return { scheme: 'token', key: m[2] }
  if (scheme === 'bearer') return { scheme: 'bearer', key: m[2] }
  if (scheme === 'basic') {
    const decoded = Buffer.from(m[2], 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) return { scheme: 'none' }
    return { scheme: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
  }
  return { scheme: 'none' }
}

export function installAuth(app: FastifyInstance, deps: { users?: UserDirectory }): void {
  app.decorateRequest('user', null)
  const required = (req: FastifyRequest) => (routeOf(req).config?.auth === 'required' && !req.user ? notAuthenticated() : undefined)
  // Callback style: tokens and anonymous calls (nearly every request) are answered without a promise;
  // only a password check waits.
  app.addHook('onRequest', (req: FastifyRequest, _reply, done) => {
    const c = parseAuthorization(req.headers.authorization)
    if (c.scheme === 'bearer') return done(new LdsError('LDS_ERR_INVALID_TOKEN', { detail: 'Invalid or expired bearer token.' }))
    if (c.scheme === 'basic') {
      Promise.resolve(deps.users?.byPassword(c.username, c.password) ?? null).then((user) => {
        if (!user) return done(new LdsError('LDS_ERR_NOT_AUTHENTICATED', { detail: 'Invalid username/password.' }))
        req.user = user
        done(required(req))
      }, done)
      return
    }
    if (c.scheme === 'token') {
      const user = deps.users?.byToken(c.key) ?? null
      if (!user) return done(new LdsError('LDS_ERR_INVALID_TOKEN'))
      req.user = user
    }
    done(required(req))
  })
}
