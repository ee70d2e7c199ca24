/**
 * Registers list and detail routes for every API resource of the catalogue, in v4 and v3.
 * Nothing here knows a resource by name.
 */
import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify'
import type { ResourceDef } from '../../schemas/define.js'
import { listKey, type ListCache } from '../engine/list-cache.js'
import type { RowSource } from '../engine/source.js'
import { serializedFrom, filteredThrough } from '../engine/dependencies.js'
import { resourceSchema } from '../../schemas/json-schema.js'
import type { Db } from '../../core/clickhouse.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { Serializer } from '../engine/serialize.js'
import { compileReader, type ListRequest, type ResourceReader } from '../engine/list.js'
import type { RequestContext, ListIndexAccess } from '../engine/context.js'
import type { ObjectCache } from '../engine/object-cache.js'
import { answerJson } from '../engine/answer-json.js'
import { compileDescription } from '../engine/describe.js'
import { requestOrigin } from '../origin.js'
import { LdsError } from '../../core/errors.js'
import { notAuthenticated } from '../plugins/auth.js'
import { renderedResourcesOf } from '../read-model/rendered-details.js'

export const VERSIONS = ['v4', 'v3'] as const

export function queryParams(req: FastifyRequest): ListRequest {
  // Most detail requests have no query: no URL to parse (it is built if something asks for it).
  if (!req.url.includes('?')) {
    let url: URL | undefined
    return { params: new Map(), get url() { return (url ??= new URL(req.url, requestOrigin(req))) } }
  }
  const url = new URL(req.url, requestOrigin(req))
  const params = new Map<string, string[]>()
  for (const [k, v] of url.searchParams) {
    if (!params.has(k)) params.set(k, [])
    params.get(k)!.push(v)
  }
  return { params, url }
}

/** Whose view of a resource a list answer is: the same for everyone, for any user, or for one user. */
function viewerOf(r: ResourceDef, req: FastifyRequest): string {
  if (r.access === 'owner' || r.access === 'published') return req.user ? `user:${req.user.id}` : 'anon'
  return r.access === 'authenticated' ? 'auth' : 'public'
}

export interface ResourceRoutes {
  readers: Map<string, ResourceReader>
  contextOf(req: FastifyRequest, version: 'v3' | 'v4'): RequestContext
}

export function registerResourceRoutes(app: FastifyInstance, deps: {
  db: Db; catalogue: Catalogue; serializers: Map<string, Serializer>; listCache?: ListCache; overlayDeps?: Record<string, readonly string[]>; source?: RowSource; lists?: ListIndexAccess; objects?: ObjectCache
  /** Resources whose writes are served elsewhere (api/routes/writes.ts). */
  writable?: ReadonlySet<string>
  /** The read model's rendered v4 detail of a row, if current (api/read-model/rendered-details.ts). */
  rendered?: (resource: string, key: string | number) => string | undefined
  /** The same text for a request from `origin`, as the bytes of the answer. */
  renderedBytes?: (resource: string, key: string | number, origin: string) => Buffer | undefined
}): ResourceRoutes {
  const { catalogue: cat, db, serializers, listCache } = deps
  const readers = new Map<string, ResourceReader>()
  const contextOf = (req: FastifyRequest, version: 'v3' | 'v4'): RequestContext => ({ db, catalogue: cat, origin: requestOrigin(req), version, user: req.user, source: deps.source, lists: deps.lists, objects: deps.objects })
  const renderedResources = renderedResourcesOf(cat)
  for (const r of cat.resources.filter((x) => x.api)) {
    const baseDeps = serializedFrom(cat, r, deps.overlayDeps)
    const rendered = renderedResources.has(r.name) ? deps.rendered : undefined
    const reader = compileReader(cat, r, serializers.get(r.name)!, db.database, { objectDeps: baseDeps, rendered })
    readers.set(r.name, reader)
    const describe = compileDescription(cat, r)
    /** A list answer as JSON bytes, from the cache while nothing it was built from has changed. */
    const cachedList = async (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext) => {
      if (!listCache) return reader.list(queryParams(req), ctx)
      const key = listKey({ version: ctx.version, origin: ctx.origin, url: req.url, viewer: viewerOf(r, req) })
      const hit = listCache.get(key)
      reply.type('application/json; charset=utf-8')
      // Other renderings (XML, indented, HTML) re-render pre-serialized JSON given as text.
      const out = (body: Buffer) => (req.format === 'json' && req.jsonIndent == null ? body : body.toString())
      if (hit !== undefined) return out(hit)
      const lr = queryParams(req)
      const depsOf = [...new Set([...baseDeps, ...filteredThrough(cat, r, lr.params.keys())])]
      const before = listCache.snapshot(depsOf)
      const body = Buffer.from(answerJson(await reader.list(lr, ctx) as Record<string, unknown>))
      listCache.set(key, depsOf, before, body)
      return out(body)
    }
    for (const version of VERSIONS) {
      const ctxOf = (req: FastifyRequest): RequestContext => contextOf(req, version)
      const base = `/api/rest/${version}/${r.path ?? r.name}/`
      const config = { resource: r.name, auth: r.access === 'authenticated' || r.access === 'owner' ? 'required' as const : 'public' as const, throttle: r.throttle }
      app.get(base, { config: { ...config, describe: () => describe('List') } }, async (req, reply) => cachedList(req, reply, ctxOf(req)))
      // The detail is serialized by fast-json-stringify from the catalogue's JSON Schema, compiled by
      // Fastify on the route's first plain-JSON answer (not at boot: ~120 routes would delay every
      // start). Partial: `fields`/`omit` may leave keys out. Other renderings take the object.
      let detailSchema: ReturnType<typeof resourceSchema> | undefined
      const detailTexts = new WeakMap<object, string>()
      const renderedOf = version === 'v4' && rendered ? deps.renderedBytes : undefined
      const built = async (req: FastifyRequest, reply: FastifyReply, id: string) => {
        const obj = await reader.detail(id, queryParams(req), ctxOf(req))
        if (req.format !== 'json' || req.jsonIndent != null) return obj
        detailSchema ??= resourceSchema(cat, r, { version, partial: true })
        reply.type('application/json; charset=utf-8')
        // A kept object (object-cache.ts) is the same object on every request: serialized once.
        let text = detailTexts.get(obj)
        if (text === undefined) { text = reply.serializeInput(obj, detailSchema as Record<string, unknown>); detailTexts.set(obj, text) }
        return text
      }
      // Not async: the plain JSON of a rendered resource with no query (fields, omit) is the text
      // kept for it, sent without a promise; anything else is built.
      app.get(`${base}:id/`, { config: { ...config, describe: () => describe('Instance') } }, (req, reply) => {
        const { id } = req.params as { id: string }
        if (renderedOf && req.format === 'json' && req.jsonIndent == null && !req.url.includes('?') && (r.keyKind !== 'int' || /^\d+$/.test(id))) {
          const body = renderedOf(r.name, id, requestOrigin(req))
          if (body !== undefined) return reply.type('application/json; charset=utf-8').send(body)
        }
        return built(req, reply, id)
      })
      app.options(base, { config: { resource: r.name } }, async () => describe('List'))
      app.options(`${base}:id/`, { config: { resource: r.name } }, async () => describe('Instance'))
      // Writes to case-law resources need model permissions nobody holds through this API:
      // anonymous callers get 401 first, authenticated ones 403, as the reference answers.
      if (deps.writable?.has(r.name)) continue
      for (const url of [base, `${base}:id/`]) {
        app.route({ method: ['POST', 'PUT', 'PATCH', 'DELETE'], url, config, handler: async (req) => {
          if (!req.user) throw notAuthenticated()
          throw new LdsError('LDS_ERR_PERMISSION_DENIED')
        } })
      }
    }
  }
  return { readers, contextOf }
}
