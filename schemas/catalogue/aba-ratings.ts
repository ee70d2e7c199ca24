import { defineResource, t, f, TIMESTAMP_FILTERS } from '../define.js'
import { ABA_RATING } from './choices.js'
import { UINT16 } from './limits.js'

export const abaRatings = defineResource({
  name: 'aba-ratings', label: 'Aba Rating', model: 'ABARating', plural: 'American Bar Association Ratings', table: 'aba_ratings', keyKind: 'int',
  description: 'American Bar Association ratings of a judicial nominee.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    person: t.fk('people', { required: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    year_rated: t.int({ ...UINT16 }),
    rating: t.string({ choices: ABA_RATING, required: true }),
  },
  filters: { ...TIMESTAMP_FILTERS, year_rated: f.int, rating: f.choice(), person: f.model('person_id') },
  orderings: ['id', 'date_created', 'date_modified', 'year_rated'],
})
