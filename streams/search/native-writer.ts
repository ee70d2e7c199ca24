/**
 * The postings of a batch (batch-postings.ts) in ClickHouse's Native (columnar) format, the body of
 * the postings table's insert (schemas/internal/search-layout.ts postingsInsertSql): the server
 * then only sorts the rows by (field, term) and writes them, with no JSON to parse, and the bytes
 * are written straight from typed arrays lent by scratch-pool.ts.
 */
import { take, takeBytes } from './scratch-pool.js'
import type { FieldPostings } from './batch-postings.js'

const TWO32 = 4294967296

/**
 * The postings rows of the groups in ClickHouse's Native format: one row per (field, term,
 * version), sorted by (field, term) as the table is (groups by field, a group's terms in its
 * `order`, which fieldPostings sets; batch-postings.ts), its
 * postings in document order. The server checks whether a block is sorted before it sorts it:
 * a sorted one is written as it is, which spared it about a third of its CPU per insert (the
 * permutation of 350,000 rows by their strings and the copy of every column in that order). The format: number of columns and
 * rows (VarUInt), then per column its name, type and values; a String is VarUInt length + UTF-8,
 * numbers are little-endian, an Array is the cumulative UInt64 end offset of each row followed by
 * the flattened elements. Returned as chunks to send in order.
 */
export function encodePostings(unsorted: readonly FieldPostings[]): { chunks: Uint8Array[]; arrays: Uint32Array[]; bytes: Buffer[] } {
  // fields are ASCII ([a-z_~0-9]): JS order is byte order; stable, so one field's versions stay in turn
  const groups = [...unsorted].sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0))
  let R = 0
  let P = 0
  let Q = 0
  for (const g of groups) { R += g.size; P += g.pTerm.n; Q += g.pos.n }
  // scratch arrays (every element is written below), lent out until the caller's release()
  const arrays: Uint32Array[] = []
  const bytes: Buffer[] = []
  const array = (n: number) => { const a = take(n); arrays.push(a); return a.subarray(0, n) }
  const versions = array(2 * R)
  const rowEnds = array(2 * R)
  const ids = array(2 * P)
  const tfs = array(P)
  const dls = array(P)
  const posEnds = array(2 * P)
  const pos = array(Q)
  let r = 0
  let p = 0
  let q = 0
  for (const g of groups) {
    const T = g.size
    const n = g.pTerm.n
    const { pTerm: { a: pTerm }, pDoc: { a: pDoc }, pTf: { a: pTf }, pDl: { a: pDl }, pos: { a: gPos } } = g
    // a counting sort by term that reads the postings in order and scatters them (stable: document
    // order within a term): per term, how many postings and positions, then where they start, the
    // terms taken in the group's order
    const next = new Uint32Array(T)
    const nextPos = new Uint32Array(T)
    for (let k = 0; k < n; k++) { next[pTerm[k]]++; nextPos[pTerm[k]] += pTf[k] }
    const vHi = Math.floor(g.version / TWO32)
    const vLo = g.version - vHi * TWO32
    const order = orderOf(g)
    for (let j = 0, at = 0, atPos = 0; j < T; j++, r++) {
      const t = order[j]
      const c = next[t]
      next[t] = at
      at += c
      const cPos = nextPos[t]
      nextPos[t] = atPos
      atPos += cPos
      versions[2 * r] = vLo
      versions[2 * r + 1] = vHi
      rowEnds[2 * r] = p + at
      rowEnds[2 * r + 1] = 0
    }
    const docLo = g.ids.map((id) => id - Math.floor(id / TWO32) * TWO32)
    const docHi = g.ids.map((id) => Math.floor(id / TWO32) >>> 0)
    for (let k = 0, src = 0; k < n; k++) {
      const t = pTerm[k]
      const x = p + next[t]++
      const d = pDoc[k]
      ids[2 * x] = docLo[d]
      ids[2 * x + 1] = docHi[d]
      const tf = pTf[k]
      tfs[x] = tf
      dls[x] = pDl[k]
      let y = q + nextPos[t]
      for (const e = src + tf; src < e; src++) pos[y++] = gPos[src]
      nextPos[t] = y - q
      posEnds[2 * x] = y // fewer than 2³² positions in a batch
      posEnds[2 * x + 1] = 0
    }
    p += n
    q += g.pos.n
  }
  const u8 = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const column = (name: string, type: string, ...data: Uint8Array[]) => [columnHeader(name, type), ...data]
  const chunks = [
    varUInt(7), varUInt(R),
    ...column('field', 'String', fieldStrings(groups, bytes)),
    ...column('term', 'String', termStrings(groups, bytes)),
    ...column('version', 'UInt64', u8(versions)),
    ...column('ids', 'Array(Int64)', u8(rowEnds), u8(ids)),
    ...column('tfs', 'Array(UInt32)', u8(rowEnds), u8(tfs)),
    ...column('dls', 'Array(UInt32)', u8(rowEnds), u8(dls)),
    ...column('poss', 'Array(Array(UInt32))', u8(rowEnds), u8(posEnds), u8(pos)),
  ]
  return { chunks, arrays, bytes }
}

function varUInt(v: number): Uint8Array {
  const out: number[] = []
  while (v >= 0x80) { out.push((v % 0x80) | 0x80); v = Math.floor(v / 0x80) }
  out.push(v)
  return Uint8Array.from(out)
}

/** A column's name and type, as two Strings. */
function columnHeader(name: string, type: string): Buffer {
  const buf = Buffer.allocUnsafe(12 + 3 * (name.length + type.length))
  return buf.subarray(0, putString(buf, putString(buf, 0, name), type))
}

/**
 * The `field` String column of the groups' rows (VarUInt byte length + UTF-8 bytes per value):
 * each group's field, once per term.
 */
function fieldStrings(groups: readonly FieldPostings[], lent: Buffer[]): Buffer {
  let size = 0
  for (const g of groups) size += g.size * (6 + 3 * g.field.length)
  const buf = takeBytes(size, lent)
  let o = 0
  for (const g of groups) {
    const T = g.size
    if (T === 0) continue
    const start = o
    o = putString(buf, o, g.field)
    const one = o - start
    for (let t = 1; t < T; t++) for (let k = 0; k < one; k++) buf[o++] = buf[start + k]
  }
  return buf.subarray(0, o)
}

/** The `term` String column: per row its term, or for a gram `first + ' ' + second` (written from its two tokens), in the group's order. */
function termStrings(groups: readonly FieldPostings[], lent: Buffer[]): Buffer {
  let size = 0
  for (const g of groups) {
    const { terms, pairs } = g
    if (pairs) for (let i = 0, p = pairs.a; i < pairs.n; i += 2) size += 7 + 3 * (terms[p[i]].length + terms[p[i + 1]].length)
    else for (const x of terms) size += 6 + 3 * x.length
  }
  const buf = takeBytes(size, lent)
  let o = 0
  for (const g of groups) {
    const { terms, pairs } = g
    const order = orderOf(g)
    const T = g.size
    if (pairs) {
      const p = pairs.a
      for (let j = 0; j < T; j++) { const t = 2 * order[j]; o = putString(buf, o, terms[p[t]], terms[p[t + 1]]) }
    } else for (let j = 0; j < T; j++) o = putString(buf, o, terms[order[j]])
  }
  return buf.subarray(0, o)
}

/**
 * Writes one String value at `o` (`first`, or `first + ' ' + second`); returns the end. The bytes
 * go one byte after o (a length below 128 is one byte) and move only for a longer value.
 */
function putString(buf: Buffer, o: number, first: string, second?: string): number {
  let n = put(buf, first, o + 1)
  if (second !== undefined) { buf[o + 1 + n] = 0x20; n += 1 + put(buf, second, o + 2 + n) }
  if (n < 0x80) { buf[o] = n; return o + 1 + n }
  let extra = 0
  for (let v = n >>> 7; v > 0; v >>>= 7) extra++
  buf.copyWithin(o + 1 + extra, o + 1, o + 1 + n)
  for (let v = n; v >= 0x80; v >>>= 7) buf[o++] = (v & 0x7f) | 0x80
  buf[o++] = n >>> (7 * extra)
  return o + n
}

/**
 * Writes `s` as UTF-8 at `at`; returns the byte count. ASCII (nearly every token) is copied a
 * character at a time: a Buffer.write per value costs more than the copy for tokens this short,
 * and a batch has hundreds of thousands of them.
 */
function put(buf: Buffer, s: string, at: number): number {
  const n = s.length
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(k)
    if (c >= 0x80) return buf.write(s, at, 'utf8')
    buf[at + k] = c
  }
  return n
}

/** A group's term order, which fieldPostings always sets (release() drops it: a released group is not encoded). */
function orderOf(g: FieldPostings): Uint32Array {
  if (!g.order) throw new Error(`search index: the postings of ${g.field} have no term order (encoded after release, or not made by fieldPostings)`)
  return g.order
}
