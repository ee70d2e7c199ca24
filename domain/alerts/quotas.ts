/**
 * Search alert quotas by membership level, as a table.
 *
 * - A real-time (`rt`) alert of any type requires an active membership.
 * - Only archive alerts (types r and d) count against quotas, and only while they send
 *   (rate rt, or a digest rate dly/wly/mly). Turning an alert `off` is always allowed.
 * - Real-time archive alerts and digest archive alerts have separate quotas.
 * - An edited alert does not count against itself.
 * - Users with a commercial alerts throttle bypass quotas.
 *
 * `legacy` members have no real-time archive quota listed in the reference; we give them 0
 * (they may still create real-time alerts of the other types).
 */
import { LdsError } from '../../core/errors.js'
import type { AlertRate, AlertType } from './search-alerts.js'

export const MEMBERSHIP_LEVELS = ['free', 'legacy', 'tier_1', 'tier_2', 'tier_3', 'tier_4'] as const
export type MembershipLevel = (typeof MEMBERSHIP_LEVELS)[number]

/** level → [real-time archive alerts, digest archive alerts] */
export const ARCHIVE_ALERT_QUOTAS: Readonly<Record<MembershipLevel, { rt: number; digest: number }>> = Object.freeze({
  free: { rt: 0, digest: 5 },
  legacy: { rt: 0, digest: 5 },
  tier_1: { rt: 5, digest: 10 },
  tier_2: { rt: 10, digest: 25 },
  tier_3: { rt: 25, digest: 50 },
  tier_4: { rt: 50, digest: 100 },
})

export const ARCHIVE_ALERT_TYPES: ReadonlySet<AlertType> = new Set(['r', 'd'])
const DIGEST_RATES: ReadonlySet<AlertRate> = new Set(['dly', 'wly', 'mly'])

export interface QuotaUser {
  /** null or 'free' when the user has no active membership. */
  membership: MembershipLevel | null
  /** A commercial alerts throttle bypasses quotas. */
  commercial?: boolean
}

export interface ExistingAlertSummary { id: number; rate: AlertRate; alert_type: AlertType }

export const QUOTA_MESSAGES = {
  realTimeNeedsMembership: 'You must be a member to create Real Time alerts. Please become a member to use them.',
  memberQuotaExceeded: "You've used all of the alerts included with your membership. To create this alert, upgrade your membership or disable an archive alert.",
  freeQuotaExceeded: (n: number) => `To create more than ${n} alerts and to gain access to real time alerts, please become a member.`,
} as const

/**
 * The 403 for an alert (new, or `editingId` being edited) with this rate and type, or null when
 * the user may have it. `others` are the user's alerts as stored.
 */
export function checkAlertQuota(user: QuotaUser, rate: AlertRate, alertType: AlertType, others: readonly ExistingAlertSummary[], editingId?: number): LdsError | null {
  if (user.commercial) return null
  if (rate === 'off') return null
  const level: MembershipLevel = user.membership ?? 'free'
  const member = level !== 'free'
  if (rate === 'rt' && !member) return new LdsError('LDS_ERR_PERMISSION_DENIED', { detail: QUOTA_MESSAGES.realTimeNeedsMembership })
  if (!ARCHIVE_ALERT_TYPES.has(alertType)) return null
  const bucket = rate === 'rt' ? 'rt' : 'digest'
  const inBucket = (r: AlertRate) => (bucket === 'rt' ? r === 'rt' : DIGEST_RATES.has(r))
  const used = others.filter((a) => a.id !== editingId && ARCHIVE_ALERT_TYPES.has(a.alert_type) && inBucket(a.rate)).length
  const quota = ARCHIVE_ALERT_QUOTAS[level][bucket]
  if (used < quota) return null
  const detail = member ? QUOTA_MESSAGES.memberQuotaExceeded : QUOTA_MESSAGES.freeQuotaExceeded(ARCHIVE_ALERT_QUOTAS.free.digest)
  return new LdsError('LDS_ERR_PERMISSION_DENIED', { detail })
}
