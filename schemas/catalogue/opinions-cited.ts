import { defineResource, field, filter, N } from '../define.js'
import { INT32 } from './limits.js'

export const opinionsCited = defineResource({
  name: 'opinions-cited', label: 'Opinions Cited', model: 'OpinionsCited', plural: 'Opinions Cited', table: 'opinions_cited', keyKind: 'int', access: 'authenticated',
  description: 'Edges of the citation network: which opinion cites which, and how many times (depth).',
  cursorOrderings: ['id'],
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    citing_opinion: field.fk('opinions', { required: true }),
    cited_opinion: field.fk('opinions', { required: true }),
    depth: field.int({ ...INT32 }),
    // Our additions, filled by the citation network (empty for edges from bulk data): the cluster
    // the citation resolved to, the text that cited it, and how sure the match is. Served, but not
    // listed in OPTIONS, whose fields are the reference's.
    cited_cluster_id: field.int({ nullable: true, unlisted: true }),
    matched_text: field.string({ unlisted: true }),
    match_status: field.string({ unlisted: true }),
    candidates: field.int({ unlisted: true }),
  },
  filters: { id: filter.int, citing_opinion: filter.rel('opinions', 'citing_opinion_id'), cited_opinion: filter.rel('opinions', 'cited_opinion_id') },
  // No order_by is allowed (OPTIONS has no ordering key); the default -id pages by cursor.
  orderings: [],
})
