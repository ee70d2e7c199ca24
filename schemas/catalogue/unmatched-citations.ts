import { defineResource, field, filter, N } from '../define.js'
import { CITATION_TYPE } from './choices.js'
import { INT32 } from './limits.js'

/**
 * A citation found in an opinion's text that no cluster of the corpus answers. Bulk data only,
 * as at the reference (no endpoint): its own topic and table, for analytics and for finding
 * what the corpus lacks.
 */
export const unmatchedCitations = defineResource({
  name: 'unmatched-citations', label: 'Unmatched Citation', model: 'UnmatchedCitation', plural: 'Unmatched Citations', table: 'unmatched_citations', keyKind: 'int',
  api: false, cursorOrderings: ['id'],
  description: 'A citation in an opinion that matches no cluster of the corpus.',
  fields: {
    id: field.int(),
    volume: field.int({ ...INT32, nullable: true }),
    reporter: field.string(),
    page: field.string(),
    type: field.int({ choices: CITATION_TYPE, nullable: true }),
    status: field.int({ ...INT32, nullable: true }),
    citation_string: field.string(),
    court: field.fk('courts', N),
    year: field.int({ ...INT32, nullable: true }),
    citing_opinion: field.fk('opinions', { required: true }),
  },
  filters: { citing_opinion: filter.model('citing_opinion_id'), status: filter.exact },
  orderings: ['id'],
})
