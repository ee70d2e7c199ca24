/**
 * Fetches a remote file (an oral argument's original recording) to a local file, under the same
 * outbound rules as webhook deliveries (domain/webhooks/url-safety.ts): https only, no credentials
 * in the URL, and every address a host resolves to must be public — checked after DNS resolution
 * inside the connection, so a second DNS answer cannot swap in an internal address, and again on
 * every redirect hop. Bounded in size (the announced Content-Length and the bytes actually read)
 * and in time (connecting, and the whole transfer). The SHA-1 of the bytes is computed while
 * they are written.
 *
 * `allowInsecure` (LDS_AUDIO_ALLOW_INSECURE=1: local use and tests) allows http and loopback
 * addresses only: private, link-local and other internal ranges stay refused.
 */
import dns from 'node:dns'
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { isIP } from 'node:net'
import { pipeline } from 'node:stream/promises'
import { Transform } from 'node:stream'
import { Agent, request } from 'undici'
import { checkWebhookUrl, isForbiddenAddress } from '../domain/webhooks/url-safety.js'

export interface RemoteFileLimits {
  maxBytes: number
  connectTimeoutMs: number
  /** From the first request to the last byte, redirects included. */
  totalTimeoutMs: number
  maxRedirects: number
}

export const DEFAULT_REMOTE_FILE_LIMITS: RemoteFileLimits = {
  maxBytes: 512 * 1024 * 1024, connectTimeoutMs: 10_000, totalTimeoutMs: 10 * 60_000, maxRedirects: 5,
}

/** Why a fetch failed, as a short stable code (a metric label) and a sentence (the log). */
export type RemoteFileFailure = 'bad-url' | 'forbidden-address' | 'unreachable' | 'timeout' | 'http-status' | 'too-large' | 'too-many-redirects'

export class RemoteFileError extends Error {
  constructor(readonly reason: RemoteFileFailure, message: string) { super(message); this.name = 'RemoteFileError' }
}

export interface FetchedFile { bytes: number; sha1: string; finalUrl: string }

export interface RemoteFileFetcher {
  /** Streams `url` into `dest` (created or truncated); on failure `dest` may hold a part, the caller removes it. */
  fetchToFile(url: string, dest: string): Promise<FetchedFile>
  close(): Promise<void>
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1'])

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  return LOOPBACK.has(h) || h.endsWith('.localhost') || (isIP(h) === 4 && h.startsWith('127.'))
}

export function createRemoteFileFetcher(opts: { allowInsecure?: boolean; limits?: Partial<RemoteFileLimits>; userAgent?: string } = {}): RemoteFileFetcher {
  const allowInsecure = opts.allowInsecure === true
  const limits = { ...DEFAULT_REMOTE_FILE_LIMITS, ...opts.limits }
  const forbidden = (address: string) => isForbiddenAddress(address) && !(allowInsecure && isLoopback(address))

  const agent = new Agent({
    headersTimeout: limits.totalTimeoutMs, bodyTimeout: limits.totalTimeoutMs,
    connect: {
      timeout: limits.connectTimeoutMs,
      lookup(hostname, options, callback) {
        dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
          if (err) return callback(err, '', 0)
          const list = addresses as dns.LookupAddress[]
          const bad = list.find((a) => forbidden(a.address))
          if (bad) return callback(new RemoteFileError('forbidden-address', `${hostname} resolves to a forbidden address (${bad.address})`), '', 0)
          if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list)
          callback(null, list[0].address, list[0].family)
        })
      },
    },
  })

  /**
   * The URL rules before connecting: a literal internal address or local name is refused (in
   * insecure mode too, but for loopback); then the webhooks' rules (scheme, credentials, length).
   */
  function checkUrl(raw: string): URL {
    let host = ''
    try { host = new URL(raw).hostname.replace(/^\[|\]$/g, '').toLowerCase() } catch { /* judged below */ }
    if (host && !(allowInsecure && isLoopback(host)) && ((isIP(host) && isForbiddenAddress(host)) || /(^|\.)(localhost|local|internal)$/.test(host))) {
      throw new RemoteFileError('forbidden-address', `${raw}: ${host} is not a public address`)
    }
    const checked = checkWebhookUrl(raw, { allowInsecure })
    if (!checked.ok) throw new RemoteFileError('bad-url', `${raw}: ${checked.error}`)
    return checked.url
  }

  async function fetchToFile(url: string, dest: string): Promise<FetchedFile> {
    const signal = AbortSignal.timeout(limits.totalTimeoutMs)
    let current = url
    try {
      for (let hop = 0; ; hop++) {
        const target = checkUrl(current)
        const res = await request(target, { method: 'GET', dispatcher: agent, signal, headers: { 'user-agent': opts.userAgent ?? 'lds-audio/1', accept: '*/*' } })
        if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
          discard(res.body)
          if (hop >= limits.maxRedirects) throw new RemoteFileError('too-many-redirects', `more than ${limits.maxRedirects} redirects from ${url}`)
          current = new URL(String(res.headers.location), target).toString()
          continue
        }
        if (res.statusCode !== 200) {
          discard(res.body)
          throw new RemoteFileError('http-status', `${current} answered HTTP ${res.statusCode}`)
        }
        const announced = Number(res.headers['content-length'])
        if (Number.isFinite(announced) && announced > limits.maxBytes) {
          discard(res.body)
          throw new RemoteFileError('too-large', `${current} announces ${announced} bytes, more than the limit of ${limits.maxBytes}`)
        }
        const hash = createHash('sha1')
        let bytes = 0
        const count = new Transform({
          transform(chunk: Buffer, _enc, done) {
            bytes += chunk.length
            if (bytes > limits.maxBytes) return done(new RemoteFileError('too-large', `${current} sent more than the limit of ${limits.maxBytes} bytes`))
            hash.update(chunk)
            done(null, chunk)
          },
        })
        await pipeline(res.body, count, createWriteStream(dest), { signal })
        return { bytes, sha1: hash.digest('hex'), finalUrl: current }
      }
    } catch (err) {
      throw asRemoteFileError(err, current, signal.aborted)
    }
  }

  return { fetchToFile, close: () => agent.close() }
}

/** Drops a body not read: destroyed, its abort error swallowed (no unhandled 'error' event). */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => {})
  body.destroy()
}

const TIMEOUT_ERRORS = new Set(['ConnectTimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError', 'TimeoutError', 'AbortError'])

function asRemoteFileError(err: unknown, url: string, timedOut: boolean): RemoteFileError {
  if (err instanceof RemoteFileError) return err
  const e = err as Error & { code?: string; cause?: unknown }
  if (e.cause instanceof RemoteFileError) return e.cause
  if (timedOut || TIMEOUT_ERRORS.has(e.name) || e.code === 'UND_ERR_CONNECT_TIMEOUT') return new RemoteFileError('timeout', `${url}: no complete answer in time (${e.message})`)
  return new RemoteFileError('unreachable', `${url}: ${e.message}`)
}
