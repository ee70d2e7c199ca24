import { defineResource, field } from '../define.js'

/**
 * What the citation network derived from one opinion (keyed by the opinion's id): its text with
 * every resolved citation linked, and the clusters it cites unambiguously. Internal: shown as the
 * opinion's `html_with_citations`, and counted into `citation-counts`.
 */
export const citationTexts = defineResource({
  name: 'citation-texts', label: 'Citation Text', model: 'CitationText', plural: 'Citation Texts', table: 'citation_texts', keyKind: 'int',
  api: false, cursorOrderings: ['id'], description: 'An opinion\u2019s text with its citations linked, as the citation network made it.',
  search: { types: ['o'] },
  fields: {
    id: field.int(),
    html_with_citations: field.string({ large: true }),
    cited_clusters: field.m2m('clusters'),
  },
  filters: {},
  orderings: ['id'],
})
