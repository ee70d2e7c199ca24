import { defineResource, field } from '../define.js'

export const tag = defineResource({
  name: 'tag', label: 'Tag', model: 'Tag', plural: 'Tags', table: 'tag', keyKind: 'int', access: 'authenticated',
  description: 'Tags the service puts on dockets and other records.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    name: field.string({ required: true, maxLength: 50 }),
  },
  // The reference's tag endpoint has no filterset.
  filters: {},
  // The reference's tag view allows no order_by (OPTIONS has no ordering key); its default -id still pages by cursor.
  orderings: [],
})
