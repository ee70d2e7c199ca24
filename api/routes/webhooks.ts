/**
 * Webhook endpoints through the API (our addition; the reference has only a web panel). The
 * resource routes serve list and detail, the write routes create, change and delete; here:
 *   POST /api/rest/v4/webhooks/{id}/test/    sends the fixed sample event of the endpoint's type and
 *                                            version (never retried, never counted)
 *   GET  /api/rest/v4/webhooks/{id}/events/  the endpoint's events: status, attempts, answer, next attempt
 */
import type { FastifyInstance } from 'fastify'
import { LdsError } from '../../core/errors.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { samplePayload, type EventTypeId } from '../../domain/webhooks/index.js'
import type { WebhookEmitter } from '../../core/events/webhook-emitter.js'
import type { ReadModel } from '../read-model/consumer.js'
import type { ResourceReader } from '../engine/list.js'
import type { RequestContext } from '../engine/context.js'
import { queryParams } from './resources.js'

export function registerWebhookActions(app: FastifyInstance, deps: {
  catalogue: Catalogue; readModel: ReadModel; emitter: WebhookEmitter; events: ResourceReader
  contextOf(req: import('fastify').FastifyRequest, version: 'v3' | 'v4'): RequestContext
}): void {
  const own = (req: import('fastify').FastifyRequest) => {
    const { id } = req.params as { id: string }
    const row = /^\d+$/.test(id) ? deps.readModel.store.get('webhooks', Number(id)) : undefined
    if (!row || Number(row.user_id) !== req.user!.id) throw new LdsError('LDS_ERR_NOT_FOUND', { detail: 'No Webhook matches the given query.' })
    return row
  }
  const config = { auth: 'required' as const }
  app.post('/api/rest/v4/webhooks/:id/test/', { config }, async (req) => {
    const w = own(req)
    const type = Number(w.event_type) as EventTypeId
    const [event] = await deps.emitter.emit({ userId: req.user!.id, eventType: type, webhookId: Number(w.id), debug: true, payload: (v) => samplePayload(type, v) })
    return { detail: 'A test event was queued for delivery.', event_id: event?.event_id ?? null }
  })
  app.get('/api/rest/v4/webhooks/:id/events/', { config }, async (req) => {
    const w = own(req)
    const lr = queryParams(req)
    lr.params.set('webhook', [String(w.id)])
    return deps.events.list(lr, deps.contextOf(req, 'v4'))
  })
}
