import { defineResource, field, filter, N } from '../define.js'
import { PROCESSING_STATUS, UPLOAD_TYPE } from './choices.js'

/** The upload processing queue: files the caller sent to the archive and what became of them. Read-only. */
export const archiveUploads = defineResource({
  name: 'archive', label: 'Processing Queue', model: 'ProcessingQueue', plural: 'Processing Queue', table: 'archive_uploads', keyKind: 'int',
  access: 'owner', owner: 'user_id', writes: { create: false, update: false },
  description: 'Files you uploaded to the archive, each with its kind, processing status and any error.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    user: field.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    date_created: field.created(),
    date_modified: field.modified(),
    upload_type: field.int({ choices: UPLOAD_TYPE, required: true }),
    status: field.int({ choices: PROCESSING_STATUS, readOnly: true }),
    error_message: field.string({ readOnly: true }),
    court: field.fk('courts', N),
    docket: field.fk('dockets', N),
    records_case_id: field.string({ maxLength: 100 }),
    file: field.string({ input: 'file upload', required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, upload_type: filter.choice('exact', 'in'), status: filter.choice('exact', 'in'),
    court: filter.model('court_id'), docket: filter.model('docket_id'), records_case_id: filter.exact,
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
