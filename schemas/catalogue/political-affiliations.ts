import { defineResource, field, filter, N, TIMESTAMP_FILTERS } from '../define.js'
import { AFFILIATION_SOURCE, DATE_GRANULARITY, POLITICAL_PARTY } from './choices.js'

export const politicalAffiliations = defineResource({
  name: 'political-affiliations', label: 'Political Affiliation', model: 'PoliticalAffiliation', plural: 'Political Affiliations', table: 'political_affiliations', keyKind: 'int',
  description: 'A person\u2019s political party affiliation over a period of time.',
  search: { types: ['p'], parent: { field: 'person', types: ['p'] } },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    person: field.fk('people', { required: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    political_party: field.string({ choices: POLITICAL_PARTY, required: true }),
    source: field.string({ choices: AFFILIATION_SOURCE }),
    date_start: field.date(N),
    date_granularity_start: field.string({ choices: DATE_GRANULARITY }),
    date_end: field.date(N),
    date_granularity_end: field.string({ choices: DATE_GRANULARITY }),
  },
  filters: {
    ...TIMESTAMP_FILTERS, date_start: filter.date, date_end: filter.date, political_party: filter.choice(), source: filter.choice(),
    person: filter.model('person_id'),
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_start', 'date_end'],
})
