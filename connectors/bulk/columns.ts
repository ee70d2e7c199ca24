/**
 * From the reference's database columns to typed storage columns.
 *
 * Names: the bulk files use the reference's database column names. Our storage columns keep
 * those names except for a few the catalogue spells neutrally (outside providers, the court
 * records system); `columnName` applies those renames so the publisher's codec finds the values.
 *
 * Types: a column's type comes from the catalogue entry of the same storage column (which is
 * what the codec will enforce): int / fk to an integer-keyed resource → number, fk to a
 * string-keyed resource (court_id, parent_court_id, appeal_from_id) → string, bool → t/f,
 * date → YYYY-MM-DD, datetime → ISO 8601 with offset, float → number. Columns the catalogue
 * does not have are passed through as strings. NULL stays null, '' stays '' for strings.
 */
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnSpecs } from '../../schemas/columns.js'

const RENAMES: Record<string, string> = {
  html_lawbox: 'html_partner_a', html_columbia: 'html_partner_b', xml_harvard: 'xml_partner_c',
  filepath_json_harvard: 'filepath_json_partner_c', filepath_pdf_harvard: 'filepath_pdf_partner_c',
}

/** The storage column for a bulk-file column. */
export function columnName(col: string): string {
  const c = col.trim()
  if (RENAMES[c]) return RENAMES[c]
  return c.replace(/pacer/g, 'records').replace(/recap/g, 'archive')
}

export type ColumnType = 'integer' | 'float' | 'boolean' | 'date' | 'datetime' | 'string'

const cache = new Map<string, Map<string, ColumnType>>()

/** Storage column → type, for the columns of a resource the catalogue stores. */
export function columnTypes(resource: string): Map<string, ColumnType> {
  let types = cache.get(resource)
  if (types) return types
  types = new Map()
  if (catalogue.has(resource)) {
    const r = catalogue.get(resource)
    for (const c of columnSpecs(catalogue, r)) {
      let t: ColumnType | undefined
      if (c.field === r.key) t = r.keyKind === 'int' ? 'integer' : 'string'
      else if (c.kind === 'int' || c.kind === 'fk') t = c.avro === 'string' ? 'string' : 'integer'
      else if (c.kind === 'float') t = 'float'
      else if (c.kind === 'bool') t = 'boolean'
      else if (c.kind === 'date') t = 'date'
      else if (c.kind === 'datetime') t = 'datetime'
      else if (c.kind === 'string' || c.kind === 'time') t = 'string'
      // json, strings and m2m columns are never in a bulk file; if one shows up it stays a string.
      if (t) types.set(c.column, t)
    }
  }
  cache.set(resource, types)
  return types
}

/** A value that does not fit its column; the row goes to the dead-letter file with this message. */
export class BadValue extends Error {
  override name = 'BadValue'
}

const INT = /^-?\d+$/
const FLOAT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
// Postgres timestamptz text: '2024-01-02 03:04:05.123456+00', offsets as +HH, +HH:MM or +HH:MM:SS.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?|(Z))?$/

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  return d <= days[m - 1]
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/** A Postgres date as YYYY-MM-DD, or undefined when it is not a valid calendar date. */
export function normalizeDate(v: string): string | undefined {
  const m = DATE.exec(v)
  return m && validDay(+m[1], +m[2], +m[3]) ? v : undefined
}

/**
 * A Postgres timestamp as ISO 8601: '2024-01-02 03:04:05.123456+00' → '2024-01-02T03:04:05.123456+00:00'.
 * The fraction is kept as written. Without an offset the value is taken as UTC (the reference
 * stores UTC). An offset with seconds (historic local mean time) is converted to UTC, since
 * ISO 8601 offsets have no seconds. Undefined when the value is not a valid timestamp.
 */
export function normalizeTimestamp(v: string): string | undefined {
  const m = TIMESTAMP.exec(v)
  if (!m) return undefined
  const [, Y, Mo, D, h, mi, s, frac = '', sign, oh, om, os] = m
  if (!validDay(+Y, +Mo, +D) || +h > 23 || +mi > 59 || +s > 59) return undefined
  if (!sign) return `${Y}-${Mo}-${D}T${h}:${mi}:${s}${frac}+00:00`
  if (+oh > 23 || (om !== undefined && +om > 59) || (os !== undefined && +os > 59)) return undefined
  if (os === undefined || os === '00') return `${Y}-${Mo}-${D}T${h}:${mi}:${s}${frac}${sign}${oh}:${om ?? '00'}`
  const offset = (sign === '-' ? -1 : 1) * (+oh * 3600 + +(om ?? 0) * 60 + +os)
  const d = new Date(0)
  d.setUTCFullYear(+Y, +Mo - 1, +D) // unlike Date.UTC, keeps years 0–99 as written
  d.setUTCHours(+h, +mi, +s - offset, 0)
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}+00:00`
}

export type Converter = (v: string | null) => unknown

const describe = (v: string) => JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)

/** The function that turns a column's text (or NULL) into its typed value; throws BadValue. */
export function converterFor(column: string, type: ColumnType): Converter {
  switch (type) {
    case 'integer':
      return (v) => {
        if (v === null) return null
        if (!INT.test(v)) throw new BadValue(`${column}: not an integer: ${describe(v)}`)
        const n = Number(v)
        if (!Number.isSafeInteger(n)) throw new BadValue(`${column}: integer out of range: ${describe(v)}`)
        return n
      }
    case 'float':
      return (v) => {
        if (v === null) return null
        const n = FLOAT.test(v) ? Number(v) : NaN
        if (!Number.isFinite(n)) throw new BadValue(`${column}: not a finite number: ${describe(v)}`)
        return n
      }
    case 'boolean':
      return (v) => {
        if (v === null) return null
        if (v === 't') return true
        if (v === 'f') return false
        throw new BadValue(`${column}: not a boolean (t/f): ${describe(v)}`)
      }
    case 'date':
      return (v) => {
        if (v === null) return null
        const d = normalizeDate(v)
        if (d === undefined) throw new BadValue(`${column}: invalid date: ${describe(v)}`)
        return d
      }
    case 'datetime':
      return (v) => {
        if (v === null) return null
        const d = normalizeTimestamp(v)
        if (d === undefined) throw new BadValue(`${column}: invalid timestamp: ${describe(v)}`)
        return d
      }
    default:
      return (v) => v
  }
}
