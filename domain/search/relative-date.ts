/**
 * Relative dates of the search date filters (`filed_after=past 30 days`), as the reference's
 * client sends them. A relative date names a day in the past counted back from today (UTC):
 *
 *   past N <unit>      past 30 days, PAST 1 year
 *   -N <unit>          -2y, -30 d, - 6 months
 *   N <unit> ago       1 year ago, 30d ago
 *
 * with <unit> one of d, day, days, m, month, months, y, year, years (any case); the space between
 * N and the unit is optional. A month is 30 days and a year 365 days, so the result is always
 * today minus a whole number of days, a calendar date that is then used exactly as the same date
 * written out would be.
 *
 * A value with no direction (`5 days`, `+3d`, `2y`) is not a relative date, nor is any other text:
 * the caller refuses it as it refuses any bad date. Pure code: today is a parameter.
 */

const DAY_MS = 86_400_000

/** Days per unit, by the unit's first letter. */
const UNIT_DAYS: Record<string, number> = { d: 1, m: 30, y: 365 }

const UNIT = '(d|days?|m|months?|y|years?)'
const FORMS = [
  new RegExp(`^past\\s+(\\d+)\\s*${UNIT}$`, 'i'),
  new RegExp(`^-\\s*(\\d+)\\s*${UNIT}$`, 'i'),
  new RegExp(`^(\\d+)\\s*${UNIT}\\s+ago$`, 'i'),
]

/**
 * The earliest day a relative date may name, 0001-01-01 (the dates of search are four-digit
 * years), in days since the epoch (Date.UTC would read the year 1 as 1901).
 */
const EARLIEST_DAY = new Date(0).setUTCFullYear(1, 0, 1) / DAY_MS

/**
 * How many days back a relative date reaches (`past 7 days` → 7, `1 year ago` → 365), or null
 * when the value is not a relative date.
 */
export function relativeDays(value: string): number | null {
  const v = value.trim().replace(/\s+/g, ' ')
  for (const form of FORMS) {
    const m = form.exec(v)
    if (!m) continue
    const n = Number(m[1])
    const days = n * UNIT_DAYS[m[2][0].toLowerCase()]
    return Number.isSafeInteger(days) ? days : null
  }
  return null
}

/** The UTC calendar day (YYYY-MM-DD) of an instant. */
export function utcDay(nowMs: number): string {
  return isoDay(Math.floor(nowMs / DAY_MS))
}

/**
 * The day a relative date names, `now` being the current instant (ms since the epoch): today in
 * UTC minus its days, as YYYY-MM-DD. Null when the value is not a relative date, or when it
 * reaches back before the year 1.
 */
export function resolveRelativeDate(value: string, nowMs: number): string | null {
  const days = relativeDays(value)
  if (days === null || !Number.isFinite(nowMs)) return null
  const day = Math.floor(nowMs / DAY_MS) - days
  if (day < EARLIEST_DAY) return null
  return isoDay(day)
}

function isoDay(daysSinceEpoch: number): string {
  const d = new Date(daysSinceEpoch * DAY_MS)
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`
}
