import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'

export const politicalAffiliations = defineResource({
  name: 'political-affiliations', label: 'Political Affiliation', model: 'PoliticalAffiliation', plural: 'Political Affiliations', table: 'political_affiliations', keyKind: 'int',
  description: 'A person\u2019s political party affiliation over a period of time.',
  fields: {
    resource_uri: t.uri(), id: t.int(), person: t.fk('people'), date_created: t.created(), date_modified: t.modified(),
    political_party: t.string(), source: t.string(), date_start: t.date(N), date_granularity_start: t.string(),
    date_end: t.date(N), date_granularity_end: t.string(),
  },
  filters: {
    ...TIMESTAMP_FILTERS, date_start: f.date, date_end: f.date, political_party: f.choice(), source: f.choice(),
    person: f.model('person_id'),
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_start', 'date_end'],
})
