/**
 * Every error the service answers with, listed once: a stable code, an HTTP status and a
 * default detail. The API's error handler turns these into the reference shapes.
 */
export interface ErrorSpec { status: number; detail: string }

export const ERRORS = {
  LDS_ERR_NOT_FOUND: { status: 404, detail: 'Not found.' },
  LDS_ERR_INVALID_PAGE: { status: 404, detail: 'Invalid page.' },
  LDS_ERR_INVALID_CURSOR: { status: 404, detail: 'Invalid cursor' },
  LDS_ERR_BAD_REQUEST: { status: 400, detail: 'Bad request.' },
  LDS_ERR_UNKNOWN_PARAMS: { status: 400, detail: 'Unknown filter parameters are not allowed.' },
  LDS_ERR_NOT_AUTHENTICATED: { status: 401, detail: 'Authentication credentials were not provided.' },
  LDS_ERR_INVALID_TOKEN: { status: 401, detail: 'Invalid token.' },
  LDS_ERR_PERMISSION_DENIED: { status: 403, detail: 'You do not have permission to perform this action.' },
  LDS_ERR_METHOD_NOT_ALLOWED: { status: 405, detail: 'Method not allowed.' },
  LDS_ERR_UNSUPPORTED_MEDIA: { status: 415, detail: 'Unsupported media type in request.' },
  LDS_ERR_THROTTLED: { status: 429, detail: 'Request was throttled.' },
  LDS_ERR_GONE: { status: 410, detail: 'Gone.' },
  /** Not an error: a permanent redirect (a merged cluster), carried like one to skip the handler. */
  LDS_ERR_MOVED: { status: 301, detail: 'Moved permanently.' },
  LDS_ERR_NOT_IMPLEMENTED: { status: 501, detail: 'Not implemented.' },
  LDS_ERR_NOT_ACCEPTABLE: { status: 406, detail: 'Could not satisfy the request Accept header.' },
  LDS_ERR_WRITE_TIMEOUT: { status: 504, detail: 'The change was accepted but is not visible yet. Read it again shortly.' },
  LDS_ERR_UNAVAILABLE: { status: 503, detail: 'Service temporarily unavailable. Please try again later.' },
  LDS_ERR_INTERNAL: { status: 500, detail: 'Internal Server Error. Please try again later.' },
} as const satisfies Record<string, ErrorSpec>

export type ErrorCode = keyof typeof ERRORS

export class LdsError extends Error {
  readonly code: ErrorCode
  readonly status: number
  /** Extra top-level keys merged into the JSON body (e.g. unknown_params). */
  readonly extra: Record<string, unknown>
  /** A full replacement body, for the few reference shapes that are not {"detail": ...}. */
  readonly body?: unknown
  /** Seconds until a retry may succeed (sets Retry-After). */
  readonly wait?: number
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, opts: { detail?: string; extra?: Record<string, unknown>; body?: unknown; wait?: number; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(opts.detail ?? ERRORS[code].detail, { cause: opts.cause })
    this.name = 'LdsError'
    this.code = code
    this.status = ERRORS[code].status
    this.extra = opts.extra ?? {}
    this.body = opts.body
    this.wait = opts.wait
    this.headers = opts.headers ?? {}
  }

  toBody(): unknown {
    return this.body ?? { detail: this.message, ...this.extra }
  }
}

/** A 400 keyed by field, as the reference's filter and serializer validation answers. */
export class FieldErrors extends LdsError {
  constructor(readonly fields: Record<string, string[]>) {
    super('LDS_ERR_BAD_REQUEST', { body: fields, detail: Object.entries(fields).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; ') })
  }
}

/** An error from a dependency that may succeed when tried again (ClickHouse down, Kafka rebalance...). */
export class RetriableError extends Error {
  readonly retriable = true
  constructor(message: string, opts: { cause?: unknown } = {}) {
    super(message, opts)
    this.name = 'RetriableError'
  }
}
