/**
 * Webhook event types and format versions, as data. One entry per type: its number on the wire,
 * its name and what triggers it. Everything else (payload shapers, samples, mail wording) looks
 * types up here instead of switching on bare numbers.
 */

export const EVENT_TYPES = {
  DOCKET_ALERT: { id: 1, label: 'Docket Alert', sentWhen: 'a subscribed docket gets new filings' },
  SEARCH_ALERT: { id: 2, label: 'Search Alert', sentWhen: "a search alert's query has new results" },
  ARCHIVE_FETCH: { id: 3, label: 'Archive Fetch', sentWhen: 'an archive fetch request terminates, in success or failure' },
  OLD_DOCKET_ALERTS_REPORT: { id: 4, label: 'Old Docket Alerts Report', sentWhen: 'weekly, for docket alerts on dormant terminated cases' },
  PRAY_AND_PAY: { id: 5, label: 'Pray And Pay', sentWhen: "a prayer's status changes to Granted (2)" },
} as const

export type EventTypeName = keyof typeof EVENT_TYPES
export type EventTypeId = (typeof EVENT_TYPES)[EventTypeName]['id']

const BY_ID = new Map<number, EventTypeName>(
  (Object.keys(EVENT_TYPES) as EventTypeName[]).map((name) => [EVENT_TYPES[name].id, name]),
)

export const EVENT_TYPE_IDS: readonly EventTypeId[] = [...BY_ID.keys()] as EventTypeId[]

export function isEventType(n: unknown): n is EventTypeId {
  return typeof n === 'number' && BY_ID.has(n)
}

/** The name of an event type number; throws on an unknown number (a programming error). */
export function eventTypeName(id: number): EventTypeName {
  const name = BY_ID.get(id)
  if (!name) throw new Error(`unknown webhook event type ${id}`)
  return name
}

/** Versions of the event format. v1 is deprecated on a fixed date; v2 has no deprecation scheduled. */
export const WEBHOOK_VERSIONS = {
  1: { deprecation_date: '2024-11-18T00:00:00+00:00' },
  2: { deprecation_date: null },
} as const satisfies Record<number, { deprecation_date: string | null }>

export type WebhookVersion = keyof typeof WEBHOOK_VERSIONS
export const DEFAULT_WEBHOOK_VERSION: WebhookVersion = 1

export function isWebhookVersion(n: unknown): n is WebhookVersion {
  return n === 1 || n === 2
}
