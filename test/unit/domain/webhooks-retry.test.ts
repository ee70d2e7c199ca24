import t from 'tap'
import {
  EVENT_STATUS, transition, canTransition, IllegalEventTransition, isPending,
  afterFailure, onReenable, holdOnDisable, elapsedBeforeRetry, RETRY_DELAYS_MS, MAX_RETRY_COUNTER, MAX_ATTEMPTS,
  MINUTE_MS, HOUR_MS, DAY_MS, REENABLE_WINDOW_MS,
  classifyAttempt, truncateResponse, RESPONSE_TIMEOUT_MS, RESPONSE_BODY_LIMIT,
} from '../../../domain/webhooks/index.js'
import { manualClock, systemClock } from '../../../core/clock.js'

t.test('the event lifecycle is a guarded table', async (t) => {
  t.equal(transition(EVENT_STATUS.IN_PROGRESS, 'delivered'), EVENT_STATUS.DELIVERED)
  t.equal(transition(EVENT_STATUS.IN_PROGRESS, 'failed_retry'), EVENT_STATUS.ENQUEUED_RETRY)
  t.equal(transition(EVENT_STATUS.ENQUEUED_RETRY, 'failed_final'), EVENT_STATUS.FAILED)
  t.equal(transition(EVENT_STATUS.ENQUEUED_RETRY, 'endpoint_disabled'), EVENT_STATUS.ENDPOINT_DISABLED)
  t.equal(transition(EVENT_STATUS.ENDPOINT_DISABLED, 'reenabled'), EVENT_STATUS.ENQUEUED_RETRY)
  t.equal(transition(EVENT_STATUS.FAILED, 'reenabled'), EVENT_STATUS.ENQUEUED_RETRY)
  t.throws(() => transition(EVENT_STATUS.DELIVERED, 'failed_retry'), IllegalEventTransition)
  t.throws(() => transition(EVENT_STATUS.FAILED, 'delivered'), /illegal webhook event transition: Failed on delivered/)
  t.notOk(canTransition(EVENT_STATUS.DELIVERED, 'reenabled'))
  t.ok(isPending(EVENT_STATUS.ENQUEUED_RETRY))
  t.notOk(isPending(EVENT_STATUS.ENDPOINT_DISABLED))
})

t.test('the schedule is 3 minutes × 3ⁿ, seven retries, 54h39m in all', async (t) => {
  t.same(RETRY_DELAYS_MS.map((ms) => ms / MINUTE_MS), [3, 9, 27, 81, 243, 729, 2187])
  t.equal(MAX_RETRY_COUNTER, 7)
  t.equal(MAX_ATTEMPTS, 8)
  t.same([1, 2, 3, 4, 5, 6, 7].map((n) => elapsedBeforeRetry(n) / MINUTE_MS), [3, 12, 39, 120, 363, 1092, 3279])
  t.equal(elapsedBeforeRetry(7), 54 * HOUR_MS + 39 * MINUTE_MS)
})

t.test('walking one event through eight failures', async (t) => {
  const clock = manualClock(1_700_000_000_000)
  const seen: { counter: number; delay: number | null; email: string | null; status: number; disable: boolean }[] = []
  let counter = 0
  for (;;) {
    const out = afterFailure({ retryCounter: counter, isOldestPending: true }, clock.now(), { scaled: clock.scaled })
    seen.push({ counter, delay: out.delayMs === null ? null : out.delayMs / MINUTE_MS, email: out.email, status: out.status, disable: out.disableEndpoint })
    t.equal(out.failureNumber, counter + 1)
    t.equal(out.retryCounter, counter + 1)
    t.ok(out.countsTowardFailures)
    if (out.nextAttemptAt === null) break
    t.equal(out.nextAttemptAt - clock.now(), out.delayMs)
    clock.advance(out.delayMs!)
    counter = out.retryCounter
  }
  t.same(seen, [
    { counter: 0, delay: 3, email: null, status: EVENT_STATUS.ENQUEUED_RETRY, disable: false },
    { counter: 1, delay: 9, email: 'failing', status: EVENT_STATUS.ENQUEUED_RETRY, disable: false },
    { counter: 2, delay: 27, email: null, status: EVENT_STATUS.ENQUEUED_RETRY, disable: false },
    { counter: 3, delay: 81, email: null, status: EVENT_STATUS.ENQUEUED_RETRY, disable: false },
    { counter: 4, delay: 243, email: null, status: EVENT_STATUS.ENQUEUED_RETRY, disable: false },
    { counter: 5, delay: 729, email: 'failing', status: EVENT_STATUS.ENQUEUED_RETRY, disable: false },
    { counter: 6, delay: 2187, email: null, status: EVENT_STATUS.ENQUEUED_RETRY, disable: false },
    { counter: 7, delay: null, email: 'disabled', status: EVENT_STATUS.FAILED, disable: true },
  ])
  t.equal(clock.now() - 1_700_000_000_000, elapsedBeforeRetry(7), 'the 8th failure comes 54h39m after the first attempt')
})

t.test('only the oldest pending event e-mails; test events never retry, count or disable', async (t) => {
  t.equal(afterFailure({ retryCounter: 1, isOldestPending: false }, 0).email, null)
  const last = afterFailure({ retryCounter: 7, isOldestPending: false }, 0)
  t.equal(last.email, null)
  t.ok(last.disableEndpoint, 'a younger event reaching its 8th failure still disables the endpoint')
  const test = afterFailure({ retryCounter: 0, isOldestPending: true, debug: true }, 0)
  t.same({ status: test.status, next: test.nextAttemptAt, email: test.email, disable: test.disableEndpoint, counts: test.countsTowardFailures },
    { status: EVENT_STATUS.FAILED, next: null, email: null, disable: false, counts: false })
  t.throws(() => afterFailure({ retryCounter: 8, isOldestPending: true }, 0), RangeError)
  t.throws(() => afterFailure({ retryCounter: -1, isOldestPending: true }, 0), RangeError)
})

t.test('LDS_TIME_SCALE shrinks the schedule through the clock', async (t) => {
  const clock = systemClock(1000)
  const out = afterFailure({ retryCounter: 6, isOldestPending: true }, 5_000, { scaled: clock.scaled })
  t.equal(out.delayMs, 2187 * MINUTE_MS, 'the delay stays in scheduled time')
  t.equal(out.nextAttemptAt, 5_000 + Math.round((2187 * MINUTE_MS) / 1000), 'the due time is wall time')
})

t.test('disabling holds pending events; re-enabling resends the last two days', async (t) => {
  const now = 10 * DAY_MS
  const events = [
    { id: 'a', status: EVENT_STATUS.ENQUEUED_RETRY },
    { id: 'b', status: EVENT_STATUS.IN_PROGRESS },
    { id: 'c', status: EVENT_STATUS.DELIVERED },
    { id: 'd', status: EVENT_STATUS.ENQUEUED_RETRY, debug: true },
  ]
  t.same(holdOnDisable(events), ['a', 'b'])

  const plan = onReenable([
    { id: 'failed-now', status: EVENT_STATUS.FAILED, failedAt: now - 1000 },        // the one that disabled it
    { id: 'held-1d', status: EVENT_STATUS.ENDPOINT_DISABLED, failedAt: now - DAY_MS },
    { id: 'held-edge', status: EVENT_STATUS.ENDPOINT_DISABLED, failedAt: now - REENABLE_WINDOW_MS },
    { id: 'held-3d', status: EVENT_STATUS.ENDPOINT_DISABLED, failedAt: now - 3 * DAY_MS },
    { id: 'failed-3d', status: EVENT_STATUS.FAILED, failedAt: now - 3 * DAY_MS },
    { id: 'delivered', status: EVENT_STATUS.DELIVERED, failedAt: now },
    { id: 'test', status: EVENT_STATUS.FAILED, failedAt: now, debug: true },
  ], now)
  t.same(plan.resend, ['failed-now', 'held-1d', 'held-edge'])
  t.same(plan.expire, ['held-3d'], 'older held events become failed; older failed ones stay as they are')

  const scaled = onReenable([{ id: 'x', status: EVENT_STATUS.FAILED, failedAt: now - 200_000 }], now, { scaled: (ms) => ms / 1000 })
  t.same(scaled.resend, [], 'under a time scale of 1000 the two days last 172.8 s')
})

t.test('success is a 2xx within one second; the rest fails', async (t) => {
  t.equal(RESPONSE_TIMEOUT_MS, 1000)
  t.ok(classifyAttempt({ status: 200, elapsedMs: 20, body: 'ok' }).ok)
  t.ok(classifyAttempt({ status: 204, elapsedMs: 999 }).ok)
  t.same(classifyAttempt({ status: 200, elapsedMs: 1500 }), { ok: false, status_code: 200, response: '', error_message: 'No response within 1000 ms.' })
  const redirect = classifyAttempt({ status: 301, elapsedMs: 5 })
  t.notOk(redirect.ok)
  t.match(redirect.error_message, /Redirects are not followed/)
  for (const status of [100, 302, 307, 400, 404, 500, 503]) t.notOk(classifyAttempt({ status, elapsedMs: 1 }).ok, String(status))
  t.same(classifyAttempt({ error: 'ECONNREFUSED' }), { ok: false, status_code: null, response: '', error_message: 'ECONNREFUSED' })
})

t.test('the response body is kept up to 4 KB, on a character boundary', async (t) => {
  t.equal(RESPONSE_BODY_LIMIT, 4096)
  t.equal(truncateResponse('x'.repeat(5000)).length, 4096)
  const euro = '€'.repeat(2000) // 3 bytes each
  const kept = truncateResponse(euro)
  t.equal(Buffer.byteLength(kept), 4095)
  t.notMatch(kept, /\uFFFD/)
  t.equal(truncateResponse(new TextEncoder().encode('hello')), 'hello')
  t.equal(truncateResponse(undefined), '')
})
