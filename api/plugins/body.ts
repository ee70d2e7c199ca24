/**
 * Request bodies: JSON (Fastify's own parser) and HTML form encoding, which clients of the
 * reference commonly use for citation lookup. Repeated form keys become lists.
 */
import type { FastifyInstance } from 'fastify'

export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k]
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]
  }
  return out
}

export function installBodyParsers(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    try { done(null, parseForm(body as string)) } catch (err) { done(err as Error, undefined) }
  })
}
