/**
 * What the citation network derives, shown on the resources that declare it (ResourceDef.overlay),
 * read from the row source like any related row (the read model, else ClickHouse):
 *  - linked-text (opinions): html_with_citations, the linked text the network made (citation-texts),
 *    when it has one;
 *  - citation-count (clusters): citation_count, the opinions citing the cluster unambiguously
 *    (citation-counts), or the stored count (from bulk data, which covers the whole corpus) when
 *    that is higher.
 * Filtering and ordering by citation_count use the stored column.
 */
import type { Overlay } from '../engine/serialize.js'
import { sourceOf } from '../engine/context.js'
import { catalogue, checkNamed, type Catalogue } from '../../schemas/catalogue/index.js'

interface OverlayImplementation {
  /** The derived resources it reads, for list-cache invalidation. */
  reads: readonly string[]
  apply: Overlay
}

/** The overlays, by the name a resource declares (ResourceDef.overlay). */
export const OVERLAY_IMPLEMENTATIONS: Readonly<Record<string, OverlayImplementation>> = {
  'linked-text': {
    reads: ['citation-texts'],
    async apply(objs, rows, ctx) {
      if (!objs.some((o) => 'html_with_citations' in o) || !ctx.catalogue.has('citation-texts')) return
      const found = await sourceOf(ctx).byKeys(ctx.catalogue.get('citation-texts'), rows.map((r) => Number(r.id)))
      const byId = new Map(found.map((f) => [Number(f.id), String(f.html_with_citations ?? '')]))
      objs.forEach((o, i) => { const html = byId.get(Number(rows[i].id)); if (html) o.html_with_citations = html })
    },
  },
  'citation-count': {
    reads: ['citation-counts'],
    async apply(objs, rows, ctx) {
      if (!ctx.catalogue.has('citation-counts')) return
      const found = await sourceOf(ctx).byKeys(ctx.catalogue.get('citation-counts'), rows.map((r) => Number(r.id)))
      const byId = new Map(found.map((f) => [Number(f.id), Number(f.citation_count)]))
      objs.forEach((o, i) => { if ('citation_count' in o) o.citation_count = Math.max(Number(o.citation_count ?? 0), byId.get(Number(rows[i].id)) ?? 0) })
    },
  },
}

/** Overlays the resources declare without an implementation here, and implementations none declares. */
export function checkOverlays(cat: Catalogue, implemented: Readonly<Record<string, OverlayImplementation>> = OVERLAY_IMPLEMENTATIONS): string[] {
  return checkNamed('overlay', cat.resources, (r) => r.overlay, Object.keys(implemented))
}

function overlaysByResource(cat: Catalogue): [string, OverlayImplementation][] {
  const problems = checkOverlays(cat)
  if (problems.length) throw new Error(`overlays do not match the catalogue:\n  ${problems.join('\n  ')}`)
  return cat.resources.filter((r) => r.overlay).map((r) => [r.name, OVERLAY_IMPLEMENTATIONS[r.overlay!]])
}

// checked against the catalogue when this module loads
const declared = overlaysByResource(catalogue)

/** The derived resources each resource's overlay reads, for list-cache invalidation. */
export const OVERLAY_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(declared.map(([name, o]) => [name, o.reads]))

/** Each resource's overlay, by resource name. */
export const citationOverlays: Readonly<Record<string, Overlay>> = Object.fromEntries(declared.map(([name, o]) => [name, o.apply]))
