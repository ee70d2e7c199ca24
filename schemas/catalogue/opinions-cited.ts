import { defineResource, t, f, N } from '../define.js'

export const opinionsCited = defineResource({
  name: 'opinions-cited', label: 'Opinions Cited', model: 'OpinionsCited', plural: 'Opinions Cited', table: 'opinions_cited', keyKind: 'int', access: 'authenticated',
  description: 'Edges of the citation network: which opinion cites which, and how many times (depth).',
  cursorOrderings: ['id'],
  fields: {
    resource_uri: t.uri(),
    id: t.int(),
    citing_opinion: t.fk('opinions'),
    cited_opinion: t.fk('opinions'),
    depth: t.int(),
    // Our additions, filled by the citation network (empty for edges from bulk data):
    // the cluster the citation resolved to, the text that cited it, and how sure the match is.
    cited_cluster_id: t.int(N),
    matched_text: t.string(),
    match_status: t.string(),
    candidates: t.int(),
  },
  filters: { id: f.int, citing_opinion: f.rel('opinions', 'citing_opinion_id'), cited_opinion: f.rel('opinions', 'cited_opinion_id') },
  // No order_by is allowed (OPTIONS has no ordering key); the default -id pages by cursor.
  orderings: [],
})
