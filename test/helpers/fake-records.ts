/**
 * A local HTTP server speaking the records-system protocol of clients/records-gateway.ts,
 * with knobs for the cases archive fetch must handle, and a record of every request.
 *
 *   const records = await startFakeRecords({ username: 'u', password: 'p', accounts: { alice: 'pw' } })
 *   records.addDocument({ court: 'nysd', records_case_id: '123', records_doc_id: '0456' })
 *   records.addDocument({ ..., available: false })       // 409: only through a one-time link
 *   records.queue({ status: 500 }, 'ok')                 // next fetches: a 500, then normal
 *   records.queue('expire_session')                      // next fetch: 401, must log in again
 *   records.queue({ delayMs: 2000 })                     // next fetch: slow
 *   records.queue('not_pdf')                             // next fetch: HTML instead of a PDF
 *   ...
 *   records.requests   // method, path, body (password redacted), authorized, account, status
 *   records.logins     // successful logins
 *   await records.close()
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { once } from 'node:events'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'

export type Knob =
  | 'ok'
  | 'unavailable'
  | 'expire_session'
  | 'not_pdf'
  | { status: number; body?: unknown }
  | { delayMs: number }
  | 'drop' // close the connection without an answer

export interface FakeDocument {
  court: string
  records_case_id: string
  records_doc_id: string
  bytes?: Buffer
  pageCount?: number
  /** false → 409 "unavailable through a one-time link". Default true. */
  available?: boolean
}

export interface FakeDocket {
  court: string
  records_case_id: string
  docket_number: string
  case_name: string
  entries?: Record<string, unknown>[]
}

export interface RecordedRequest {
  method: string
  path: string
  body: any
  authorized: boolean
  /** The account whose session token the request carried (null: none, or not a live token). */
  account: string | null
  at: number
  status: number | null
}

export interface FakeRecords {
  url: string
  requests: RecordedRequest[]
  readonly logins: number
  addDocument(d: FakeDocument): Buffer
  addDocket(d: FakeDocket): void
  /** Knobs for the next fetch requests (documents or dockets), in order. */
  queue(...k: Knob[]): void
  /** Invalidates every session token now. */
  expireSessions(): void
  close(): Promise<void>
}

export const UNAVAILABLE_MESSAGE = 'Unable to download: the document is unavailable through a one-time link.'

/** A tiny valid-looking PDF with a marker, so tests can tell documents apart. */
export function fakePdf(marker: string): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${marker}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1')
}

/** `username`/`password`: one account (the service's); `accounts`: more, username → password (users' own). */
export async function startFakeRecords(opts: { username: string; password: string; accounts?: Record<string, string> }): Promise<FakeRecords> {
  const requests: RecordedRequest[] = []
  const knobs: Knob[] = []
  const accounts = new Map<string, string>([[opts.username, opts.password], ...Object.entries(opts.accounts ?? {})])
  /** live session token → its account */
  const tokens = new Map<string, string>()
  const documents = new Map<string, Required<FakeDocument>>()
  const dockets = new Map<string, FakeDocket>()
  const timers = new Set<NodeJS.Timeout>()
  let logins = 0

  const docKey = (court: unknown, caseId: unknown, docId: unknown) => `${court}|${caseId}|${docId}`

  const json = (res: ServerResponse, rec: RecordedRequest, status: number, body: unknown) => {
    rec.status = status
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    let body: any = null
    try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')) } catch { body = null }
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null
    const rec: RecordedRequest = {
      method: req.method ?? '', path: req.url ?? '',
      body: body && typeof body === 'object' && 'password' in body ? { ...body, password: '<redacted>' } : body,
      authorized: auth !== null && tokens.has(auth), account: (auth !== null && tokens.get(auth)) || null, at: Date.now(), status: null,
    }
    requests.push(rec)

    if (req.method !== 'POST') return json(res, rec, 405, { error: 'method_not_allowed', message: 'POST only.' })
    if (!body || typeof body !== 'object') return json(res, rec, 400, { error: 'invalid_request', message: 'The body must be a JSON object.' })

    if (req.url === '/api/v1/session') {
      if (typeof body.username !== 'string' || accounts.get(body.username) !== body.password) return json(res, rec, 401, { error: 'invalid_credentials', message: 'Invalid username or password.' })
      const token = randomBytes(16).toString('hex')
      tokens.set(token, body.username)
      logins++
      return json(res, rec, 201, { token, expires_in: 3600 })
    }

    const isDoc = req.url === '/api/v1/documents/fetch'
    const isDocket = req.url === '/api/v1/dockets/fetch'
    if (!isDoc && !isDocket) return json(res, rec, 404, { error: 'not_found', message: 'No such endpoint.' })

    // knobs act before the session check, as an upstream failure would
    const knob = knobs.length ? knobs.shift()! : 'ok'
    if (knob === 'drop') { rec.status = 0; req.socket.destroy(); return }
    if (typeof knob === 'object' && 'delayMs' in knob) {
      await new Promise<void>((resolve) => { const t = setTimeout(() => { timers.delete(t); resolve() }, knob.delayMs); timers.add(t) })
      if (res.destroyed || req.socket.destroyed) { rec.status = 0; return }
    }
    if (typeof knob === 'object' && 'status' in knob) return json(res, rec, knob.status, knob.body ?? { error: 'server_error', message: `HTTP ${knob.status}` })
    if (knob === 'expire_session') tokens.clear()
    if (!auth || !tokens.has(auth)) return json(res, rec, 401, { error: 'session_expired', message: 'Your session has expired. Log in again.' })

    if (isDoc) {
      const d = documents.get(docKey(body.court, body.records_case_id, body.records_doc_id))
      if (!d) return json(res, rec, 404, { error: 'not_found', message: 'No such document.' })
      if (knob === 'unavailable' || !d.available) return json(res, rec, 409, { error: 'unavailable', message: UNAVAILABLE_MESSAGE })
      if (knob === 'not_pdf') {
        rec.status = 200
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<html><body>Login required</body></html>')
        return
      }
      rec.status = 200
      res.writeHead(200, { 'content-type': 'application/pdf', 'x-page-count': String(d.pageCount), 'content-length': String(d.bytes.length) })
      res.end(d.bytes)
      return
    }

    const k = body.records_case_id ? `${body.court}|case|${body.records_case_id}` : `${body.court}|dn|${body.docket_number}`
    const docket = dockets.get(k)
    if (!docket) return json(res, rec, 404, { error: 'not_found', message: 'No such docket.' })
    if (knob === 'unavailable') return json(res, rec, 409, { error: 'unavailable', message: 'The docket report is unavailable.' })
    if (knob === 'not_pdf') return json(res, rec, 200, { unexpected: true })
    return json(res, rec, 200, {
      ...docket,
      entries: docket.entries ?? [],
      parties: body.show_parties_and_counsel ? [{ name: 'Sample Plaintiff', type: 'Plaintiff' }] : undefined,
    })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => { if (!res.headersSent) { res.writeHead(500); res.end() } })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get logins() { return logins },
    addDocument(d) {
      const bytes = d.bytes ?? fakePdf(`${d.court}/${d.records_case_id}/${d.records_doc_id}`)
      documents.set(docKey(d.court, d.records_case_id, d.records_doc_id), { available: true, pageCount: 1, ...d, bytes })
      return bytes
    },
    addDocket(d) {
      dockets.set(`${d.court}|case|${d.records_case_id}`, d)
      dockets.set(`${d.court}|dn|${d.docket_number}`, d)
    },
    queue: (...k) => { knobs.push(...k) },
    expireSessions: () => tokens.clear(),
    async close() {
      for (const t of timers) clearTimeout(t)
      timers.clear()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}
