/**
 * Registers list and detail routes for every API resource of the catalogue, in v4 and v3.
 * Nothing here knows a resource by name.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Db } from '../../core/clickhouse.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { compileSerializers } from '../engine/serialize.js'
import { compileReader, type ListRequest } from '../engine/list.js'
import type { RequestContext } from '../engine/context.js'
import { requestOrigin } from '../origin.js'

export const VERSIONS = ['v4', 'v3'] as const

export function queryParams(req: FastifyRequest): ListRequest {
  const url = new URL(req.url, requestOrigin(req))
  const params = new Map<string, string[]>()
  for (const [k, v] of url.searchParams) {
    if (!params.has(k)) params.set(k, [])
    params.get(k)!.push(v)
  }
  return { params, url }
}

export function registerResourceRoutes(app: FastifyInstance, deps: { db: Db; catalogue: Catalogue }): void {
  const { catalogue: cat, db } = deps
  const serializers = compileSerializers(cat)
  for (const r of cat.resources.filter((x) => x.api)) {
    const reader = compileReader(cat, r, serializers.get(r.name)!, db.database)
    for (const version of VERSIONS) {
      const ctxOf = (req: FastifyRequest): RequestContext => ({ db, catalogue: cat, origin: requestOrigin(req), version })
      const base = `/api/rest/${version}/${r.name}/`
      app.get(base, { config: { resource: r.name } }, async (req) => reader.list(queryParams(req), ctxOf(req)))
      app.get(`${base}:id/`, { config: { resource: r.name } }, async (req) => {
        const { id } = req.params as { id: string }
        return reader.detail(id, queryParams(req), ctxOf(req))
      })
    }
  }
}
