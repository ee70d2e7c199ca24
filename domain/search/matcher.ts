/**
 * The in-memory matcher: an AST compiled once into a closure over AnalyzedDoc. It is the
 * percolator of stored alerts, so all field resolution happens at compile time and a call does
 * map look-ups and array reads only (no regex, no allocation on the hot path but proximity).
 *
 * Semantics (the ClickHouse side, query-sql.ts and text-sql.ts, implements the same ones):
 * - term: the token is in one of the fields (the type's default text fields when unfielded);
 * - phrase: in one field, tokens at positions p, p+1, …;
 * - proximity "t1 … tk"~n (distinct tokens): in one field, a window of positions [s, s+n+k-1]
 *   holds every ti (at most n other positions inside the window);
 * - prefix: some token (text) or value (keyword) of the field starts with the prefix;
 * - value/range: some value of the field equals / lies within the bounds (an absent value
 *   matches nothing, so NOT matches it);
 * - and / or / not / all / none as in logic.
 */
import type { Node } from './ast.js'
import type { AnalyzedDoc, AnalyzedField, FieldValue } from './document.js'
import { searchType, type SearchField, type SearchType, type SearchTypeSpec } from './fields.js'

export type Matcher = (doc: AnalyzedDoc) => boolean

/** The text fields a leaf reads: its field, or the type's default text fields. */
export function textFieldsOf(spec: SearchTypeSpec, field: string | null): readonly SearchField[] {
  if (field === null) return spec.defaults
  const f = spec.byName.get(field)
  if (!f) throw new Error(`search type ${spec.type} has no field ${field}`)
  return [f]
}

export function fieldOf(spec: SearchTypeSpec, field: string): SearchField {
  const f = spec.byName.get(field)
  if (!f) throw new Error(`search type ${spec.type} has no field ${field}`)
  return f
}

const EMPTY: AnalyzedField = { tokens: [], positions: new Map(), length: 0, sources: [], hasPrefix: () => false }

export function phraseAt(f: AnalyzedField, toks: readonly string[]): boolean {
  const first = f.positions.get(toks[0])
  if (!first) return false
  for (let k = 1; k < toks.length; k++) if (!f.positions.has(toks[k])) return false
  const all = f.tokens
  outer: for (const p of first) {
    for (let k = 1; k < toks.length; k++) if (all[p + k] !== toks[k]) continue outer
    return true
  }
  return false
}

/**
 * How often the phrase occurs in the field: the start positions where its tokens follow each
 * other (the phrase frequency a phrase scores with, bm25.ts; text-sql.ts counts the same).
 */
export function phraseCount(f: AnalyzedField, toks: readonly string[]): number {
  const first = f.positions.get(toks[0])
  if (!first) return 0
  for (let k = 1; k < toks.length; k++) if (!f.positions.has(toks[k])) return 0
  const all = f.tokens
  let n = 0
  outer: for (const p of first) {
    for (let k = 1; k < toks.length; k++) if (all[p + k] !== toks[k]) continue outer
    n++
  }
  return n
}

/** Some position of `sorted` (ascending) lies in [lo, hi]. */
function anyWithin(sorted: readonly number[], lo: number, hi: number): boolean {
  let a = 0
  let b = sorted.length
  while (a < b) { const m = (a + b) >> 1; if (sorted[m] < lo) a = m + 1; else b = m }
  return a < sorted.length && sorted[a] <= hi
}

/**
 * How often a proximity group occurs in the field: the positions p of its tokens (each token's
 * list in the group's order, a repeated token's list as often as it is repeated) whose window
 * [p, p + width] holds every token. Zero exactly when withinWindow is false.
 */
export function windowCount(f: AnalyzedField, toks: readonly string[], width: number): number {
  const lists: (readonly number[])[] = []
  for (const t of toks) {
    const p = f.positions.get(t)
    if (!p) return 0
    lists.push(p)
  }
  let n = 0
  for (const list of lists) for (const p of list) if (lists.every((l) => anyWithin(l, p, p + width))) n++
  return n
}

/** Some window [s, s + width] (s the position of one of the tokens) holds every token. */
export function withinWindow(f: AnalyzedField, toks: readonly string[], width: number): boolean {
  const lists: (readonly number[])[] = []
  for (const t of toks) {
    const p = f.positions.get(t)
    if (!p) return false
    lists.push(p)
  }
  // the smallest window covering one position of each list, by k pointers
  const idx = new Array<number>(lists.length).fill(0)
  for (;;) {
    let min = Infinity
    let max = -Infinity
    let minList = 0
    for (let i = 0; i < lists.length; i++) {
      const v = lists[i][idx[i]]
      if (v < min) { min = v; minList = i }
      if (v > max) max = v
    }
    if (max - min <= width) return true
    idx[minList]++
    if (idx[minList] >= lists[minList].length) return false
  }
}

function cmp(a: FieldValue, b: FieldValue): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compile(node: Node, spec: SearchTypeSpec): Matcher {
  switch (node.kind) {
    case 'all': return () => true
    case 'none': return () => false
    case 'term': {
      const cols = textFieldsOf(spec, node.field).map((f) => f.column)
      const t = node.token
      if (node.field === null) return (d) => d.defaultTokens.has(t)
      if (cols.length === 1) { const c = cols[0]; return (d) => (d.text[c] ?? EMPTY).positions.has(t) }
      return (d) => { for (const c of cols) if ((d.text[c] ?? EMPTY).positions.has(t)) return true; return false }
    }
    case 'phrase': {
      const cols = textFieldsOf(spec, node.field).map((f) => f.column)
      const toks = node.tokens
      if (node.slop === undefined) return (d) => { for (const c of cols) if (phraseAt(d.text[c] ?? EMPTY, toks)) return true; return false }
      const width = node.slop + toks.length - 1
      return (d) => { for (const c of cols) if (withinWindow(d.text[c] ?? EMPTY, toks, width)) return true; return false }
    }
    case 'prefix': {
      const p = node.prefix
      if (node.field !== null && fieldOf(spec, node.field).kind === 'keyword') {
        const c = fieldOf(spec, node.field).column
        return (d) => (d.values[c] ?? []).some((v) => typeof v === 'string' && v.startsWith(p))
      }
      if (node.field === null) return (d) => d.hasDefaultPrefix(p)
      const cols = textFieldsOf(spec, node.field).map((f) => f.column)
      return (d) => { for (const c of cols) if ((d.text[c] ?? EMPTY).hasPrefix(p)) return true; return false }
    }
    case 'value': {
      const c = fieldOf(spec, node.field).column
      const v = node.value
      return (d) => (d.values[c] ?? []).includes(v)
    }
    case 'range': {
      const c = fieldOf(spec, node.field).column
      const { lower, upper, includeLower, includeUpper } = node
      const ok = (v: FieldValue) =>
        (lower === null || (includeLower ? cmp(v, lower) >= 0 : cmp(v, lower) > 0)) &&
        (upper === null || (includeUpper ? cmp(v, upper) <= 0 : cmp(v, upper) < 0))
      return (d) => (d.values[c] ?? []).some(ok)
    }
    case 'and': {
      const parts = node.children.map((c) => compile(c, spec))
      return (d) => { for (const m of parts) if (!m(d)) return false; return true }
    }
    case 'or': {
      const parts = node.children.map((c) => compile(c, spec))
      return (d) => { for (const m of parts) if (m(d)) return true; return false }
    }
    case 'not': {
      const m = compile(node.child, spec)
      return (d) => !m(d)
    }
  }
}

/** Compiles a parsed query for a search type into a predicate over analyzed documents. */
export function compileMatcher(ast: Node, type: SearchType): Matcher {
  return compile(ast, searchType(type))
}
