/**
 * Webhook retries wait for the injected clock, not for real time: on a manual clock a retry is
 * sent when the clock is moved to its due time, and not a millisecond before.
 */
import t, { type Test } from 'tap'
import { testStack, testUser, waitFor } from '../helpers/stack.js'
import { startWebhookReceiver, ok, fail } from '../helpers/webhook-receiver.js'
import { startProcessors, stopAll, type Runtime } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../core/events/publisher.js'
import { createWebhookEmitter } from '../../core/events/webhook-emitter.js'
import { RETRY_DELAYS_MS } from '../../domain/webhooks/index.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import { queuedDeliveries } from '../helpers/queued.js'
import { manualClock, type Clock } from '../../core/clock.js'
import type { FastifyInstance } from 'fastify'

/** An emitter like the event sources use, on `clock`, reading endpoints from the app's read model. */
async function emitterFor(t: Test, rt: Runtime, app: FastifyInstance, clock: Clock) {
  const publisher = await openPublisher(rt)
  const queue = await openWebhookQueue(rt)
  t.teardown(async () => { await publisher.stop(); await queue.stop() })
  const store = app.readModel!.store
  return createWebhookEmitter({
    queue, publisher, clock,
    endpointsOf: (user, type) => store.keysWhere('webhooks', 'user_id', user).map((k) => store.get('webhooks', k)!).filter((w) => Number(w.event_type) === type),
  })
}

t.test('a retry is due by the clock: it is sent when the clock reaches its time, not before', async (t) => {
  const receiver = await startWebhookReceiver({ default: ok() })
  receiver.queue(fail(500))
  t.teardown(() => receiver.close())
  const rt = await testStack(t, { LDS_WEBHOOKS_ALLOW_INSECURE: '1' })
  const sink = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, sink))
  // Delivery and the emitter on a clock that moves only when told to: no real time makes a retry due.
  const clock = manualClock(Date.now())
  const delivery = await startProcessors({ ...rt, clock }, ['webhook-delivery'])
  t.teardown(() => stopAll(rt, delivery))
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const token = await testUser(rt, 'owner', { app })
  const created = await app.inject({ method: 'POST', url: '/api/rest/v4/webhooks/', headers: { authorization: `Token ${token}`, host: 'x.test' }, payload: { url: receiver.url, event_type: 1, version: 2, enabled: true } })
  const userId = app.readModel!.store.get('webhooks', created.json().id)!.user_id as number
  const emitter = await emitterFor(t, rt, app, clock)
  const [first] = await emitter.emit({ userId, eventType: 1, payload: () => ({ n: 1 }) })
  await receiver.waitFor(1, 30_000)
  const retry = await waitFor(async () => (await queuedDeliveries(rt)).map((q) => q.event).find((e) => e.event_id === first.event_id && e.retry_counter === 1), 'the first retry queued', 30_000)
  t.equal(retry.due_at - retry.first_attempt_at!, RETRY_DELAYS_MS[0], 'due three minutes after the first attempt')

  clock.advance(retry.due_at - 1 - clock.now())
  // A second event, due now, goes through the same consumer: once it has arrived, a retry that
  // fired a millisecond early would have arrived before it.
  const [second] = await emitter.emit({ userId, eventType: 1, payload: () => ({ n: 2 }) })
  await waitFor(async () => receiver.deliveries.some((d) => d.idempotencyKey === second.event_id), 'the second event delivered', 30_000)
  t.equal(receiver.deliveries.filter((d) => d.idempotencyKey === first.event_id).length, 1, 'no retry a millisecond before it is due')

  clock.advance(1)
  await waitFor(async () => receiver.deliveries.filter((d) => d.idempotencyKey === first.event_id).length === 2, 'the retry sent once the clock reached its due time', 30_000)
  t.pass('retried at its due time')
})
