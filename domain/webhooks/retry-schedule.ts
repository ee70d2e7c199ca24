/**
 * The retry schedule of webhook deliveries and what follows each failure, as data and pure
 * functions. Nothing here reads a clock or sleeps: callers pass `now` and get back times.
 *
 * Units. Every duration below is plain milliseconds of *scheduled* time. A caller that runs under
 * LDS_TIME_SCALE turns a scheduled delay into wall time with its clock (`clock.scaled(ms)`, or
 * `clock.sleep(ms)`, which scales by itself); `afterFailure` takes that function as `scaled` so
 * the `nextAttemptAt` it returns is already a wall-clock time. The one exception is the response
 * timeout (RESPONSE_TIMEOUT_MS, in delivery.ts): it is a property of the receiver's HTTP answer,
 * not of the schedule, so it is never scaled.
 *
 * Counter semantics follow the reference: `retryCounter` is the counter of the attempt that just
 * failed (0 = the initial attempt, n = retry n). After attempt n fails, retry n+1 is due
 * 3^(n+1) minutes later. The failure of retry 7 (the 8th failure) is final: the event is marked
 * failed, the endpoint is disabled, and every other pending event of that endpoint is held as
 * "endpoint disabled".
 *
 * | attempt  | counter | delay after it fails | e-mail on its failure        |
 * |----------|---------|----------------------|------------------------------|
 * | initial  | 0       | 3 min  → retry 1     | no                           |
 * | retry 1  | 1       | 9 min  → retry 2     | yes: failing (2nd failure)   |
 * | retry 2  | 2       | 27 min               | no                           |
 * | retry 3  | 3       | 81 min               | no                           |
 * | retry 4  | 4       | 243 min              | no                           |
 * | retry 5  | 5       | 729 min              | yes: failing (6th failure)   |
 * | retry 6  | 6       | 2187 min → retry 7   | no                           |
 * | retry 7  | 7       | none: event failed   | yes: disabled (8th failure)  |
 *
 * (So the delay *before* retry n is 3^n minutes: 3, 9, 27, 81, 243, 729, 2187 — cumulative 54h39m.)
 */
import { EVENT_STATUS, transition, type EventStatus } from './event-status.js'

export const MINUTE_MS = 60_000
export const HOUR_MS = 60 * MINUTE_MS
export const DAY_MS = 24 * HOUR_MS

/** Delay before retry n is RETRY_DELAYS_MS[n - 1]: 3, 9, 27, 81, 243, 729, 2187 minutes. */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([3, 9, 27, 81, 243, 729, 2187].map((m) => m * MINUTE_MS))

/** The counter of the last retry; its failure is the 8th and final one. */
export const MAX_RETRY_COUNTER = 7

/** Total attempts per event: the initial one and seven retries. */
export const MAX_ATTEMPTS = MAX_RETRY_COUNTER + 1

/** Retries (attempt counters) whose failure sends the owner an e-mail, and which kind. */
export const FAILURE_EMAILS: Readonly<Record<number, FailureEmailKind>> = Object.freeze({ 1: 'failing', 5: 'failing', 7: 'disabled' })

export type FailureEmailKind = 'failing' | 'disabled'

/** On re-enable, events that failed or were held within this window are delivered again (spec: two days). */
export const REENABLE_WINDOW_MS = 2 * DAY_MS

export interface FailureState {
  /** Counter of the attempt that just failed: 0 for the initial attempt, n for retry n. */
  retryCounter: number
  /** Whether this is the endpoint's oldest pending event: only that one triggers e-mails. */
  isOldestPending: boolean
  /** A "send test event" delivery: failed at once, never retried, never counted. */
  debug?: boolean
}

export interface FailureOutcome {
  status: EventStatus
  /** The counter stored on the event after this failure (the next attempt's counter). */
  retryCounter: number
  /** Scheduled delay until the next attempt, or null when there is none. */
  delayMs: number | null
  /** now + scaled(delayMs), or null when there is none. */
  nextAttemptAt: number | null
  /** The e-mail to send the endpoint's owner, if any. */
  email: FailureEmailKind | null
  /** How many times this event has failed, counting this one (what the e-mail reports). */
  failureNumber: number
  /** The endpoint must be disabled, and its other pending events held (see holdOnDisable). */
  disableEndpoint: boolean
  /** Whether the endpoint's failure_count goes up (test events never count). */
  countsTowardFailures: boolean
}

export interface ScheduleOptions {
  /** Scheduled ms → wall ms; pass `clock.scaled`. Identity when omitted. */
  scaled?: (ms: number) => number
}

/** What happens after a delivery attempt fails. */
export function afterFailure(state: FailureState, now: number, opts: ScheduleOptions = {}): FailureOutcome {
  const n = state.retryCounter
  if (!Number.isInteger(n) || n < 0 || n > MAX_RETRY_COUNTER) throw new RangeError(`retry counter out of range: ${n}`)
  const failureNumber = n + 1
  if (state.debug) {
    return { status: EVENT_STATUS.FAILED, retryCounter: failureNumber, delayMs: null, nextAttemptAt: null, email: null, failureNumber, disableEndpoint: false, countsTowardFailures: false }
  }
  const email = state.isOldestPending ? FAILURE_EMAILS[n] ?? null : null
  if (n >= MAX_RETRY_COUNTER) {
    return { status: transition(EVENT_STATUS.ENQUEUED_RETRY, 'failed_final'), retryCounter: failureNumber, delayMs: null, nextAttemptAt: null, email, failureNumber, disableEndpoint: true, countsTowardFailures: true }
  }
  const delayMs = RETRY_DELAYS_MS[n]
  const scaled = opts.scaled ?? ((ms: number) => ms)
  return {
    status: EVENT_STATUS.ENQUEUED_RETRY,
    retryCounter: failureNumber,
    delayMs,
    nextAttemptAt: now + scaled(delayMs),
    email,
    failureNumber,
    disableEndpoint: false,
    countsTowardFailures: true,
  }
}

/** Elapsed scheduled time from the first attempt to retry n (n = 1..7): 3, 12, 39 ... 3279 minutes. */
export function elapsedBeforeRetry(n: number): number {
  return RETRY_DELAYS_MS.slice(0, n).reduce((a, b) => a + b, 0)
}

export interface HeldEvent {
  id: string
  status: EventStatus
  debug?: boolean
}

/** When an endpoint is disabled: the ids of its pending (non-test) events, which become ENDPOINT_DISABLED. */
export function holdOnDisable<E extends HeldEvent>(events: readonly E[]): string[] {
  return events
    .filter((e) => !e.debug && (e.status === EVENT_STATUS.ENQUEUED_RETRY || e.status === EVENT_STATUS.IN_PROGRESS))
    .map((e) => e.id)
}

export interface ReenableCandidate extends HeldEvent {
  /** When the event became FAILED or ENDPOINT_DISABLED (its date_modified at that moment), ms. */
  failedAt: number
}

export interface ReenablePlan {
  /** Sent again, counter reset to 0, status ENQUEUED_RETRY, due now. */
  resend: string[]
  /** Held events too old to resend: they become FAILED. */
  expire: string[]
}

/**
 * When an endpoint is re-enabled: events that failed or were held within the last two days
 * (REENABLE_WINDOW_MS, measured from `failedAt` to `now`) are delivered again with the counter
 * reset; older held events are marked failed; older failed ones stay failed; test events are
 * never resent. Measuring from the failure rather than the creation matters: the event whose
 * 8th failure disabled the endpoint was created ~54.65 h before, and must be resent.
 *
 * `scaled` (clock.scaled) turns the window into wall time under LDS_TIME_SCALE.
 */
export function onReenable<E extends ReenableCandidate>(events: readonly E[], now: number, opts: ScheduleOptions = {}): ReenablePlan {
  const scaled = opts.scaled ?? ((ms: number) => ms)
  const cutoff = now - scaled(REENABLE_WINDOW_MS)
  const plan: ReenablePlan = { resend: [], expire: [] }
  for (const e of events) {
    if (e.debug) continue
    if (e.status !== EVENT_STATUS.FAILED && e.status !== EVENT_STATUS.ENDPOINT_DISABLED) continue
    if (e.failedAt >= cutoff) {
      transition(e.status, 'reenabled')
      plan.resend.push(e.id)
    } else if (e.status === EVENT_STATUS.ENDPOINT_DISABLED) {
      transition(e.status, 'expired')
      plan.expire.push(e.id)
    }
  }
  return plan
}
