/**
 * Calendar arithmetic on day numbers (days since 1970-01-01, UTC) and the timestamps of the
 * sample records. ISO strings come from a table built once, so turning a day into a date costs
 * an array read.
 */
import type { Rng } from './random.js'

const MS_PER_DAY = 86_400_000
const FIRST = Date.UTC(1850, 0, 1) / MS_PER_DAY
const LAST = Date.UTC(2040, 11, 31) / MS_PER_DAY
let table: string[] | undefined

/** Day number of an ISO date (YYYY-MM-DD). */
export function dayOf(iso: string): number {
  return Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / MS_PER_DAY
}

/** ISO date (YYYY-MM-DD) of a day number. */
export function isoDay(day: number): string {
  if (day < FIRST || day > LAST) return new Date(day * MS_PER_DAY).toISOString().slice(0, 10)
  table ??= Array.from({ length: LAST - FIRST + 1 }, (_, i) => new Date((FIRST + i) * MS_PER_DAY).toISOString().slice(0, 10))
  return table[day - FIRST]
}

export const yearOf = (day: number) => Number(isoDay(day).slice(0, 4))

const MONTHS = ['Jan.', 'Feb.', 'Mar.', 'Apr.', 'May', 'June', 'July', 'Aug.', 'Sept.', 'Oct.', 'Nov.', 'Dec.']
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** "Mar. 3, 2019", the Bluebook form used in parentheticals. */
export function bluebookDate(day: number): string {
  const iso = isoDay(day)
  return `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`
}

/** "March 3, 2019", the form used in captions. */
export function longDate(day: number): string {
  const iso = isoDay(day)
  return `${MONTH_NAMES[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`
}

const PAD2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'))

/** The day (UTC) a run takes for today: an ISO date given, or the clock's. */
export function todayOf(today?: string): number {
  const iso = today ?? new Date().toISOString().slice(0, 10)
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || Number.isNaN(dayOf(iso))) throw new Error(`today must be a date (YYYY-MM-DD), got ${JSON.stringify(today)}`)
  return dayOf(iso)
}

/**
 * A timestamp on `day` at a random time of the working day: 2024-01-02T15:04:05.123456+00:00;
 * `early`: in the first hour of the day (00:MM:SS), for the day a sample is taken, so that its
 * timestamps are not in the future for a run later that day. The same draws either way.
 */
export function stampOn(day: number, rng: Rng, early = false): string {
  const micro = String(rng.int(0, 999_999)).padStart(6, '0')
  const hour = rng.int(13, 23)
  return `${isoDay(day)}T${PAD2[early ? 0 : hour]}:${PAD2[rng.int(0, 59)]}:${PAD2[rng.int(0, 59)]}.${micro}+00:00`
}

/**
 * date_created and date_modified of a record first known on `day`: created then, or at the
 * import of the archive (`importDay`) for older material; modified later for some records,
 * never after `snapshotDay` (and then in its first hour).
 */
export function stamps(day: number, importDay: number, snapshotDay: number, rng: Rng): [string, string] {
  const createdDay = Math.min(snapshotDay, Math.max(day + rng.int(1, 20), importDay + rng.int(0, 400)))
  const created = stampOn(createdDay, rng, createdDay === snapshotDay)
  if (rng.chance(0.6)) return [created, created]
  const modifiedDay = Math.min(snapshotDay, createdDay + rng.int(1, 2000))
  return [created, modifiedDay === createdDay ? created : stampOn(modifiedDay, rng, modifiedDay === snapshotDay)]
}
