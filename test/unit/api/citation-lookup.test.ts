import t from 'tap'
import { parseLookupRequest, DEFAULT_LIMITS } from '../../../api/routes/citation-lookup.js'
import { createCitationThrottle, parseRate } from '../../../api/plugins/citation-throttle.js'
import { parseAuthorization } from '../../../api/plugins/auth.js'
import { manualClock } from '../../../core/clock.js'

const body = (e: unknown) => (e as { body: unknown }).body

t.test('request validation answers in the reference shapes', async (t) => {
  const errOf = (b: unknown) => { try { parseLookupRequest(b, DEFAULT_LIMITS) } catch (e) { return { status: (e as { status: number }).status, body: body(e) } } }
  t.same(errOf({}), { status: 400, body: { non_field_errors: ["Either 'text' or 'reporter' is required."] } })
  t.same(errOf({ text: 'x', reporter: 'U.S.' }), { status: 400, body: { non_field_errors: ["Invalid request. Provide either a 'text' or 'reporter', not both."] } })
  t.same(errOf({ reporter: 'U.S.' }), { status: 400, body: { volume: ['This field is required.'], page: ['This field is required.'] } })
  t.same(errOf({ text: 'a'.repeat(64_001) }), { status: 400, body: { text: ['Ensure this field has no more than 64000 characters.'] } })
  t.same(parseLookupRequest({ text: 'a'.repeat(64_000) }, DEFAULT_LIMITS), { text: 'a'.repeat(64_000) })
  t.same(parseLookupRequest({ volume: ['576'], reporter: ' U.S. ', page: '644' }, DEFAULT_LIMITS), { volume: '576', reporter: 'U.S.', page: '644' }, 'form lists and padding')
})

t.test('the citation throttle counts citations and makes big requests wait longer', async (t) => {
  const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'))
  const rate = parseRate('20/min')
  const th = createCitationThrottle(clock, rate)
  th.check('u'); th.record('u', 60)
  let err: unknown
  try { th.check('u') } catch (e) { err = e }
  t.same(body(err), { error_message: 'Too many requests (allowed rate: 20/min).', wait_until: '2026-01-01T00:03:00.000Z' }, '60 citations at 20/min occupy 3 minutes')
  t.equal((err as { status: number }).status, 429)
  clock.advance(180_001)
  t.doesNotThrow(() => th.check('u'))
  th.check('other')
  t.throws(() => parseRate('sixty per minute'))
  for (let i = 0; i < 19; i++) th.record('v', 1)
  t.doesNotThrow(() => th.check('v'), '19 of 20 used')
  th.record('v', 1)
  t.throws(() => th.check('v'), { status: 429, message: 'Request was throttled.' })
})

t.test('only "Token <key>" authenticates', async (t) => {
  t.same(parseAuthorization('Token abc123'), { scheme: 'token', key: 'abc123' })
  t.same(parseAuthorization('token   abc123 '), { scheme: 'token', key: 'abc123' })
  t.same(parseAuthorization('abc123'), { scheme: 'none' }, 'a bare key does not authenticate')
  t.same(parseAuthorization('Bearer xyz'), { scheme: 'bearer', key: 'xyz' })
  t.same(parseAuthorization(undefined), { scheme: 'none' })
})
