/**
 * Stored queries indexed for percolation: which of many queries (search alerts) does one new
 * document match? Each query is filed under its anchors (request.ts anchorTokens: a matching
 * document holds at least one of them): a token of the default fields, a token of one field (a
 * fielded term or phrase), or a prefix (an unfielded prefix query, found from each prefix of the
 * document's words). A document is tried only against the queries filed under its words, plus the
 * few with no anchor (filters only, negations). Queries that are nothing but their anchors (an
 * unfielded term, prefix, or an OR of them) are taken without running their matcher. A batch of
 * documents is matched at once by `matchBatch` (percolate-batch.ts).
 */
import type { Node } from './ast.js'
import { searchType, type SearchType } from './fields.js'
import type { AnalyzedDoc } from './document.js'
import type { Matcher } from './matcher.js'
import { anchorTokens, FIELD_ANCHOR, PREFIX_ANCHOR } from './request.js'
import { fieldOf } from './matcher.js'
import { BatchIndex, BATCH, compileBits, forEachBit, type BitsQuery } from './percolate-batch.js'

export interface StoredQuery { readonly id: number; readonly type: SearchType; readonly ast: Node; readonly matches: Matcher }

/** A stored query with the number of the last document it was tried on (no per-document candidate set). */
interface Entry<Q> { readonly q: Q; readonly anchors: Set<string> | null; readonly exact: boolean; readonly bits: BitsQuery; tried: number }

/**
 * Whether holding an anchor in a default field is the whole of the query (an unfielded term or
 * prefix, or an OR of them): such queries are filed apart, found from the document's default
 * tokens and taken without running their matcher.
 */
function anchorIsMatch(n: Node): boolean {
  if (n.kind === 'term' || n.kind === 'prefix') return n.field === null
  return n.kind === 'or' && n.children.every(anchorIsMatch)
}

/**
 * Per search type: queries by anchor token, by token of one field (a fielded term or phrase is
 * tried only when that field holds it), unfielded prefix queries by their prefix (with the prefix
 * lengths in use, so a document's tokens are cut only at those), and the unanchored ones.
 */
interface Anchors<Q> {
  byToken: Map<string, Set<Entry<Q>>>
  byField: Map<string, Map<string, Set<Entry<Q>>>>
  byPrefix: Map<string, Set<Entry<Q>>>
  prefixLengths: Map<number, number>
}
interface Slot<Q> { verified: Anchors<Q>; exact: Anchors<Q>; unanchored: Set<Entry<Q>> }

const anchors = <Q>(): Anchors<Q> => ({ byToken: new Map(), byField: new Map(), byPrefix: new Map(), prefixLengths: new Map() })

/** The sets of queries filed under token `t` and under its prefixes at the lengths in use. */
function filedUnder<Q>(a: Anchors<Q>, t: string, prefixLengths: readonly number[], visit: (entries: Set<Entry<Q>> | undefined) => void): void {
  visit(a.byToken.get(t))
  for (const k of prefixLengths) if (k <= t.length) visit(a.byPrefix.get(k === t.length ? t : t.slice(0, k)))
}

export interface QueryIndex<Q extends StoredQuery> {
  add(q: Q): void
  remove(id: number): void
  get(id: number): Q | undefined
  /** The stored queries of the document's type that it matches. */
  match(type: SearchType, doc: AnalyzedDoc): Q[]
  /** For each document (all of this type), the stored queries it matches: a batch at a time, much cheaper per document. */
  matchBatch(type: SearchType, docs: readonly AnalyzedDoc[]): Q[][]
  readonly size: number
}

export function createQueryIndex<Q extends StoredQuery>(): QueryIndex<Q> {
  const queries = new Map<number, Entry<Q>>()
  const slots = new Map<SearchType, Slot<Q>>()
  const slot = (type: SearchType) => {
    let s = slots.get(type)
    if (!s) slots.set(type, (s = { verified: anchors(), exact: anchors(), unanchored: new Set() }))
    return s
  }
  const file = (map: Map<string, Set<Entry<Q>>>, key: string, e: Entry<Q>) => {
    let set = map.get(key)
    if (!set) map.set(key, (set = new Set()))
    set.add(e)
  }
  const unfile = (map: Map<string, Set<Entry<Q>>>, key: string, e: Entry<Q>) => {
    const set = map.get(key)
    set?.delete(e)
    if (set && !set.size) map.delete(key)
  }
  const mapOf = (byField: Anchors<Q>['byField'], column: string) => {
    let m = byField.get(column)
    if (!m) byField.set(column, (m = new Map()))
    return m
  }
  /** A field anchor's column and token. */
  const fielded = (type: SearchType, anchor: string): [string, string] => {
    const end = anchor.indexOf(FIELD_ANCHOR, 1)
    return [fieldOf(searchType(type), anchor.slice(1, end)).column, anchor.slice(end + 1)]
  }
  let documents = 0
  const index: QueryIndex<Q> = {
    add(q) {
      index.remove(q.id)
      const e: Entry<Q> = { q, anchors: anchorTokens(q.ast), exact: anchorIsMatch(q.ast), bits: compileBits(q.ast, q.type), tried: 0 }
      queries.set(q.id, e)
      const slotOf = slot(q.type)
      if (!e.anchors) { slotOf.unanchored.add(e); return }
      const s = e.exact ? slotOf.exact : slotOf.verified
      for (const t of e.anchors) {
        if (t.startsWith(FIELD_ANCHOR)) { const [column, token] = fielded(q.type, t); file(mapOf(s.byField, column), token, e); continue }
        if (!t.startsWith(PREFIX_ANCHOR)) { file(s.byToken, t, e); continue }
        const prefix = t.slice(PREFIX_ANCHOR.length)
        file(s.byPrefix, prefix, e)
        s.prefixLengths.set(prefix.length, (s.prefixLengths.get(prefix.length) ?? 0) + 1)
      }
    },
    remove(id) {
      const e = queries.get(id)
      if (!e) return
      queries.delete(id)
      const slotOf = slot(e.q.type)
      if (!e.anchors) { slotOf.unanchored.delete(e); return }
      const s = e.exact ? slotOf.exact : slotOf.verified
      for (const t of e.anchors) {
        if (t.startsWith(FIELD_ANCHOR)) {
          const [column, token] = fielded(e.q.type, t)
          const byToken = mapOf(s.byField, column)
          unfile(byToken, token, e)
          if (!byToken.size) s.byField.delete(column)
          continue
        }
        if (!t.startsWith(PREFIX_ANCHOR)) { unfile(s.byToken, t, e); continue }
        const prefix = t.slice(PREFIX_ANCHOR.length)
        unfile(s.byPrefix, prefix, e)
        const left = (s.prefixLengths.get(prefix.length) ?? 1) - 1
        if (left) s.prefixLengths.set(prefix.length, left)
        else s.prefixLengths.delete(prefix.length)
      }
    },
    get: (id) => queries.get(id)?.q,
    match(type, doc) {
      const s = slots.get(type)
      if (!s) return []
      const stamp = ++documents
      const out: Q[] = []
      const take = (entries: Set<Entry<Q>> | undefined, verify: boolean) => {
        if (!entries) return
        for (const e of entries) {
          if (e.tried === stamp) continue
          e.tried = stamp
          if (!verify || e.q.matches(doc)) out.push(e.q)
        }
      }
      // Queries filed under a token of the default fields (an unfielded anchor is held there by any
      // match), under a prefix of it, or under a token of one field. A token met again finds only
      // queries already tried (their stamp): cheaper than a set of distinct tokens.
      const exactLengths = [...s.exact.prefixLengths.keys()]
      const verifiedLengths = [...s.verified.prefixLengths.keys()]
      for (const f of searchType(type).defaults) {
        for (const t of doc.text[f.column]?.tokens ?? []) {
          filedUnder(s.exact, t, exactLengths, (e) => take(e, false))
          filedUnder(s.verified, t, verifiedLengths, (e) => take(e, true))
        }
      }
      for (const a of [s.exact, s.verified]) {
        for (const [column, queries] of a.byField) for (const t of doc.text[column]?.tokens ?? []) take(queries.get(t), a === s.verified)
      }
      take(s.unanchored, true)
      return out
    },
    matchBatch(type, docs) {
      const out = docs.map(() => [] as Q[])
      const s = slots.get(type)
      if (!s) return out
      const spec = searchType(type)
      for (let start = 0; start < docs.length; start += BATCH) {
        const b = new BatchIndex(docs.slice(start, start + BATCH), spec)
        // The queries filed under the batch's words, each once; then each evaluated once for the whole batch.
        const stamp = ++documents
        const candidates: Entry<Q>[] = []
        const collect = (entries: Set<Entry<Q>> | undefined) => {
          if (entries) for (const e of entries) if (e.tried !== stamp) { e.tried = stamp; candidates.push(e) }
        }
        for (const a of [s.exact, s.verified]) {
          const lengths = [...a.prefixLengths.keys()]
          for (const t of b.defaultTokens.keys()) filedUnder(a, t, lengths, collect)
          for (const [column, byToken] of a.byField) for (const t of b.columnTokens(column)) collect(byToken.get(t))
        }
        collect(s.unanchored)
        for (const e of candidates) {
          const bits = e.bits(b)
          if (bits) forEachBit(bits, (i) => out[start + i].push(e.q))
        }
      }
      return out
    },
    get size() { return queries.size },
  }
  return index
}
