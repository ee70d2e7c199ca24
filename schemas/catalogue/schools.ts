import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'
import { INT32 } from './limits.js'

export const schools = defineResource({
  name: 'schools', label: 'School', model: 'School', plural: 'Schools', table: 'schools', keyKind: 'int',
  description: 'Schools that judges attended.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    is_alias_of: t.fk('schools', { required: true, nullable: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    name: t.string({ required: true, maxLength: 120 }),
    ein: t.int({ ...INT32, nullable: true }),
  },
  filters: { ...TIMESTAMP_FILTERS, name: f.text, ein: f.exact, educations: f.rel('educations') },
  orderings: ['id', 'date_created', 'date_modified', 'name'],
})
