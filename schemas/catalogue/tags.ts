import { defineResource, t, f } from '../define.js'

/** Tags users put on dockets. Anyone reads published tags; the owner also reads its own. */
export const tags = defineResource({
  name: 'tags', label: 'User Tag', model: 'UserTag', plural: 'User Tags', table: 'user_tags', keyKind: 'int', throttle: 'tags',
  access: 'published', owner: 'user_id', publishedFlag: 'published', pageSize: 50, pageSizeQuery: true,
  description: 'A tag a user made to group dockets; published tags are visible to everyone.',
  fields: {
    id: t.int({ readOnly: true, label: 'ID' }),
    user: t.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    date_created: t.created(),
    date_modified: t.modified(),
    name: t.string({ required: true, maxLength: 50, input: 'slug' }),
    title: t.string(),
    description: t.string({ unlisted: true }),
    view_count: t.int({ readOnly: true }),
    published: t.bool(),
    dockets: t.reverse('dockets', 'tag_id', { asId: true, from: 'docket-tags', pick: 'docket_id' }),
  },
  filters: { id: f.exact, user: f.model('user_id'), name: f.text, published: f.bool },
  orderings: ['date_created', 'date_modified', 'name', 'view_count'],
})
