import { defineResource, field, filter, N, TIMESTAMP_FILTERS } from '../define.js'
import { INT32 } from './limits.js'

export const schools = defineResource({
  name: 'schools', label: 'School', model: 'School', plural: 'Schools', table: 'schools', keyKind: 'int',
  description: 'Schools that judges attended.',
  search: { types: ['p'] },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    is_alias_of: field.fk('schools', { required: true, nullable: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    name: field.string({ required: true, maxLength: 120 }),
    ein: field.int({ ...INT32, nullable: true }),
  },
  filters: { ...TIMESTAMP_FILTERS, name: filter.text, ein: filter.exact, educations: filter.rel('educations') },
  orderings: ['id', 'date_created', 'date_modified', 'name'],
})
