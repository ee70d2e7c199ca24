/**
 * The queries of bench/search.ts and what every engine answers them with. Each kind, drawn
 * reproducibly (seed 42) from the corpus's vocabulary and from sample texts of the indexed documents:
 *   term      a word of frequency rank 50-5,000, unfielded (the default fields), by score
 *   phrase    2-3 consecutive words of a generated text (frequent words and "F.3d" are common)
 *   field     caseName:<surname>, by score
 *   filtered  a term with court_id and a 5-year dateFiled range (request filters), by score
 *   ordered   a term, ordered by dateFiled desc (no statistics needed)
 */
import { WORDS, COURT_IDS, SURNAME_TOKENS, rng } from './search-corpus.js'

export type Kind = 'term' | 'phrase' | 'field' | 'filtered' | 'ordered'
export const KINDS: readonly Kind[] = ['term', 'phrase', 'field', 'filtered', 'ordered']

/** Every engine returns this many results, best first. */
export const PAGE_SIZE = 20

export interface Query {
  kind: Kind
  /** in our query language: `word`, `"w1 w2"`, `caseName:word` */
  q: string
  filters?: { court: string; from: string; to: string }
  byDate: boolean
}

/** An engine under test: the exact number of matches and the ids of the first page. */
export interface SearchEngine {
  name: string
  run(q: Query): Promise<{ hits: number; top: number[] }>
  /** runs of each warm-up query before timing (default 1): a JVM compiles its hot paths only after many */
  warmUpRuns?: number
}

/** `perKind` queries of each kind (plus 3 warm-ups each), interleaved by kind. */
export function makeQueries(samples: readonly string[][], perKind: number): Query[] {
  const r = rng(42)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]
  const mid = () => WORDS[50 + Math.floor(r() * 4950)]
  const out: Query[] = []
  for (let i = 0; i < perKind + 3; i++) {
    const toks = pick(samples)
    const at = Math.floor(r() * (toks.length - 3))
    const y = 1950 + Math.floor(r() * 70)
    out.push(
      { kind: 'term', q: mid(), byDate: false },
      { kind: 'phrase', q: `"${toks.slice(at, at + 2 + Math.floor(r() * 2)).join(' ')}"`, byDate: false },
      { kind: 'field', q: `caseName:${pick(SURNAME_TOKENS)}`, byDate: false },
      { kind: 'filtered', q: mid(), filters: { court: COURT_IDS[Math.floor(Math.pow(r(), 2) * 20)], from: `${y}-01-01`, to: `${y + 4}-12-31` }, byDate: false },
      { kind: 'ordered', q: mid(), byDate: true },
    )
  }
  return out
}
