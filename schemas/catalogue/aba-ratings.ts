import { defineResource, t, f, TIMESTAMP_FILTERS } from '../define.js'

export const abaRatings = defineResource({
  name: 'aba-ratings', label: 'Aba Rating', model: 'ABARating', plural: 'American Bar Association Ratings', table: 'aba_ratings', keyKind: 'int',
  description: 'American Bar Association ratings of a judicial nominee.',
  fields: {
    resource_uri: t.uri(), id: t.int(), person: t.fk('people'), date_created: t.created(), date_modified: t.modified(),
    year_rated: t.int(), rating: t.string(),
  },
  filters: { ...TIMESTAMP_FILTERS, year_rated: f.int, rating: f.choice(), person: f.model('person_id') },
  orderings: ['id', 'date_created', 'date_modified', 'year_rated'],
})
