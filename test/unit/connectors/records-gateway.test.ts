import t, { type Test } from 'tap'
import { createHash } from 'node:crypto'
import { createRecordsGateway, type RecordsGatewayOptions } from '../../../clients/records-gateway.js'
import { startFakeRecords, UNAVAILABLE_MESSAGE, type FakeRecords } from '../../helpers/fake-records.js'

const DOC = { court: 'nysd', records_case_id: '545433', records_doc_id: '127035841287' }

async function setup(t: Test, over: Partial<RecordsGatewayOptions> = {}) {
  const records = await startFakeRecords({ username: 'clerk', password: 'hunter2' })
  t.teardown(() => records.close())
  const gw = createRecordsGateway({ baseUrl: records.url, username: 'clerk', password: 'hunter2', timeoutMs: 500, retries: 3, minRetryMs: 5, maxRetryMs: 20, ...over })
  return { records, gw }
}

const paths = (r: FakeRecords) => r.requests.map((q) => `${q.path.split('/').pop()}:${q.status}`)

t.test('logs in once, then fetches a document with its bytes and metadata', async (t) => {
  const { records, gw } = await setup(t)
  const bytes = records.addDocument({ ...DOC, pageCount: 7 })
  const res = await gw.fetchDocument(DOC)
  t.ok(res.ok)
  if (!res.ok) return
  t.ok(res.value.bytes.equals(bytes))
  t.same({ ct: res.value.contentType, pages: res.value.pageCount, size: res.value.fileSize }, { ct: 'application/pdf', pages: 7, size: bytes.length })
  t.equal(res.value.sha1, createHash('sha1').update(bytes).digest('hex'))
  t.same(paths(records), ['session:201', 'fetch:200'])
  t.same(records.requests[0].body, { username: 'clerk', password: '<redacted>' })
  t.ok(records.requests[1].authorized)
  t.same(records.requests[1].body, DOC)

  const again = await gw.fetchDocument(DOC)
  t.ok(again.ok)
  t.equal(records.logins, 1, 'the session is reused')
})

t.test('an unavailable document is a typed failure with a human message, not retried', async (t) => {
  const { records, gw } = await setup(t)
  records.addDocument({ ...DOC, available: false })
  const res = await gw.fetchDocument(DOC)
  t.same(res, { ok: false, failure: { kind: 'unavailable', fetchStatus: 3, message: UNAVAILABLE_MESSAGE, httpStatus: 409, attempts: 2 } })
  t.same(paths(records), ['session:201', 'fetch:409'])

  const missing = await gw.fetchDocument({ ...DOC, records_doc_id: '999' })
  t.match(missing, { ok: false, failure: { kind: 'not_found', httpStatus: 404 } })
  t.equal(records.requests.length, 3, 'no retry on 4xx')
})

t.test('an expired session is renewed once, without using a retry', async (t) => {
  const { records, gw } = await setup(t, { retries: 0 })
  records.addDocument(DOC)
  t.ok((await gw.fetchDocument(DOC)).ok)
  records.queue('expire_session')
  const res = await gw.fetchDocument(DOC)
  t.ok(res.ok)
  t.same(paths(records), ['session:201', 'fetch:200', 'fetch:401', 'session:201', 'fetch:200'])
  t.equal(records.logins, 2)
})

t.test('5xx then ok: retried with backoff', async (t) => {
  const { records, gw } = await setup(t)
  records.addDocument(DOC)
  records.queue({ status: 500 }, { status: 503 }, 'ok')
  const res = await gw.fetchDocument(DOC)
  t.ok(res.ok)
  if (res.ok) t.equal(res.attempts, 4)
  t.same(paths(records), ['session:201', 'fetch:500', 'fetch:503', 'fetch:200'])
})

t.test('retries are bounded', async (t) => {
  const { records, gw } = await setup(t, { retries: 2 })
  records.addDocument(DOC)
  records.queue({ status: 502 }, { status: 502 }, { status: 502 }, 'ok')
  const res = await gw.fetchDocument(DOC)
  t.match(res, { ok: false, failure: { kind: 'upstream_error', fetchStatus: 3, httpStatus: 502, message: /HTTP 502/ } })
  t.same(paths(records), ['session:201', 'fetch:502', 'fetch:502', 'fetch:502'], 'one attempt and two retries')
})

t.test('a slow answer times out per call and is retried', async (t) => {
  const { records, gw } = await setup(t, { timeoutMs: 200, retries: 1 })
  records.addDocument(DOC)
  records.queue({ delayMs: 600 })
  const res = await gw.fetchDocument(DOC)
  t.ok(res.ok, 'the retry answers in time')
  t.equal(records.requests.filter((r) => r.path.endsWith('fetch')).length, 2)

  records.queue({ delayMs: 600 }, { delayMs: 600 })
  const slow = await gw.fetchDocument(DOC)
  t.match(slow, { ok: false, failure: { kind: 'timeout', httpStatus: null, message: 'The records system did not answer in time.' } })
})

t.test('network errors are retried; a dropped connection too', async (t) => {
  const { records, gw } = await setup(t)
  records.addDocument(DOC)
  records.queue('drop', 'ok')
  t.ok((await gw.fetchDocument(DOC)).ok)

  const nowhere = createRecordsGateway({ baseUrl: 'http://127.0.0.1:1', username: 'u', password: 'p', retries: 1, minRetryMs: 5, maxRetryMs: 5, timeoutMs: 500 })
  const res = await nowhere.fetchDocument(DOC)
  t.match(res, { ok: false, failure: { kind: 'upstream_error', message: /could not be reached/, attempts: 2 } })
  if (!res.ok) t.notMatch(res.failure.message, /p@|password/)
})

t.test('bad credentials, invalid content, missing information', async (t) => {
  const { records } = await setup(t)
  records.addDocument(DOC)
  const wrong = createRecordsGateway({ baseUrl: records.url, username: 'clerk', password: 'nope', retries: 3, minRetryMs: 5 })
  const denied = await wrong.fetchDocument(DOC)
  t.match(denied, { ok: false, failure: { kind: 'auth_failed', fetchStatus: 3, httpStatus: 401 } })
  if (!denied.ok) t.notMatch(denied.failure.message, /nope/, 'the password never shows')
  t.equal(records.requests.length, 1, 'no retry on a refused login')

  const gw = createRecordsGateway({ baseUrl: records.url, username: 'clerk', password: 'hunter2', retries: 3, minRetryMs: 5 })
  records.queue('not_pdf')
  t.match(await gw.fetchDocument(DOC), { ok: false, failure: { kind: 'invalid_content', fetchStatus: 6 } })

  const before = records.requests.length
  t.match(await gw.fetchDocument({ ...DOC, records_doc_id: '' }), { ok: false, failure: { kind: 'needs_info', fetchStatus: 7, message: /records_doc_id is missing/ } })
  t.match(await gw.fetchDocket({ court: 'nysd' }), { ok: false, failure: { kind: 'needs_info', fetchStatus: 7 } })
  t.equal(records.requests.length, before, 'nothing was sent')
})

t.test('fetches a docket by case id or docket number', async (t) => {
  const { records, gw } = await setup(t)
  records.addDocket({ court: 'nysd', records_case_id: '545433', docket_number: '1:24-cv-00001', case_name: 'A v. B', entries: [{ entry_number: 1, description: 'COMPLAINT' }] })
  const byId = await gw.fetchDocket({ court: 'nysd', records_case_id: '545433', show_parties_and_counsel: true })
  t.ok(byId.ok)
  if (byId.ok) {
    t.equal(byId.value.case_name, 'A v. B')
    t.same(byId.value.entries, [{ entry_number: 1, description: 'COMPLAINT' }])
    t.ok(Array.isArray(byId.value.parties))
  }
  const byNumber = await gw.fetchDocket({ court: 'nysd', docket_number: '1:24-cv-00001' })
  t.ok(byNumber.ok)
  t.match(await gw.fetchDocket({ court: 'nysd', docket_number: 'nope' }), { ok: false, failure: { kind: 'not_found' } })
  records.queue('not_pdf')
  t.match(await gw.fetchDocket({ court: 'nysd', records_case_id: '545433' }), { ok: false, failure: { kind: 'invalid_content', fetchStatus: 6 } })
})

t.test('concurrent calls share one login; the caller may abort', async (t) => {
  const { records, gw } = await setup(t)
  records.addDocument(DOC)
  const results = await Promise.all([gw.fetchDocument(DOC), gw.fetchDocument(DOC), gw.fetchDocument(DOC)])
  t.ok(results.every((r) => r.ok))
  t.equal(records.logins, 1)

  records.queue({ delayMs: 300 })
  const ac = new AbortController()
  const pending = gw.fetchDocument(DOC, { signal: ac.signal })
  setTimeout(() => ac.abort(new Error('shutting down')), 50)
  await t.rejects(pending, /shutting down|aborted/i, 'an abort by the caller is not a records failure')
})

t.test("a user's own session: logged in with the user's credentials, used as it is, never renewed", async (t) => {
  const records = await startFakeRecords({ username: 'clerk', password: 'hunter2', accounts: { alice: 'alice-pw' } })
  t.teardown(() => records.close())
  const gw = createRecordsGateway({ baseUrl: records.url, username: 'clerk', password: 'hunter2', retries: 3, minRetryMs: 5, maxRetryMs: 20 })
  records.addDocument(DOC)

  const refused = await gw.login('alice', 'wrong')
  t.match(refused, { ok: false, failure: { kind: 'auth_failed', httpStatus: 401, attempts: 1 } }, 'refused credentials: not retried')
  if (!refused.ok) t.notMatch(refused.failure.message, /wrong/, 'the password never shows')
  const login = await gw.login('alice', 'alice-pw')
  t.match(login, { ok: true, value: { token: String, expiresInS: 3600 } })
  if (!login.ok) return

  const got = await gw.fetchDocument(DOC, { session: login.value.token })
  t.ok(got.ok)
  t.same(records.requests.filter((r) => r.path.endsWith('/fetch')).map((r) => r.account), ['alice'], "bought in alice's account")
  t.equal(records.logins, 1, "the service's account never logged in")

  records.expireSessions()
  const before = records.requests.length
  const expired = await gw.fetchDocument(DOC, { session: login.value.token })
  t.match(expired, { ok: false, failure: { kind: 'session_expired', fetchStatus: 3, message: /Request it again with your credentials/ } })
  t.equal(records.requests.length, before + 1, 'one call: no renewal in the service account, nothing bought in it')
  t.equal(records.logins, 1)

  // a login through a records system that fails is retried, then a typed failure
  const nowhere = createRecordsGateway({ baseUrl: 'http://127.0.0.1:1', username: '', password: '', retries: 1, minRetryMs: 5, maxRetryMs: 5, timeoutMs: 500 })
  t.match(await nowhere.login('alice', 'alice-pw'), { ok: false, failure: { kind: 'upstream_error', attempts: 2 } })
})

t.test('no session and no service account: the request needs the user again, nothing is sent', async (t) => {
  const records = await startFakeRecords({ username: 'clerk', password: 'hunter2' })
  t.teardown(() => records.close())
  records.addDocument(DOC)
  const gw = createRecordsGateway({ baseUrl: records.url, username: '', password: '', retries: 3, minRetryMs: 5 })
  t.match(await gw.fetchDocument(DOC), { ok: false, failure: { kind: 'needs_info', fetchStatus: 7, message: /request it again with your credentials/ } })
  t.equal(records.requests.length, 0)
})
