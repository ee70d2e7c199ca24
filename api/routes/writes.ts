/**
 * The few writes (POST on a list, PUT/PATCH/DELETE on a detail) of the resources a user owns:
 * search alerts, docket alerts, prayers, archive fetch requests, user tags and docket tags.
 *
 * A write is an event like any other: the body is checked (api/engine/write.ts, then the resource's
 * hook), the change is published to the resource's topic and acknowledged by Kafka, and the answer
 * is sent once the change is visible to reads — in the read model (details) and in ClickHouse
 * (lists, through the table sink's watermark). If it does not become visible in time the answer is
 * 504, and the change still lands. Another user's row answers 404; a method the resource does not
 * take answers 405, after authentication and throttling as the reference checks them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { LdsError } from '../../core/errors.js'
import type { Clock } from '../../core/clock.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import type { ResourceDef } from '../../schemas/define.js'
import type { Publisher, Written } from '../../core/events/publisher.js'
import { compileWriter } from '../engine/write.js'
import type { ReadModel } from '../read-model/consumer.js'
import type { Watermarks } from '../../core/events/watermark-reader.js'
import { WRITE_HOOKS, type WriteContext, type Record_ } from '../writes/hooks.js'
import type { ResourceReader } from '../engine/list.js'
import type { RequestContext } from '../engine/context.js'
import { queryParams } from './resources.js'

export interface WriteDeps {
  catalogue: Catalogue
  clock: Clock
  publisher: Publisher
  readModel: ReadModel
  watermarks: Watermarks
  /** The resource's reader (to answer with the written object as a GET would show it). */
  readerOf(r: ResourceDef): ResourceReader
  contextOf(req: FastifyRequest, version: 'v3' | 'v4'): RequestContext
  search?: WriteContext['search']
  allowInsecureWebhooks: boolean
  reenableWebhook?: WriteContext['reenableWebhook']
  records?: WriteContext['records']
  /** Ids of created rows (core/ids.ts). */
  ids: NonNullable<WriteContext['ids']>
  /** How long a write waits to become visible before answering 504. */
  visibleWithinMs?: number
}

export function writableResources(cat: Catalogue): ResourceDef[] {
  return cat.resources.filter((r) => r.api && WRITE_HOOKS[r.name])
}

export function registerWrites(app: FastifyInstance, deps: WriteDeps): void {
  const { catalogue: cat, readModel, watermarks } = deps
  const within = deps.visibleWithinMs ?? 10_000

  /** Waits until a published change is in the read model and in the tables; 504 when it is not in time. */
  async function visible(w: Written): Promise<void> {
    const [detail, list] = await Promise.all([
      readModel.waitUntilApplied(w.topic, w.partition, w.offset, within),
      watermarks.waitUntilApplied(w.topic, w.partition, w.offset, within),
    ])
    if (!detail || !list) throw new LdsError('LDS_ERR_WRITE_TIMEOUT')
  }

  for (const r of writableResources(cat)) {
    const hooks = WRITE_HOOKS[r.name]
    const writer = compileWriter(cat, r)
    const reader = deps.readerOf(r)
    const owner = r.owner!
    const storage = cat.storageOf(r)
    const writes = r.writes ?? { create: true, update: true }
    const methods = new Set(r.methods ?? [])
    const throttle = r.throttle

    const contextFor = (req: FastifyRequest): WriteContext => ({
      user: req.user!, clock: deps.clock, catalogue: cat, store: readModel.store, search: deps.search,
      allowInsecureWebhooks: deps.allowInsecureWebhooks, reenableWebhook: deps.reenableWebhook, records: deps.records, ids: deps.ids,
      mine: (resource) => readModel.store.keysWhere(resource, 'user_id', req.user!.id).map((k) => readModel.store.get(resource, k)!).filter(Boolean),
    })
    /** The caller's row, or 404 as if it did not exist. */
    const ownRow = (req: FastifyRequest): Record_ => {
      const { id } = req.params as { id: string }
      const row = /^\d+$/.test(id) ? readModel.store.get(storage.name, Number(id)) : undefined
      if (!row || Number(row[owner]) !== req.user!.id) throw new LdsError('LDS_ERR_NOT_FOUND', { detail: `No ${r.model} matches the given query.` })
      return row
    }
    const answer = async (req: FastifyRequest, version: 'v3' | 'v4', record: Record_, extra: Record_) => {
      const obj = await reader.detail(String(record.id), queryParams(req), deps.contextOf(req, version))
      return { ...obj, ...extra }
    }
    const notAllowed = async (req: FastifyRequest) => { throw new LdsError('LDS_ERR_METHOD_NOT_ALLOWED', { detail: `Method "${req.method}" not allowed.` }) }

    for (const version of ['v4', 'v3'] as const) {
      const base = `/api/rest/${version}/${r.path ?? r.name}/`
      const config = { auth: 'required' as const, resource: r.name, throttle }
      app.post(base, { config }, writes.create ? async (req: FastifyRequest, reply: FastifyReply) => {
        const ctx = contextFor(req)
        const fields = writer.create(req.body)
        const record = await hooks.create(fields, ctx)
        const extra = await hooks.answerExtra?.(record, fields, ctx) ?? {}
        await visible(await deps.publisher.write(storage.name, { upsert: record }))
        await hooks.afterWrite?.(record, undefined, ctx)
        return reply.status(201).send(await answer(req, version, record, extra))
      } : notAllowed)
      app.route({ method: ['PUT', 'PATCH'], url: `${base}:id/`, config, handler: writes.update && hooks.update && (methods.has('PUT') || methods.has('PATCH')) ? async (req) => {
        const row = ownRow(req)
        const ctx = contextFor(req)
        const fields = req.method === 'PUT' ? writer.create(req.body) : writer.patch(req.body)
        const record = await hooks.update!(row, fields, ctx)
        const extra = await hooks.answerExtra?.(record, fields, ctx) ?? {}
        await visible(await deps.publisher.write(storage.name, { upsert: record }))
        await hooks.afterWrite?.(record, row, ctx)
        return answer(req, version, record, extra)
      } : notAllowed })
      app.delete(`${base}:id/`, { config }, methods.has('DELETE') ? async (req: FastifyRequest, reply: FastifyReply) => {
        const row = ownRow(req)
        hooks.delete?.(row, contextFor(req))
        await visible(await deps.publisher.write(storage.name, { delete: String(row.id) }))
        return reply.status(204).send()
      } : notAllowed)
      // A POST on a detail URL is not a method of the reference either.
      app.post(`${base}:id/`, { config }, notAllowed)
    }
  }
}
