import { defineResource, t, f, N } from '../define.js'
import { PROCESSING_STATUS, UPLOAD_TYPE } from './choices.js'

/** The upload processing queue: files the caller sent to the archive and what became of them. Read-only. */
export const archiveUploads = defineResource({
  name: 'archive', label: 'Processing Queue', model: 'ProcessingQueue', plural: 'Processing Queue', table: 'archive_uploads', keyKind: 'int',
  access: 'owner', owner: 'user_id', writes: { create: false, update: false },
  description: 'Files you uploaded to the archive, each with its kind, processing status and any error.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    user: t.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    date_created: t.created(),
    date_modified: t.modified(),
    upload_type: t.int({ choices: UPLOAD_TYPE, required: true }),
    status: t.int({ choices: PROCESSING_STATUS, readOnly: true }),
    error_message: t.string({ readOnly: true }),
    court: t.fk('courts', N),
    docket: t.fk('dockets', N),
    records_case_id: t.string({ maxLength: 100 }),
    file: t.string({ input: 'file upload', required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, upload_type: f.choice('exact', 'in'), status: f.choice('exact', 'in'),
    court: f.model('court_id'), docket: f.model('docket_id'), records_case_id: f.exact,
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
