import { defineResource, t, f, N } from '../define.js'
import { FETCH_REQUEST_TYPE, PROCESSING_STATUS } from './choices.js'
import { INT32 } from './limits.js'

export const archiveFetch = defineResource({
  name: 'archive-fetch', label: 'Records Fetch Request', model: 'RecordsFetchQueue', plural: 'Records Fetch Requests', table: 'archive_fetch', keyKind: 'int', throttle: 'fetch',
  access: 'owner', owner: 'user_id', cursorOrderings: ['id', 'date_created', 'date_modified', 'date_completed'],
  writes: { create: true, update: false },
  description: 'Asks the service to buy a docket, document or attachment page from the court records system with your credentials.',
  fields: {
    id: t.int({ readOnly: true, label: 'ID' }),
    user: t.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    court: t.fk('courts', { nullable: true, asId: true }),
    docket: t.fk('dockets', { nullable: true, asId: true }),
    archive_document: t.fk('archive-documents', { nullable: true, asId: true }),
    records_username: t.string({ required: true, writeOnly: true }),
    records_password: t.string({ required: true, writeOnly: true }),
    client_code: t.string({ writeOnly: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    date_completed: t.datetime({ readOnly: true, nullable: true }),
    status: t.int({ readOnly: true, input: 'choice' }),
    request_type: t.int({ choices: FETCH_REQUEST_TYPE, required: true }),
    message: t.string({ readOnly: true }),
    records_case_id: t.string({ maxLength: 100 }),
    docket_number: t.string({ maxLength: 50 }),
    de_date_start: t.date(N),
    de_date_end: t.date(N),
    de_number_start: t.int({ ...INT32, nullable: true }),
    de_number_end: t.int({ ...INT32, nullable: true }),
    show_parties_and_counsel: t.bool(),
    show_terminated_parties: t.bool(),
    show_list_of_member_cases: t.bool(),
  },
  filters: {
    status: { ...f.choice('exact', 'in'), choices: PROCESSING_STATUS }, request_type: f.choice(), court: f.model('court_id'), docket: f.model('docket_id'),
    records_case_id: f.lookups('exact', 'in'), docket_number: f.exact, archive_document: { ...f.model('archive_document_id'), lookups: ['exact', 'in'] },
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_completed'],
})
