/**
 * Content negotiation for every route, error responses included: JSON (optionally indented),
 * XML, or the browsable HTML page, chosen by `?format=json|xml|api` or the Accept header
 * (rules in `api/render/negotiate.ts`).
 *
 * Usage: `installNegotiation(app, opts)` on the root instance, best before other hooks (auth,
 * throttling). Errors raised by hooks that run before it are still rendered in the negotiated
 * format (an `onError` hook decides late); only a hook that itself sends an object early,
 * before this plugin's onRequest ran, answers in plain JSON.
 *
 * How it works:
 * - An `onRequest` hook decides and stores the decision on the request: `req.format`
 *   ('json' | 'xml' | 'api') and `req.jsonIndent` (number or null). It adds `Vary: Accept`.
 *   An unknown `?format=` is answered 404 `{"detail": "Not found."}`, an Accept header that
 *   allows none of the renderings 406 `{"detail": "Could not satisfy the request Accept header."}`
 *   (both in JSON, as the reference answers them with its first renderer).
 * - Plain JSON without indent (the default, and the hot path) is left entirely to Fastify: no
 *   other hook, no serializer, the route's own serialization runs as if this plugin were absent.
 * - Otherwise the hook gives the reply a serializer (`reply.serializer`), so whatever object the
 *   route returns or sends, or the error handler sends, is rendered as XML
 *   (`application/xml; charset=utf-8`), indented JSON (`application/json; charset=utf-8`) or the
 *   browsable page (`text/html; charset=utf-8`) instead of plain JSON. A string payload sent with
 *   a JSON content type (pre-serialized JSON) is parsed and rendered; other strings, buffers and
 *   streams pass through untouched.
 *
 * The browsable page shows the endpoint's OPTIONS description (name, description, filters,
 * ordering). It comes from `opts.describe(req)` when given, else from the route's config:
 *
 *   app.get(url, { config: { describe: () => describe('List') } }, handler)
 *   app.get(url, { config: { describe: compiledDescription } }, handler)   // a plain object
 *
 * `config.describe` is a description object or a function of the request returning one; a
 * route without it gets a page titled with the site's name and no filter form.
 */
import { STATUS_CODES } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { negotiate, type Format, type Negotiated } from '../render/negotiate.js'
import { toXml } from '../render/xml.js'
import { renderBrowsable, type EndpointDescription } from '../render/html.js'

export type Describe = (req: FastifyRequest) => EndpointDescription | Record<string, unknown> | undefined

const kDecided = Symbol('negotiation.decided')

declare module 'fastify' {
  interface FastifyRequest {
    [kDecided]: boolean
    /** The negotiated rendering of the response. */
    format: Format
    /** Indent for JSON (`Accept: application/json; indent=4`), or null. */
    jsonIndent: number | null
  }
  interface FastifyContextConfig {
    /** The endpoint's OPTIONS description, shown by the browsable page. */
    describe?: EndpointDescription | ((req: FastifyRequest) => EndpointDescription | Record<string, unknown> | undefined)
  }
}

export interface NegotiationOptions {
  /** The description for the browsable page; defaults to the route's `config.describe`. */
  describe?: Describe
  /** Shown in the page's bar and title. */
  siteName?: string
}

export const CONTENT_TYPES: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  api: 'text/html; charset=utf-8',
}

/** The description a route declared in `config.describe`. */
export const describeFromRouteConfig: Describe = (req) => {
  const d = req.routeOptions?.config?.describe
  return typeof d === 'function' ? d(req) : d
}

/** JSON indented like the reference (`"key": value`), U+2028/U+2029 escaped as it does. */
export function toIndentedJson(data: unknown, indent: number | null): string {
  const s = JSON.stringify(data, null, indent ?? undefined) ?? ''
  return /[\u2028\u2029]/.test(s) ? s.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : s
}

const DECISION_CACHE_MAX = 1000
const HIDDEN_HEADERS = new Set(['content-type', 'content-length', 'set-cookie', 'transfer-encoding', 'connection', 'date', 'keep-alive'])
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

function canonicalHeader(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())
}

/** The methods registered for the matched route, as the page's Allow line. */
function allowedMethods(req: FastifyRequest): string | undefined {
  const url = req.routeOptions?.url
  if (!url) return undefined
  const allowed = METHODS.filter((method) => req.server.hasRoute({ url, method }))
  return allowed.length ? allowed.join(', ') : undefined
}

function queryFormat(url: string): string | undefined {
  const q = url.indexOf('?')
  if (q < 0 || !url.includes('format=', q)) return undefined
  const all = new URLSearchParams(url.slice(q + 1)).getAll('format')
  return all.length ? all[all.length - 1] : undefined
}

export function installNegotiation(app: FastifyInstance, opts: NegotiationOptions = {}): void {
  const describe = opts.describe ?? describeFromRouteConfig
  const decisions = new Map<string, Negotiated>()

  const decide = (format: string | undefined, accept: string | undefined): Negotiated => {
    const key = `${format ?? ''}\n${accept ?? ''}`
    let d = decisions.get(key)
    if (!d) {
      d = negotiate(format, accept)
      if (key.length < 1024) {
        if (decisions.size >= DECISION_CACHE_MAX) decisions.clear()
        decisions.set(key, d)
      }
    }
    return d
  }

  const render = (req: FastifyRequest, reply: FastifyReply, payload: unknown): string => {
    if (req.format === 'xml') {
      reply.header('content-type', CONTENT_TYPES.xml)
      return toXml(payload)
    }
    if (req.format === 'json') {
      reply.header('content-type', CONTENT_TYPES.json)
      return toIndentedJson(payload, req.jsonIndent)
    }
    const headers: [string, string][] = []
    const allow = allowedMethods(req)
    if (allow) headers.push(['Allow', allow])
    headers.push(['Content-Type', 'application/json'])
    for (const [k, v] of Object.entries(reply.getHeaders())) {
      if (v === undefined || HIDDEN_HEADERS.has(k.toLowerCase())) continue
      headers.push([canonicalHeader(k.toLowerCase()), Array.isArray(v) ? v.join(', ') : String(v)])
    }
    let description: EndpointDescription | undefined
    try {
      description = describe(req) as EndpointDescription | undefined
    } catch (err) {
      req.log.warn({ err }, 'describe failed; browsable page without description')
    }
    reply.header('content-type', CONTENT_TYPES.api)
    return renderBrowsable({
      method: req.method, url: req.url, status: reply.statusCode, statusText: STATUS_CODES[reply.statusCode] ?? '',
      headers, body: payload, description, siteName: opts.siteName,
    })
  }

  /** Records the decision and, unless it is plain JSON, gives the reply the serializer that renders it. */
  const apply = (req: FastifyRequest, reply: FastifyReply, d: { format: Format; indent: number | null }): void => {
    req.format = d.format
    req.jsonIndent = d.indent
    if (d.format === 'json' && d.indent === null) return
    reply.serializer((payload: unknown) => {
      if (typeof payload === 'string') {
        // Only JSON text sent as such is re-rendered; any other string is the route's own body.
        const type = String(reply.getHeader('content-type') ?? '')
        if (!type.includes('json')) return payload
        try {
          payload = JSON.parse(payload)
        } catch {
          return payload as string
        }
      }
      return render(req, reply, payload)
    })
  }

  app.decorateRequest('format', 'json')
  app.decorateRequest('jsonIndent', null)
  app.decorateRequest(kDecided, false)
  app.addHook('onRequest', (req, reply, done) => {
    req[kDecided] = true
    reply.header('vary', 'Accept')
    const format = queryFormat(req.url)
    const accept = req.headers.accept
    // The hot path: plain JSON, nothing else to do.
    if (format === undefined && (accept === undefined || accept === '*/*' || accept === 'application/json')) return done()
    // A route that streams Server-Sent Events writes them itself (api/routes/changes.ts).
    if (format === undefined && accept?.includes('text/event-stream') && req.routeOptions.config.eventStream) return done()
    const d = decide(format, accept)
    if ('status' in d) {
      reply.code(d.status).send({ detail: d.detail })
      return
    }
    apply(req, reply, d)
    done()
  })
  // An error raised by a hook that ran before this plugin's onRequest (auth installed first,
  // say) is still rendered as asked: onError hooks run before the error handler sends.
  app.addHook('onError', (req, reply, _err, done) => {
    if (!req[kDecided]) {
      req[kDecided] = true
      reply.header('vary', 'Accept')
      const d = decide(queryFormat(req.url), req.headers.accept)
      if (!('status' in d)) apply(req, reply, d)
    }
    done()
  })
}
