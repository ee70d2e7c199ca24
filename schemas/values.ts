/**
 * Value formats shared by every kind that reads text: calendar dates, timestamps (ISO 8601 and
 * Postgres `COPY` text) and integers. Pure functions, no I/O.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
// ISO 8601 or Postgres timestamptz text: '2024-01-02 03:04:05.123456+00', offsets as +HH, +HH:MM or +HH:MM:SS.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?|(Z))?$/

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  return d <= days[m - 1]
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** A date as YYYY-MM-DD, or undefined when it is not a valid calendar date. */
export function normalizeDate(v: string): string | undefined {
  const m = DATE.exec(v)
  return m && validDay(+m[1], +m[2], +m[3]) ? v : undefined
}

/**
 * A timestamp as ISO 8601: '2024-01-02 03:04:05.123456+00' → '2024-01-02T03:04:05.123456+00:00'.
 * The fraction is kept as written. Without an offset the value is taken as UTC (the reference
 * stores UTC). An offset with seconds (historic local mean time) is converted to UTC, since
 * ISO 8601 offsets have no seconds. Undefined when the value is not a valid timestamp.
 */
export function normalizeTimestamp(v: string): string | undefined {
  const m = TIMESTAMP.exec(v)
  if (!m) return undefined
  const [, Y, Mo, D, h, mi, s, frac = '', sign, oh, om, os, z] = m
  if (!validDay(+Y, +Mo, +D) || +h > 23 || +mi > 59 || +s > 59) return undefined
  if (z || !sign) return `${Y}-${Mo}-${D}T${h}:${mi}:${s}${frac}+00:00`
  if (+oh > 23 || (om !== undefined && +om > 59) || (os !== undefined && +os > 59)) return undefined
  if (os === undefined || os === '00') return `${Y}-${Mo}-${D}T${h}:${mi}:${s}${frac}${sign}${oh}:${om ?? '00'}`
  const offset = (sign === '-' ? -1 : 1) * (+oh * 3600 + +(om ?? 0) * 60 + +os)
  const d = new Date(0)
  d.setUTCFullYear(+Y, +Mo - 1, +D) // unlike Date.UTC, keeps years 0–99 as written
  d.setUTCHours(+h, +mi, +s - offset, 0)
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}+00:00`
}

/**
 * ClickHouse's ISO output ends in Z and always has six fraction digits; the API writes a numeric
 * offset and, like the reference, a fraction only when it is not zero.
 */
export function formatDatetime(v: unknown): unknown {
  if (typeof v !== 'string') return v
  let s = v.includes('T') ? v : v.replace(' ', 'T')
  if (s.endsWith('Z')) s = `${s.slice(0, -1)}+00:00`
  return s.replace(/\.0+(?=[+-]\d{2}:\d{2}$)/, '')
}

export const INT_TEXT = /^-?\d+$/
export const FLOAT_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
/** A filter's date/time value: a date, or a date and time with an optional offset. */
export const FILTER_DATETIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/
