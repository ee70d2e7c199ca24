/**
 * BM25 as Lucene computes it (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5))),
 * with the query model of this service, chosen so that it is one weighted sum over postings:
 *
 *   score(doc) = Σ over (field f, token t) pairs of the query: w(f, t) · tf·(k1+1) / (tf + k1·(1 − b + b·dl/avgdl(f)))
 *   w(f, t)    = Σ over the scoring leaves that ask t in f: boost(f) · idf(f, t)
 *
 * - scoring leaves: terms, phrases and proximity groups not under a NOT (each token of a phrase
 *   scores as a term: phrase frequency is not computed); prefixes, keyword, date, int and bool
 *   clauses filter and do not score (Lucene's constant-score rewrite, with constant 0);
 * - a phrase's (or proximity group's) tokens score only in the documents it matches;
 * - an unfielded term scores in every default field where it occurs (Elasticsearch's
 *   most_fields), each field with its boost (caseName 4, text 1: fields.ts);
 * - statistics (N, avgdl per field, df per field and token) are those of the searched tables at
 *   query time (statsSql in to-sql.ts); ties are broken by id.
 */
import { leaves, type Node } from './ast.js'
import type { AnalyzedDoc } from './document.js'
import { searchType, type SearchType, type SearchTypeSpec } from './fields.js'
import { compileMatcher, textFieldsOf } from './matcher.js'

export const K1 = 1.2
export const B = 0.75

export const idf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5))
export const tfNorm = (tf: number, dl: number, avgdl: number): number =>
  tf === 0 ? 0 : (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * dl) / (avgdl || 1)))

export interface ScoringPlan {
  /** distinct (column, token) pairs that score, with the boost summed over the leaves asking them */
  readonly terms: readonly { column: string; token: string; key: string; boost: number }[]
  /** text columns whose average length is needed */
  readonly columns: readonly string[]
}

/** The statistics a BM25 query needs, as statsSql (to-sql.ts) returns them. */
export interface SearchStats {
  readonly n: number
  readonly avgdl: Readonly<Record<string, number>>
  readonly df: Readonly<Record<string, number>>
}

export const dfKey = (column: string, token: string): string => `${column}:${token}`

export function scoringPlan(ast: Node, spec: SearchTypeSpec): ScoringPlan {
  const terms = new Map<string, { column: string; token: string; key: string; boost: number }>()
  for (const { leaf, negated } of leaves(ast)) {
    if (negated || (leaf.kind !== 'term' && leaf.kind !== 'phrase')) continue
    const toks = leaf.kind === 'term' ? [leaf.token] : leaf.tokens
    for (const f of textFieldsOf(spec, leaf.field)) {
      for (const t of toks) {
        const key = dfKey(f.column, t)
        const e = terms.get(key)
        if (e) e.boost += f.boost
        else terms.set(key, { column: f.column, token: t, key, boost: f.boost })
      }
    }
  }
  const list = [...terms.values()]
  return { terms: list, columns: [...new Set(list.map((t) => t.column))] }
}

/** The weight of each scoring pair: boost · idf. */
export function weights(plan: ScoringPlan, stats: SearchStats): Map<string, number> {
  return new Map(plan.terms.map((t) => [t.key, t.boost * idf(stats.n, stats.df[t.key] ?? 0)]))
}

/** The BM25 score of one analyzed document, computed in memory (the reference for the SQL). */
export function scoreDocument(ast: Node, type: SearchType, doc: AnalyzedDoc, stats: SearchStats): number {
  const spec = searchType(type)
  const plan = scoringPlan(ast, spec)
  const w = weights(plan, stats)
  // which (column, token) postings the query reads for this document (to-sql.ts reads the same)
  const read = new Set<string>()
  for (const { leaf } of leaves(ast)) {
    if (leaf.kind !== 'term' && leaf.kind !== 'phrase' && leaf.kind !== 'prefix') continue
    const fields = textFieldsOf(spec, leaf.field)
    if (fields.some((f) => f.kind !== 'text')) continue
    if (leaf.kind === 'term') for (const f of fields) read.add(dfKey(f.column, leaf.token))
    else if (leaf.kind === 'phrase') {
      if (!compileMatcher(leaf, type)(doc)) continue
      for (const f of fields) for (const t of leaf.tokens) read.add(dfKey(f.column, t))
    } else {
      for (const f of fields) for (const t of doc.text[f.column]?.positions.keys() ?? []) if (t.startsWith(leaf.prefix)) read.add(dfKey(f.column, t))
    }
  }
  let score = 0
  for (const t of plan.terms) {
    if (!read.has(t.key)) continue
    const field = doc.text[t.column]
    const tf = field?.positions.get(t.token)?.length ?? 0
    if (tf) score += (w.get(t.key) ?? 0) * tfNorm(tf, field.length, stats.avgdl[t.column] || 1)
  }
  return score
}
