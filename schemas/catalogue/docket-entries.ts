import { defineResource, field, filter, N } from '../define.js'
import { LOOKUPS } from '../kinds.js'
import { INT32, INT64 } from './limits.js'

export const docketEntries = defineResource({
  name: 'docket-entries', label: 'Docket Entry', model: 'DocketEntry', plural: 'Docket Entries', table: 'docket_entries', keyKind: 'int', access: 'authenticated',
  description: 'One line of a docket: what was filed or ordered on a date, with the documents it holds.',
  search: { types: ['r', 'rd'], parent: { field: 'docket', types: ['r'] } },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    docket: field.fk('dockets', { required: true }),
    archive_documents: field.nested('archive-documents', 'docket_entry_id'),
    date_created: field.created(),
    date_modified: field.modified(),
    date_filed: field.date(N),
    time_filed: field.time(N),
    entry_number: field.int({ ...INT64, nullable: true }),
    archive_sequence_number: field.string({ maxLength: 50 }),
    records_sequence_number: field.int({ ...INT32, nullable: true }),
    description: field.string({ unlisted: true }),
    tags: field.m2m('tag'),
  },
  filters: {
    id: filter.int, entry_number: filter.lookups(...LOOKUPS.INT, 'isnull'), date_created: filter.datetime, date_modified: filter.datetime, date_filed: filter.date,
    records_sequence_number: filter.lookups(...LOOKUPS.INT, 'isnull'),
    docket: filter.rel('dockets', 'docket_id'), archive_documents: filter.rel('archive-documents'), tags: filter.rel('tag'),
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_filed', 'archive_sequence_number', 'entry_number'],
  // A docket sheet: one docket's entries by number, date or id.
  listIndexes: [{ by: ['docket_id'], orders: ['id', 'entry_number', 'date_filed'] }],
})
