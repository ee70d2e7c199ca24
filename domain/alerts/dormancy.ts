/**
 * Docket alert dormancy: subscriptions on terminated cases that see no activity are warned, then
 * reported as old, then disabled by a weekly job.
 *
 * Idle time is measured from the latest of: the docket's date_terminated, the alert's
 * date_modified, the alert's date_last_hit and the docket's date_last_filing. Re-upping
 * (PATCH alert_type=1) and any other change to the alert update date_modified, which restarts
 * the clock — that is how a re-up postpones disablement by about six months (180 days).
 *
 * Bands. The reference's job (facts §10) uses 90–96 idle days → first warning, 180–186 → "very
 * old" (reported in old_alerts), ≥187 → disabled (reported in disabled_alerts). The spec fixes
 * the dormancy at 180 days; we express the bands in terms of it, D = DORMANCY_DAYS and
 * W = the weekly job's period in days:
 *
 *   warn      D/2     ≤ idle < D/2 + W     (90–96 for D = 180)   e-mail only
 *   old       D       ≤ idle < D + W       (180–186)            old_alerts: disabled next week unless re-upped
 *   disable   D + W   ≤ idle               (≥ 187)              disabled_alerts: "over 180 days"
 *
 * so for the spec's 180 days the mapping is the identity. Each band is one week wide so a job
 * running once a week puts each alert in each band exactly once. Days are *scheduled* days:
 * pass `clock.scaled` as `scaled` to run the job under LDS_TIME_SCALE.
 */

export const DORMANCY_DAYS = 180
export const DORMANCY_JOB_PERIOD_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000

export const DOCKET_ALERT_TYPE = { UNSUBSCRIPTION: 0, SUBSCRIPTION: 1 } as const
export type DocketAlertType = (typeof DOCKET_ALERT_TYPE)[keyof typeof DOCKET_ALERT_TYPE]

/** Legal docket alert transitions: from alert_type → trigger → to. */
export const DOCKET_ALERT_TRANSITIONS: Readonly<Record<DocketAlertType, Partial<Record<DocketAlertTrigger, DocketAlertType>>>> = {
  [DOCKET_ALERT_TYPE.SUBSCRIPTION]: { re_up: 1, unsubscribe: 0, auto_disable: 0 },
  [DOCKET_ALERT_TYPE.UNSUBSCRIPTION]: { re_up: 1, unsubscribe: 0 },
}
export type DocketAlertTrigger = 're_up' | 'unsubscribe' | 'auto_disable'

export type DormancyBand = 'active' | 'warn' | 'old' | 'disable'

export interface DormancyBands {
  warn: readonly [number, number]
  old: readonly [number, number]
  disableFrom: number
}

/** The bands for a dormancy of `days` and a job every `periodDays`. */
export function dormancyBands(days = DORMANCY_DAYS, periodDays = DORMANCY_JOB_PERIOD_DAYS): DormancyBands {
  const half = Math.floor(days / 2)
  return { warn: [half, half + periodDays], old: [days, days + periodDays], disableFrom: days + periodDays }
}

export const DEFAULT_BANDS = dormancyBands()

type Ts = string | number | null | undefined

export interface DormancyInput {
  alert: { alert_type: number; date_modified: Ts; date_last_hit?: Ts }
  docket: { date_terminated: Ts; date_last_filing?: Ts }
}

export interface DormancyOptions {
  scaled?: (ms: number) => number
  bands?: DormancyBands
}

/** A timestamp or YYYY-MM-DD date as epoch ms (dates at 00:00 UTC); null when absent. */
export function toMs(v: Ts): number | null {
  if (v === null || v === undefined || v === '') return null
  if (typeof v === 'number') return v
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) : Date.parse(v)
  return Number.isNaN(ms) ? null : ms
}

/** The moment idle time is measured from, or null when the docket is not terminated. */
export function lastActivity(input: DormancyInput): number | null {
  const terminated = toMs(input.docket.date_terminated)
  if (terminated === null) return null
  const times = [terminated, toMs(input.alert.date_modified), toMs(input.alert.date_last_hit), toMs(input.docket.date_last_filing)]
  return Math.max(...times.filter((t): t is number => t !== null))
}

/** Whole scheduled days without activity, or null when dormancy does not apply. */
export function idleDays(input: DormancyInput, now: number, opts: DormancyOptions = {}): number | null {
  if (input.alert.alert_type !== DOCKET_ALERT_TYPE.SUBSCRIPTION) return null
  const since = lastActivity(input)
  if (since === null) return null
  const day = (opts.scaled ?? ((ms: number) => ms))(DAY_MS)
  return Math.floor((now - since) / day)
}

export function classifyDormancy(input: DormancyInput, now: number, opts: DormancyOptions = {}): DormancyBand {
  const idle = idleDays(input, now, opts)
  if (idle === null) return 'active'
  const b = opts.bands ?? DEFAULT_BANDS
  if (idle >= b.disableFrom) return 'disable'
  if (idle >= b.old[0] && idle < b.old[1]) return 'old'
  if (idle >= b.warn[0] && idle < b.warn[1]) return 'warn'
  return 'active'
}

export interface DormancyRun<T> {
  /** First-warning e-mails (no webhook). */
  warn: T[]
  /** Reported in old_alerts: disabled next week unless re-upped. */
  old_alerts: T[]
  /** To disable now (alert_type 0), reported in disabled_alerts. */
  disabled_alerts: T[]
}

/** The weekly job's classification. The caller groups by user, disables, and sends reports. */
export function weeklyDormancyRun<T extends DormancyInput>(items: readonly T[], now: number, opts: DormancyOptions = {}): DormancyRun<T> {
  const run: DormancyRun<T> = { warn: [], old_alerts: [], disabled_alerts: [] }
  for (const item of items) {
    const band = classifyDormancy(item, now, opts)
    if (band === 'warn') run.warn.push(item)
    else if (band === 'old') run.old_alerts.push(item)
    else if (band === 'disable') run.disabled_alerts.push(item)
  }
  return run
}

/** When the weekly job will first find the alert disabling-age (null when dormancy does not apply). */
export function disablementDueAt(input: DormancyInput, opts: DormancyOptions = {}): number | null {
  if (input.alert.alert_type !== DOCKET_ALERT_TYPE.SUBSCRIPTION) return null
  const since = lastActivity(input)
  if (since === null) return null
  const day = (opts.scaled ?? ((ms: number) => ms))(DAY_MS)
  return since + (opts.bands ?? DEFAULT_BANDS).disableFrom * day
}

/** The fields a transition writes: the new alert_type and date_modified = now (which restarts the idle clock). */
export function applyDocketAlertTransition(from: number, trigger: DocketAlertTrigger, now: number): { alert_type: DocketAlertType; date_modified: number } {
  const to = DOCKET_ALERT_TRANSITIONS[from as DocketAlertType]?.[trigger]
  if (to === undefined) throw new Error(`illegal docket alert transition: alert_type ${from} on ${trigger}`)
  return { alert_type: to, date_modified: now }
}
