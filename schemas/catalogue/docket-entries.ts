import { defineResource, t, f, N } from '../define.js'
import { LOOKUPS } from '../kinds.js'
import { INT32, INT64 } from './limits.js'

export const docketEntries = defineResource({
  name: 'docket-entries', label: 'Docket Entry', model: 'DocketEntry', plural: 'Docket Entries', table: 'docket_entries', keyKind: 'int', access: 'authenticated',
  description: 'One line of a docket: what was filed or ordered on a date, with the documents it holds.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    docket: t.fk('dockets', { required: true }),
    archive_documents: t.nested('archive-documents', 'docket_entry_id'),
    date_created: t.created(),
    date_modified: t.modified(),
    date_filed: t.date(N),
    time_filed: t.time(N),
    entry_number: t.int({ ...INT64, nullable: true }),
    archive_sequence_number: t.string({ maxLength: 50 }),
    records_sequence_number: t.int({ ...INT32, nullable: true }),
    description: t.string({ unlisted: true }),
    tags: t.m2m('tag'),
  },
  filters: {
    id: f.int, entry_number: f.lookups(...LOOKUPS.INT, 'isnull'), date_created: f.datetime, date_modified: f.datetime, date_filed: f.date,
    records_sequence_number: f.lookups(...LOOKUPS.INT, 'isnull'),
    docket: f.rel('dockets', 'docket_id'), archive_documents: f.rel('archive-documents'), tags: f.rel('tag'),
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_filed', 'archive_sequence_number', 'entry_number'],
  // A docket sheet: one docket's entries by number, date or id.
  listIndexes: [{ by: ['docket_id'], orders: ['id', 'entry_number', 'date_filed'] }],
})
