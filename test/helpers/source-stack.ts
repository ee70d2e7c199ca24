/**
 * What the event-source tests (docket alerts, prayers, archive fetch) start with: a test stack, a
 * publisher, and a list of things to stop, stopped in reverse order when the test ends; for
 * archive fetches, a records system holding a document the archive lacks.
 */
import type { Test } from 'tap'
import { testStack } from './stack.js'
import { openPublisher } from '../../core/events/publisher.js'
import { startTableSink } from '../../streams/table-sink.js'
import { createUser } from '../../bin/users.js'
import { startFakeRecords } from './fake-records.js'

export async function sourceStack(t: Test, env?: Record<string, string>) {
  const rt = await testStack(t, env)
  const stops: (() => Promise<unknown>)[] = []
  t.teardown(async () => { for (const stop of stops.reverse()) await stop().catch(() => {}) })
  const ts = new Date().toISOString()
  const pub = await openPublisher(rt)
  stops.push(() => pub.stop())
  return { rt, stops, ts, pub }
}

/** A queued archive fetch of one document (request type 2), as a user's POST publishes it. */
export function documentFetch(id: number, userId: number, archiveDocumentId: number, ts: string) {
  return {
    id, user_id: userId, date_created: ts, date_modified: ts, date_completed: null, status: 1, message: '', request_type: 2,
    court_id: null, docket_id: null, archive_document_id: archiveDocumentId, records_username: '', records_password: '', client_code: '',
    records_case_id: '', docket_number: '', de_date_start: null, de_date_end: null, de_number_start: null, de_number_end: null,
    show_parties_and_counsel: false, show_terminated_parties: false, show_list_of_member_cases: false,
  }
}

/**
 * What an archive-fetch test starts with: a fake records system (user svc) and a stack that uses
 * it, user ann, the table sink, and docket `n` of nysd with one document (`n * 10`) that the
 * archive does not have and the records system does (its case `nn`, document `0nnn`).
 */
export async function archiveFetchStack(t: Test, n: number) {
  const records = await startFakeRecords({ username: 'svc', password: 'secret' })
  t.teardown(() => records.close())
  const stack = await sourceStack(t, { LDS_RECORDS_URL: records.url, LDS_RECORDS_USERNAME: 'svc', LDS_RECORDS_PASSWORD: 'secret' })
  const { rt, stops, ts, pub } = stack
  const { id: userId } = await createUser(rt, 'ann')
  const sink = await startTableSink(rt)
  stops.push(() => sink.stop())
  const caseId = `${n}${n}`
  const docId = `0${n}${n}${n}`
  records.addDocument({ court: 'nysd', records_case_id: caseId, records_doc_id: docId, pageCount: 2 })
  await pub.upsert('dockets', { id: n, court_id: 'nysd', case_name: 'Doe v. Acme', records_case_id: caseId, docket_number: `1:26-cv-${n}`, source: 0, date_created: ts, date_modified: ts })
  await pub.upsert('archive-documents', { id: n * 10, docket_entry_id: n * 100, docket_id: n, document_number: '1', records_doc_id: docId, is_available: false, description: 'Complaint', date_created: ts, date_modified: ts })
  return { ...stack, records, userId, documentId: n * 10 }
}
