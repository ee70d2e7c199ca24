/**
 * Client of the upstream court-records system, used by archive fetch: log in, then fetch a
 * document (PDF) or a docket (JSON). A fetch is made in the session of the user who asked for it
 * (`login` with the user's credentials when the request is made, the token passed as `session`:
 * purchases are billed to the user's own account, and the password is never kept), or, for a
 * request without one, in the service's own session (`username`/`password`, optional). A thin, typed edge (STYLE habit
 * 8): every answer becomes either `{ ok: true, value }` or `{ ok: false, failure }` with a kind,
 * the archive-fetch status it leads to, and a human message for the fetch request's `message`.
 *
 * Protocol (JSON over HTTP; test/helpers/fake-records.ts speaks the server side):
 *
 *   POST {base}/api/v1/session          {"username", "password"}
 *        201 {"token", "expires_in"}    401 {"error": "invalid_credentials", "message"}
 *   POST {base}/api/v1/documents/fetch  Authorization: Bearer <token>
 *        {"court", "records_case_id", "records_doc_id", "document_number"?, "attachment_number"?}
 *        200 application/pdf bytes, X-Page-Count
 *   POST {base}/api/v1/dockets/fetch    Authorization: Bearer <token>
 *        {"court", "records_case_id" | "docket_number", "de_date_start", "de_date_end",
 *         "de_number_start", "de_number_end", "show_parties_and_counsel",
 *         "show_terminated_parties", "show_list_of_member_cases"}
 *        200 {"court", "records_case_id", "docket_number", "case_name", "entries": [...], ...}
 *   Errors: 4xx {"error": code, "message"}: 400 invalid_request, 401 session_expired
 *        (log in again) or invalid_credentials, 403 forbidden, 404 not_found,
 *        409 unavailable (e.g. only through a one-time link), 429 rate_limited; 5xx: failure.
 *
 * Each HTTP call has its own timeout. 5xx answers, timeouts and network errors are retried with
 * exponential backoff (p-retry), a bounded number of times; 4xx answers are not. An expired
 * session is renewed once per attempt without counting as a retry. Concurrent calls share one
 * login. The backoff is a few hundred milliseconds of wall time between network retries, not a
 * scheduled delay, so it is not scaled by LDS_TIME_SCALE. Credentials are never logged or put in
 * a failure message.
 */
import { createHash } from 'node:crypto'
import pRetry, { AbortError } from 'p-retry'
import type { Config } from '../core/config.js'

export interface RecordsGatewayOptions {
  baseUrl: string
  /** The service's own account, for requests without a user session; empty: none. */
  username: string
  password: string
  /** Per HTTP call. Default 30 s. */
  timeoutMs?: number
  /** Retries after the first attempt on 5xx / network errors / timeouts. Default 3. */
  retries?: number
  /** Backoff before the first retry (then ×2, up to maxRetryMs). Default 250 ms. */
  minRetryMs?: number
  maxRetryMs?: number
  userAgent?: string
}

export interface DocumentRequest {
  court: string
  records_case_id: string
  records_doc_id: string
  document_number?: string | null
  attachment_number?: number | null
}

export interface DocketRequest {
  court: string
  records_case_id?: string | null
  docket_number?: string | null
  de_date_start?: string | null
  de_date_end?: string | null
  de_number_start?: number | null
  de_number_end?: number | null
  show_parties_and_counsel?: boolean
  show_terminated_parties?: boolean
  show_list_of_member_cases?: boolean
}

export interface FetchedDocument {
  bytes: Buffer
  contentType: string
  sha1: string
  fileSize: number
  pageCount: number | null
}

export interface FetchedDocket {
  court: string
  records_case_id: string
  docket_number: string
  case_name: string
  entries: Record<string, unknown>[]
  [key: string]: unknown
}

/** Archive-fetch statuses a failure leads to: 3 failed, 6 invalid content, 7 needs info. */
export type FailureFetchStatus = 3 | 6 | 7

export const RECORDS_FAILURES = {
  needs_info: { fetchStatus: 7, message: 'More information is needed to fetch this item.' },
  invalid_request: { fetchStatus: 3, message: 'The records system refused the request as invalid.' },
  auth_failed: { fetchStatus: 3, message: 'The records system rejected the login. Check the username and password.' },
  session_expired: { fetchStatus: 3, message: 'The records-system session of this request ended before the fetch ran; nothing was bought. Request it again with your credentials.' },
  forbidden: { fetchStatus: 3, message: 'The records system does not allow access to this item (it may be sealed).' },
  not_found: { fetchStatus: 3, message: 'The records system has no such item.' },
  unavailable: { fetchStatus: 3, message: 'The document is unavailable through a one-time link.' },
  rate_limited: { fetchStatus: 3, message: 'The records system is limiting requests. Try again later.' },
  invalid_content: { fetchStatus: 6, message: 'The records system returned content that could not be used.' },
  timeout: { fetchStatus: 3, message: 'The records system did not answer in time.' },
  upstream_error: { fetchStatus: 3, message: 'The records system failed to answer. Try again later.' },
} as const satisfies Record<string, { fetchStatus: FailureFetchStatus; message: string }>

export type RecordsFailureKind = keyof typeof RECORDS_FAILURES

export interface RecordsFailure {
  kind: RecordsFailureKind
  /** The archive-fetch status to record. */
  fetchStatus: FailureFetchStatus
  /** Human-readable, for the fetch request's message. */
  message: string
  /** The last HTTP status seen, or null. */
  httpStatus: number | null
  /** HTTP attempts made (retries and re-logins included). */
  attempts: number
}

export type RecordsResult<T> = { ok: true; value: T; attempts: number } | { ok: false; failure: RecordsFailure }

/** A user's session with the records system (login). */
export interface RecordsSession {
  token: string
  /** Seconds the records system says it lasts, if it says. */
  expiresInS: number | null
}

/** Whose session a fetch uses: a user's (from login), else the service's own. */
export interface FetchOptions {
  signal?: AbortSignal
  /** A user's session token: used as it is, never renewed (the password is not kept). */
  session?: string
}

export interface RecordsGateway {
  /** Logs in with a user's own credentials (retried like a fetch on 5xx and network errors; a refusal is `auth_failed`). */
  login(username: string, password: string, signal?: AbortSignal): Promise<RecordsResult<RecordsSession>>
  fetchDocument(req: DocumentRequest, o?: FetchOptions): Promise<RecordsResult<FetchedDocument>>
  fetchDocket(req: DocketRequest, o?: FetchOptions): Promise<RecordsResult<FetchedDocket>>
}

/** A failure raised inside an attempt; `retriable` decides whether p-retry tries again. */
class AttemptFailure extends Error {
  constructor(readonly kind: RecordsFailureKind, readonly httpStatus: number | null, readonly detail: string | null, readonly retriable: boolean) {
    super(detail ?? RECORDS_FAILURES[kind].message)
    this.name = 'AttemptFailure'
  }
}

const STATUS_KINDS: Record<number, RecordsFailureKind> = { 400: 'invalid_request', 403: 'forbidden', 404: 'not_found', 409: 'unavailable', 410: 'unavailable', 422: 'invalid_request', 429: 'rate_limited' }

export function createRecordsGateway(opts: RecordsGatewayOptions): RecordsGateway {
  const base = opts.baseUrl.replace(/\/+$/, '')
  const timeoutMs = opts.timeoutMs ?? 30_000
  const retries = opts.retries ?? 3
  const ua = opts.userAgent ?? 'legal-data-service archive-fetch'
  let token: string | null = null
  let loggingIn: Promise<string> | null = null

  /** One HTTP call with its own timeout; network errors and timeouts become retriable failures. */
  async function call(path: string, body: unknown, auth: string | null, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(timeoutMs)
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
    try {
      return await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, application/pdf', 'user-agent': ua, ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: combined,
      })
    } catch (err) {
      if (signal?.aborted) throw new AbortError(err instanceof Error ? err : String(err))
      if (timeout.aborted) throw new AttemptFailure('timeout', null, null, true)
      throw new AttemptFailure('upstream_error', null, `The records system could not be reached: ${(err as Error).cause ? ((err as Error).cause as Error).message : (err as Error).message}`, true)
    }
  }

  async function errorOf(res: Response): Promise<AttemptFailure> {
    let message: string | null = null
    try {
      const j = (await res.json()) as { message?: unknown }
      if (typeof j.message === 'string' && j.message.trim()) message = j.message.trim().slice(0, 500)
    } catch { /* not JSON */ }
    if (res.status >= 500) return new AttemptFailure('upstream_error', res.status, `The records system failed (HTTP ${res.status}). Try again later.`, true)
    if (res.status === 401) return new AttemptFailure('auth_failed', 401, null, false)
    const kind = STATUS_KINDS[res.status] ?? 'invalid_request'
    return new AttemptFailure(kind, res.status, message, false)
  }

  /** One login call: the session, or a failure (401: the credentials were refused). */
  async function session(username: string, password: string, signal?: AbortSignal): Promise<RecordsSession> {
    const res = await call('/api/v1/session', { username, password }, null, signal)
    if (res.status === 200 || res.status === 201) {
      const j = (await res.json().catch(() => ({}))) as { token?: unknown; expires_in?: unknown }
      if (typeof j.token !== 'string' || !j.token) throw new AttemptFailure('upstream_error', res.status, 'The records system answered the login without a session token.', true)
      const ttl = Number(j.expires_in)
      return { token: j.token, expiresInS: Number.isFinite(ttl) && ttl > 0 ? ttl : null }
    }
    throw await errorOf(res)
  }

  /** The service's session, shared by concurrent calls. */
  async function login(signal?: AbortSignal): Promise<string> {
    if (!opts.username) throw new AttemptFailure('needs_info', null, 'This request has no records-system session of its own (they last a limited time) and the service has no account: request it again with your credentials.', false)
    loggingIn ??= (async () => {
      try {
        token = (await session(opts.username, opts.password, signal)).token
        return token
      } finally {
        loggingIn = null
      }
    })()
    return loggingIn
  }

  /**
   * An authorized call, in the user's session when given (a 401 then ends it: it cannot be
   * renewed without the password), else in the service's (renewed once when expired). Counts HTTP
   * calls in `counter`.
   */
  async function authorized(path: string, body: unknown, counter: { n: number }, signal?: AbortSignal, user?: string): Promise<Response> {
    if (user !== undefined) {
      counter.n++
      const res = await call(path, body, user, signal)
      if (res.ok) return res
      if (res.status === 401) { await res.body?.cancel(); throw new AttemptFailure('session_expired', 401, null, false) }
      throw await errorOf(res)
    }
    for (let renewals = 0; ; renewals++) {
      if (!token) { counter.n++; await login(signal) }
      counter.n++
      const res = await call(path, body, token, signal)
      if (res.status === 401 && renewals === 0) {
        await res.body?.cancel()
        token = null
        continue
      }
      if (res.ok) return res
      if (res.status === 401) token = null
      throw await errorOf(res)
    }
  }

  /** `attempt` under the retry policy: typed failures out, 5xx/network/timeouts retried. */
  async function retried<T>(attempt: (counter: { n: number }) => Promise<T>, signal?: AbortSignal): Promise<RecordsResult<T>> {
    const counter = { n: 0 }
    try {
      const value = await pRetry(async () => {
        try {
          return await attempt(counter)
        } catch (err) {
          if (err instanceof AttemptFailure) {
            if (!err.retriable) throw new AbortError(err)
            throw err
          }
          if (err instanceof AbortError || signal?.aborted) throw err
          // the body broke off mid-read (reset, or the timeout fired while reading)
          throw new AttemptFailure((err as Error).name === 'TimeoutError' ? 'timeout' : 'upstream_error', null, null, true)
        }
      }, {
        retries,
        factor: 2,
        minTimeout: opts.minRetryMs ?? 250,
        maxTimeout: opts.maxRetryMs ?? 5_000,
        randomize: true,
        signal,
      })
      return { ok: true, value, attempts: counter.n }
    } catch (err) {
      const f = unwrap(err)
      if (!(f instanceof AttemptFailure)) throw err // aborted by the caller, or a bug: not a records failure
      const kind = f.kind
      return { ok: false, failure: { kind, fetchStatus: RECORDS_FAILURES[kind].fetchStatus, message: f.detail ?? RECORDS_FAILURES[kind].message, httpStatus: f.httpStatus, attempts: counter.n } }
    }
  }

  const run = <T>(path: string, body: unknown, read: (res: Response) => Promise<T>, o: FetchOptions = {}) =>
    retried(async (counter) => read(await authorized(path, body, counter, o.signal, o.session)), o.signal)

  return {
    async login(username, password, signal) {
      return retried(async (counter) => { counter.n++; return session(username, password, signal) }, signal)
    },
    async fetchDocument(req, o) {
      const missing = (['court', 'records_case_id', 'records_doc_id'] as const).filter((k) => !req[k])
      if (missing.length) return needsInfo(`More information is needed: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing.`)
      return run('/api/v1/documents/fetch', req, async (res) => {
        const bytes = Buffer.from(await res.arrayBuffer())
        const contentType = (res.headers.get('content-type') ?? '').split(';')[0].trim()
        if (contentType !== 'application/pdf' || bytes.subarray(0, 5).toString('latin1') !== '%PDF-') {
          throw new AttemptFailure('invalid_content', res.status, 'The records system returned something that is not a PDF.', false)
        }
        const pages = Number(res.headers.get('x-page-count'))
        return { bytes, contentType, sha1: createHash('sha1').update(bytes).digest('hex'), fileSize: bytes.length, pageCount: Number.isInteger(pages) && pages > 0 ? pages : null }
      }, o)
    },
    async fetchDocket(req, o) {
      if (!req.court || (!req.records_case_id && !req.docket_number)) return needsInfo('More information is needed: a court and a records_case_id or docket_number are required.')
      return run('/api/v1/dockets/fetch', req, async (res) => {
        const j = (await res.json().catch(() => null)) as FetchedDocket | null
        if (!j || typeof j !== 'object' || !Array.isArray(j.entries)) throw new AttemptFailure('invalid_content', res.status, 'The records system returned a docket that could not be read.', false)
        return j
      }, o)
    },
  }
}

/** The gateway the configuration names (LDS_RECORDS_URL; LDS_RECORDS_USERNAME/PASSWORD: the service's own account, optional), or none. */
export function recordsGatewayOf(cfg: Config): RecordsGateway | undefined {
  return cfg.records.url ? createRecordsGateway({ baseUrl: cfg.records.url, username: cfg.records.username, password: cfg.records.password }) : undefined
}

function needsInfo<T>(message: string): RecordsResult<T> {
  return { ok: false, failure: { kind: 'needs_info', fetchStatus: 7, message, httpStatus: null, attempts: 0 } }
}

function unwrap(err: unknown): unknown {
  // p-retry's AbortError keeps the original error
  if (err instanceof AbortError) return err.originalError
  return err
}
