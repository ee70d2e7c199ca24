/**
 * The index of a batch of documents being percolated: a row of bits per id of the stored queries'
 * vocabulary (percolate-terms.ts; bit i of a row: document i holds that token, prefix or value),
 * set from one table probe per document token (a memo of every id a token sets, when the scope
 * has prefixes). A token no query asks for sets nothing. Stored queries are programs over these
 * rows (percolate-program.ts).
 *
 * Rows and intermediate results live in one Int32Array reused from batch to batch: the rows first
 * (id × words), then the scratch slots of the programs; a result is an offset there, -1 for no
 * document. Rows are all zero between batches (`clear` zeroes the ones a batch set), so a program
 * reads any row as it is, with no check of whether this batch set it.
 */
import type { AnalyzedDoc, FieldValue } from './document.js'
import type { Matcher } from './matcher.js'
import { HASH_START } from './percolate-strings.js'
import { NOTHING, type IdPool, type TextScope, type ValueScope, type Vocabulary } from './percolate-terms.js'

/** Documents per batch: 16 words of bits. */
export const BATCH = 512
const MAX_WORDS = BATCH >>> 5

export class Batch {
  docs: readonly AnalyzedDoc[] = []
  /** words of bits per row (documents / 32, rounded up) */
  words = 0
  mem = new Int32Array(0)
  /** the number of the batch that last set each id's row: whether `touched` has it yet */
  stamp = new Int32Array(0)
  current = 0
  /** the ids with a row in this batch, the first `touchedCount` of them */
  touched = new Int32Array(0)
  touchedCount = 0
  /** a program's stack of results (offsets in mem), one per scratch slot */
  stack = new Int32Array(1)
  /** rows before the scratch slots */
  private rows = 0
  /** scratch slots the deepest program uses */
  private slots = 1

  constructor(private readonly pool: IdPool) {}

  /** Makes room for a program using `depth` scratch slots. */
  reserve(depth: number): void {
    if (depth > this.slots) this.slots = depth
  }

  /**
   * The offset of scratch slot `s`: past the rows at their widest, whatever this batch's width,
   * so that a slot never overlaps a row of a wider batch (rows must be zero between batches).
   */
  scratch(s: number): number {
    return (this.rows + s) * MAX_WORDS
  }

  /** Indexes `docs` (at most BATCH) for the scopes of `vocab` that stored queries use. */
  load(vocab: Vocabulary, docs: readonly AnalyzedDoc[]): void {
    if (docs.length > BATCH) throw new Error(`a batch holds at most ${BATCH} documents`)
    this.clear()
    this.docs = docs
    const ids = this.pool.capacity
    if (ids > this.rows || (this.rows + this.slots) * MAX_WORDS > this.mem.length) {
      // Grown by half again, so queries added one at a time do not reallocate every batch.
      const rows = Math.max(ids, Math.ceil(this.rows * 1.5), 64)
      this.stamp = new Int32Array(rows)
      this.touched = new Int32Array(rows)
      this.mem = new Int32Array((rows + this.slots) * MAX_WORDS)
      this.stack = new Int32Array(this.slots)
      this.rows = rows
    }
    this.current++
    this.touchedCount = 0
    this.words = (docs.length + 31) >>> 5
    if (!vocab.defaults.empty) this.markText(vocab.defaults)
    for (const s of vocab.columns.values()) if (!s.empty) this.markText(s)
    for (const s of vocab.values.values()) if (!s.empty) this.markValues(s)
  }

  /** Zeroes the rows the last batch set (the batch's owner calls it when done, else the next load does). */
  clear(): void {
    const { mem, words, touched } = this
    for (let k = 0; k < this.touchedCount; k++) mem.fill(0, touched[k] * words, (touched[k] + 1) * words)
    this.touchedCount = 0
  }

  /** Sets bit i of the row of `id`. */
  private mark(id: number, i: number): void {
    if (this.stamp[id] !== this.current) {
      this.stamp[id] = this.current
      this.touched[this.touchedCount++] = id
    }
    this.mem[id * this.words + (i >>> 5)] |= 1 << (i & 31)
  }

  /** Sets the rows of a scope's tokens and prefixes, and keeps its token ids in order if phrases read them. */
  private markText(scope: TextScope): void {
    const docs = this.docs
    const { columns, termTable } = scope
    const keep = scope.phrases > 0
    let seq = scope.seq
    let n = 0
    if (keep && scope.starts.length < docs.length + 1) scope.starts = new Int32Array(BATCH + 1)
    const starts = scope.starts
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]
      if (keep) starts[i] = n
      for (let c = 0; c < columns.length; c++) {
        const tokens = d.text[columns[c]]?.tokens
        if (!tokens) continue
        if (keep && seq.length < n + tokens.length + 1) {
          const grown = new Int32Array(Math.max(2 * seq.length, n + tokens.length + 1))
          grown.set(seq.subarray(0, n))
          scope.seq = seq = grown
        }
        for (let k = 0; k < tokens.length; k++) {
          // (the memo may be emptied and replaced by resolve when full)
          const memo = scope.memo
          const t = tokens[k]
          const length = t.length
          // VALUE_GAP, the empty token between values: never a query's token
          if (length === 0) { if (keep) seq[n++] = -1; continue }
          let h = HASH_START
          for (let j = 0; j < length; j++) h = Math.imul(h ^ t.charCodeAt(j), 0x01000193)
          let id: number
          if (memo === null) id = termTable.find(t, h, length)
          else {
            let v = memo.find(t, h, length)
            if (v === -1) v = scope.resolve(t)
            if (v >= 0 || v === NOTHING) id = v === NOTHING ? -1 : v
            else {
              const at = -3 - v
              const lists = scope.lists
              id = lists[at]
              for (let p = at + 2, end = p + lists[at + 1]; p < end; p++) this.mark(lists[p], i)
            }
          }
          if (keep) seq[n++] = id
          if (id >= 0) this.mark(id, i)
        }
        if (keep) seq[n++] = -1
      }
    }
    if (keep) starts[docs.length] = n
  }

  private markValues(scope: ValueScope): void {
    const docs = this.docs
    const values = scope.values
    for (let i = 0; i < docs.length; i++) {
      const vs = docs[i].values[scope.column] as readonly FieldValue[] | undefined
      if (!vs) continue
      for (const v of vs) {
        const key = values.get(v)
        if (key) this.mark(key.id, i)
      }
    }
  }

  /** Whether `at` is a row (read only) rather than a scratch slot. */
  isRow(at: number): boolean {
    return at < this.rows * this.words
  }

  /** Every document, into scratch slot `s`. */
  all(s: number): number {
    const out = this.scratch(s)
    const { mem, words } = this
    for (let w = 0; w < words; w++) mem[out + w] = fullWord(this.docs.length, w)
    return out
  }

  /** Replaces the set at `at` with the batch's other documents; whether there are any. */
  complement(at: number): boolean {
    const { mem, words } = this
    let any = 0
    for (let w = 0; w < words; w++) any |= (mem[at + w] = fullWord(this.docs.length, w) & ~mem[at + w])
    return any !== 0
  }

  /** Keeps in the set at `at` the documents `m` accepts; whether any is left. */
  filter(m: Matcher, at: number): boolean {
    const { mem, words, docs } = this
    let any = 0
    for (let w = 0; w < words; w++) {
      let word = mem[at + w]
      let kept = word
      while (word) {
        const low = word & -word
        if (!m(docs[(w << 5) + (31 - Math.clz32(low))])) kept ^= low
        word ^= low
      }
      mem[at + w] = kept
      any |= kept
    }
    return any !== 0
  }

  /** Keeps in the set at `at` the documents holding code[from, from + k) one after the other in `scope`; whether any is left. */
  phrase(scope: TextScope, code: Int32Array, from: number, k: number, at: number): boolean {
    const { mem, words } = this
    const { seq, starts } = scope
    let any = 0
    for (let w = 0; w < words; w++) {
      let word = mem[at + w]
      let kept = word
      while (word) {
        const low = word & -word
        const i = (w << 5) + (31 - Math.clz32(low))
        if (!holdsRun(seq, starts[i], starts[i + 1], code, from, k)) kept ^= low
        word ^= low
      }
      mem[at + w] = kept
      any |= kept
    }
    return any !== 0
  }
}

/** Whether seq[start, end) holds ids[from], ids[from + 1], … (k of them) at consecutive places. */
function holdsRun(seq: Int32Array, start: number, end: number, ids: Int32Array, from: number, k: number): boolean {
  const first = ids[from]
  outer: for (let p = start, last = end - k; p <= last; p++) {
    if (seq[p] !== first) continue
    for (let j = 1; j < k; j++) if (seq[p + j] !== ids[from + j]) continue outer
    return true
  }
  return false
}

function fullWord(size: number, w: number): number {
  const left = size - (w << 5)
  return left >= 32 ? -1 : (1 << left) - 1
}
