/**
 * GET /api/rest/v4/schema/: the OpenAPI 3.1 description of the API (schemas/openapi.ts), built
 * and serialized once at boot. Only the server URL follows the request (the caller's origin), so
 * "try it" tools call the address the document was fetched from.
 */
import type { FastifyInstance } from 'fastify'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { toOpenApi } from '../../schemas/openapi.js'
import { requestOrigin } from '../origin.js'

export const OPENAPI_PATH = '/api/rest/v4/schema/'

export function registerOpenApi(app: FastifyInstance, deps: { catalogue: Catalogue }): void {
  const { servers: _servers, ...rest } = toOpenApi(deps.catalogue)
  // Everything but `servers`, serialized once: '{"openapi":…}' without its opening brace.
  const tail = JSON.stringify(rest).slice(1)
  const describe = { name: 'Api Schema', description: 'The OpenAPI 3.1 description of this API.' }
  app.get(OPENAPI_PATH, { config: { describe } }, async (req, reply) => {
    const servers = JSON.stringify([{ url: requestOrigin(req) }])
    return reply.type('application/json; charset=utf-8').send(`{"servers":${servers},${tail}`)
  })
}
