/**
 * Stored queries indexed for percolation: which of many queries (search alerts) does one new
 * document match? Each query is filed under its anchor tokens (request.ts anchorTokens: a matching
 * document holds at least one of them), so a document is tried only against queries filed under
 * one of its words (an unfielded prefix query under its prefix, found from each prefix of the
 * document's words), plus the few with no anchor (filters only, negations); the matcher decides.
 * With 100,000 queries a document is tried against a few hundred instead of all of them.
 */
import type { Node } from './ast.js'
import type { SearchType } from './fields.js'
import type { AnalyzedDoc } from './document.js'
import type { Matcher } from './matcher.js'
import { anchorTokens, PREFIX_ANCHOR } from './request.js'

export interface StoredQuery { readonly id: number; readonly type: SearchType; readonly ast: Node; readonly matches: Matcher }

interface Slot { byToken: Map<string, Set<number>>; unanchored: Set<number>; prefixes: number; longestPrefix: number }

export interface QueryIndex<Q extends StoredQuery> {
  add(q: Q): void
  remove(id: number): void
  get(id: number): Q | undefined
  /** The stored queries of the document's type that it matches. */
  match(type: SearchType, doc: AnalyzedDoc): Q[]
  readonly size: number
}

/** Tokens of every text field of a document, each once. */
export function documentTokens(doc: AnalyzedDoc): Set<string> {
  const out = new Set<string>()
  for (const f of Object.values(doc.text)) for (const t of f.tokens) if (t) out.add(t)
  return out
}

export function createQueryIndex<Q extends StoredQuery>(): QueryIndex<Q> {
  const queries = new Map<number, { q: Q; anchors: Set<string> | null }>()
  const slots = new Map<SearchType, Slot>()
  const slot = (type: SearchType) => {
    let s = slots.get(type)
    if (!s) slots.set(type, (s = { byToken: new Map(), unanchored: new Set(), prefixes: 0, longestPrefix: 0 }))
    return s
  }
  const index: QueryIndex<Q> = {
    add(q) {
      index.remove(q.id)
      const anchors = anchorTokens(q.ast)
      queries.set(q.id, { q, anchors })
      const s = slot(q.type)
      if (!anchors) { s.unanchored.add(q.id); return }
      for (const t of anchors) {
        if (t.startsWith(PREFIX_ANCHOR)) { s.prefixes++; s.longestPrefix = Math.max(s.longestPrefix, t.length - 1) }
        let set = s.byToken.get(t)
        if (!set) s.byToken.set(t, (set = new Set()))
        set.add(q.id)
      }
    },
    remove(id) {
      const e = queries.get(id)
      if (!e) return
      queries.delete(id)
      const s = slot(e.q.type)
      if (!e.anchors) { s.unanchored.delete(id); return }
      for (const t of e.anchors) {
        if (t.startsWith(PREFIX_ANCHOR)) s.prefixes--
        const set = s.byToken.get(t)
        set?.delete(id)
        if (set && !set.size) s.byToken.delete(t)
      }
    },
    get: (id) => queries.get(id)?.q,
    match(type, doc) {
      const s = slots.get(type)
      if (!s) return []
      const candidates = new Set(s.unanchored)
      const add = (key: string) => { const ids = s.byToken.get(key); if (ids) for (const id of ids) candidates.add(id) }
      for (const t of documentTokens(doc)) {
        add(t)
        // Prefix queries are filed under their prefix: try each prefix of the token.
        if (s.prefixes > 0) for (let k = Math.min(t.length, s.longestPrefix); k >= 1; k--) add(PREFIX_ANCHOR + t.slice(0, k))
      }
      const out: Q[] = []
      for (const id of candidates) { const q = queries.get(id)?.q; if (q && q.matches(doc)) out.push(q) }
      return out
    },
    get size() { return queries.size },
  }
  return index
}
