/**
 * The JSON body of every delivery: `{"webhook": {...}, "payload": {...}}`.
 *
 *   webhook.version          the endpoint's event format version (1 or 2)
 *   webhook.event_type       the event type number (event-types.ts)
 *   webhook.date_created     when the *endpoint* was created, ISO 8601
 *   webhook.deprecation_date v1: "2024-11-18T00:00:00+00:00", v2: null
 */
import { WEBHOOK_VERSIONS, isEventType, isWebhookVersion, type EventTypeId, type WebhookVersion } from './event-types.js'

export interface WebhookEndpointInfo {
  event_type: EventTypeId
  version: WebhookVersion
  /** The endpoint's creation time: an ISO string, or epoch milliseconds. */
  date_created: string | number
}

export interface WebhookHeader {
  version: WebhookVersion
  event_type: EventTypeId
  date_created: string
  deprecation_date: string | null
}

export interface WebhookEnvelope<P = unknown> {
  webhook: WebhookHeader
  payload: P
}

export function buildEnvelope<P>(endpoint: WebhookEndpointInfo, payload: P): WebhookEnvelope<P> {
  if (!isEventType(endpoint.event_type)) throw new Error(`unknown webhook event type ${endpoint.event_type}`)
  if (!isWebhookVersion(endpoint.version)) throw new Error(`unknown webhook version ${endpoint.version}`)
  if (payload === null || payload === undefined || (typeof payload === 'object' && Object.keys(payload as object).length === 0)) {
    throw new Error('a webhook event needs a payload')
  }
  return {
    webhook: {
      version: endpoint.version,
      event_type: endpoint.event_type,
      date_created: isoTimestamp(endpoint.date_created),
      deprecation_date: WEBHOOK_VERSIONS[endpoint.version].deprecation_date,
    },
    payload,
  }
}

/** The exact bytes sent (and signed). */
export function serializeEnvelope(envelope: WebhookEnvelope): string {
  return JSON.stringify(envelope)
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/**
 * The service's timestamp format: `2024-01-02T03:04:05.123000+00:00` (microseconds, explicit
 * offset), as elsewhere in the API. Strings pass through untouched.
 */
export function isoTimestamp(t: string | number | Date): string {
  if (typeof t === 'string') return t
  const d = typeof t === 'number' ? new Date(t) : t
  if (Number.isNaN(d.getTime())) throw new RangeError('invalid timestamp')
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}000+00:00`
}
