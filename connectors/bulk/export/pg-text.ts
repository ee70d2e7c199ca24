/**
 * The text PostgreSQL's `COPY … TO STDOUT WITH (FORMAT csv, ENCODING utf8, HEADER, ESCAPE '\',
 * FORCE_QUOTE *)` writes for a value, as pure functions: the specification the SQL formatter
 * (`csv-sql.ts`) follows, and what its tests compare it with.
 *
 * - A non-NULL value is quoted: `"…"`, with `\` → `\\` and `"` → `\"`; everything else (commas,
 *   CR, LF, backticks, any Unicode) is kept as it is. NUL cannot be in a PostgreSQL text value,
 *   so it is dropped (a file with one would not load).
 * - NULL is an empty, unquoted field; the empty string is `""`.
 * - Booleans `t`/`f`; dates `YYYY-MM-DD`; `timestamp with time zone` in PostgreSQL's ISO text at
 *   UTC (`2025-03-05 06:07:08.654321+00`, trailing zeros of the fraction dropped, no fraction when
 *   it is zero); `double precision` as PostgreSQL 12+ prints it (shortest digits strictly inside
 *   the rounding interval, fixed notation for decimal exponents -4…14, else `d.ddde±XX`).
 */

/** The kinds of text a cell is written as. */
export type PgTextKind = 'text' | 'int' | 'float' | 'bool' | 'date' | 'timestamptz'

/** A value quoted as FORCE_QUOTE * with ESCAPE '\' writes it. */
export function quoteCsv(text: string): string {
  let s = text
  if (s.includes('\0')) s = s.replaceAll('\0', '')
  return `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
}

/** PostgreSQL's text of a double precision value (extra_float_digits ≥ 1, the default since 12). */
export function pgFloatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (x === Infinity) return 'Infinity'
  if (x === -Infinity) return '-Infinity'
  if (x === 0) return Object.is(x, -0) ? '-0' : '0'
  const a = Math.abs(x)
  // toExponential() without digits gives the shortest digits that read back as x, as Ryu does;
  // but PostgreSQL's Ryu refuses a decimal exactly halfway to a neighbouring double (which
  // strtod would round to even), and takes the closest longer one strictly inside instead. That
  // can only happen from 2^53 on, where the halfway points are integers.
  let [digits, exp] = decimalOf(a.toExponential())
  if (a >= 2 ** 53 && !strictlyInside(a, digits, exp)) {
    for (let p = digits.length + 1; p <= 17; p++) {
      const [d, e] = decimalOf(a.toExponential(p - 1))
      if (strictlyInside(a, d, e)) { [digits, exp] = [d, e]; break }
    }
  }
  return (x < 0 ? '-' : '') + placeDigits(digits, exp)
}

/** '1.2500e+3' → ['125', 3]: significant digits without trailing zeros, and the decimal exponent. */
function decimalOf(sci: string): [string, number] {
  const [mant, exp] = sci.split('e')
  return [mant.replace('.', '').replace(/0+$/, '') || '0', Number(exp)]
}

/** Whether d1.d2…dn × 10^exp reads back as `a` with room on both sides (not halfway to a neighbour). */
export function strictlyInside(a: number, digits: string, exp: number): boolean {
  const n = digits.length
  const up = `${digits[0]}.${digits.slice(1)}${'0'.repeat(400)}1e${exp}`
  const down = n === 1 ? `${Number(digits) - 1}.${'9'.repeat(400)}e${exp}` : `${digits[0]}.${digits.slice(1, n - 1)}${Number(digits[n - 1]) - 1}${'9'.repeat(400)}e${exp}`
  return Number(up) === a && Number(down) === a
}

/** Significant digits `d1d2…` of d1.d2… × 10^exp in PostgreSQL's layout. */
export function placeDigits(digits: string, exp: number): string {
  if (exp < -4 || exp >= 15) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : ''
    return `${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  if (exp < 0) return `0.${'0'.repeat(-exp - 1)}${digits}`
  if (digits.length <= exp + 1) return digits + '0'.repeat(exp + 1 - digits.length)
  return `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|[+-]00:?00)?$/

/**
 * PostgreSQL's text of a UTC timestamp given as ISO 8601 or ClickHouse text
 * ('2025-03-05T06:07:08.650000Z' → '2025-03-05 06:07:08.65+00'). Undefined when it is not one.
 */
export function pgTimestampText(v: string): string | undefined {
  const m = ISO.exec(v)
  if (!m) return undefined
  const frac = (m[7] ?? '').slice(0, 6).replace(/0+$/, '')
  return `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}${frac ? `.${frac}` : ''}+00`
}

/** One CSV cell: a stored value (as ClickHouse's JSON gives it) in the column's PostgreSQL text, quoted; NULL → ''. */
export function pgCsvCell(kind: PgTextKind, v: unknown): string {
  if (v === null || v === undefined) return ''
  switch (kind) {
    case 'bool': return v ? '"t"' : '"f"'
    case 'float': return quoteCsv(pgFloatText(Number(v)))
    case 'int': return quoteCsv(String(v))
    // A date a record left out is stored empty: NULL, as the API shows it.
    case 'date': return v === '' ? '' : quoteCsv(String(v))
    case 'timestamptz': {
      const s = pgTimestampText(String(v))
      if (s === undefined) throw new Error(`not a UTC timestamp: ${JSON.stringify(v)}`)
      return quoteCsv(s)
    }
    default: return quoteCsv(String(v))
  }
}

/** A whole CSV line (without its newline) from the cells of a row. */
export function pgCsvLine(kinds: readonly PgTextKind[], values: readonly unknown[]): string {
  return kinds.map((k, i) => pgCsvCell(k, values[i])).join(',')
}

/**
 * Counts the records in CSV bytes written with `"` quotes and `\` escapes: a newline ends a record
 * only outside quotes. Feed chunks in order; state carries over chunk boundaries.
 */
export class CsvRecordCounter {
  records = 0
  private inQuote = false
  private escaped = false
  private last = 0x0a
  /** Whether the bytes so far end at the end of a record (not inside a value, not mid-line). */
  get complete(): boolean { return !this.inQuote && this.last === 0x0a }
  push(chunk: Uint8Array): void {
    const n = chunk.length
    if (n) this.last = chunk[n - 1]
    // Inside a value the bytes are skipped to the next quote or backslash with indexOf (memchr),
    // not looked at one by one: values are most of an export's bytes (opinion texts).
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, n)
    let inQuote = this.inQuote
    let escaped = this.escaped
    let records = 0
    let nextQuote = -2
    let nextSlash = -2
    let i = 0
    while (i < n) {
      if (escaped) { escaped = false; i++; continue }
      if (inQuote) {
        if (nextQuote !== -1 && nextQuote < i) nextQuote = buf.indexOf(0x22, i)
        if (nextSlash !== -1 && nextSlash < i) nextSlash = buf.indexOf(0x5c, i)
        if (nextSlash !== -1 && (nextQuote === -1 || nextSlash < nextQuote)) { escaped = true; i = nextSlash + 1; continue }
        if (nextQuote === -1) break
        inQuote = false
        i = nextQuote + 1
        continue
      }
      const c = buf[i++]
      if (c === 0x22) inQuote = true
      else if (c === 0x0a) records++
    }
    this.inQuote = inQuote
    this.escaped = escaped
    this.records += records
  }
}
