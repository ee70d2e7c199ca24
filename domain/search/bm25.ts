/**
 * BM25 as Lucene computes it (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)), df at most N),
 * with the query model of this service, chosen so that it is a weighted sum over postings and
 * phrase occurrences:
 *
 *   score(doc) = Σ over (field f, token t) pairs of the query's terms: w(f, t) · tfNorm(tf, dl)
 *              + Σ over its phrases P and their fields f where P occurs: wP(f) · tfNorm(freq, dl)
 *   tfNorm(x, dl) = x·(k1+1) / (x + k1·(1 − b + b·dl/avgdl(f)))
 *   w(f, t)    = Σ over the term leaves that ask t in f: boost(f) · idf(f, t)
 *   wP(f)      = boost(f) · Σ over P's tokens t: idf(f, t)
 *
 * - scoring leaves: terms, phrases and proximity groups not under a NOT; prefixes, keyword, date,
 *   int and bool clauses filter and do not score (Lucene's constant-score rewrite, with constant 0);
 * - a phrase scores as Lucene's PhraseQuery does: by its frequency in a field (freq: how many
 *   times it occurs there; a proximity group, how many of its tokens' positions start a window
 *   holding all of them, matcher.ts windowCount) and the sum of its tokens' idf, in each field
 *   where it occurs. So a phrase is scored from the occurrences that match it, and its words'
 *   postings elsewhere (a common word's: nearly every document) are never read for it;
 * - an unfielded term scores in every default field where it occurs (Elasticsearch's
 *   most_fields), each field with its boost (caseName 4, text 1: fields.ts);
 * - statistics (N, avgdl per field, df per field and token) are those of the searched tables at
 *   query time (statsSql in query-sql.ts); ties are broken by id.
 */
import { leaves, type Node } from './ast.js'
import type { AnalyzedDoc } from './document.js'
import { searchType, type SearchType, type SearchTypeSpec } from './fields.js'
import { phraseCount, textFieldsOf, windowCount } from './matcher.js'

export const K1 = 1.2
export const B = 0.75

/**
 * Never negative: df is counted over the postings of every indexed version (statsSql), so for a
 * word in nearly every document of a corpus whose documents were indexed again (a cluster when its
 * opinions change) it can exceed N; it counts as N then (before, such a word's score was negative,
 * and the documents holding it most ranked last).
 */
export const idf = (n: number, df: number): number => { const d = Math.min(df, n); return Math.log(1 + (n - d + 0.5) / (d + 0.5)) }
export const tfNorm = (tf: number, dl: number, avgdl: number): number =>
  tf === 0 ? 0 : (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * dl) / (avgdl || 1)))

type PhraseLeaf = Extract<Node, { kind: 'phrase' }>

export interface ScoringPlan {
  /** distinct (column, token) pairs that term leaves score, with the boost summed over the leaves asking them */
  readonly terms: readonly { column: string; token: string; key: string; boost: number }[]
  /** phrase and proximity leaves that score, with the fields they score in */
  readonly phrases: readonly { leaf: PhraseLeaf; fields: readonly { column: string; boost: number }[] }[]
  /** every (column, token) pair whose document frequency the weights need: the terms' and the phrases' tokens */
  readonly keys: readonly { column: string; token: string; key: string }[]
  /** text columns whose average length is needed */
  readonly columns: readonly string[]
}

/** The statistics a BM25 query needs, as statsSql (query-sql.ts) returns them. */
export interface SearchStats {
  readonly n: number
  readonly avgdl: Readonly<Record<string, number>>
  readonly df: Readonly<Record<string, number>>
}

export const dfKey = (column: string, token: string): string => `${column}:${token}`

export function scoringPlan(ast: Node, spec: SearchTypeSpec): ScoringPlan {
  const terms = new Map<string, { column: string; token: string; key: string; boost: number }>()
  const phrases: { leaf: PhraseLeaf; fields: { column: string; boost: number }[] }[] = []
  const keys = new Map<string, { column: string; token: string; key: string }>()
  const need = (column: string, token: string) => { const key = dfKey(column, token); if (!keys.has(key)) keys.set(key, { column, token, key }); return key }
  for (const { leaf, negated } of leaves(ast)) {
    if (negated) continue
    if (leaf.kind === 'term') {
      for (const f of textFieldsOf(spec, leaf.field)) {
        const key = need(f.column, leaf.token)
        const e = terms.get(key)
        if (e) e.boost += f.boost
        else terms.set(key, { column: f.column, token: leaf.token, key, boost: f.boost })
      }
    } else if (leaf.kind === 'phrase') {
      const fields = textFieldsOf(spec, leaf.field).map((f) => ({ column: f.column, boost: f.boost }))
      for (const f of fields) for (const t of leaf.tokens) need(f.column, t)
      phrases.push({ leaf, fields })
    }
  }
  const list = [...keys.values()]
  return { terms: [...terms.values()], phrases, keys: list, columns: [...new Set(list.map((k) => k.column))] }
}

/** Does the query score at all (a term or phrase not under a NOT)? */
export const scores = (plan: ScoringPlan): boolean => plan.terms.length > 0 || plan.phrases.length > 0

/** The weight of each term's scoring pair: boost · idf. */
export function weights(plan: ScoringPlan, stats: SearchStats): Map<string, number> {
  return new Map(plan.terms.map((t) => [t.key, t.boost * idf(stats.n, stats.df[t.key] ?? 0)]))
}

/** A phrase's weight in each of its fields: boost · Σ idf of its tokens there. */
export function phraseWeights(phrase: ScoringPlan['phrases'][number], stats: SearchStats): Map<string, number> {
  return new Map(phrase.fields.map((f) => [f.column,
    f.boost * phrase.leaf.tokens.reduce((sum, t) => sum + idf(stats.n, stats.df[dfKey(f.column, t)] ?? 0), 0)]))
}

/** The BM25 score of one analyzed document, computed in memory (the reference for the SQL). */
export function scoreDocument(ast: Node, type: SearchType, doc: AnalyzedDoc, stats: SearchStats): number {
  const spec = searchType(type)
  const plan = scoringPlan(ast, spec)
  const w = weights(plan, stats)
  // which (column, token) postings the query's terms and prefixes read for this document (text-sql.ts reads the same)
  const read = new Set<string>()
  for (const { leaf } of leaves(ast)) {
    if (leaf.kind !== 'term' && leaf.kind !== 'prefix') continue
    const fields = textFieldsOf(spec, leaf.field)
    if (fields.some((f) => f.kind !== 'text')) continue
    if (leaf.kind === 'term') for (const f of fields) read.add(dfKey(f.column, leaf.token))
    else for (const f of fields) for (const t of doc.text[f.column]?.positions.keys() ?? []) if (t.startsWith(leaf.prefix)) read.add(dfKey(f.column, t))
  }
  let score = 0
  for (const t of plan.terms) {
    if (!read.has(t.key)) continue
    const field = doc.text[t.column]
    const tf = field?.positions.get(t.token)?.length ?? 0
    if (tf) score += (w.get(t.key) ?? 0) * tfNorm(tf, field.length, stats.avgdl[t.column] || 1)
  }
  for (const phrase of plan.phrases) {
    const pw = phraseWeights(phrase, stats)
    const { tokens, slop } = phrase.leaf
    for (const { column } of phrase.fields) {
      const field = doc.text[column]
      if (!field) continue
      const freq = slop === undefined ? phraseCount(field, tokens) : windowCount(field, tokens, slop + tokens.length - 1)
      if (freq) score += (pw.get(column) ?? 0) * tfNorm(freq, field.length, stats.avgdl[column] || 1)
    }
  }
  return score
}
