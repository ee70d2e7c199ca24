/**
 * The one analyzer of search: documents and queries go through the same function, so an
 * in-memory match (the percolator) and the ClickHouse search see the same tokens.
 *
 * Rules:
 * - lower case first, then Unicode NFKD, then every combining mark (\p{M}) is dropped:
 *   "Müller" → "muller", "ﬁrst" → "first", "Ｆ" → "f";
 * - a token is a maximal run of letters (\p{L}) and digits (\p{N}); everything else separates,
 *   the period included: "F.3d" → ["f", "3d"], "O'Connor" → ["o", "connor"],
 *   "§ 1983" → ["1983"], "21-cv-1234" → ["21", "cv", "1234"]. A query term that analyzes to
 *   several tokens becomes a phrase of them (see parse.ts), so "F.3d" still finds "F. 3d";
 * - nothing is dropped (no stop words, no stemming), so phrases are exact;
 * - a position is the token's index in the field (0, 1, 2, …).
 *
 * ASCII text (the bulk of U.S. court data) takes a hand-written loop with no regular expression
 * and no normalization; other text is normalized once and scanned with one precompiled regex.
 */

export interface AnalyzedToken { token: string; pos: number }

const NON_ASCII = /[^\x00-\x7f]/
const MARKS = /\p{M}+/gu
const WORD = /[\p{L}\p{N}]+/gu

/** 1 for [0-9A-Za-z]: the ASCII token characters. */
const ASCII_WORD = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) ASCII_WORD[c] = 1
}
/** Per ASCII code: its lower case for a token character, 0 for a separator (one load decides both). */
const ASCII_LOWER = new Uint8Array(128)
for (let c = 0; c < 128; c++) if (ASCII_WORD[c] === 1) ASCII_LOWER[c] = c >= 65 && c <= 90 ? c + 32 : c

function asciiTokens(text: string, out: string[]): void {
  const n = text.length
  let start = -1
  let upper = false
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (ASCII_WORD[c] === 1) {
      if (start < 0) { start = i; upper = false }
      if (c <= 90 && c >= 65) upper = true
    } else if (start >= 0) {
      const w = text.slice(start, i)
      out.push(upper ? w.toLowerCase() : w)
      start = -1
    }
  }
  if (start >= 0) {
    const w = text.slice(start)
    out.push(upper ? w.toLowerCase() : w)
  }
}

/** Lower case, NFKD, combining marks removed: the normal form tokens are cut from. */
export function fold(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(MARKS, '')
}

/** The tokens of `text`, in order; `tokens(t)[i]` is at position i. */
export function tokens(text: string): string[] {
  const out: string[] = []
  if (!text) return out
  if (!NON_ASCII.test(text)) {
    asciiTokens(text, out)
    return out
  }
  const folded = fold(text)
  // NFKD can turn a non-ASCII character into ASCII ones ("ﬁ" → "fi"); the regex handles both.
  for (const m of folded.matchAll(WORD)) out.push(m[0])
  return out
}

/** The tokens of `text` with their positions. */
export function analyze(text: string): AnalyzedToken[] {
  return tokens(text).map((token, pos) => ({ token, pos }))
}

/** Normal form of a keyword value (court ids, statuses): folded and trimmed, never split. */
export function normalizeKeyword(value: string): string {
  return NON_ASCII.test(value) ? fold(value).trim() : value.toLowerCase().trim()
}

/** The number of tokens of `text` (tokens(text).length), without making them. */
export function tokenCount(text: string): number {
  if (!text) return 0
  if (NON_ASCII.test(text)) return tokens(text).length
  let n = 0
  let inWord = false
  for (let i = 0; i < text.length; i++) {
    const w = ASCII_WORD[text.charCodeAt(i)] === 1
    if (w && !inWord) n++
    inWord = w
  }
  return n
}

/**
 * Numbers for the distinct tokens of many texts, in order of first appearance: what the indexer
 * groups postings by. `scan` cuts a text exactly as tokens() does, but an ASCII token already
 * known is matched in place (hashed and compared over the text's characters), so only a new token
 * becomes a string: a batch's millions of repeated tokens would otherwise be made, hashed, kept
 * alive until grouped and collected. Open addressing over a typed array, FNV-1a over the lower-case
 * characters.
 */
export class TokenTable {
  /** per number, the token (a new list after clear()) */
  terms: string[] = []
  /** the numbers scan() wrote, in position order (-1: a gap between two values), `n` of them */
  out = new Int32Array(1024)
  n = 0
  /** per slot: token number (-1: empty) and the token's hash, side by side (one cache line per probe) */
  private slots = new Int32Array(2 * 8192).fill(-1)
  private mask = 8191

  /** Forgets every token (numbers start again at 0), keeping the arrays. */
  clear(): void {
    this.terms = []
    this.slots.fill(-1)
    this.n = 0
  }

  /** Starts a new sequence in `out`. */
  reset(): void { this.n = 0 }

  /**
   * Appends the numbers of the tokens of a field's values, -1 between two values (VALUE_GAP's
   * place, so a phrase never spans them; none before a value without tokens, as
   * AnalyzedField.tokens); returns how many tokens there were.
   */
  scanValues(values: readonly string[]): number {
    let count = 0
    for (const v of values) {
      const mark = this.n
      if (mark > 0) this.push(-1)
      const k = this.scan(v)
      if (k === 0) this.n = mark
      count += k
    }
    return count
  }

  /** Appends the numbers of the tokens of `text`; returns how many tokens it had. */
  scan(text: string): number {
    const before = this.n
    if (!text) return 0
    if (NON_ASCII.test(text)) {
      for (const m of fold(text).matchAll(WORD)) this.push(this.number(m[0]))
      return this.n - before
    }
    // ASCII only here: every code indexes ASCII_LOWER
    const len = text.length
    let i = 0
    for (;;) {
      let c = 0
      while (i < len && (c = ASCII_LOWER[text.charCodeAt(i)]) === 0) i++
      if (i >= len) break
      const start = i
      let h = Math.imul(0x811c9dc5 ^ c, 0x01000193)
      for (i++; i < len && (c = ASCII_LOWER[text.charCodeAt(i)]) !== 0; i++) h = Math.imul(h ^ c, 0x01000193)
      this.push(this.numberOfRange(text, start, i, h))
    }
    return this.n - before
  }

  private push(g: number): void {
    if (this.n === this.out.length) {
      const o = new Int32Array(2 * this.n)
      o.set(this.out)
      this.out = o
    }
    this.out[this.n++] = g
  }

  /** The number of token `x` (a new one if unseen). */
  private number(x: string): number {
    let h = 0x811c9dc5
    for (let i = 0; i < x.length; i++) h = Math.imul(h ^ x.charCodeAt(i), 0x01000193)
    const { slots, terms, mask } = this
    let i = (h ^ (h >>> 15)) & mask
    for (;;) {
      const g = slots[2 * i]
      if (g === -1) return this.add(x, h, i)
      if (slots[2 * i + 1] === h && terms[g] === x) return g
      i = (i + 1) & mask
    }
  }

  /** The number of the ASCII token text[start, end), lower-cased, whose hash is h. */
  private numberOfRange(text: string, start: number, end: number, h: number): number {
    const { slots, terms, mask } = this
    const len = end - start
    let i = (h ^ (h >>> 15)) & mask
    for (;;) {
      const g = slots[2 * i]
      if (g === -1) return this.add(text.slice(start, end).toLowerCase(), h, i)
      if (slots[2 * i + 1] === h) {
        const t = terms[g]
        if (t.length === len) {
          let k = 0
          for (; k < len; k++) if (ASCII_LOWER[text.charCodeAt(start + k)] !== t.charCodeAt(k)) break
          if (k === len) return g
        }
      }
      i = (i + 1) & mask
    }
  }

  private add(x: string, h: number, slot: number): number {
    const g = this.terms.length
    this.terms.push(x)
    this.slots[2 * slot] = g
    this.slots[2 * slot + 1] = h
    if (2 * this.terms.length > this.mask) this.grow()
    return g
  }

  private grow(): void {
    const old = this.slots
    const n = old.length // twice the slots
    const slots = new Int32Array(2 * n).fill(-1)
    const mask = n - 1
    for (let j = 0; j < old.length; j += 2) {
      if (old[j] === -1) continue
      const h = old[j + 1]
      let i = (h ^ (h >>> 15)) & mask
      while (slots[2 * i] !== -1) i = (i + 1) & mask
      slots[2 * i] = old[j]
      slots[2 * i + 1] = h
    }
    this.slots = slots
    this.mask = mask
  }
}
