import { defineResource, field, filter } from '../define.js'

/** A tag on a docket. Readable where the tag is: the owner's own, and published ones (`user_id` and `published` copy the tag's). */
export const docketTags = defineResource({
  name: 'docket-tags', label: 'Docket Tag', model: 'DocketTag', plural: 'Docket Tags', table: 'docket_tags', keyKind: 'int', throttle: 'tags',
  access: 'published', owner: 'user_id', publishedFlag: 'published', pageSize: 50, pageSizeQuery: true, cursorOrderings: ['id'], methods: ['DELETE'],
  description: 'Puts one of your tags on a docket.',
  writeHooks: 'docket-tag',
  fields: {
    id: field.int({ readOnly: true, label: 'ID' }),
    user: field.fk('users', { hidden: true, help: 'Owner of the tag (copied from it).' }),
    published: field.bool({ hidden: true, help: 'Whether the tag is published (copied from it).' }),
    docket: field.fk('dockets', { required: true, asId: true }),
    tag: field.fk('tags', { required: true, asId: true }),
  },
  filters: { id: filter.exact, docket: filter.model('docket_id'), tag: filter.rel('tags', 'tag_id') },
  orderings: [],
})
