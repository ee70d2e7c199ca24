/**
 * Webhook delivery under trouble: a receiver that fails half the time and sometimes answers too
 * late, and a delivery consumer SIGKILLed in the middle of the schedule and started again. Every
 * event is delivered, each Idempotency-Key stands for one event (an idempotent receiver processes
 * it once), and every delivery's signature verifies with the Standard Webhooks library.
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { PROJECT_ROOT } from '../../core/config.js'
import { testStack, testUser, waitFor } from '../helpers/stack.js'
import { startWebhookReceiver, ok, fail, timeout, type Delivery } from '../helpers/webhook-receiver.js'
import { startProcessors, stopAll } from '../../bin/runtime.js'
import { buildApp } from '../../api/app.js'
import { openPublisher } from '../../core/events/publisher.js'
import { openWebhookQueue } from '../../core/events/webhook-queue.js'
import { createWebhookEmitter } from '../../core/events/webhook-emitter.js'
import { programArgs } from '../../core/programs.js'

const SCALE = 36_000 // the whole retry schedule in 5.5 s
const EVENTS = 120

/** Half the attempts fail (a few by answering after the one-second limit); never more than 5 in a row. */
function behaviour(key: string, attempt: number) {
  const roll = createHash('sha1').update(`${key}:${attempt}`).digest()[0] / 256
  if (attempt >= 5 || roll >= 0.5) return ok()
  return roll < 0.08 ? timeout(1_300) : fail(roll < 0.3 ? 500 : 429)
}

t.test('a flaky receiver and a killed delivery consumer: everything delivered once', async (t) => {
  const seen = new Map<string, number>()
  const receiver = await startWebhookReceiver({ default: (d: Delivery) => { const n = seen.get(d.idempotencyKey) ?? 0; seen.set(d.idempotencyKey, n + 1); return behaviour(d.idempotencyKey, n) } })
  t.teardown(() => receiver.close())
  const rt = await testStack(t, { LDS_TIME_SCALE: String(SCALE), LDS_WEBHOOKS_ALLOW_INSECURE: '1' })
  const streams = await startProcessors(rt, ['table-sink'])
  t.teardown(() => stopAll(rt, streams))
  const app = await buildApp(rt)
  t.teardown(() => app.close())
  const token = await testUser(rt, 'owner', { app })
  const created = await app.inject({ method: 'POST', url: '/api/rest/v4/webhooks/', headers: { authorization: `Token ${token}` }, payload: { url: receiver.url, event_type: 2, version: 2, enabled: true } })
  const hook = created.json()

  const env = { ...process.env, LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, LDS_TIME_SCALE: String(SCALE), LDS_WEBHOOKS_ALLOW_INSECURE: '1', LOG_LEVEL: 'error' }
  const startDelivery = (): ChildProcess => spawn(process.execPath, programArgs('bin/lds-cli.ts', ['run', '--roles', 'webhook-delivery']), { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] })
  let child = startDelivery()
  t.teardown(() => { child.kill('SIGKILL') })

  const publisher = await openPublisher(rt)
  const queue = await openWebhookQueue(rt)
  t.teardown(async () => { await publisher.stop(); await queue.stop() })
  const store = app.readModel!.store
  const emitter = createWebhookEmitter({ queue, publisher, clock: rt.clock, endpointsOf: (u, type) => store.keysWhere('webhooks', 'user_id', u).map((k) => store.get('webhooks', k)!).filter((w) => Number(w.event_type) === type) })
  const userId = Number(store.get('webhooks', hook.id)!.user_id)
  const ids: string[] = []
  for (let i = 0; i < EVENTS; i++) {
    const [e] = await emitter.emit({ userId, eventType: 2, payload: () => ({ results: [{ n: i }], alert: { id: 1, name: 'x' } }) })
    ids.push(e.event_id)
  }

  // Kill the consumer once deliveries are under way, with retries pending, then start it again.
  await waitFor(async () => receiver.deliveries.length >= EVENTS / 2, 'deliveries under way', 60_000, 20)
  child.kill('SIGKILL')
  await new Promise((r) => child.once('exit', r))
  const atKill = receiver.deliveries.length
  child = startDelivery()

  const delivered = () => new Set(receiver.deliveries.filter((d) => d.answeredWith !== null && d.answeredWith < 300).map((d) => d.idempotencyKey))
  await waitFor(async () => ids.every((id) => delivered().has(id)), 'every event answered 2xx', 120_000, 100)
  t.pass(`killed after ${atKill} deliveries; restarted`)
  t.same([...delivered()].filter((k) => !ids.includes(k)), [], 'no key that is not an event')
  const byKey = receiver.idempotent()
  t.equal(byKey.size, EVENTS, 'one Idempotency-Key per event')
  for (const [key, list] of byKey) {
    const bodies = new Set(list.map((d) => d.json?.payload?.results?.[0]?.n))
    if (bodies.size !== 1) t.fail(`key ${key} carried ${bodies.size} different events`)
  }
  const wh = new Webhook(hook.secret)
  let verified = 0
  for (const d of receiver.deliveries) {
    try { wh.verify(d.body, { 'webhook-id': d.headers['webhook-id'], 'webhook-timestamp': d.headers['webhook-timestamp'], 'webhook-signature': d.headers['webhook-signature'] }); verified++ } catch { t.fail(`signature of ${d.idempotencyKey} did not verify`) }
  }
  t.equal(verified, receiver.deliveries.length, `all ${verified} deliveries signed`)
  t.ok(receiver.deliveries.length > EVENTS, `retries happened (${receiver.deliveries.length} deliveries for ${EVENTS} events)`)
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
})
