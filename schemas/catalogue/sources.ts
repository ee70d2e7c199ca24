import { defineResource, field, filter, N, TIMESTAMP_FILTERS } from '../define.js'

export const sources = defineResource({
  name: 'sources', label: 'Source', model: 'Source', plural: 'Sources', table: 'sources', keyKind: 'int',
  description: 'Where a fact about a person came from.',
  cursorOrderings: ['id', 'date_modified'],
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    person: field.fk('people', { required: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    url: field.string({ maxLength: 2000, input: 'url' }),
    date_accessed: field.date(N),
    notes: field.string(),
  },
  filters: { id: filter.exact, date_modified: filter.datetime, person: filter.model('person_id') },
  orderings: ['id', 'date_modified', 'date_accessed'],
})
