/**
 * Rows as ClickHouse's RowBinary format, the body of an INSERT: the server reads fixed-width
 * numbers and length-prefixed strings instead of parsing JSON, and the client writes bytes
 * instead of building a JSON string per row (the two costs a JSON insert pays on each side).
 *
 * A row is an array of values in column order, as the JSON inserts take them, and is read the
 * way a JSON insert reads it: null in a column that is not Nullable is the type's default (0,
 * '', false, [], 1970-01-01), a number or boolean in a String column is its text. DateTime64
 * values are sent as their text and parsed by the server with the same best-effort parser a JSON
 * insert uses (`parseDateTime64BestEffort` through `input()`), so no instant is read differently.
 *
 * Supported column types: (Nullable) Int64, UInt64, UInt8, Bool, Float64, String,
 * DateTime64(p, 'tz'), and Array(Int64 | String). `rowBinaryInsert` refuses any other type when
 * the insert is built, not halfway through a batch.
 */

import { Identifier } from './sql.js'

export interface BinaryColumn { name: string; type: string }

/** The INSERT statement and the encoder of one table's rows. */
export interface RowBinaryInsert {
  /** `INSERT INTO … FORMAT RowBinary`: the rows follow it as the request body. */
  query: string
  /** The rows' bytes, as chunks of about 1 MB (sent in order). */
  encode(rows: readonly unknown[][]): Buffer[]
}

type Writer = (out: ByteWriter, v: unknown, column: string) => void

const CHUNK = 1 << 20
const TWO32 = 4294967296
/** The text a non-Nullable DateTime64 column gets for a missing or null value (what a JSON insert stores). */
export const EPOCH = '1970-01-01 00:00:00'

/** Int64 at `at`: any integer a double holds exactly, as 8 little-endian bytes (two's complement when negative). The offset after. */
export function putInt64(buf: Buffer, at: number, v: number): number {
  const hi = Math.floor(v / TWO32)
  buf.writeUInt32LE(v - hi * TWO32, at)
  buf.writeInt32LE(hi | 0, at + 4)
  return at + 8
}

/** VarUInt (LEB128, at most 10 bytes) at `at`. The offset after. */
export function putVarUInt(buf: Buffer, at: number, n: number): number {
  while (n >= 0x80) { buf[at++] = (n & 0x7f) | 0x80; n = Math.floor(n / 128) }
  buf[at++] = n
  return at
}

/** A growing list of chunks written front to back. */
class ByteWriter {
  chunks: Buffer[] = []
  buf = Buffer.allocUnsafe(CHUNK)
  at = 0

  /** Room for n more bytes in the current chunk. */
  room(n: number) {
    if (this.at + n <= this.buf.length) return
    if (this.at > 0) this.chunks.push(this.buf.subarray(0, this.at))
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK, n))
    this.at = 0
  }

  u8(v: number) { this.room(1); this.buf[this.at++] = v }

  i64(v: number) { this.room(8); this.at = putInt64(this.buf, this.at, v) }

  f64(v: number) { this.room(8); this.buf.writeDoubleLE(v, this.at); this.at += 8 }

  varUInt(n: number) { this.room(10); this.at = putVarUInt(this.buf, this.at, n) }

  /** VarUInt byte length, then the UTF-8 bytes. */
  str(s: string) {
    // At most 3 bytes per UTF-16 unit: a string under 43 units has a one-byte length, written
    // after the text (its length is known only then); a longer one is measured first.
    if (s.length < 43) {
      this.room(1 + 3 * s.length)
      const n = utf8Write(this.buf, s, this.at + 1)
      this.buf[this.at] = n
      this.at += 1 + n
      return
    }
    const n = Buffer.byteLength(s)
    this.varUInt(n)
    this.room(n)
    utf8Write(this.buf, s, this.at)
    this.at += n
  }

  done(): Buffer[] {
    if (this.at > 0) this.chunks.push(this.buf.subarray(0, this.at))
    const out = this.chunks
    this.chunks = []
    this.buf = Buffer.allocUnsafe(0)
    this.at = 0
    return out
  }
}

/**
 * Buffer's own UTF-8 writer: `write(s, offset)` reaches it through an argument-checking wrapper
 * that cost as much as the copy itself in the sink's profile (a third of the encoding time).
 */
const utf8Write = (buf: Buffer, s: string, at: number): number => (buf as unknown as { utf8Write(s: string, at: number): number }).utf8Write(s, at)

function bad(column: string, type: string, v: unknown): never {
  throw new Error(`column ${column} (${type}): cannot write ${JSON.stringify(v)?.slice(0, 80) ?? String(v)} as RowBinary`)
}

function asNumber(v: unknown, column: string, type: string): number {
  if (v == null) return 0
  const n = typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
  if (!Number.isFinite(n)) bad(column, type, v)
  return n
}

function asInteger(v: unknown, column: string, type: string): number {
  const n = asNumber(v, column, type)
  if (!Number.isSafeInteger(n)) bad(column, type, v)
  return n
}

function asText(v: unknown, column: string, type: string): string {
  if (v == null) return ''
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v)
  return bad(column, type, v)
}

/** The writer of one non-Nullable value of `type` (DateTime64 columns are sent as text). */
function plainWriter(type: string): Writer | undefined {
  switch (type) {
    case 'Int64':
      return (o, v, c) => o.i64(asInteger(v, c, type))
    case 'UInt64':
      return (o, v, c) => { const n = asInteger(v, c, type); if (n < 0) bad(c, type, v); o.i64(n) }
    case 'UInt8':
      return (o, v, c) => { const n = asInteger(v, c, type); if (n < 0 || n > 255) bad(c, type, v); o.u8(n) }
    case 'Bool':
      return (o, v, c) => o.u8(v === true || v === 1 || v === 'true' ? 1 : v == null || v === false || v === 0 || v === 'false' ? 0 : bad(c, type, v))
    case 'Float64':
      return (o, v, c) => o.f64(asNumber(v, c, type))
    case 'String':
      return (o, v, c) => o.str(asText(v, c, type))
    case 'Array(Int64)':
    case 'Array(String)': {
      const item = plainWriter(type.slice(6, -1))!
      return (o, v, c) => {
        if (v == null) { o.varUInt(0); return }
        if (!Array.isArray(v)) bad(c, type, v)
        o.varUInt(v.length)
        for (const x of v) { if (x == null) bad(c, type, v); item(o, x, c) }
      }
    }
  }
  if (isDateTime64(type)) return (o, v, c) => o.str(v == null ? EPOCH : asText(v, c, type))
  return undefined
}

export const isDateTime64 = (type: string) => /^DateTime64\(\d, '[\w/+-]+'\)$/.test(type)
/** A Nullable type; its inner type is the first group. */
export const NULLABLE = /^Nullable\((.*)\)$/

function columnWriter(c: BinaryColumn): Writer {
  const nullable = NULLABLE.exec(c.type)
  const inner = nullable ? nullable[1] : c.type
  const write = plainWriter(inner)
  if (!write || (nullable && inner.startsWith('Array('))) throw new Error(`column ${c.name}: type ${c.type} has no RowBinary writer`)
  if (!nullable) return write
  return (o, v, col) => { if (v == null) o.u8(1); else { o.u8(0); write(o, v, col) } }
}

const quoted = (name: string) => `\`${new Identifier(name).name}\``

/**
 * The insert of `columns` into `table` (already a qualified, quoted name) as RowBinary, and its
 * row encoder. With DateTime64 columns the rows go through `input()`, where those columns are
 * text the server parses; without, straight into the table.
 */
export function rowBinaryInsert(table: string, columns: readonly BinaryColumn[]): RowBinaryInsert {
  const writers = columns.map(columnWriter)
  const names = columns.map((c) => quoted(c.name))
  const times = columns.map((c) => isDateTime64(NULLABLE.exec(c.type)?.[1] ?? c.type))
  let query: string
  if (!times.includes(true)) {
    query = `INSERT INTO ${table} (${names.join(', ')}) FORMAT RowBinary`
  } else {
    const structure = columns.map((c, i) => `${names[i]} ${times[i] ? (NULLABLE.test(c.type) ? 'Nullable(String)' : 'String') : c.type}`).join(', ')
    const select = columns.map((c, i) => {
      if (!times[i]) return names[i]
      const [, precision, tz] = /DateTime64\((\d), '([^']+)'\)/.exec(c.type)!
      const parse = (x: string) => `parseDateTime64BestEffort(${x}, ${precision}, '${tz}')`
      // A Nullable argument would be parsed with '' in its null rows: parse a stand-in there instead.
      return NULLABLE.test(c.type) ? `if(isNull(${names[i]}), NULL, ${parse(`ifNull(${names[i]}, '${EPOCH}')`)})` : parse(names[i])
    })
    query = `INSERT INTO ${table} (${names.join(', ')}) SELECT ${select.join(', ')} FROM input('${structure}') FORMAT RowBinary`
  }
  return {
    query,
    encode(rows) {
      const out = new ByteWriter()
      for (const row of rows) {
        if (row.length !== writers.length) throw new Error(`a row of ${row.length} values for ${writers.length} columns`)
        for (let i = 0; i < writers.length; i++) writers[i](out, row[i], columns[i].name)
      }
      return out.done()
    },
  }
}
