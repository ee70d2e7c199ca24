/** The shapes the compiled reporter databases take: editions, their patterns and the strings that find them. */

export type SourceKind = 'case' | 'law' | 'journal'

/** One canonical edition (case reporter edition, law code or journal) a written string can mean. */
export interface EditionRef {
  kind: SourceKind
  /** canonical key: edition abbreviation ('F.3d'), law key ('U.S.C.') or journal key */
  canonical: string
  /** `canonical` through normKey */
  norm: string
  name: string
  cite_type: string
  /** first and last year of the edition's date range (inclusive); null = open */
  startYear: number | null
  endYear: number | null
  /** key of the reporter family in reporters.json ('F.' for 'F.3d'); the canonical key otherwise */
  family: string
  patterns: Pattern[]
}

export interface Pattern {
  id: number
  /** template as written in the data, for diagnostics */
  template: string
  /** sticky zero-width look-behind matched at the anchor start; group `__pre` is the prefix text; null = no prefix.
   *  Patterns with the same prefix share one RegExp (and `preId`), so its result is computed once per position. */
  pre: RegExp | null
  preId: number
  /** sticky regex matched at the anchor end (or at the anchor start when `atStart`) */
  post: RegExp
  /** the pattern names the reporter with its own `(?<reporter>…)` group, so `post` starts at the anchor start */
  atStart: boolean
  /** generated short form `volume reporter, at pin` */
  short: boolean
}

export interface Plan {
  pattern: Pattern
  refs: EditionRef[]
}

/** A string that can be found in text (a reporter abbreviation, variation, law or journal name). */
export interface ReporterString {
  text: string
  refs: EditionRef[]
  /** refs whose name or variation this string is (not merely the literal head of a pattern) */
  named: EditionRef[]
  /** distinct patterns of `refs`, in data order, each with the refs that own it */
  plans: Plan[]
}
