import { defineResource, t, f, N } from '../define.js'
import { INT32 } from './limits.js'

export const opinionsCited = defineResource({
  name: 'opinions-cited', label: 'Opinions Cited', model: 'OpinionsCited', plural: 'Opinions Cited', table: 'opinions_cited', keyKind: 'int', access: 'authenticated',
  description: 'Edges of the citation network: which opinion cites which, and how many times (depth).',
  cursorOrderings: ['id'],
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    citing_opinion: t.fk('opinions', { required: true }),
    cited_opinion: t.fk('opinions', { required: true }),
    depth: t.int({ ...INT32 }),
    // Our additions, filled by the citation network (empty for edges from bulk data): the cluster
    // the citation resolved to, the text that cited it, and how sure the match is. Served, but not
    // listed in OPTIONS, whose fields are the reference's.
    cited_cluster_id: t.int({ nullable: true, unlisted: true }),
    matched_text: t.string({ unlisted: true }),
    match_status: t.string({ unlisted: true }),
    candidates: t.int({ unlisted: true }),
  },
  filters: { id: f.int, citing_opinion: f.rel('opinions', 'citing_opinion_id'), cited_opinion: f.rel('opinions', 'cited_opinion_id') },
  // No order_by is allowed (OPTIONS has no ordering key); the default -id pages by cursor.
  orderings: [],
})
