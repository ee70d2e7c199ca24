/**
 * An entity event's Avro body turned straight into the ClickHouse RowBinary row of its table:
 * the bytes of every text are copied as they are, numbers are re-encoded, and no JavaScript
 * object, string or number array is made per event. Decoding each event into objects and
 * encoding them again was most of the table sink's cost (its strings made twice, then collected).
 *
 * A transcoder is compiled for one writer schema (the schema id of the message) and one table.
 * It reads what the generic path reads, with the same outcome: a missing column is the type's
 * default or NULL, a null in a column that is not Nullable is the default, and an event the
 * generic path would refuse (truncated, trailing bytes, an unknown op or union branch, a long
 * that does not fit a double, a key that differs from the entity's) is refused here too, as an
 * UndecodableEvent. What it does not handle it hands back (`undefined`): deletes, and texts that
 * are not valid UTF-8 (the generic path replaces their bad bytes; copying them would not).
 * A writer schema with a field type or column type outside the supported pairs gets no
 * transcoder at all (`compileRowTranscoder` answers undefined) and its events take the generic path.
 */
import { isUtf8 } from 'node:buffer'
import { EPOCH as EPOCH_TEXT, NULLABLE, isDateTime64, putInt64, putVarUInt, type BinaryColumn } from './clickhouse-row-binary.js'
import { UndecodableEvent } from '../schemas/events/envelope.js'

/** Rows are written into slabs, each row a view that is never rewritten (as the wire writer does). */
export class RowSlab {
  private buf = Buffer.allocUnsafe(0)
  private at = 0
  private next = 64 * 1024

  /** Room for at most `n` bytes from `offset` of the buffer returned; the writer then calls `commit` with where it ended. */
  reserve(n: number): Buffer {
    if (this.buf.length - this.at < n) {
      // A busy partition gets larger slabs (fewer, longer pieces per insert); an idle one keeps a small one.
      this.buf = Buffer.allocUnsafe(Math.max(this.next, n))
      this.next = Math.min(this.next * 2, 1 << 20)
      this.at = 0
    }
    return this.buf
  }

  /** Where the room `reserve` made starts (no object per row for the pair). */
  get offset(): number { return this.at }

  /** Where the last row advanced over starts (its end is `offset`), in `current`. */
  rowStart = 0

  /** The buffer rows are written into now. */
  get current(): Buffer { return this.buf }

  commit(end: number): Buffer {
    const row = this.buf.subarray(this.at, end)
    this.at = end
    return row
  }

  /** Takes the row written up to `end` without making a view of it (`rowStart`, `offset`, `current` say where it is). */
  advance(end: number): void {
    this.rowStart = this.at
    this.at = end
  }
}

/**
 * Joins views that follow one another in the same memory (rows written one after another into a
 * slab) into one: an insert body of a few long pieces instead of one piece per row.
 */
export function coalesce(rows: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = []
  // The run being joined, as numbers: a view is made once per run, not once per row it takes in.
  let first: Buffer | undefined
  let end = 0
  for (const r of rows) {
    if (first && r.buffer === first.buffer && r.byteOffset === end) { end += r.length; continue }
    if (first) out.push(joined(first, end))
    first = r
    end = r.byteOffset + r.length
  }
  if (first) out.push(joined(first, end))
  return out
}

const joined = (first: Buffer, end: number): Buffer => end === first.byteOffset + first.length ? first : Buffer.from(first.buffer, first.byteOffset, end - first.byteOffset)

type AvroField = { name: string; type: unknown }
type Leaf = 'long' | 'string' | 'double' | 'boolean'
/** What a writer field holds: a leaf or an array of one, maybe in a ['null', …] union. */
interface FieldShape { leaf: Leaf; array: boolean; nullable: boolean }

const LEAVES = new Set(['long', 'string', 'double', 'boolean'])

function shapeOf(t: unknown): FieldShape | undefined {
  let nullable = false
  if (Array.isArray(t)) {
    if (t.length !== 2 || t[0] !== 'null') return undefined
    nullable = true
    t = t[1]
  }
  if (typeof t === 'string') return LEAVES.has(t) ? { leaf: t as Leaf, array: false, nullable } : undefined
  const o = t as { type?: unknown; items?: unknown }
  if (o && o.type === 'array' && typeof o.items === 'string' && (o.items === 'long' || o.items === 'string')) return { leaf: o.items, array: true, nullable }
  if (o && typeof o.type === 'string' && LEAVES.has(o.type) && Object.keys(o).length === 1) return { leaf: o.type as Leaf, array: false, nullable }
  return undefined
}

/** The RowBinary leaf a column takes for a given Avro leaf, or undefined when the pair is not supported. */
function columnLeaf(type: string): { leaf: Leaf; array: boolean; nullable: boolean; epoch: boolean } | undefined {
  const m = NULLABLE.exec(type)
  const inner = m ? m[1] : type
  const nullable = !!m
  if (inner === 'Int64') return { leaf: 'long', array: false, nullable, epoch: false }
  if (inner === 'String') return { leaf: 'string', array: false, nullable, epoch: false }
  // DateTime64 columns travel as text that the insert's input() parses (see clickhouse-row-binary.ts).
  if (isDateTime64(inner)) return { leaf: 'string', array: false, nullable, epoch: true }
  if (inner === 'Float64') return { leaf: 'double', array: false, nullable, epoch: false }
  if (inner === 'Bool') return { leaf: 'boolean', array: false, nullable, epoch: false }
  if (!nullable && inner === 'Array(Int64)') return { leaf: 'long', array: true, nullable, epoch: false }
  if (!nullable && inner === 'Array(String)') return { leaf: 'string', array: true, nullable, epoch: false }
  return undefined
}

class Truncated extends Error {}
/** Thrown inside a transcode to hand the event to the generic path (text that is not UTF-8). */
const GENERIC = new Error('generic path')
const EPOCH = Buffer.from(EPOCH_TEXT)
/** avsc's bound for a long read as a double (it refuses larger ones as a possible precision loss). */
const SAFE_LONG = 9007199254740990

/** Reads Avro's zigzag varints from one body; `pos` moves past what is read. */
class Reader {
  buf: Buffer = Buffer.alloc(0)
  pos = 0
  end = 0

  byte(): number {
    if (this.pos >= this.end) throw new Truncated()
    return this.buf[this.pos++]
  }

  /** A long as an exact double; two halves so that no bit is lost before the range check. */
  long(): number {
    let b = this.byte()
    if (b < 0x80) return (b >>> 1) ^ -(b & 1)
    let lo = b & 0x7f
    let shift = 7
    while (shift < 28) {
      b = this.byte()
      lo |= (b & 0x7f) << shift
      shift += 7
      if (b < 0x80) return (lo >>> 1) ^ -(lo & 1)
    }
    let hi = 0
    let scale = 1
    let count = 4
    do {
      if (++count > 10) throw new UndecodableEvent('invalid long')
      b = this.byte()
      hi += (b & 0x7f) * scale
      scale *= 128
    } while (b >= 0x80)
    const magnitude = hi * 134217728 + (lo >>> 1)
    const value = lo & 1 ? -(magnitude + 1) : magnitude
    if (value > SAFE_LONG || value < -SAFE_LONG) throw new UndecodableEvent('potential precision loss')
    return value
  }

  /** A length (string, block count) that must not be negative. */
  length(): number {
    const n = this.long()
    if (n < 0) throw new UndecodableEvent('invalid length')
    return n
  }

  skip(n: number) {
    if (this.pos + n > this.end) throw new Truncated()
    this.pos += n
  }
}

/** Whether a few bytes are UTF-8: ASCII (every id key) is checked here, without making a view for isUtf8. */
function shortIsUtf8(b: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (b[k] & 0x80) return isUtf8(b.subarray(from, to))
  return true
}

/** Writes RowBinary into a reserved slab region. */
class Out {
  buf: Buffer = Buffer.alloc(0)
  at = 0
  u8(v: number) { this.buf[this.at++] = v }
  i64(v: number) { this.at = putInt64(this.buf, this.at, v) }
  varUInt(n: number) { this.at = putVarUInt(this.buf, this.at, n) }
  /** A few bytes, byte by byte (Buffer#copy makes a view of the source for each call). */
  copyShort(src: Buffer, from: number, n: number) { for (let k = 0; k < n; k++) this.buf[this.at++] = src[from + k] }
  zeros(n: number) { this.buf.fill(0, this.at, this.at + n); this.at += n }
}

/** The outcome of one message: the row, or undefined for the generic path (a delete, or text that is not UTF-8). */
export type RowTranscoder = ((body: Buffer, messageKey: Buffer | null, slab: RowSlab) => Buffer | undefined) & {
  /**
   * The same for a body and a message key read where they lie (`src[from, to)`, `keySrc[keyFrom,
   * keyTo)`, keySrc null for no key): true once the row is in the slab (RowSlab#advance, no view
   * made), false for the generic path.
   */
  into(src: Buffer, from: number, to: number, keySrc: Buffer | null, keyFrom: number, keyTo: number, slab: RowSlab): boolean
}

/** Whether a[af, at) and b[bf, bt) hold the same bytes (a loop: keys are short, and Buffer#compare is a native call). */
function sameBytes(a: Buffer, af: number, at: number, b: Buffer, bf: number, bt: number): boolean {
  if (at - af !== bt - bf) return false
  for (let k = 0; k < at - af; k++) if (a[af + k] !== b[bf + k]) return false
  return true
}

/**
 * The transcoder of events written with `writerSchema` (an entity event's Avro schema, as the
 * registry holds it) into rows of `columns` (the table's, the two version columns last), or
 * undefined when a field or column is of a type it does not handle.
 */
export function compileRowTranscoder(writerSchema: unknown, columns: readonly BinaryColumn[], keyField: string): RowTranscoder | undefined {
  const top = writerSchema as { type?: string; fields?: AvroField[] }
  const names = (top.fields ?? []).map((f) => f.name).join(',')
  if (top.type !== 'record' || names !== 'op,version,key,entity') return undefined
  const op = top.fields![0].type as { type?: string; symbols?: string[] }
  if (op?.type !== 'enum' || op.symbols?.join(',') !== 'upsert,delete') return undefined
  if (top.fields![1].type !== 'long' || top.fields![2].type !== 'string') return undefined
  const entityUnion = top.fields![3].type
  if (!Array.isArray(entityUnion) || entityUnion.length !== 2 || entityUnion[0] !== 'null') return undefined
  const entity = entityUnion[1] as { type?: string; fields?: AvroField[] }
  if (entity?.type !== 'record' || !Array.isArray(entity.fields)) return undefined

  const fields = entity.fields.map((f) => ({ name: f.name, shape: shapeOf(f.type) }))
  if (fields.some((f) => !f.shape)) return undefined
  const shapes = fields.map((f) => f.shape!)
  const keyIndex = fields.findIndex((f) => f.name === keyField)
  if (keyIndex < 0 || shapes[keyIndex].array || (shapes[keyIndex].leaf !== 'long' && shapes[keyIndex].leaf !== 'string')) return undefined

  const data = columns.slice(0, -2)
  const tail = columns.slice(-2).map((c) => `${c.name} ${c.type}`).join(',')
  if (tail !== '_version UInt64,_deleted UInt8') return undefined
  const plan: { field: number; leaf: Leaf; array: boolean; nullable: boolean; epoch: boolean }[] = []
  for (const c of data) {
    const target = columnLeaf(c.type)
    if (!target) return undefined
    const field = fields.findIndex((f) => f.name === c.name)
    if (field >= 0 && (shapes[field].leaf !== target.leaf || shapes[field].array !== target.array)) return undefined
    plan.push({ field, ...target })
  }
  // Columns are written in the order the writer's fields are read, so that one pass does it:
  // a writer whose fields are ordered differently from the table's columns gets no transcoder.
  const mapped = plan.filter((p) => p.field >= 0).map((p) => p.field)
  if (mapped.some((f, i) => i > 0 && f <= mapped[i - 1])) return undefined
  // The most a row can take: eight bytes for each Avro byte (a one-byte long becomes eight), a
  // missing column's default (the epoch's text at most), the version columns.
  const overhead = 32 * columns.length + 16

  const r = new Reader()
  const o = new Out()
  /** Where the entity's key field starts in the body (read again for the key check). */
  let keyAt = 0

  /** Text bytes copied into the row after their UTF-8 is checked (short ones byte by byte, no view made). */
  function copyText(n: number) {
    const b = r.buf
    const from = r.pos
    r.skip(n)
    o.varUInt(n)
    if (n <= 32) {
      let high = 0
      const out = o.buf
      let at = o.at
      for (let k = from; k < from + n; k++) { const c = b[k]; high |= c; out[at++] = c }
      o.at = at
      if (high & 0x80 && !isUtf8(b.subarray(from, from + n))) throw GENERIC
      return
    }
    const view = b.subarray(from, from + n)
    if (!isUtf8(view)) throw GENERIC
    o.buf.set(view, o.at)
    o.at += n
  }

  function skipText() {
    const n = r.length()
    const from = r.pos
    r.skip(n)
    if (n > 0 && !(n <= 32 ? shortIsUtf8(r.buf, from, from + n) : isUtf8(r.buf.subarray(from, from + n)))) throw GENERIC
  }

  function copyLeaf(leaf: Leaf) {
    switch (leaf) {
      case 'long': o.i64(r.long()); return
      case 'double': r.skip(8); o.copyShort(r.buf, r.pos - 8, 8); return
      case 'boolean': o.u8(r.byte() ? 1 : 0); return
      case 'string': copyText(r.length())
    }
  }

  function skipLeaf(leaf: Leaf) {
    switch (leaf) {
      case 'long': r.long(); return
      case 'double': r.skip(8); return
      case 'boolean': r.skip(1); return
      case 'string': skipText()
    }
  }

  /** The union branch of a ['null', …] field: true when null. */
  function isNull(s: FieldShape): boolean {
    if (!s.nullable) return false
    const branch = r.long()
    if (branch === 0) return true
    if (branch !== 1) throw new UndecodableEvent(`invalid union index ${branch}`)
    return false
  }

  function skipField(i: number) {
    const s = shapes[i]
    if (i === keyIndex) keyAt = r.pos
    if (isNull(s)) return
    if (!s.array) { skipLeaf(s.leaf); return }
    eachItem(s.leaf, skipLeaf)
  }

  /** Calls `each` on every item of the array at the reader's position, block after block; the item count. */
  function eachItem(leaf: Leaf, each: (leaf: Leaf) => void): number {
    let total = 0
    for (;;) {
      let n = r.long()
      if (n === 0) return total
      // A negative count is followed by the block's size in bytes.
      if (n < 0) { n = -n; r.long() }
      total += n
      for (let k = 0; k < n; k++) each(leaf)
    }
  }

  function copyField(p: (typeof plan)[number]) {
    const s = shapes[p.field]
    if (p.field === keyIndex) keyAt = r.pos
    if (isNull(s)) { writeDefault(p); return }
    if (p.nullable) o.u8(0)
    if (!s.array) { copyLeaf(s.leaf); return }
    // Avro writes an array as blocks of items; RowBinary wants the whole count first. avsc
    // writes one block, so the count of the first is written and checked against the rest.
    const itemsFrom = r.pos
    const countAt = o.at
    let n = r.long()
    if (n < 0) { n = -n; r.long() }
    o.varUInt(n)
    for (let k = 0; k < n; k++) copyLeaf(s.leaf)
    if (n === 0 || r.long() === 0) return
    // More than one block: counted first, then copied again.
    r.pos = itemsFrom
    o.at = countAt
    o.varUInt(eachItem(s.leaf, skipLeaf))
    r.pos = itemsFrom
    eachItem(s.leaf, copyLeaf)
  }

  function writeDefault(p: (typeof plan)[number]) {
    if (p.nullable) { o.u8(1); return }
    if (p.array) { o.u8(0); return }
    switch (p.leaf) {
      case 'long': case 'double': o.zeros(8); return
      case 'boolean': o.u8(0); return
      case 'string': if (p.epoch) { o.varUInt(EPOCH.length); o.copyShort(EPOCH, 0, EPOCH.length) } else o.u8(0)
    }
  }

  /** Whether the entity's key field spells the event key (bytes keyFrom..keyTo of the body). */
  function keyMatches(body: Buffer, keyFrom: number, keyTo: number): boolean {
    r.pos = keyAt
    if (isNull(shapes[keyIndex])) return false
    if (shapes[keyIndex].leaf === 'string') {
      const n = r.length()
      return n === keyTo - keyFrom && body.compare(body, keyFrom, keyTo, r.pos, r.pos + n) === 0
    }
    const text = String(r.long())
    if (text.length !== keyTo - keyFrom) return false
    for (let k = 0; k < text.length; k++) if (body[keyFrom + k] !== text.charCodeAt(k)) return false
    return true
  }

  const transcode = ((body: Buffer, messageKey: Buffer | null, slab: RowSlab) =>
    into(body, 0, body.length, messageKey, 0, messageKey ? messageKey.length : 0, slab) ? slab.current.subarray(slab.rowStart, slab.offset) : undefined) as RowTranscoder
  transcode.into = into
  return transcode

  function into(body: Buffer, from: number, to: number, keySrc: Buffer | null, keyStart: number, keyEnd: number, slab: RowSlab): boolean {
    r.buf = body
    r.pos = from + 5
    r.end = to
    try {
      const opIndex = r.long()
      if (opIndex === 1) return false
      if (opIndex !== 0) throw new UndecodableEvent(`invalid enum index ${opIndex}`)
      const version = r.long()
      const keyLength = r.length()
      const keyFrom = r.pos
      r.skip(keyLength)
      const keyTo = r.pos
      if (keyLength > 0 && !shortIsUtf8(body, keyFrom, keyTo)) return false
      const branch = r.long()
      if (branch === 0) throw new UndecodableEvent('upsert without an entity')
      if (branch !== 1) throw new UndecodableEvent(`invalid union index ${branch}`)

      // Nothing is committed to the slab before the whole body has been read and checked.
      o.buf = slab.reserve(8 * (to - from) + overhead)
      o.at = slab.offset
      let next = 0
      for (const p of plan) {
        if (p.field < 0) { writeDefault(p); continue }
        while (next < p.field) skipField(next++)
        copyField(p)
        next++
      }
      while (next < shapes.length) skipField(next++)
      if (r.pos !== r.end) throw new UndecodableEvent('trailing data')
      if (version <= 0) throw new UndecodableEvent('event version must be positive')
      if (!keyMatches(body, keyFrom, keyTo)) throw new UndecodableEvent(`event key ${body.toString('utf8', keyFrom, keyTo)} differs from the entity's ${keyField}`)
      if (keySrc && !sameBytes(keySrc, keyStart, keyEnd, body, keyFrom, keyTo)) {
        throw new Error(`message key ${keySrc.toString('utf8', keyStart, keyEnd)} differs from event key ${body.toString('utf8', keyFrom, keyTo)}`)
      }
      o.i64(version)
      o.u8(0)
      slab.advance(o.at)
      return true
    } catch (err) {
      if (err === GENERIC) return false
      if (err instanceof Truncated) throw new UndecodableEvent('truncated buffer')
      throw err
    }
  }
}
