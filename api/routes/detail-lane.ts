/**
 * The express lane of a detail GET. A v4 detail of a resource the read model keeps rendered
 * (api/read-model/rendered-details.ts), asked for with a token (or anonymously, where the resource
 * allows it) with nothing
 * but the stored text in mind, is answered from the stored bytes before Fastify routes the request:
 * no request and reply objects, no hook chain, no UTF-8 decoded and encoded again. What the hooks
 * do for such a request is done here, with their own code: the token looked up in the users'
 * in-memory map, the throttle's in-process counters (and the RateLimit headers they give), the
 * usage count, the request summary and the request metric. The answer is the one the route gives,
 * byte for byte, headers included (test/unit/api/detail-lane.test.ts).
 *
 * Anything else goes to Fastify, untouched: another method, version or path, a query (`fields`,
 * `omit`, `format`), an Accept header other than JSON's, a conditional request, proxy headers (the
 * origin and the client's address come from them), other credentials or an unknown token, a
 * blocked account or a request its throttle would refuse, counters kept in Redis, per-request debug
 * logging, an anonymous request for a resource that needs a user, a resource with a throttle scope
 * of its own, a row without a current text, and every request once the app is closing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { performance } from 'node:perf_hooks'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { countRequest } from '../../core/metrics.js'
import { parseAuthorization } from '../plugins/auth.js'
import { closestWindow, type Throttles } from '../plugins/throttle.js'
import type { UsageCounter } from '../plugins/usage.js'
import type { RequestLog } from '../plugins/request-log.js'
import type { UserDirectory } from '../read-model/users.js'
import type { ReadStore } from '../read-model/store.js'
import { renderedResourcesOf, withOriginLatin1 } from '../read-model/rendered-details.js'

export interface DetailLaneDeps {
  catalogue: Catalogue
  store: ReadStore
  users?: UserDirectory
  throttles: Throttles
  usage?: UsageCounter
  requestLog: RequestLog
}

/** Answers the request and returns true, or returns false having done nothing (Fastify answers). */
export type DetailLane = (req: IncomingMessage, res: ServerResponse) => boolean

const V4 = '/api/rest/v4/'
const JSON_TYPE = 'application/json; charset=utf-8'

export function createDetailLane(deps: DetailLaneDeps): DetailLane {
  // Path segment → resource and the route pattern its metric is counted under.
  const lanes = new Map<string, { resource: string; route: string; needsUser: boolean }>()
  const rendered = renderedResourcesOf(deps.catalogue)
  for (const r of deps.catalogue.resources) {
    if (!rendered.has(r.name) || r.keyKind !== 'int' || r.throttle || (r.access !== 'public' && r.access !== 'authenticated')) continue
    const path = r.path ?? r.name
    lanes.set(path, { resource: r.name, route: `${V4}${path}/:id/`, needsUser: r.access === 'authenticated' })
  }
  const { throttles, users, usage, requestLog } = deps
  if (!lanes.size || !throttles.local || requestLog.perRequest) return () => false

  return (req, res) => {
    const url = req.url
    if (req.method !== 'GET' || url === undefined || !url.startsWith(V4) || url.includes('?')) return false
    const h = req.headers
    const accept = h.accept
    if (accept !== undefined && accept !== '*/*' && accept !== 'application/json') return false
    if (h['if-none-match'] !== undefined || h['if-modified-since'] !== undefined) return false
    if (h['x-forwarded-for'] !== undefined || h['x-forwarded-host'] !== undefined || h['x-forwarded-proto'] !== undefined || !h.host) return false
    // `/api/rest/v4/<path>/<digits>/`
    const slash = url.indexOf('/', V4.length)
    if (slash < 0 || url.charCodeAt(url.length - 1) !== 47 /* / */) return false
    const id = url.slice(slash + 1, url.length - 1)
    if (!/^\d{1,15}$/.test(id)) return false
    const lane = lanes.get(url.slice(V4.length, slash))
    if (!lane) return false
    const started = performance.now()

    const c = parseAuthorization(h.authorization)
    if (c.scheme !== 'none' && c.scheme !== 'token') return false
    const user = c.scheme === 'token' ? users?.byToken(c.key) ?? null : null
    if (c.scheme === 'token' ? !user : lane.needsUser) return false // the auth hook answers 401
    const scope = user ? 'user' : 'anon'
    const key = user ? `user:${user.id}` : `ip:${req.socket.remoteAddress}`
    const rates = throttles.ratesFor(scope, user, 'v4')
    // A request its throttle refuses is left to the hook, which counts it and answers 429.
    const before = throttles.measure(scope, key, rates, false)
    if (before instanceof Promise) return false
    for (const w of before) if (w.used + 1 > w.rate.count) return false

    const origin = `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${h.host}`
    const body = deps.store.renderedBytes(lane.resource, Number(id), (text) => withOriginLatin1(text, origin))
    if (body === undefined) return false

    const windows = throttles.measure(scope, key, rates, true)
    if (windows instanceof Promise) return false // not with in-process counters
    if (user) void usage?.increment(user.id)
    const w = closestWindow(windows)
    // As the route's reply writes them: the negotiation's Vary, the throttle's RateLimit headers, then the body's.
    res.writeHead(200, {
      vary: 'Accept',
      'ratelimit-limit': String(w.rate.count),
      'ratelimit-remaining': String(w.remaining),
      'ratelimit-reset': String(Math.ceil(w.resetMs / 1000)),
      'content-type': JSON_TYPE,
      'content-length': String(body.length),
    })
    // One character per byte (withOriginLatin1): written as latin1, each character is the byte it stands for.
    res.end(body, 'latin1')
    requestLog.record(performance.now() - started, 200)
    countRequest('GET', lane.route, 200)
    return true
  }
}

/**
 * Puts the lane in front of Fastify's request handler on the app's own server, which keeps the
 * settings Fastify gave it (timeouts, keep-alive); requests the lane leaves go to Fastify as before.
 * Once the app is closing, every request goes to Fastify (which answers 503 as it closes).
 */
export function installDetailLane(app: FastifyInstance, lane: DetailLane): void {
  const server = app.server
  const [fastifyHandler] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[]
  if (!fastifyHandler) return
  let open = true
  server.removeListener('request', fastifyHandler)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!(open && lane(req, res))) fastifyHandler(req, res)
  })
  app.addHook('preClose', (done) => { open = false; done() })
}
