import { defineResource, field, filter } from '../define.js'
import { PRAYER_STATUS } from './choices.js'

export const prayers = defineResource({
  name: 'prayers', label: 'Prayer', model: 'Prayer', plural: 'Prayers', table: 'prayers', keyKind: 'int',
  access: 'owner', owner: 'user_id', pageSize: 50, pageSizeQuery: true, ordering: '-date_created', cursorOrderings: ['date_created'],
  writes: { create: true, update: false }, methods: ['DELETE'],
  description: 'A request that a document missing from the archive be bought; you hear when someone buys it.',
  writeHooks: 'prayer',
  fields: {
    id: field.int({ readOnly: true, label: 'ID' }),
    user: field.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    date_created: field.created(),
    status: field.int({ choices: PRAYER_STATUS }),
    archive_document: field.fk('archive-documents', { required: true, asId: true }),
  },
  filters: {
    date_created: { lookups: ['exact', 'range'], type: 'DateFromToRangeFilter' }, user: filter.model('user_id'),
    archive_document: filter.model('archive_document_id'), status: filter.choice('exact', 'in'),
  },
  orderings: ['date_created'],
})
