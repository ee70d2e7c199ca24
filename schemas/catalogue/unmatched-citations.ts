import { defineResource, t, f, N } from '../define.js'
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
    id: t.int(),
    volume: t.int({ ...INT32, nullable: true }),
    reporter: t.string(),
    page: t.string(),
    type: t.int({ choices: CITATION_TYPE, nullable: true }),
    status: t.int({ ...INT32, nullable: true }),
    citation_string: t.string(),
    court: t.fk('courts', N),
    year: t.int({ ...INT32, nullable: true }),
    citing_opinion: t.fk('opinions', { required: true }),
  },
  filters: { citing_opinion: f.model('citing_opinion_id'), status: f.exact },
  orderings: ['id'],
})
