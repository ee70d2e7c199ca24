/**
 * Prayers: a user asks for a document not yet in the archive; when someone's purchase makes it
 * available, the waiting prayers for it are granted (a PRAY_AND_PAY event and an e-mail each).
 *
 * Create rules (reference serializer): one prayer per (user, document) → else 400; at most
 * ALLOWED_PRAYER_COUNT prayers in the last 24 hours → the next one is a 400. Both answer with
 * non-field errors. The 24-hour window is a rate limit, not a scheduled delay: not scaled.
 */
import { FieldErrors } from '../../core/errors.js'

export const PRAYER_STATUS = { WAITING: 1, GRANTED: 2 } as const
export type PrayerStatus = (typeof PRAYER_STATUS)[keyof typeof PRAYER_STATUS]

/** Legal prayer transitions: Waiting → Granted when the document becomes available. */
export const PRAYER_TRANSITIONS: Readonly<Record<PrayerStatus, Partial<Record<'granted', PrayerStatus>>>> = {
  [PRAYER_STATUS.WAITING]: { granted: PRAYER_STATUS.GRANTED },
  [PRAYER_STATUS.GRANTED]: {},
}

export const ALLOWED_PRAYER_COUNT = 5
export const PRAYER_WINDOW_MS = 24 * 60 * 60 * 1000

export const PRAYER_MESSAGES = {
  duplicate: 'A prayer for this archive document already exists.',
  tooMany: (n: number) => `You have reached the maximum number of prayers (${n}) allowed in the last 24 hours.`,
} as const

export interface PrayerSummary {
  archive_document: number
  /** epoch ms */
  date_created: number
}

/**
 * The 400 for a new prayer by a user for `archiveDocument`, or null when allowed. `mine` are the
 * user's prayers (any status).
 */
export function checkNewPrayer(archiveDocument: number, mine: readonly PrayerSummary[], now: number): FieldErrors | null {
  if (mine.some((p) => p.archive_document === archiveDocument)) return new FieldErrors({ non_field_errors: [PRAYER_MESSAGES.duplicate] })
  const recent = mine.filter((p) => p.date_created > now - PRAYER_WINDOW_MS).length
  if (recent >= ALLOWED_PRAYER_COUNT) return new FieldErrors({ non_field_errors: [PRAYER_MESSAGES.tooMany(ALLOWED_PRAYER_COUNT)] })
  return null
}

export interface Prayer {
  id: number
  user: number
  archive_document: number
  status: number
  date_created: string | number
}

/** A granted copy of a waiting prayer; throws on any other status. */
export function grantPrayer<P extends Prayer>(prayer: P): P {
  const to = PRAYER_TRANSITIONS[prayer.status as PrayerStatus]?.granted
  if (to === undefined) throw new Error(`illegal prayer transition: status ${prayer.status} on granted`)
  return { ...prayer, status: to }
}

/** The waiting prayers for `archiveDocument`, granted: each gets a PRAY_AND_PAY event and an e-mail. */
export function prayersToGrant<P extends Prayer>(prayers: readonly P[], archiveDocument: number): P[] {
  return prayers.filter((p) => p.archive_document === archiveDocument && p.status === PRAYER_STATUS.WAITING).map(grantPrayer)
}
