/**
 * The lifecycle of one webhook event, as an explicit table of legal transitions (STYLE habit 9).
 *
 *   IN_PROGRESS ──2xx──► DELIVERED
 *        │
 *        └─failure─► ENQUEUED_RETRY ──2xx──► DELIVERED
 *                      │   ▲   │
 *                      │   └───┘ failure, counter < 7
 *                      ├─8th failure──► FAILED            (and the endpoint is disabled)
 *                      └─endpoint disabled─► ENDPOINT_DISABLED
 *   ENDPOINT_DISABLED ──re-enable, within 2 days──► ENQUEUED_RETRY (counter reset)
 *   ENDPOINT_DISABLED ──re-enable, older / cut-off──► FAILED
 *   FAILED ──re-enable, within 2 days──► ENQUEUED_RETRY (counter reset)
 *
 * A test event (debug) goes IN_PROGRESS → DELIVERED or FAILED at once, never retried.
 */

export const EVENT_STATUS = {
  IN_PROGRESS: 0,
  ENQUEUED_RETRY: 1,
  DELIVERED: 2,
  FAILED: 3,
  ENDPOINT_DISABLED: 4,
} as const

export type EventStatusName = keyof typeof EVENT_STATUS
export type EventStatus = (typeof EVENT_STATUS)[EventStatusName]

export const EVENT_STATUS_LABELS: Record<EventStatus, string> = {
  0: 'In progress',
  1: 'Enqueued for retry',
  2: 'Delivered',
  3: 'Failed',
  4: 'Endpoint disabled',
}

/** Why a transition happens; each legal edge of the table names one. */
export type EventTrigger =
  | 'delivered'        // a 2xx arrived within the response timeout
  | 'failed_retry'     // a delivery failed and a retry is scheduled
  | 'failed_final'     // the 8th failure, or a failed test event
  | 'endpoint_disabled' // the endpoint was disabled while this event waited
  | 'reenabled'        // the endpoint was re-enabled and this event is young enough to resend
  | 'expired'          // too old to resend

/** from → trigger → to. Anything not listed is illegal. */
export const EVENT_TRANSITIONS: Readonly<Record<EventStatus, Partial<Record<EventTrigger, EventStatus>>>> = {
  [EVENT_STATUS.IN_PROGRESS]: {
    delivered: EVENT_STATUS.DELIVERED,
    failed_retry: EVENT_STATUS.ENQUEUED_RETRY,
    failed_final: EVENT_STATUS.FAILED,
    endpoint_disabled: EVENT_STATUS.ENDPOINT_DISABLED,
  },
  [EVENT_STATUS.ENQUEUED_RETRY]: {
    delivered: EVENT_STATUS.DELIVERED,
    failed_retry: EVENT_STATUS.ENQUEUED_RETRY,
    failed_final: EVENT_STATUS.FAILED,
    endpoint_disabled: EVENT_STATUS.ENDPOINT_DISABLED,
    expired: EVENT_STATUS.FAILED,
  },
  [EVENT_STATUS.DELIVERED]: {},
  [EVENT_STATUS.FAILED]: {
    reenabled: EVENT_STATUS.ENQUEUED_RETRY,
  },
  [EVENT_STATUS.ENDPOINT_DISABLED]: {
    reenabled: EVENT_STATUS.ENQUEUED_RETRY,
    expired: EVENT_STATUS.FAILED,
  },
}

export class IllegalEventTransition extends Error {
  constructor(readonly from: EventStatus, readonly trigger: EventTrigger) {
    super(`illegal webhook event transition: ${EVENT_STATUS_LABELS[from] ?? from} on ${trigger}`)
    this.name = 'IllegalEventTransition'
  }
}

export function canTransition(from: EventStatus, trigger: EventTrigger): boolean {
  return EVENT_TRANSITIONS[from]?.[trigger] !== undefined
}

/** The next status, or throws IllegalEventTransition. */
export function transition(from: EventStatus, trigger: EventTrigger): EventStatus {
  const to = EVENT_TRANSITIONS[from]?.[trigger]
  if (to === undefined) throw new IllegalEventTransition(from, trigger)
  return to
}

/** Statuses in which an event is still waiting to be delivered. */
export function isPending(status: EventStatus): boolean {
  return status === EVENT_STATUS.IN_PROGRESS || status === EVENT_STATUS.ENQUEUED_RETRY
}

export function isEventStatus(n: unknown): n is EventStatus {
  return typeof n === 'number' && n in EVENT_STATUS_LABELS
}
