/**
 * A stored search result (what the indexer keeps per document) as the v4 search API shows it:
 * `meta` with the index time, the creation time and the BM25 score; `snippet` cut from the text
 * (`_text` in the stored object); the reference's highlighted fields wrapped in `<mark>` when
 * highlighting is on; nested children (`opinions`, `archive_documents`, `positions`) with their
 * own `meta`. For type r only the documents matching the query ride along (three at most, or 99
 * when the query names a docket), and `meta.more_docs` says whether more matched.
 */
import type { Node } from './ast.js'
import { leaves } from './ast.js'
import type { SearchType } from './fields.js'
import type { Highlighter } from './highlight.js'

type Row = Record<string, unknown>

/** Fields the reference highlights. */
const HIGHLIGHTED = new Set(['caseName', 'docketNumber', 'suitNature', 'cause', 'juryDemand', 'assignedTo', 'referredTo', 'court_citation_string', 'judge', 'name', 'dob_city', 'dob_state_id', 'description', 'short_description'])
const NESTED: Partial<Record<SearchType, string>> = { o: 'opinions', r: 'archive_documents', p: 'positions' }
/** Children of an r result shown by default, and when the query names one docket. */
const CHILDREN = 3
const CHILDREN_OF_ONE_DOCKET = 99
/** Nested opinions shown at most. */
const MAX_OPINIONS = 20

export interface PresentOptions {
  type: SearchType
  score: number
  timestamp: string
  dateCreated: string | null
  highlighter: Highlighter
  highlight: boolean
  /** the query (`q`) alone: children of r are those its words match */
  query: Node
}

/** Datetimes as the search API shows them in meta: ISO with Z. */
const asZ = (v: string | null) => (v ? new Date(v.includes('T') || v.includes('Z') ? v : `${v.replace(' ', 'T')}Z`).toISOString().replace('.000Z', 'Z') : null)

function marked(row: Row, h: Highlighter, on: boolean): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) {
    if (k === '_text' || k === '_created') continue
    out[k] = on && HIGHLIGHTED.has(k) && typeof v === 'string' ? h.mark(v) : v
  }
  if ('_text' in row) out.snippet = h.snippet(String(row._text ?? ''), on)
  return out
}

/** The query names a docket (`docket_id:N`): all of its documents are shown. */
const namesDocket = (q: Node) => leaves(q).some(({ leaf }) => leaf.kind === 'value' && leaf.field === 'docket_id')
const hasWords = (q: Node) => leaves(q).some(({ leaf, negated }) => !negated && (leaf.kind === 'term' || leaf.kind === 'phrase' || leaf.kind === 'prefix'))

export function presentResult(stored: Row, o: PresentOptions): Row {
  const { highlighter: h, highlight: on } = o
  const out = marked(stored, h, on)
  const nestedKey = NESTED[o.type]
  const childMeta = (c: Row) => ({ timestamp: asZ(o.timestamp), date_created: asZ((c._created as string | null) ?? o.dateCreated) })
  let moreDocs: boolean | undefined
  if (nestedKey && Array.isArray(stored[nestedKey])) {
    let children = stored[nestedKey] as Row[]
    if (o.type === 'r') {
      const matching = hasWords(o.query)
        ? children.filter((c) => h.matches([c.description, c.short_description, c._text].map((x) => String(x ?? '')).join(' ')))
        : children
      const limit = namesDocket(o.query) ? CHILDREN_OF_ONE_DOCKET : CHILDREN
      moreDocs = matching.length > limit
      children = matching.slice(0, limit)
    } else if (o.type === 'o') {
      children = children.slice(0, MAX_OPINIONS)
    }
    out[nestedKey] = children.map((c) => ({ ...marked(c, h, on), meta: childMeta(c) }))
  }
  const meta: Row = { timestamp: asZ(o.timestamp), date_created: asZ(o.dateCreated), score: { bm25: o.score } }
  if (o.type === 'r') meta.more_docs = moreDocs ?? false
  out.meta = meta
  return out
}
