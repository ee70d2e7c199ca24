import type { FastifyInstance } from 'fastify'
import { V4_ROOT_NAMES } from '../../schemas/catalogue/index.js'
import { requestOrigin } from '../origin.js'

/** v3 lacks the names the reference added with v4. */
const V4_ONLY = new Set(['alerts', 'docket-alerts', 'prayers', 'tags', 'docket-tags', 'archive-fetch', 'api-usage', 'memberships', 'increment-event'])

export function registerRoot(app: FastifyInstance): void {
  for (const version of ['v4', 'v3'] as const) {
    app.get(`/api/rest/${version}/`, { config: { describe: { name: 'Api Root', description: 'The resources of this API version, each with its URL.' } } }, async (req) => {
      const origin = requestOrigin(req)
      const names = version === 'v4' ? V4_ROOT_NAMES : V4_ROOT_NAMES.filter((n) => !V4_ONLY.has(n))
      return Object.fromEntries(names.map((n) => [n, `${origin}/api/rest/${version}/${n}/`]))
    })
  }
  // Versions 1 and 2 are gone; the reference answers 410 with this shape.
  for (const old of ['v1', 'v2']) {
    app.all(`/api/rest/${old}/*`, async (_req, reply) => reply.status(410).send({
      meta: { status: `This endpoint is deprecated. Please upgrade to the newest version of the API.` }, objects: [],
    }))
  }
}
