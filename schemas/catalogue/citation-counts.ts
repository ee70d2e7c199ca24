import { defineResource, field } from '../define.js'

/**
 * How many opinions cite a cluster unambiguously, as the citation network counts them (keyed by
 * the cluster's id). Internal: a cluster's `citation_count` shows the higher of this and its
 * stored count (bulk data counts citations the network has not seen).
 */
export const citationCounts = defineResource({
  name: 'citation-counts', label: 'Citation Count', model: 'CitationCount', plural: 'Citation Counts', table: 'citation_counts', keyKind: 'int',
  api: false, cursorOrderings: ['id'], description: 'Opinions citing a cluster, as the citation network counts them.',
  search: { types: ['o'] },
  fields: {
    id: field.int(),
    citation_count: field.int(),
  },
  filters: {},
  orderings: ['id'],
})
