/**
 * Authentication, shared by every endpoint. `Authorization: Token <key>` identifies a user;
 * a header without the word Token does not authenticate (the request stays anonymous, as in
 * the reference). Routes declare what they need with `config.auth`:
 *   'public'   anyone (a bad token is still refused with 401),
 *   'required' any authenticated user, else 401.
 * Users are read from ClickHouse and cached briefly, keyed by token hash.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql, ident } from '../../core/sql.js'
import type { Db } from '../../core/clickhouse.js'
import { LdsError } from '../../core/errors.js'
import { hashToken } from '../../core/tokens.js'
import type { Clock } from '../../core/clock.js'

export interface ApiUser { id: number; username: string; can_write: boolean; citation_rate: string }

declare module 'fastify' {
  interface FastifyRequest { user: ApiUser | null }
  interface FastifyContextConfig { auth?: 'public' | 'required'; resource?: string }
}

const CACHE_MS = 30_000

export function notAuthenticated(): LdsError {
  return new LdsError('LDS_ERR_NOT_AUTHENTICATED', { headers: { 'WWW-Authenticate': 'Token realm="api"' } })
}

export function createUserLookup(db: Db, clock: Clock) {
  const cache = new Map<string, { user: ApiUser | null; at: number }>()
  return async (token: string): Promise<ApiUser | null> => {
    const hash = hashToken(token)
    const hit = cache.get(hash)
    if (hit && clock.now() - hit.at < CACHE_MS) return hit.user
    const [row] = await db.query<ApiUser & { is_active: boolean }>(sql`
      SELECT id, username, can_write, is_active, citation_rate FROM ${ident(db.database)}.${ident('users')} FINAL
      WHERE token_hash = ${hash} LIMIT 1`)
    const user = row && row.is_active ? { id: Number(row.id), username: row.username, can_write: row.can_write, citation_rate: row.citation_rate } : null
    // Unknown tokens are cached for less time, so a just-created user works within seconds.
    cache.set(hash, { user, at: user ? clock.now() : clock.now() - CACHE_MS + 2_000 })
    if (cache.size > 10_000) cache.delete(cache.keys().next().value!)
    return user
  }
}

export function parseAuthorization(header: string | undefined): { scheme: 'token' | 'bearer' | 'none'; key?: string } {
  if (!header) return { scheme: 'none' }
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(header)
  if (!m) return { scheme: 'none' }
  const scheme = m[1].toLowerCase()
  if (scheme === 'token') return { scheme: 'token', key: m[2] }
  if (scheme === 'bearer') return { scheme: 'bearer', key: m[2] }
  return { scheme: 'none' }
}

export function installAuth(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  const lookup = createUserLookup(deps.db, deps.clock)
  app.decorateRequest('user', null)
  app.addHook('onRequest', async (req: FastifyRequest) => {
    const auth = parseAuthorization(req.headers.authorization)
    if (auth.scheme === 'token') {
      const user = await lookup(auth.key!)
      if (!user) throw new LdsError('LDS_ERR_INVALID_TOKEN')
      req.user = user
    } else if (auth.scheme === 'bearer') {
      // No OAuth2 provider here: any bearer token is unknown to us.
      throw new LdsError('LDS_ERR_INVALID_TOKEN', { detail: 'Invalid or expired bearer token.' })
    }
    if (req.routeOptions.config?.auth === 'required' && !req.user) throw notAuthenticated()
  })
}
