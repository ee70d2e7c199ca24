/**
 * GET /api/rest/v4/changes/: the public feed over HTTP, for clients that cannot reach Kafka.
 *
 *   ?resources=dockets,clusters   public resources to follow (default: all of them)
 *   &after=<cursor>               where to resume (`0`: the beginning of what the topics hold)
 *   &limit=100                    most changes in one message (1–1000)
 *   &wait=20                      long-poll: most seconds to wait for a change (1–30)
 *
 * As JSON, one page per request: `{"results": [{resource, op, key, version, entity}…], "next": <URL>}`,
 * `next` resuming right after the last change (or where the request started, when none came).
 * With `Accept: text/event-stream`, Server-Sent Events: one `changes` event per message, its `id`
 * the cursor, so a reconnecting EventSource resumes exactly after the last event it got
 * (`Last-Event-ID`). Authenticated and throttled as any other request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kafka } from 'kafkajs'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import { FieldErrors, LdsError } from '../../core/errors.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { publicFeedResources } from '../../schemas/events/feeds.js'
import { BadCursor, decodeCursor, encodeCursor, type Cursor } from '../changes/cursor.js'
import { readChanges, type ChangeMessage, type ChangeReader } from '../changes/feed-reader.js'
import { requestOrigin } from '../origin.js'

export const CHANGES_PATH = '/api/rest/v4/changes/'

const LIMIT = { default: 100, max: 1000 }
const WAIT_S = { default: 20, max: 30 }
/** A comment line this often keeps proxies from closing a quiet event stream. */
const HEARTBEAT_MS = 15_000

declare module 'fastify' {
  interface FastifyContextConfig { eventStream?: boolean }
}

interface FeedRequest { resources: string[]; cursor: Cursor; limit: number; waitMs: number }

function intParam(raw: string | undefined, name: string, range: { default: number; max: number }, errors: Record<string, string[]>): number {
  if (raw === undefined || raw === '') return range.default
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > range.max) errors[name] = [`Enter a whole number from 1 to ${range.max}.`]
  return n
}

function parseRequest(req: FastifyRequest, feeds: ReadonlySet<string>): FeedRequest {
  const q = req.query as Record<string, string | undefined>
  const errors: Record<string, string[]> = {}
  const resources = q.resources ? [...new Set(q.resources.split(',').map((s) => s.trim()).filter(Boolean))] : [...feeds]
  const unknown = resources.filter((r) => !feeds.has(r))
  if (unknown.length) errors.resources = [`Not a public resource: ${unknown.join(', ')}.`]
  let cursor: Cursor = {}
  const after = String(req.headers['last-event-id'] ?? q.after ?? '0')
  try { cursor = decodeCursor(after) } catch (err) {
    if (!(err instanceof BadCursor)) throw err
    errors.after = ['Not a cursor this feed gave: resume from a `next` link or an event id.']
  }
  const limit = intParam(q.limit, 'limit', LIMIT, errors)
  const waitMs = intParam(q.wait, 'wait', WAIT_S, errors) * 1000
  if (Object.keys(errors).length) throw new FieldErrors(errors)
  return { resources, cursor, limit, waitMs }
}

export interface ChangesDeps {
  catalogue: Catalogue; kafka: Kafka; registry: Registry; log: Logger; topicPrefix: string
  /** Readers served at once (each holds a Kafka consumer); a request beyond them gets a 503 to retry. */
  maxReaders?: number
}

/** How long a client turned away for lack of readers is asked to wait. */
const BUSY_RETRY_S = 5

export function registerChanges(app: FastifyInstance, deps: ChangesDeps): void {
  const feeds = new Set(publicFeedResources(deps.catalogue).map((r) => r.name))
  const readers = new Set<ChangeReader>()
  // Readers starting or running: counted before the consumer exists, so a burst cannot pass the limit.
  let active = 0
  app.addHook('onClose', async () => { await Promise.all([...readers].map((r) => r.stop())) })
  const start = async (f: FeedRequest, deliver: (m: ChangeMessage) => Promise<boolean>) => {
    let reader: ChangeReader
    try {
      reader = await readChanges(deps, f.resources, f.cursor, f.limit, deliver)
    } catch (err) {
      active--
      deps.log.warn({ err }, 'change feed: Kafka unavailable')
      throw new LdsError('LDS_ERR_UNAVAILABLE')
    }
    readers.add(reader)
    let stopped = false
    return { stop: async () => { if (!stopped) { stopped = true; active-- } readers.delete(reader); await reader.stop() } }
  }
  const nextUrl = (req: FastifyRequest, f: FeedRequest, cursor: Cursor) => {
    const params = new URLSearchParams({ resources: f.resources.join(','), after: encodeCursor(cursor), limit: String(f.limit) })
    return `${requestOrigin(req)}${CHANGES_PATH}?${params.toString().replaceAll('%2C', ',')}`
  }

  const longPoll = async (req: FastifyRequest, reply: FastifyReply, f: FeedRequest) => {
    let answer!: (m: ChangeMessage | null) => void
    const first = new Promise<ChangeMessage | null>((resolve) => { answer = resolve })
    const timer = setTimeout(() => answer(null), f.waitMs)
    const reader = await start(f, async (m) => { answer(m); return false })
    try {
      const m = await first
      return await reply.send({ results: m?.changes ?? [], next: nextUrl(req, f, m?.cursor ?? f.cursor) })
    } finally {
      clearTimeout(timer)
      await reader.stop()
    }
  }

  const eventStream = async (req: FastifyRequest, reply: FastifyReply, f: FeedRequest) => {
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' })
    res.write(': following the public feed\n\n')
    const write = (text: string) => new Promise<boolean>((resolve) => {
      if (res.destroyed) return resolve(false)
      if (res.write(text)) return resolve(true)
      // The client reads slower than the topics fill: wait for it (or for it to leave).
      const drained = () => { res.off('close', closed); resolve(true) }
      const closed = () => { res.off('drain', drained); resolve(false) }
      res.once('drain', drained)
      res.once('close', closed)
    })
    const heartbeat = setInterval(() => { if (!res.destroyed) res.write(': keep-alive\n\n') }, HEARTBEAT_MS)
    let reader: Awaited<ReturnType<typeof start>>
    try {
      reader = await start(f, (m) => write(`id: ${encodeCursor(m.cursor)}\nevent: changes\ndata: ${JSON.stringify({ results: m.changes, next: nextUrl(req, f, m.cursor) })}\n\n`))
    } catch (err) {
      // The 200 is sent already: the stream ends with an error event, and the client reconnects.
      clearInterval(heartbeat)
      res.end(`event: error\ndata: ${JSON.stringify({ detail: err instanceof LdsError ? err.message : 'Service temporarily unavailable.' })}\n\n`)
      return
    }
    const end = () => { clearInterval(heartbeat); void reader.stop() }
    // A client gone while its reader started would otherwise hold it (and its slot) for good.
    if (res.destroyed) end()
    else res.once('close', end)
  }

  const describe = { name: 'Changes', description: 'Every change to the public resources, from a cursor: JSON pages (long-poll) or Server-Sent Events.' }
  app.get(CHANGES_PATH, { config: { auth: 'required', eventStream: true, describe } }, async (req, reply) => {
    const f = parseRequest(req, feeds)
    if (active >= (deps.maxReaders ?? Infinity)) {
      throw new LdsError('LDS_ERR_UNAVAILABLE', { detail: 'This server follows as many change feeds as it can; try again shortly.', wait: BUSY_RETRY_S })
    }
    active++
    const accept = req.headers.accept ?? ''
    if (accept.includes('text/event-stream')) return eventStream(req, reply, f)
    return longPoll(req, reply, f)
  })
}
