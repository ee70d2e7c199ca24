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
