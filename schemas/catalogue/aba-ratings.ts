import { defineResource, field, filter, TIMESTAMP_FILTERS } from '../define.js'
import { ABA_RATING } from './choices.js'
import { UINT16 } from './limits.js'

export const abaRatings = defineResource({
  name: 'aba-ratings', label: 'Aba Rating', model: 'ABARating', plural: 'American Bar Association Ratings', table: 'aba_ratings', keyKind: 'int',
  description: 'American Bar Association ratings of a judicial nominee.',
  search: { types: ['p'], parent: { field: 'person', types: ['p'] } },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    person: field.fk('people', { required: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    year_rated: field.int({ ...UINT16 }),
    rating: field.string({ choices: ABA_RATING, required: true }),
  },
  filters: { ...TIMESTAMP_FILTERS, year_rated: filter.int, rating: filter.choice(), person: filter.model('person_id') },
  orderings: ['id', 'date_created', 'date_modified', 'year_rated'],
})
