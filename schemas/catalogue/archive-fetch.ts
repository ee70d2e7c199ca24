import { defineResource, field, filter, N } from '../define.js'
import { FETCH_REQUEST_TYPE, PROCESSING_STATUS } from './choices.js'
import { INT32 } from './limits.js'

export const archiveFetch = defineResource({
  name: 'archive-fetch', label: 'Records Fetch Request', model: 'RecordsFetchQueue', plural: 'Records Fetch Requests', table: 'archive_fetch', keyKind: 'int', throttle: 'fetch',
  access: 'owner', owner: 'user_id', cursorOrderings: ['id', 'date_created', 'date_modified', 'date_completed'],
  writes: { create: true, update: false },
  description: 'Asks the service to buy a docket, document or attachment page from the court records system with your credentials.',
  writeHooks: 'fetch-request',
  fields: {
    id: field.int({ readOnly: true, label: 'ID' }),
    user: field.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    court: field.fk('courts', { nullable: true, asId: true }),
    docket: field.fk('dockets', { nullable: true, asId: true }),
    archive_document: field.fk('archive-documents', { nullable: true, asId: true }),
    records_username: field.string({ required: true, writeOnly: true }),
    records_password: field.string({ required: true, writeOnly: true }),
    client_code: field.string({ writeOnly: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    date_completed: field.datetime({ readOnly: true, nullable: true }),
    status: field.int({ readOnly: true, input: 'choice' }),
    request_type: field.int({ choices: FETCH_REQUEST_TYPE, required: true }),
    message: field.string({ readOnly: true }),
    records_case_id: field.string({ maxLength: 100 }),
    docket_number: field.string({ maxLength: 50 }),
    de_date_start: field.date(N),
    de_date_end: field.date(N),
    de_number_start: field.int({ ...INT32, nullable: true }),
    de_number_end: field.int({ ...INT32, nullable: true }),
    show_parties_and_counsel: field.bool(),
    show_terminated_parties: field.bool(),
    show_list_of_member_cases: field.bool(),
  },
  filters: {
    status: { ...filter.choice('exact', 'in'), choices: PROCESSING_STATUS }, request_type: filter.choice(), court: filter.model('court_id'), docket: filter.model('docket_id'),
    records_case_id: filter.lookups('exact', 'in'), docket_number: filter.exact, archive_document: { ...filter.model('archive_document_id'), lookups: ['exact', 'in'] },
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_completed'],
})
