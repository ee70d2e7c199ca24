/**
 * Percolation of a batch of documents at once. The batch gets a small inverted index (token →
 * bitset of the batch's documents, per default fields and per field; values → bitsets), and a
 * stored query is compiled once into bitset operations over it: a term is one look-up, AND / OR /
 * NOT are word-wise operations over n/32 words, so a query costs the same for 1 or 512 documents.
 * Where bits cannot decide exactly (phrases, proximity, ranges, fielded prefixes) they narrow the
 * candidates and the query's own matcher (matcher.ts) decides for each remaining document, so the
 * answer is always the matcher's.
 */
import type { Node } from './ast.js'
import type { AnalyzedDoc, FieldValue } from './document.js'
import { VALUE_GAP, firstNotBelow } from './document.js'
import { searchType, type SearchType, type SearchTypeSpec } from './fields.js'
import { compileMatcher, fieldOf, textFieldsOf, type Matcher } from './matcher.js'

/** Bits over the documents of a batch (bit i: document i). */
export type Bits = Uint32Array

/** Documents per batch index: 16 words of bits. */
export const BATCH = 512

export class BatchIndex {
  readonly size: number
  readonly words: number
  /** token → documents holding it in a default field */
  readonly defaultTokens = new Map<string, Bits>()
  private readonly columns = new Map<string, Map<string, Bits>>()
  private readonly values = new Map<string, Map<FieldValue, Bits>>()
  private sorted: string[] | undefined

  constructor(readonly docs: readonly AnalyzedDoc[], readonly spec: SearchTypeSpec) {
    this.size = docs.length
    this.words = (docs.length + 31) >>> 5
    const defaults = spec.defaults.map((f) => f.column)
    docs.forEach((d, i) => { for (const c of defaults) this.mark(this.defaultTokens, d.text[c]?.tokens, i) })
  }

  private mark<K>(map: Map<K, Bits>, keys: readonly K[] | undefined, i: number): void {
    if (!keys) return
    const word = i >>> 5
    const bit = 1 << (i & 31)
    for (const k of keys) {
      if (k === VALUE_GAP) continue
      let b = map.get(k)
      if (!b) map.set(k, (b = new Uint32Array(this.words)))
      b[word] |= bit
    }
  }

  /** Documents holding `token` in a default field (column null) or in `column`. */
  term(column: string | null, token: string): Bits | undefined {
    if (column === null) return this.defaultTokens.get(token)
    let m = this.columns.get(column)
    if (!m) {
      this.columns.set(column, (m = new Map()))
      this.docs.forEach((d, i) => this.mark(m!, d.text[column]?.tokens, i))
    }
    return m.get(token)
  }

  /** The batch's distinct tokens of one text field. */
  columnTokens(column: string): Iterable<string> {
    this.term(column, '')
    return this.columns.get(column)!.keys()
  }

  /** Documents holding a value in `column`. */
  value(column: string, v: FieldValue): Bits | undefined {
    let m = this.values.get(column)
    if (!m) {
      this.values.set(column, (m = new Map()))
      this.docs.forEach((d, i) => this.mark(m!, d.values[column] as FieldValue[] | undefined, i))
    }
    return m.get(v)
  }

  /** The batch's distinct default tokens, sorted (for prefixes). */
  get sortedDefaultTokens(): readonly string[] {
    return (this.sorted ??= [...this.defaultTokens.keys()].sort())
  }

  /** Documents with a default token starting with `prefix`. */
  prefix(prefix: string): Bits | undefined {
    const sorted = this.sortedDefaultTokens
    let out: Bits | undefined
    for (let k = firstNotBelow(sorted, prefix); k < sorted.length && sorted[k].startsWith(prefix); k++) out = or(out, this.defaultTokens.get(sorted[k])!, this.words)
    return out
  }

  /** Documents among `candidates` (all when undefined) that `m` accepts. */
  filter(m: Matcher, candidates?: Bits): Bits | undefined {
    let out: Bits | undefined
    forEachBit(candidates ?? this.all(), (i) => { if (m(this.docs[i])) (out ??= new Uint32Array(this.words))[i >>> 5] |= 1 << (i & 31) })
    return out
  }

  all(): Bits {
    const out = new Uint32Array(this.words)
    for (let w = 0; w < this.words; w++) out[w] = fullWord(this.size, w)
    return out
  }
}

/** Calls `visit` with the number of each document in `bits`, in order. */
export function forEachBit(bits: Bits, visit: (i: number) => void): void {
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]
    while (word) {
      const low = word & -word
      visit((w << 5) + (31 - Math.clz32(low)))
      word ^= low
    }
  }
}

function fullWord(size: number, w: number): number {
  const left = size - (w << 5)
  return left >= 32 ? 0xffffffff | 0 : (1 << left) - 1
}

/** a ∪ b, into `a` (a set of the caller's own) or a new set; undefined stands for the empty set throughout. */
function or(a: Bits | undefined, b: Bits, words: number): Bits {
  const out = a ?? new Uint32Array(words)
  for (let w = 0; w < words; w++) out[w] |= b[w]
  return out
}

function isEmpty(b: Bits): boolean {
  for (let w = 0; w < b.length; w++) if (b[w]) return false
  return true
}

/** A query compiled to bits over a batch: undefined is no document. */
export type BitsQuery = (b: BatchIndex) => Bits | undefined

/** Compiles a parsed query into bitset operations over a batch (exactly the matcher's answer). */
export function compileBits(ast: Node, type: SearchType): BitsQuery {
  return compile(ast, searchType(type), type)
}

function compile(node: Node, spec: SearchTypeSpec, type: SearchType): BitsQuery {
  switch (node.kind) {
    case 'all': return (b) => b.all()
    case 'none': return () => undefined
    case 'term': {
      const t = node.token
      if (node.field === null) return (b) => b.term(null, t)
      const c = textFieldsOf(spec, node.field)[0].column
      return (b) => b.term(c, t)
    }
    case 'phrase': {
      // Every token present (in the default fields or the field) is necessary; the matcher checks order.
      const column = node.field === null ? null : textFieldsOf(spec, node.field)[0].column
      const tokens = [...new Set(node.tokens)]
      const exact = compileMatcher(node, type)
      return (b) => {
        let cand: Bits | undefined
        for (const t of tokens) {
          const bits = b.term(column, t)
          if (!bits) return undefined
          cand = cand ? and2(cand, bits) : bits
        }
        return b.filter(exact, cand)
      }
    }
    case 'prefix': {
      const p = node.prefix
      if (node.field === null) return (b) => b.prefix(p)
      const exact = compileMatcher(node, type)
      return (b) => b.filter(exact)
    }
    case 'value': {
      const c = fieldOf(spec, node.field).column
      const v = node.value
      return (b) => b.value(c, v as FieldValue)
    }
    case 'range': {
      const exact = compileMatcher(node, type)
      return (b) => b.filter(exact)
    }
    case 'and': {
      // Bit-decided children first; children a document at a time only on what is left.
      const docwise = node.children.filter((c) => c.kind === 'range' || (c.kind === 'prefix' && c.field !== null))
      const bitwise = node.children.filter((c) => !docwise.includes(c)).map((c) => compile(c, spec, type))
      const checks = docwise.map((c) => compileMatcher(c, type))
      return (b) => {
        let acc: Bits | undefined
        let owned = false // the first child's bits may be the batch index's: copied before changing
        for (const q of bitwise) {
          const bits = q(b)
          if (!bits) return undefined
          if (!acc) acc = bits
          else if (owned) { if (!andInto(acc, bits)) return undefined }
          else { acc = and2(acc, bits); owned = true; if (isEmpty(acc)) return undefined }
        }
        for (const m of checks) {
          acc = b.filter(m, acc)
          if (!acc) return undefined
        }
        return acc ?? b.all()
      }
    }
    case 'or': {
      const parts = node.children.map((c) => compile(c, spec, type))
      return (b) => {
        let acc: Bits | undefined
        // `acc` is always a set of our own: the first part's bits may be the batch index's.
        for (const q of parts) { const bits = q(b); if (bits) acc = or(acc, bits, b.words) }
        return acc
      }
    }
    case 'not': {
      const inner = compile(node.child, spec, type)
      return (b) => {
        const bits = inner(b)
        const out = b.all()
        if (bits) for (let w = 0; w < b.words; w++) out[w] &= ~bits[w]
        return isEmpty(out) ? undefined : out
      }
    }
  }
}

/** a ∩= b; whether anything is left. */
function andInto(a: Bits, b: Bits): boolean {
  let any = 0
  for (let w = 0; w < a.length; w++) any |= (a[w] &= b[w])
  return any !== 0
}

/** a ∩ b as a new set (neither is changed: they may be the batch index's own). */
function and2(a: Bits, b: Bits): Bits {
  const out = new Uint32Array(a.length)
  for (let w = 0; w < a.length; w++) out[w] = a[w] & b[w]
  return out
}
