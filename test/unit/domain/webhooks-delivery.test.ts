/**
 * The webhook rules against a real HTTP exchange: a minimal sender built only from the domain
 * functions (envelope, signature, success rule) posts to the test receiver. The production
 * delivery consumer lives in streams/; this checks the rules and the receiver helper agree.
 */
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import {
  buildEnvelope, serializeEnvelope, signatureHeaders, newWebhookSecret, classifyAttempt, RESPONSE_TIMEOUT_MS,
  samplePayload, checkWebhookUrl, type AttemptOutcome,
} from '../../../domain/webhooks/index.js'
import { startWebhookReceiver, ok, fail, timeout, redirect } from '../../helpers/webhook-receiver.js'

async function deliver(url: string, eventId: string, body: string, secret: string): Promise<AttemptOutcome> {
  const started = Date.now()
  try {
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
      headers: { 'content-type': 'application/json', 'idempotency-key': eventId, ...signatureHeaders(secret, eventId, Date.now(), body) },
      body,
    })
    const elapsedMs = Date.now() - started
    const text = await res.text()
    return classifyAttempt({ status: res.status, elapsedMs, body: text })
  } catch (err) {
    const e = err as Error
    return classifyAttempt({ error: e.name === 'TimeoutError' ? `No response within ${RESPONSE_TIMEOUT_MS} ms.` : e.message })
  }
}

t.test('a signed delivery, retried under one Idempotency-Key, judged by the success rule', async (t) => {
  const rx = await startWebhookReceiver()
  t.teardown(() => rx.close())
  t.ok(checkWebhookUrl(rx.url, { allowInsecure: true }).ok)
  t.notOk(checkWebhookUrl(rx.url).ok, 'a loopback http receiver needs allowInsecure')

  const secret = newWebhookSecret()
  const eventId = randomUUID()
  const body = serializeEnvelope(buildEnvelope({ event_type: 5, version: 2, date_created: Date.UTC(2024, 0, 1) }, samplePayload(5, 2)))

  rx.queue(fail(503, 'down'), redirect(), timeout(RESPONSE_TIMEOUT_MS + 500), ok(204, ''))
  const outcomes: AttemptOutcome[] = []
  for (let i = 0; i < 4; i++) outcomes.push(await deliver(rx.url, eventId, body, secret))

  t.same(outcomes.map((o) => o.ok), [false, false, false, true])
  t.same(outcomes[0], { ok: false, status_code: 503, response: 'down', error_message: 'HTTP 503' })
  t.equal(outcomes[1].status_code, 302)
  t.match(outcomes[1].error_message, /Redirects are not followed/)
  t.same(outcomes[2], { ok: false, status_code: null, response: '', error_message: 'No response within 1000 ms.' })
  t.equal(outcomes[3].status_code, 204)

  const deliveries = await rx.waitFor(4)
  t.same(deliveries.map((d) => d.answeredWith), [503, 302, 200, 204])
  t.same([...rx.idempotent().keys()], [eventId], 'one event, one key, four attempts')
  t.equal(rx.idempotent().get(eventId)?.length, 4)
  const [first] = deliveries
  t.equal(first.method, 'POST')
  t.equal(first.path, '/hook')
  t.equal(first.headers['content-type'], 'application/json')
  t.same(first.json.webhook, { version: 2, event_type: 5, date_created: '2024-01-01T00:00:00.000000+00:00', deprecation_date: null })
  t.same(new Webhook(secret).verify(first.body, {
    'webhook-id': first.headers['webhook-id'], 'webhook-timestamp': first.headers['webhook-timestamp'], 'webhook-signature': first.headers['webhook-signature'],
  }), JSON.parse(body), 'the receiver can verify what it got with the standardwebhooks package')
  t.ok(deliveries.every((d) => d.receivedAt >= first.receivedAt))
})

t.test('behaviours may be functions; the default applies after the queue', async (t) => {
  const rx = await startWebhookReceiver({ default: fail(410) })
  t.teardown(() => rx.close())
  rx.queue((d) => (d.json?.payload ? ok() : fail(400)))
  const a = await fetch(rx.url, { method: 'POST', body: '{"payload":{"x":1}}', headers: { 'idempotency-key': 'a' } })
  const b = await fetch(rx.url, { method: 'POST', body: 'not json', headers: { 'idempotency-key': 'b' } })
  t.same([a.status, b.status], [200, 410])
  await Promise.all([a.text(), b.text()])
  const [da, db] = await rx.waitFor(2)
  t.same(da.json, { payload: { x: 1 } })
  t.equal(db.json, undefined)
  t.same([...rx.idempotent().keys()], ['a', 'b'])
  await t.rejects(rx.waitFor(3, 50), /2 of 3 deliveries/)
})
