/**
 * Pure parts of the citation network: which text of an opinion to read, the edges its
 * citations make, and html_with_citations with links to the cited clusters.
 */
import { createHash } from 'node:crypto'
import { edgeId } from './edges.js'

export { edgeId }

/** The text fields in the order the reference prefers them when building html_with_citations. */
const HTML_SOURCES = ['html_partner_a', 'html_partner_b', 'xml_partner_c', 'html_anon_2020', 'html'] as const

export function sourceText(opinion: Record<string, unknown>): { text: string; html: boolean } {
  for (const f of HTML_SOURCES) {
    const v = opinion[f]
    if (typeof v === 'string' && v.trim()) return { text: v, html: true }
  }
  const plain = opinion.plain_text
  return { text: typeof plain === 'string' ? plain : '', html: false }
}

export const textHash = (s: string) => createHash('sha1').update(s).digest('hex')


export interface ResolvedCite {
  start: number; end: number; matchedText: string; key: string
  /** Clusters the citation matched (0 unresolved, 1 unique, several ambiguous). */
  clusters: number[]
}

export interface Edge { id: number; citing_opinion_id: number; cited_opinion_id: number; cited_cluster_id: number; depth: number; matched_text: string; match_status: 'unique' | 'ambiguous'; candidates: number }

/**
 * Edges of one citing opinion: one per cited opinion, depth = times cited. A citation matching
 * several clusters links to each, marked ambiguous; a cluster without a known opinion, or a
 * citation of the opinion's own cluster, makes no edge.
 */
export function buildEdges(citing: number, ownCluster: number | null, cites: ResolvedCite[], opinionOfCluster: Map<number, number>): { edges: Edge[]; unresolved: string[]; citedClusters: number[] } {
  const edges = new Map<number, Edge>()
  const unresolved = new Set<string>()
  const unique = new Set<number>()
  for (const c of cites) {
    const targets = c.clusters.filter((id) => id !== ownCluster)
    if (c.clusters.length === 0 || targets.some((id) => !opinionOfCluster.has(id))) unresolved.add(c.key)
    for (const clusterId of targets) {
      const cited = opinionOfCluster.get(clusterId)
      if (cited === undefined || cited === citing) continue
      if (c.clusters.length === 1) unique.add(clusterId)
      const e = edges.get(cited)
      if (e) { e.depth++; continue }
      edges.set(cited, {
        id: edgeId(citing, cited), citing_opinion_id: citing, cited_opinion_id: cited, cited_cluster_id: clusterId, depth: 1,
        matched_text: c.matchedText, match_status: c.clusters.length === 1 ? 'unique' : 'ambiguous', candidates: c.clusters.length,
      })
    }
  }
  return { edges: [...edges.values()], unresolved: [...unresolved].sort(), citedClusters: [...unique].sort((a, b) => a - b) }
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The opinion text with each resolved citation wrapped in a link to its cluster. */
export function linkCitations(text: string, html: boolean, cites: ResolvedCite[]): string {
  const spans = cites.filter((c) => c.clusters.length > 0).sort((a, b) => a.start - b.start)
  let out = ''
  let at = 0
  const piece = (s: string) => (html ? s : escapeHtml(s))
  for (const c of spans) {
    if (c.start < at) continue
    const target = c.clusters.length === 1 ? `/opinion/${c.clusters[0]}/case/` : `/c/${encodeURIComponent(c.matchedText)}/`
    out += piece(text.slice(at, c.start))
    out += `<span class="citation" data-id="${c.clusters.join(',')}"><a href="${target}">${piece(text.slice(c.start, c.end))}</a></span>`
    at = c.end
  }
  out += piece(text.slice(at))
  return html ? out : `<pre class="inline">${out}</pre>`
}
