/**
 * Standard Webhooks signatures (our addition; the reference has none). Each delivery carries
 *
 *   webhook-id:        the event id (the same UUID as Idempotency-Key, unchanged across retries)
 *   webhook-timestamp: seconds since the epoch when this attempt was signed
 *   webhook-signature: "v1," + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`))
 *
 * The secret is "whsec_" + base64 of the key bytes (at least 24 random bytes), so any Standard
 * Webhooks library verifies our deliveries. Secrets are shown once to the owner and never logged.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const SECRET_PREFIX = 'whsec_'
export const SECRET_BYTES = 32
const MIN_SECRET_BYTES = 24

/** A fresh secret: whsec_ + base64 of 32 random bytes. */
export function newWebhookSecret(bytes = SECRET_BYTES): string {
  if (bytes < MIN_SECRET_BYTES) throw new RangeError(`a webhook secret needs at least ${MIN_SECRET_BYTES} bytes`)
  return SECRET_PREFIX + randomBytes(bytes).toString('base64')
}

/** The key bytes of a secret; throws on a malformed or short secret. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret must start with whsec_')
  const b64 = secret.slice(SECRET_PREFIX.length)
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new Error('webhook secret is not base64')
  const key = Buffer.from(b64, 'base64')
  if (key.length < MIN_SECRET_BYTES) throw new Error(`webhook secret shorter than ${MIN_SECRET_BYTES} bytes`)
  return key
}

/** "v1," + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)). `timestamp` is in seconds. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  if (!Number.isInteger(timestamp)) throw new TypeError('webhook timestamp must be whole seconds')
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')
  return `v1,${mac}`
}

export interface SignatureHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

/** The three signature headers for one attempt; `nowMs` from the clock (wall time). */
export function signatureHeaders(secret: string, id: string, nowMs: number, body: string): SignatureHeaders {
  const timestamp = Math.floor(nowMs / 1000)
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, id, timestamp, body) }
}

/** Default tolerance between the signed timestamp and the receiver's clock, as in Standard Webhooks. */
export const SIGNATURE_TOLERANCE_S = 5 * 60

/**
 * Checks a delivery the way a receiver would (used by our own tests and tools). The header may
 * hold several space-separated signatures (key rotation); one match suffices.
 */
export function verifyWebhook(secret: string, headers: Partial<SignatureHeaders>, body: string, nowMs: number, toleranceS = SIGNATURE_TOLERANCE_S): boolean {
  const id = headers['webhook-id']
  const ts = Number(headers['webhook-timestamp'])
  const sigs = headers['webhook-signature']
  if (!id || !sigs || !Number.isInteger(ts)) return false
  if (Math.abs(Math.floor(nowMs / 1000) - ts) > toleranceS) return false
  const expected = Buffer.from(signWebhook(secret, id, ts, body).slice(3), 'base64')
  for (const candidate of sigs.split(' ')) {
    const [version, mac] = candidate.split(',', 2)
    if (version !== 'v1' || !mac) continue
    const got = Buffer.from(mac, 'base64')
    if (got.length === expected.length && timingSafeEqual(got, expected)) return true
  }
  return false
}
