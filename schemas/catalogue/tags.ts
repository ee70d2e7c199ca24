import { defineResource, field, filter } from '../define.js'

/** Tags users put on dockets. Anyone reads published tags; the owner also reads its own. */
export const tags = defineResource({
  name: 'tags', label: 'User Tag', model: 'UserTag', plural: 'User Tags', table: 'user_tags', keyKind: 'int', throttle: 'tags',
  access: 'published', owner: 'user_id', publishedFlag: 'published', pageSize: 50, pageSizeQuery: true,
  description: 'A tag a user made to group dockets; published tags are visible to everyone.',
  writeHooks: 'user-tag',
  fields: {
    id: field.int({ readOnly: true, label: 'ID' }),
    user: field.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    date_created: field.created(),
    date_modified: field.modified(),
    name: field.string({ required: true, maxLength: 50, input: 'slug' }),
    title: field.string(),
    description: field.string({ unlisted: true }),
    view_count: field.int({ readOnly: true }),
    published: field.bool(),
    dockets: field.reverse('dockets', 'tag_id', { asId: true, from: 'docket-tags', pick: 'docket_id' }),
  },
  filters: { id: filter.exact, user: filter.model('user_id'), name: filter.text, published: filter.bool },
  orderings: ['date_created', 'date_modified', 'name', 'view_count'],
})
