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

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/

/**
 * A timestamp as the API writes it, whatever form it was stored in (ClickHouse's `…000000Z`, a
 * connector's `+05:30` offset, a fraction of any length): UTC with a numeric offset and, like the
 * reference, six fraction digits when the fraction is not zero and none when it is.
 */
export function formatDatetime(v: unknown): unknown {
  if (typeof v !== 'string') return v
  const m = ISO.exec(v)
  if (!m) return v
  let [, Y, Mo, D, h, mi, s] = m
  const frac = (m[7] ?? '').padEnd(6, '0').slice(0, 6)
  const off = m[8]
  if (off && off !== 'Z' && !/^[+-]00:?00$/.test(off)) {
    const sign = off[0] === '-' ? -1 : 1
    const minutes = sign * (Number(off.slice(1, 3)) * 60 + Number(off.slice(-2)))
    const d = new Date(0)
    d.setUTCFullYear(+Y, +Mo - 1, +D)
    d.setUTCHours(+h, +mi - minutes, +s, 0)
    const pad = (n: number, w = 2) => String(n).padStart(w, '0')
    ;[Y, Mo, D, h, mi, s] = [pad(d.getUTCFullYear(), 4), pad(d.getUTCMonth() + 1), pad(d.getUTCDate()), pad(d.getUTCHours()), pad(d.getUTCMinutes()), pad(d.getUTCSeconds())]
  }
  return `${Y}-${Mo}-${D}T${h}:${mi}:${s}${/^0*$/.test(frac) ? '' : `.${frac}`}+00:00`
}

export const INT_TEXT = /^-?\d+$/
export const FLOAT_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
/** A filter's date/time value: a date, or a date and time with an optional offset. */
export const FILTER_DATETIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/
const FILTER_DATETIME_PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/

/**
 * Whether a filter's date/time value (FILTER_DATETIME) names a real instant, as Python's datetime
 * requires: year 1 on, a day its month has, hours below 24, offsets below a day. Date.parse is no
 * test: it rolls 2021-02-29 over to March, and ClickHouse then refuses the text.
 */
export function isFilterDatetime(v: string): boolean {
  const m = FILTER_DATETIME_PARTS.exec(v)
  if (!m) return false
  const [, Y, Mo, D, h = '0', mi = '0', s = '0', oh = '0', om = '0'] = m
  return +Y >= 1 && validDay(+Y, +Mo, +D) && +h <= 23 && +mi <= 59 && +s <= 59 && +oh <= 23 && +om <= 59
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/

/**
 * An instant as ClickHouse prints a `DateTime64(6, 'UTC')` (`2024-03-01T04:30:00.123456Z`), from a
 * date, or a date and time with an optional fraction and offset (no offset is UTC, as the columns
 * read it); the fraction is cut to six digits, as ClickHouse cuts it. The texts of one width sort as
 * their instants do, so the read model orders and compares them as strings. Undefined for any
 * other form, an impossible date or time, or a year outside 1900–2299 (DateTime64's range).
 */
export function instantText(v: string): string | undefined {
  const m = INSTANT.exec(v)
  if (!m) return undefined
  const [, Y, Mo, D, h = '00', mi = '00', s = '00', frac = '', off] = m
  if (+Y < 1900 || +Y > 2299 || !validDay(+Y, +Mo, +D) || +h > 23 || +mi > 59 || +s > 59) return undefined
  const micros = frac.slice(0, 6).padEnd(6, '0')
  if (!off || off === 'Z' || /^[+-]00:?(00)?$/.test(off)) return `${Y}-${Mo}-${D}T${h}:${mi}:${s}.${micros}Z`
  const oh = +off.slice(1, 3)
  const om = off.length > 3 ? +off.slice(-2) : 0
  if (oh > 23 || om > 59) return undefined
  const d = new Date(0)
  d.setUTCFullYear(+Y, +Mo - 1, +D)
  d.setUTCHours(+h, +mi - (off[0] === '-' ? -1 : 1) * (oh * 60 + om), +s, 0)
  const year = d.getUTCFullYear()
  if (year < 1900 || year > 2299) return undefined
  return `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${micros}Z`
}
