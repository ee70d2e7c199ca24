/**
 * A batch's postings, gathered in typed arrays before they are encoded (native-writer.ts): per text
 * column of the documents, its tokens and its common grams (domain/search/common-grams.ts), each
 * term numbered as it is first seen, with its documents, tf, field lengths and positions. Strings
 * are made once per term, not per token: a batch of 5,000 opinions holds millions of postings.
 */
import { TokenTable } from '../../domain/search/analyzer.js'
import type { AnalyzedDoc } from '../../domain/search/document.js'
import { COMMON_WORDS, gramField } from '../../domain/search/common-grams.js'
import { U32, take, give } from './scratch-pool.js'

/**
 * The postings of one field (a text column or its grams) of a batch's documents at one version,
 * by term number: for each document, its term numbers per position (-1: none) are counted and a
 * posting appended per distinct term, its positions after it (all in typed arrays: a batch has
 * millions of postings).
 */
export class FieldPostings {
  private count = new Int32Array(1024)
  /** per posting: term number, document (index into ids), tf, dl */
  readonly pTerm = new U32()
  readonly pDoc = new U32()
  readonly pTf = new U32()
  readonly pDl = new U32()
  readonly pos = new U32()
  readonly ids: number[] = []
  private readonly touched = new U32()
  /** for grams, per gram number its two tokens' numbers in `terms` (first, second) side by side */
  readonly pairs: U32 | undefined
  /**
   * The term numbers in the order ClickHouse sorts the terms (byte order of their UTF-8, a gram
   * as `first second`), set by fieldPostings: the Native block then goes out sorted by (field,
   * term), and the server, finding it so, skips sorting and permuting it (a third of its CPU per
   * insert). An order that is not quite the server's (see sortedOrder) costs only that sort.
   * Its first `size` values (a scratch array, maybe longer).
   */
  order: Uint32Array | undefined

  /**
   * `terms`: the field's tokens by number (the TokenTable's list, which numbers them). For tokens
   * (`grams` false) those are this group's terms; for grams, `pairs` holds each gram's two token
   * numbers (the gram's string is never made).
   */
  constructor(readonly field: string, readonly version: number, readonly terms: string[] = [], grams = false) {
    this.pairs = grams ? new U32() : undefined
  }

  /** The number of terms (rows): tokens, or grams. */
  get size(): number { return this.pairs ? this.pairs.n >>> 1 : this.terms.length }

  /** Returns the scratch arrays (after encoding). */
  release(): void {
    for (const a of [this.pTerm, this.pDoc, this.pTf, this.pDl, this.pos, this.touched]) a.release()
    this.pairs?.release()
    if (this.order) give(this.order)
    this.order = undefined
  }

  /** A new gram's number: of the tokens numbered u and v (a group of grams only). */
  addGram(u: number, v: number): number {
    const pairs = this.pairs!
    const g = pairs.n >>> 1
    pairs.push(u)
    pairs.push(v)
    return g
  }

  /** One document: `at[i]` is the term number at position i (-1: none), for i < n. */
  doc(id: number, dl: number, at: Int32Array, n: number): void {
    const size = this.size
    if (this.count.length < size) {
      const c = new Int32Array(Math.max(2 * this.count.length, size))
      c.set(this.count)
      this.count = c
    }
    const { count, touched } = this
    touched.n = 0
    for (let i = 0; i < n; i++) {
      const g = at[i]
      if (g >= 0 && count[g]++ === 0) touched.push(g)
    }
    const k = touched.n
    if (k === 0) return
    const d = this.ids.length
    this.ids.push(id)
    this.pTerm.reserve(k); this.pDoc.reserve(k); this.pTf.reserve(k); this.pDl.reserve(k)
    // the positions of the document's distinct terms in turn; count[] becomes each one's write cursor
    let end = this.pos.n
    for (let j = 0; j < k; j++) {
      const g = touched.a[j]
      const p = this.pTerm.n++
      this.pTerm.a[p] = g
      this.pDoc.a[p] = d
      this.pTf.a[p] = count[g]
      this.pDl.a[p] = dl
      const c = count[g]
      count[g] = end
      end += c
    }
    this.pos.reserve(end - this.pos.n)
    this.pDoc.n = this.pTf.n = this.pDl.n = this.pTerm.n
    const pos = this.pos.a
    for (let i = 0; i < n; i++) {
      const g = at[i]
      if (g >= 0) pos[count[g]++] = i
    }
    this.pos.n = end
    for (let j = 0; j < k; j++) count[touched.a[j]] = 0
  }
}

/**
 * Term numbers of pairs of term numbers (a field's common grams): open addressing over typed
 * arrays (a Map keyed by u·2²⁶+v boxes every key beyond the small-integer range).
 */
class PairTable {
  private keys = new Int32Array(2 * 4096).fill(-1)
  private values = new Int32Array(4096)
  private size = 0
  private mask = 4095

  /** Empties the table, keeping its arrays (a batch's grams grow them to megabytes). */
  clear(): void {
    this.keys.fill(-1)
    this.size = 0
  }

  private static slot(u: number, v: number, mask: number): number {
    let h = Math.imul(u, 0x9e3779b1) + v
    h ^= h >>> 15
    h = Math.imul(h, 0x85ebca6b)
    h ^= h >>> 13
    return h & mask
  }

  get(u: number, v: number): number {
    const keys = this.keys
    for (let i = PairTable.slot(u, v, this.mask); ; i = (i + 1) & this.mask) {
      const k = keys[2 * i]
      if (k === -1) return -1
      if (k === u && keys[2 * i + 1] === v) return this.values[i]
    }
  }

  set(u: number, v: number, value: number): void {
    if (2 * (this.size + 1) > this.mask + 1) this.rehash()
    const keys = this.keys
    let i = PairTable.slot(u, v, this.mask)
    while (keys[2 * i] !== -1) i = (i + 1) & this.mask
    keys[2 * i] = u
    keys[2 * i + 1] = v
    this.values[i] = value
    this.size++
  }

  private rehash(): void {
    const { keys, values } = this
    const n = this.mask + 1
    this.keys = new Int32Array(4 * n).fill(-1)
    this.values = new Int32Array(2 * n)
    this.mask = 2 * n - 1
    this.size = 0
    for (let i = 0; i < n; i++) if (keys[2 * i] !== -1) this.set(keys[2 * i], keys[2 * i + 1], values[i])
  }
}

/** Reused by fieldPostings from one field to the next (it is synchronous): their arrays grow to megabytes. */
const tokenTable = new TokenTable()
const pairTable = new PairTable()

/**
 * Token and common-gram postings of one text column over a batch's documents (one version). The
 * tokens are numbered straight from the field's values (TokenTable: no string per token).
 */
export function fieldPostings(docs: readonly AnalyzedDoc[], column: string, version: number, dls: Int32Array): { tokens: FieldPostings; grams: FieldPostings } {
  const table = tokenTable
  table.clear()
  const tokens = new FieldPostings(column, version, table.terms)
  const grams = new FieldPostings(gramField(column), version, table.terms, true)
  const common: boolean[] = []
  const gramOf = pairTable
  gramOf.clear()
  let pair = new Int32Array(1024)
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d]
    dls[d] = 0
    const a = doc.text[column]
    if (!a) continue
    table.reset()
    const dl = table.scanValues(a.sources)
    dls[d] = dl
    const n = table.n
    if (n === 0) continue
    const at = table.out
    for (let t = common.length; t < table.terms.length; t++) common.push(COMMON_WORDS.has(table.terms[t]))
    if (n > pair.length) pair = new Int32Array(2 * n)
    tokens.doc(doc.id, dl, at, n)
    let any = false
    for (let i = 0; i + 1 < n; i++) {
      const u = at[i]
      const v = at[i + 1]
      pair[i] = -1
      if (u < 0 || v < 0 || !(common[u] || common[v])) continue
      let g = gramOf.get(u, v)
      if (g < 0) {
        g = grams.addGram(u, v)
        gramOf.set(u, v, g)
      }
      pair[i] = g
      any = true
    }
    if (any) grams.doc(doc.id, dl, pair, n - 1)
  }
  tokens.order = sortedOrder(tokens.terms)
  grams.order = pairOrder(tokens.order, tokens.terms.length, grams.pairs!, grams.size)
  return { tokens, grams }
}

/** sortedOrder's keys: a term's first four characters as bytes (255 for any above, 0 past its end) × KEY_SHIFT + its number. */
const KEY_SHIFT = 2 ** 21

/**
 * The numbers of `terms` in ascending order of the strings (JS order: UTF-16 code units, which is
 * UTF-8's byte order but for characters beyond the BMP against U+E000-U+FFFF, where the server
 * then sorts the block itself). Sorted by a numeric key (the first four characters and the number,
 * one float64: a native numeric sort, no comparator) and then by comparison within runs of equal
 * keys; above 2²¹ terms, by comparison alone. A scratch array (scratch-pool.ts): its first
 * terms.length values.
 */
export function sortedOrder(terms: readonly string[]): Uint32Array {
  const T = terms.length
  const out = take(Math.max(T, 1))
  if (T >= KEY_SHIFT) {
    const idx = Array.from(terms.keys()).sort(byString(terms))
    out.set(idx)
    return out
  }
  const keys = new Float64Array(T)
  for (let t = 0; t < T; t++) {
    const s = terms[t]
    const n = s.length
    let k = 0
    for (let i = 0; i < 4; i++) {
      const c = i < n ? s.charCodeAt(i) : 0
      k = k * 256 + (c < 255 ? c : 255)
    }
    keys[t] = k * KEY_SHIFT + t
  }
  keys.sort()
  let runStart = 0
  let runKey = -1
  for (let i = 0; i <= T; i++) {
    const k = i < T ? Math.floor(keys[i] / KEY_SHIFT) : -2
    if (i < T) out[i] = keys[i] - k * KEY_SHIFT
    if (k !== runKey) {
      if (i - runStart > 1) sortRun(terms, out, runStart, i)
      runStart = i
      runKey = k
    }
  }
  return out
}

/** Compares term numbers by their strings (JS order). */
const byString = (terms: readonly string[]) => (x: number, y: number): number => (terms[x] < terms[y] ? -1 : terms[x] > terms[y] ? 1 : 0)

/** out[lo, hi) (term numbers whose first four characters are equal) by their strings. */
function sortRun(terms: readonly string[], out: Uint32Array, lo: number, hi: number): void {
  if (hi - lo > 32) {
    out.set(Array.from(out.subarray(lo, hi)).sort(byString(terms)), lo)
    return
  }
  for (let i = lo + 1; i < hi; i++) {
    const x = out[i]
    const sx = terms[x]
    let j = i - 1
    while (j >= lo && terms[out[j]] > sx) { out[j + 1] = out[j]; j-- }
    out[j + 1] = x
  }
}

/**
 * The grams' numbers in the order of their strings `first second`, from the order of their tokens:
 * tokens hold only letters and digits, all above the space, so a gram sorts as the pair (first,
 * second) of its tokens' ranks. Two stable counting sorts, by the second's rank, then the first's.
 * `tokenOrder`: sortedOrder of the field's T tokens; `pairs`: per gram, its tokens' numbers.
 */
function pairOrder(tokenOrder: Uint32Array, T: number, pairs: U32, G: number): Uint32Array {
  const rank = take(Math.max(T, 1))
  for (let i = 0; i < T; i++) rank[tokenOrder[i]] = i
  const p = pairs.a
  const count = take(T + 1)
  const tmp = take(Math.max(G, 1))
  const out = take(Math.max(G, 1))
  count.fill(0, 0, T + 1)
  for (let g = 0; g < G; g++) count[rank[p[2 * g + 1]] + 1]++
  for (let i = 0; i < T; i++) count[i + 1] += count[i]
  for (let g = 0; g < G; g++) tmp[count[rank[p[2 * g + 1]]]++] = g
  count.fill(0, 0, T + 1)
  for (let g = 0; g < G; g++) count[rank[p[2 * g]] + 1]++
  for (let i = 0; i < T; i++) count[i + 1] += count[i]
  for (let i = 0; i < G; i++) { const g = tmp[i]; out[count[rank[p[2 * g]]]++] = g }
  give(rank)
  give(count)
  give(tmp)
  return out
}
