/**
 * Making webhook events: for a user and an event type, one event per enabled endpoint of that
 * type, with the payload in the endpoint's format version, wrapped in the envelope and queued for
 * delivery (its status row published as well). Used by the event sources (docket alerts, search
 * alerts, fetches, prayers, reports) and by the API's "send a test event".
 */
import { randomUUID } from 'node:crypto'
import type { Clock } from '../clock.js'
import type { Publisher } from './publisher.js'
import { buildEnvelope, serializeEnvelope, EVENT_STATUS, type EventTypeId, type WebhookVersion } from '../../domain/webhooks/index.js'
import type { QueuedEvent, WebhookQueue } from './webhook-queue.js'

export type Row = Record<string, unknown>

export interface EmitRequest {
  userId: number
  eventType: EventTypeId
  /** The payload for a format version (v1 and v2 differ only for search alerts). */
  payload(version: WebhookVersion): unknown
  /** A test event: never retried, never counted, sent even to a disabled endpoint. */
  debug?: boolean
  /** Only this endpoint (test events). */
  webhookId?: number
}

export interface WebhookEmitter { emit(req: EmitRequest): Promise<QueuedEvent[]> }

export function createWebhookEmitter(deps: { queue: WebhookQueue; publisher: Publisher; clock: Clock; endpointsOf(userId: number, eventType: number): Row[] }): WebhookEmitter {
  return {
    async emit(req) {
      const now = deps.clock.now()
      const iso = new Date(now).toISOString()
      const targets = deps.endpointsOf(req.userId, req.eventType).filter((w) => (req.webhookId === undefined || Number(w.id) === req.webhookId) && (w.enabled || req.debug))
      const events: QueuedEvent[] = []
      for (const w of targets) {
        const version = Number(w.version ?? 1) as WebhookVersion
        const envelope = buildEnvelope({ event_type: req.eventType, version, date_created: String(w.date_created) }, req.payload(version))
        const e: QueuedEvent = {
          kind: 'event', event_id: randomUUID(), webhook_id: Number(w.id), user_id: req.userId, event_type: req.eventType,
          content: serializeEnvelope(envelope), debug: !!req.debug, retry_counter: 0, due_at: now, date_created: iso,
        }
        events.push(e)
        await deps.publisher.upsert('webhook-events', {
          id: e.event_id, webhook_id: e.webhook_id, user_id: e.user_id, event_type: e.event_type, status: EVENT_STATUS.IN_PROGRESS, retry_counter: 0,
          next_retry_date: null, status_code: null, response: '', error_message: '', debug: e.debug, content: e.content, failed_at: null, date_created: iso, date_modified: iso,
        })
      }
      if (events.length) {
        await deps.publisher.flush()
        await deps.queue.send(events)
      }
      return events
    },
  }
}
