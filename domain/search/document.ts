/**
 * A search document after analysis: what the indexer produces once per document and what both
 * the in-memory matcher (percolator) and the index rows (streams/search/index-rows.ts `toIndexRows`) read.
 *
 * Input is keyed by storage column (fields.ts `column`). Text fields become token arrays
 * (analyzer.ts); a multi-valued text field (citation[], party[]) is its values' tokens with one
 * empty-string token between values, so a phrase never spans two values (the empty token is
 * never produced by the analyzer, hence never asked for). Other values are indexed as their kind
 * says (field-kinds.ts); null, undefined and '' are absent values.
 */
import { createHash } from 'node:crypto'
import { tokens, tokenCount } from './analyzer.js'
import { FIELD_KINDS } from './field-kinds.js'
import { searchType, type SearchType, type SearchField } from './fields.js'

export const VALUE_GAP = ''

export interface AnalyzedField {
  /** tokens in position order (position = index), VALUE_GAP between values */
  readonly tokens: readonly string[]
  /** token → ascending positions (VALUE_GAP left out) */
  readonly positions: ReadonlyMap<string, readonly number[]>
  /** number of real tokens (BM25 field length) */
  readonly length: number
  /** the field's values as strings (absent ones left out): what `tokens` is cut from */
  readonly sources: readonly string[]
  /** Whether some token starts with `prefix` (a binary search over the distinct tokens, sorted once). */
  hasPrefix(prefix: string): boolean
}

export type FieldValue = string | number | boolean

export interface AnalyzedDoc {
  readonly id: number
  /** by column, every text field of the type (empty when absent) */
  readonly text: Readonly<Record<string, AnalyzedField>>
  /** by column, every non-text field of the type ([] when absent) */
  readonly values: Readonly<Record<string, readonly FieldValue[]>>
  /**
   * The tokens of the type's default fields together (what an unfielded term or prefix reads), so
   * that a percolated alert asks one set instead of each field in turn. Built on first use.
   */
  readonly defaultTokens: ReadonlySet<string>
  /** Whether a token of a default field starts with `prefix`. */
  hasDefaultPrefix(prefix: string): boolean
}

export type SearchDocument = Readonly<Record<string, unknown>> & { readonly id: number }

const list = (v: unknown): unknown[] => (v === null || v === undefined ? [] : Array.isArray(v) ? v : [v])

/**
 * The text of one field: its values, cut into tokens only when something reads them (the
 * matcher, the percolator). The indexer reads `sources` and numbers their tokens itself
 * (analyzer.ts TokenTable), so indexing makes no string per token.
 */
class TextField implements AnalyzedField {
  private toks: string[] | undefined
  private count: number | undefined
  private map: Map<string, number[]> | undefined
  /** `sources`: the field's values as strings, absent ones left out */
  constructor(readonly sources: readonly string[]) {}

  get tokens(): readonly string[] {
    if (this.toks) return this.toks
    if (this.sources.length === 1) return (this.toks = tokens(this.sources[0]))
    const toks: string[] = []
    for (const v of this.sources) {
      const t = tokens(v)
      if (t.length === 0) continue
      if (toks.length) toks.push(VALUE_GAP)
      for (const x of t) toks.push(x)
    }
    return (this.toks = toks)
  }

  get length(): number {
    if (this.count !== undefined) return this.count
    let n = 0
    if (this.toks) for (const t of this.toks) { if (t !== VALUE_GAP) n++ }
    else for (const v of this.sources) n += tokenCount(v)
    return (this.count = n)
  }

  get positions(): ReadonlyMap<string, readonly number[]> {
    if (this.map) return this.map
    const map = new Map<string, number[]>()
    const toks = this.tokens
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i]
      if (t === VALUE_GAP) continue
      const p = map.get(t)
      if (p) p.push(i)
      else map.set(t, [i])
    }
    this.map = map
    return map
  }

  private sorted: string[] | undefined
  hasPrefix(prefix: string): boolean {
    return startsSomeToken((this.sorted ??= [...this.positions.keys()].sort()), prefix)
  }
}

export function analyzeText(values: readonly unknown[]): AnalyzedField {
  if (values.length === 1 && typeof values[0] === 'string') return new TextField(values as readonly string[])
  return new TextField(values.filter((v) => v !== null && v !== undefined && v !== '').map(String))
}

function coerce(field: SearchField, v: unknown): FieldValue | null {
  if (v === null || v === undefined || v === '') return null
  return FIELD_KINDS[field.kind].index(v, field.column)
}

/** Analyzes one search document (keys are columns; unknown keys are ignored). */
export function analyzeDocument(type: SearchType, doc: SearchDocument): AnalyzedDoc {
  const spec = searchType(type)
  const text: Record<string, AnalyzedField> = {}
  const values: Record<string, FieldValue[]> = {}
  for (const f of spec.fields) {
    const raw = f.column === 'id' ? doc.id : doc[f.column]
    if (FIELD_KINDS[f.kind].analyzed) text[f.column] = analyzeText(list(raw))
    else values[f.column] = list(raw).map((v) => coerce(f, v)).filter((v): v is FieldValue => v !== null)
  }
  return new Document(doc.id, text, values, spec.defaults.map((f) => f.column))
}

/**
 * A hash of a document's text fields as the index reads them (48 bits: a safe integer): equal for
 * two versions of a document whose text is the same, so the second needs no postings of its own
 * (TEXT_VERSION_COLUMNS, schemas/internal/search-layout.ts).
 */
export function textHash(type: SearchType, doc: SearchDocument): number {
  const h = createHash('sha1')
  // each value length-prefixed (no two lists hash alike by where their values split); the values
  // go to the hash as they are: a JSON copy of a long opinion cost more than hashing it
  for (const f of searchType(type).textFields) {
    h.update(f.column).update('\u0000')
    for (const v of list(doc[f.column])) {
      const s = typeof v === 'string' ? v : JSON.stringify(v)
      h.update(`${s.length}:`).update(s)
    }
  }
  return parseInt(h.digest('hex').slice(0, 12), 16)
}

class Document implements AnalyzedDoc {
  private defaultSet: Set<string> | undefined
  private sorted: string[] | undefined
  constructor(readonly id: number, readonly text: Record<string, AnalyzedField>, readonly values: Record<string, FieldValue[]>, private readonly defaults: readonly string[]) {}
  get defaultTokens(): ReadonlySet<string> {
    return (this.defaultSet ??= tokenSet(this.defaults.map((c) => this.text[c])))
  }
  hasDefaultPrefix(prefix: string): boolean {
    return startsSomeToken((this.sorted ??= [...this.defaultTokens].sort()), prefix)
  }
}

function tokenSet(fields: readonly AnalyzedField[]): Set<string> {
  const out = new Set<string>()
  for (const f of fields) for (const t of f.tokens) if (t !== VALUE_GAP) out.add(t)
  return out
}

/** The index of the first of the sorted tokens not below `key` (tokens starting with `key` begin there). */
export function firstNotBelow(sorted: readonly string[], key: string): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (sorted[mid] < key) lo = mid + 1; else hi = mid }
  return lo
}

/** Whether one of the sorted distinct tokens starts with `prefix`: only the first not below it can. */
function startsSomeToken(sorted: readonly string[], prefix: string): boolean {
  const at = firstNotBelow(sorted, prefix)
  return at < sorted.length && sorted[at].startsWith(prefix)
}
