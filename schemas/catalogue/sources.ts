import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'

export const sources = defineResource({
  name: 'sources', label: 'Source', model: 'Source', plural: 'Sources', table: 'sources', keyKind: 'int',
  description: 'Where a fact about a person came from.',
  cursorOrderings: ['id', 'date_modified'],
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    person: t.fk('people', { required: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    url: t.string({ maxLength: 2000, input: 'url' }),
    date_accessed: t.date(N),
    notes: t.string(),
  },
  filters: { id: f.exact, date_modified: f.datetime, person: f.model('person_id') },
  orderings: ['id', 'date_modified', 'date_accessed'],
})
