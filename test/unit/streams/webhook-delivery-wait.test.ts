/**
 * How long webhook delivery's idle fetch waits on the broker. A retry that arrives on a partition
 * resumed after its held retries can be late by one wait, so the wait follows the clock: the idle
 * wait of every other consumer in real time, and never so long that a scaled clock's retries slip.
 */
import t from 'tap'
import { deliveryFetchWaitMs } from '../../../streams/webhooks/delivery.js'
import { systemClock } from '../../../core/clock.js'
import { IDLE_FETCH_WAIT_MS } from '../../../core/kafka.js'
import { RETRY_DELAYS_MS } from '../../../domain/webhooks/index.js'

t.test('real time: the idle wait of the other consumers, a small part of the shortest retry delay', async (t) => {
  const wait = deliveryFetchWaitMs(systemClock(1))
  t.equal(wait, IDLE_FETCH_WAIT_MS)
  t.ok(wait <= RETRY_DELAYS_MS[0] / 30, 'at most about 3 % of the 3-minute first retry')
})

t.test('a scaled clock (tests run at 3600): short, but not a busy poll', async (t) => {
  t.equal(deliveryFetchWaitMs(systemClock(3600)), 250)
  t.equal(deliveryFetchWaitMs(systemClock(60)), 250, '3 minutes run in 3 s: 1/36 of that is under the floor')
  t.equal(deliveryFetchWaitMs(systemClock(10)), 500, '3 minutes in 18 s: 500 ms')
})
