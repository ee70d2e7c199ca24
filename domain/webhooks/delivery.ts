/**
 * The success rule of one delivery attempt, and what of the answer is kept.
 *
 * A delivery succeeds only when a 2xx status arrives within RESPONSE_TIMEOUT_MS. Everything else
 * is a failure: 1xx, 3xx (redirects are never followed), 4xx, 5xx, a connection error, or no
 * answer in time. The first RESPONSE_BODY_LIMIT bytes of the response body are kept for the
 * webhook logs.
 *
 * RESPONSE_TIMEOUT_MS is NOT divided by LDS_TIME_SCALE: it bounds a real HTTP exchange with the
 * receiver, not a scheduled delay, so a scaled test gives the receiver the same one second.
 */

/** One second for the receiver to answer with a 2xx. Wall time; never scaled. */
export const RESPONSE_TIMEOUT_MS = 1000

/** Bytes of the response body kept on the event. */
export const RESPONSE_BODY_LIMIT = 4 * 1024

/** Headers of each delivery besides the Standard Webhooks signature headers. */
export const DELIVERY_CONTENT_TYPE = 'application/json'

export interface AttemptResult {
  /** The HTTP status, when an answer arrived. */
  status?: number
  /** Milliseconds from sending the request to the status line. */
  elapsedMs?: number
  /** The response body (only the first RESPONSE_BODY_LIMIT bytes are kept). */
  body?: string | Uint8Array
  /** A transport error: refused, reset, DNS, TLS, aborted by the timeout... */
  error?: string
}

export interface AttemptOutcome {
  ok: boolean
  status_code: number | null
  response: string
  error_message: string
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300
}

/** Applies the success rule to what the transport saw. */
export function classifyAttempt(r: AttemptResult): AttemptOutcome {
  const response = truncateResponse(r.body)
  const status_code = r.status ?? null
  if (r.error) return { ok: false, status_code, response, error_message: r.error }
  if (status_code === null) return { ok: false, status_code, response, error_message: 'No response received.' }
  if (r.elapsedMs !== undefined && r.elapsedMs > RESPONSE_TIMEOUT_MS) {
    return { ok: false, status_code, response, error_message: `No response within ${RESPONSE_TIMEOUT_MS} ms.` }
  }
  if (status_code >= 300 && status_code < 400) return { ok: false, status_code, response, error_message: `Redirects are not followed (HTTP ${status_code}).` }
  if (!isSuccessStatus(status_code)) return { ok: false, status_code, response, error_message: `HTTP ${status_code}` }
  return { ok: true, status_code, response, error_message: '' }
}

/** The first 4 KB of a body as text, cut on a character boundary. */
export function truncateResponse(body: string | Uint8Array | undefined): string {
  if (body === undefined) return ''
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  if (bytes.length <= RESPONSE_BODY_LIMIT) return bytes.toString('utf8')
  let end = RESPONSE_BODY_LIMIT
  // step back over UTF-8 continuation bytes so a character is never split
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}
