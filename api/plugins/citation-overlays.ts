/**
 * What the citation network derives, shown on the resources it belongs to:
 *  - opinions.html_with_citations: the linked text the processor generated, when it has one;
 *  - clusters.citation_count: citing opinions that uniquely resolved to the cluster, or the
 *    stored count (from bulk data, which covers the whole corpus) when that is higher.
 * Filtering and ordering by citation_count still use the stored column.
 */
import { sql, ident } from '../../core/sql.js'
import type { Overlay } from '../engine/serialize.js'

const STATE = 'citation_state'

export const citationOverlays: Record<string, Overlay> = {
  async opinions(objs, rows, ctx) {
    if (!objs.some((o) => 'html_with_citations' in o)) return
    const ids = rows.map((r) => Number(r.id))
    const found = await ctx.db.query<{ opinion_id: number; html_with_citations: string }>(sql`
      SELECT opinion_id, html_with_citations FROM ${ident(ctx.db.database)}.${ident(STATE)} FINAL WHERE opinion_id IN ${ids}`)
    const byId = new Map(found.map((f) => [Number(f.opinion_id), f.html_with_citations]))
    objs.forEach((o, i) => { const html = byId.get(ids[i]); if (html) o.html_with_citations = html })
  },
  async clusters(objs, rows, ctx) {
    const ids = rows.map((r) => Number(r.id))
    const found = await ctx.db.query<{ c: number; n: number }>(sql`
      SELECT c, count() AS n FROM ${ident(ctx.db.database)}.${ident(STATE)} FINAL ARRAY JOIN cited_cluster_ids AS c
      WHERE has(cited_cluster_ids, c) AND c IN ${ids} GROUP BY c`)
    const byId = new Map(found.map((f) => [Number(f.c), Number(f.n)]))
    objs.forEach((o, i) => { o.citation_count = Math.max(Number(o.citation_count ?? 0), byId.get(ids[i]) ?? 0) })
  },
}
