/**
 * When digest alerts are due. Real-time alerts are sent as hits arrive and `off` alerts never;
 * daily, weekly and monthly alerts collect their hits and send one digest per period.
 *
 * A digest is due one period after the last one was sent (or after the alert was created, if
 * none was sent yet). Periods are fixed lengths of *scheduled* time (a month counts as 30 days),
 * so LDS_TIME_SCALE shrinks them like every other scheduled delay: pass `clock.scaled` as
 * `scaled` and the returned times are wall-clock times.
 */
import type { AlertRate } from './search-alerts.js'

const DAY_MS = 24 * 60 * 60 * 1000

/** rate → digest period in scheduled ms; null for rates that do not send digests. */
export const DIGEST_PERIODS_MS: Readonly<Record<AlertRate, number | null>> = Object.freeze({
  rt: null,
  dly: DAY_MS,
  wly: 7 * DAY_MS,
  mly: 30 * DAY_MS,
  off: null,
})

export interface DigestState {
  rate: AlertRate
  /** When the alert was created (ms). */
  createdAt: number
  /** When its last digest was sent (ms), or null. */
  lastSentAt: number | null
}

export interface DigestOptions { scaled?: (ms: number) => number }

export function isDigestRate(rate: AlertRate): boolean {
  return DIGEST_PERIODS_MS[rate] !== null
}

/** The time the next digest is due, or null for rt/off alerts. */
export function nextDigestAt(s: DigestState, opts: DigestOptions = {}): number | null {
  const period = DIGEST_PERIODS_MS[s.rate]
  if (period === null) return null
  const scaled = opts.scaled ?? ((ms: number) => ms)
  return (s.lastSentAt ?? s.createdAt) + scaled(period)
}

export function isDigestDue(s: DigestState, now: number, opts: DigestOptions = {}): boolean {
  const at = nextDigestAt(s, opts)
  return at !== null && now >= at
}

/** The alerts whose digest is due at `now`, earliest first. */
export function dueDigests<S extends DigestState>(alerts: readonly S[], now: number, opts: DigestOptions = {}): S[] {
  return alerts
    .map((a) => ({ a, at: nextDigestAt(a, opts) }))
    .filter((x): x is { a: S; at: number } => x.at !== null && now >= x.at)
    .sort((x, y) => x.at - y.at)
    .map((x) => x.a)
}
