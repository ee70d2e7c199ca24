/**
 * The version roots, the names they list that are not catalogue resources, the retired versions,
 * and the deprecation of v3.
 *  - `/api/rest/v4/` and `/api/rest/v3/` map every resource name to its URL;
 *  - POST-only names (archive-email, scrapers/scotus-email, increment-event) answer other methods
 *    with 405 in the reference's words, after authentication as the reference checks it;
 *  - increment-event counts a label per day (in Redis when API processes share it);
 *  - v1 and v2 answer 410;
 *  - every v3 answer carries `Deprecation`, `Sunset` and a `Link` to its v4 successor.
 */
import type { FastifyInstance } from 'fastify'
import { V4_ROOT_NAMES } from '../../schemas/catalogue/index.js'
import { LdsError } from '../../core/errors.js'
import { requestOrigin } from '../origin.js'
import { notAuthenticated } from '../plugins/auth.js'
import { FieldErrors } from '../../core/errors.js'
import type { EventCounter } from '../plugins/usage.js'

/** v3 lacks the names the reference added with v4. */
const V4_ONLY = new Set(['alerts', 'docket-alerts', 'prayers', 'tags', 'docket-tags', 'archive-fetch', 'api-usage', 'memberships', 'increment-event'])

interface PostOnly { auth: boolean; label: string; post?: Record<string, unknown> }

/** Names that only take POST; the two mail uploads belong to connectors not built yet (501). */
const POST_ONLY: Record<string, PostOnly> = {
  'archive-email': { auth: true, label: 'Archive email upload' },
  'scrapers/scotus-email': { auth: true, label: 'Supreme Court email scraper' },
  'increment-event': {
    auth: false, label: 'Event Counter Viewset',
    post: { label: { type: 'string', required: true, read_only: false, label: 'Label', max_length: 255 } },
  },
}

export interface VersioningOptions { v3Sunset: string; events?: EventCounter }

/** `{"label": "…"}` → the label, or the field error the reference gives. */
function eventLabel(body: unknown): string {
  const raw = body && typeof body === 'object' ? (body as Record<string, unknown>).label : undefined
  const label = Array.isArray(raw) ? raw[raw.length - 1] : raw
  if (label === undefined) throw new FieldErrors({ label: ['This field is required.'] })
  if (label === null) throw new FieldErrors({ label: ['This field may not be null.'] })
  if (typeof label !== 'string' && typeof label !== 'number') throw new FieldErrors({ label: ['Not a valid string.'] })
  const text = String(label).trim()
  if (!text) throw new FieldErrors({ label: ['This field may not be blank.'] })
  if (text.length > 255) throw new FieldErrors({ label: ['Ensure this field has no more than 255 characters.'] })
  return text
}

export function registerRoot(app: FastifyInstance, opts: VersioningOptions = { v3Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' }): void {
  for (const version of ['v4', 'v3'] as const) {
    app.get(`/api/rest/${version}/`, { config: { describe: { name: 'Api Root', description: 'The resources of this API version, each with its URL.' } } }, async (req) => {
      const origin = requestOrigin(req)
      const names = version === 'v4' ? V4_ROOT_NAMES : V4_ROOT_NAMES.filter((n) => !V4_ONLY.has(n))
      return Object.fromEntries(names.map((n) => [n, `${origin}/api/rest/${version}/${n}/`]))
    })
    for (const [name, spec] of Object.entries(POST_ONLY)) {
      if (version === 'v3' && V4_ONLY.has(name)) continue
      const url = `/api/rest/${version}/${name}/`
      const describe = { name: `${spec.label} List`, description: 'Accepts POST only.' }
      app.route({
        method: ['GET', 'PUT', 'PATCH', 'DELETE'], url, config: { auth: spec.auth ? 'required' : 'public', describe },
        handler: async (req) => { throw new LdsError('LDS_ERR_METHOD_NOT_ALLOWED', { detail: `Method "${req.method}" not allowed.` }) },
      })
      const events = opts.events
      app.post(url, { config: { auth: spec.auth ? 'required' : 'public', throttle: name === 'increment-event' ? 'events' : undefined } }, async (req, reply) => {
        if (name !== 'increment-event' || !events) throw new LdsError('LDS_ERR_NOT_IMPLEMENTED', { detail: `POST to ${name} is not available on this service yet.` })
        const label = eventLabel(req.body)
        await events.increment(label)
        return reply.status(201).send({ label })
      })
      app.options(url, async () => ({
        ...describe, renders: ['application/json', 'text/html', 'application/xml'],
        parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml'],
        ...(spec.post ? { actions: { POST: spec.post } } : {}),
      }))
    }
  }
  // Versions 1 and 2 are gone; the reference answers 410 with this shape.
  for (const old of ['v1', 'v2']) {
    app.all(`/api/rest/${old}/*`, { config: { throttle: 'none' } }, async (_req, reply) => reply.status(410).send({
      meta: { status: `This endpoint is deprecated. Please upgrade to the newest version of the API.` }, objects: [],
    }))
  }
  // v3 is kept for migration: say so on every answer, with the date it goes and where to go.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.url.startsWith('/api/rest/v3/')) {
      reply.header('Deprecation', 'true')
      reply.header('Sunset', opts.v3Sunset)
      reply.header('Link', `<${requestOrigin(req)}${req.url.replace('/api/rest/v3/', '/api/rest/v4/')}>; rel="successor-version"`)
    }
    done(null, payload)
  })
}
