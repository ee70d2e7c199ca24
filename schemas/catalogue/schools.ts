import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'

export const schools = defineResource({
  name: 'schools', label: 'School', model: 'School', plural: 'Schools', table: 'schools', keyKind: 'int',
  description: 'Schools that judges attended.',
  fields: {
    resource_uri: t.uri(), id: t.int(), is_alias_of: t.fk('schools', N), date_created: t.created(), date_modified: t.modified(),
    name: t.string(), ein: t.int(N),
  },
  filters: { ...TIMESTAMP_FILTERS, name: f.text, ein: f.exact, educations: f.rel('educations') },
  orderings: ['id', 'date_created', 'date_modified', 'name'],
})
