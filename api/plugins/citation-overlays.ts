/**
 * What the citation network derives, shown on the resources it belongs to, read from the row
 * source like any related row (the read model, else ClickHouse):
 *  - opinions.html_with_citations: the linked text the network made (citation-texts), when it has one;
 *  - clusters.citation_count: the opinions citing the cluster unambiguously (citation-counts), or the
 *    stored count (from bulk data, which covers the whole corpus) when that is higher.
 * Filtering and ordering by citation_count use the stored column.
 */
import type { Overlay } from '../engine/serialize.js'
import { sourceOf } from '../engine/context.js'

/** The derived resources each overlay reads, for list-cache invalidation. */
export const OVERLAY_DEPENDENCIES: Record<string, readonly string[]> = { opinions: ['citation-texts'], clusters: ['citation-counts'] }

export const citationOverlays: Record<string, Overlay> = {
  async opinions(objs, rows, ctx) {
    if (!objs.some((o) => 'html_with_citations' in o) || !ctx.catalogue.has('citation-texts')) return
    const found = await sourceOf(ctx).byKeys(ctx.catalogue.get('citation-texts'), rows.map((r) => Number(r.id)))
    const byId = new Map(found.map((f) => [Number(f.id), String(f.html_with_citations ?? '')]))
    objs.forEach((o, i) => { const html = byId.get(Number(rows[i].id)); if (html) o.html_with_citations = html })
  },
  async clusters(objs, rows, ctx) {
    if (!ctx.catalogue.has('citation-counts')) return
    const found = await sourceOf(ctx).byKeys(ctx.catalogue.get('citation-counts'), rows.map((r) => Number(r.id)))
    const byId = new Map(found.map((f) => [Number(f.id), Number(f.citation_count)]))
    objs.forEach((o, i) => { if ('citation_count' in o) o.citation_count = Math.max(Number(o.citation_count ?? 0), byId.get(Number(rows[i].id)) ?? 0) })
  },
}
