/**
 * GET /api/rest/v4/asyncapi/: the AsyncAPI 3.0 description of the public feed (schemas/asyncapi.ts).
 * The document is built once; each message also names the registry's current version and id of
 * its schema, read from the registry at most once a minute (left out while the registry is down:
 * the rest of the document does not depend on it).
 */
import pMap from 'p-map'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../core/config.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { toAsyncApi } from '../../schemas/asyncapi.js'

export const ASYNCAPI_PATH = '/api/rest/v4/asyncapi/'

/** How long the registry's versions are reused before they are read again. */
const VERSIONS_TTL_MS = 60_000
const REGISTRY_TIMEOUT_MS = 5_000
/** Registry reads in flight at once. */
const REGISTRY_CONCURRENCY = 8

interface SubjectVersion { version: number; id: number }

async function latestVersion(registryUrl: string, subject: string): Promise<SubjectVersion | null> {
  try {
    const res = await fetch(`${registryUrl}/subjects/${encodeURIComponent(subject)}/versions/latest`, { signal: AbortSignal.timeout(REGISTRY_TIMEOUT_MS) })
    if (!res.ok) return null
    const body = await res.json() as Partial<SubjectVersion>
    return typeof body.version === 'number' && typeof body.id === 'number' ? { version: body.version, id: body.id } : null
  } catch { return null }
}

export function registerAsyncApi(app: FastifyInstance, deps: { catalogue: Catalogue; cfg: Config }): void {
  const { cfg } = deps
  const doc = toAsyncApi(deps.catalogue, { brokers: cfg.kafkaBrokers, schemaRegistryUrl: cfg.schemaRegistryUrl, topicPrefix: cfg.topicPrefix, partitions: cfg.partitions, saslPort: cfg.ports.kafkaSasl })
  const messages = Object.values(doc.components.messages)
  let versions: { at: number; body: Promise<{ json: string; complete: boolean }> } | null = null

  const render = async () => {
    const found = await pMap(messages, (m) => latestVersion(cfg.schemaRegistryUrl, String(m['x-registry-subject'])), { concurrency: REGISTRY_CONCURRENCY })
    const withVersions = structuredClone(doc)
    Object.values(withVersions.components.messages).forEach((m, i) => {
      const v = found[i]
      if (v) Object.assign(m, { 'x-registry-version': v.version, 'x-registry-schema-id': v.id })
    })
    return { json: JSON.stringify(withVersions), complete: found.every(Boolean) }
  }

  const describe = { name: 'Feed Schema', description: 'The AsyncAPI 3.0 description of the public Kafka topics.' }
  app.get(ASYNCAPI_PATH, { config: { describe } }, async (_req, reply) => {
    const now = Date.now()
    if (!versions || now - versions.at > VERSIONS_TTL_MS) versions = { at: now, body: render() }
    const body = await versions.body
    // Versions the registry did not give (down, slow) are asked for again by the next request.
    if (!body.complete) versions = null
    return reply.type('application/json; charset=utf-8').send(body.json)
  })
}
