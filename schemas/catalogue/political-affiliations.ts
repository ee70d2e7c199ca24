import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'
import { AFFILIATION_SOURCE, DATE_GRANULARITY, POLITICAL_PARTY } from './choices.js'

export const politicalAffiliations = defineResource({
  name: 'political-affiliations', label: 'Political Affiliation', model: 'PoliticalAffiliation', plural: 'Political Affiliations', table: 'political_affiliations', keyKind: 'int',
  description: 'A person\u2019s political party affiliation over a period of time.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    person: t.fk('people', { required: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    political_party: t.string({ choices: POLITICAL_PARTY, required: true }),
    source: t.string({ choices: AFFILIATION_SOURCE }),
    date_start: t.date(N),
    date_granularity_start: t.string({ choices: DATE_GRANULARITY }),
    date_end: t.date(N),
    date_granularity_end: t.string({ choices: DATE_GRANULARITY }),
  },
  filters: {
    ...TIMESTAMP_FILTERS, date_start: f.date, date_end: f.date, political_party: f.choice(), source: f.choice(),
    person: f.model('person_id'),
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_start', 'date_end'],
})
