import t from 'tap'
import { randomUUID } from 'node:crypto'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { newWebhookSecret, signWebhook, signatureHeaders, verifyWebhook, secretKey } from '../../../domain/webhooks/index.js'

t.test('secrets are whsec_ + base64 of at least 24 random bytes', async (t) => {
  const s = newWebhookSecret()
  t.match(s, /^whsec_[A-Za-z0-9+/]+={0,2}$/)
  t.equal(secretKey(s).length, 32)
  t.not(newWebhookSecret(), s)
  t.equal(secretKey(newWebhookSecret(24)).length, 24)
  t.throws(() => newWebhookSecret(16), RangeError)
  t.throws(() => secretKey('abc'), /whsec_/)
  t.throws(() => secretKey('whsec_' + Buffer.alloc(8).toString('base64')), /shorter/)
})

t.test('the signature matches the Standard Webhooks definition (known vector)', async (t) => {
  // key bytes 0..31, so anyone can recompute this vector with any HMAC tool
  const secret = 'whsec_' + Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64')
  const sig = signWebhook(secret, 'msg_1', 1_700_000_000, '{"a":1}')
  t.match(sig, /^v1,[A-Za-z0-9+/]{43}=$/)
  t.equal(sig, new Webhook(secret).sign('msg_1', new Date(1_700_000_000_000), '{"a":1}'), 'the reference library computes the same')
  t.throws(() => signWebhook(secret, 'msg_1', 1.5, '{}'), /whole seconds/)
})

t.test('a signed delivery verifies with the standardwebhooks package', async (t) => {
  const secret = newWebhookSecret()
  const id = randomUUID()
  const body = JSON.stringify({ webhook: { version: 2, event_type: 1 }, payload: { results: [{ description: 'naïve — ünïcode' }] } })
  const headers = signatureHeaders(secret, id, Date.now(), body)
  t.equal(headers['webhook-id'], id)
  t.match(headers['webhook-timestamp'], /^\d{10}$/)

  const wh = new Webhook(secret)
  t.same(wh.verify(body, { ...headers }), JSON.parse(body))
  t.throws(() => wh.verify(body + ' ', { ...headers }), WebhookVerificationError, 'a changed body fails')
  t.throws(() => new Webhook(newWebhookSecret()).verify(body, { ...headers }), WebhookVerificationError, 'another secret fails')
  const old = signatureHeaders(secret, id, Date.now() - 10 * 60_000, body)
  t.throws(() => wh.verify(body, { ...old }), WebhookVerificationError, 'a stale timestamp fails')

  t.ok(verifyWebhook(secret, headers, body, Date.now()), 'our own verifier agrees')
  t.notOk(verifyWebhook(secret, headers, body + 'x', Date.now()))
  t.notOk(verifyWebhook(secret, old, body, Date.now()))
  t.ok(verifyWebhook(secret, { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` }, body, Date.now()), 'one of several signatures suffices')
})
