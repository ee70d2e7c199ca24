/**
 * A local HTTP server standing in for a customer's webhook endpoint. Tests choose how it answers
 * each request and read back what it received.
 *
 *   const rx = await startWebhookReceiver()            // answers 200 by default
 *   rx.queue(fail(500), timeout(1500), redirect(), ok())  // the next four requests, in order
 *   rx.setDefault((d) => d.json.payload ? ok() : fail(400))
 *   ...deliver to rx.url...
 *   await rx.waitFor(4)
 *   rx.deliveries            // every request: headers, body, json, time, how it was answered
 *   rx.idempotent()          // Map: Idempotency-Key → its deliveries (retries of one event)
 *   await rx.close()
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'

export interface Answer {
  status: number
  body?: string
  headers?: Record<string, string>
  /** Hold the answer this long (ms of wall time) before sending it. */
  delayMs?: number
  /** Send the status and headers at once, but the body only after this long. */
  bodyDelayMs?: number
}

export type Behaviour = Answer | ((d: Delivery) => Answer | Promise<Answer>)

export const ok = (status = 200, body = '{"ok":true}'): Answer => ({ status, body, headers: { 'content-type': 'application/json' } })
export const fail = (status = 500, body = 'failure'): Answer => ({ status, body })
/** Answers 200, but only after `ms`: too late when ms exceeds the sender's timeout. */
export const timeout = (ms = 1500): Answer => ({ status: 200, body: 'late', delayMs: ms })
/** Answers 200 at once and sends the body `ms` later: a receiver that trickles its answer. */
export const slowBody = (ms = 1500): Answer => ({ status: 200, body: 'late body', bodyDelayMs: ms })
export const redirect = (location = 'https://elsewhere.example/hook', status = 302): Answer => ({ status, headers: { location } })

export interface Delivery {
  method: string
  path: string
  headers: Record<string, string>
  body: string
  /** The parsed body, or undefined when it is not JSON. */
  json: any
  /** The Idempotency-Key header ('' when absent). */
  idempotencyKey: string
  /** When the request arrived (ms, from `now`). */
  receivedAt: number
  /** What the receiver answered (set once the answer is chosen). */
  answeredWith: number | null
}

export interface WebhookReceiver {
  url: string
  port: number
  deliveries: Delivery[]
  /** Behaviours for the next requests, in order; after them, the default applies. */
  queue(...b: Behaviour[]): void
  setDefault(b: Behaviour): void
  /** Deliveries grouped by Idempotency-Key, in arrival order. */
  idempotent(): Map<string, Delivery[]>
  /** Resolves with all deliveries once at least `count` arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Delivery[]>
  close(): Promise<void>
}

export interface ReceiverOptions {
  default?: Behaviour
  /** The path of `url`. Default `/hook`. */
  path?: string
  now?: () => number
}

export async function startWebhookReceiver(opts: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = []
  const pending: Behaviour[] = []
  let fallback: Behaviour = opts.default ?? ok()
  const now = opts.now ?? Date.now
  const waiters = new Set<() => void>()
  const timers = new Set<NodeJS.Timeout>()

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    let json: unknown
    try { json = JSON.parse(body) } catch { json = undefined }
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v
    const d: Delivery = {
      method: req.method ?? '', path: req.url ?? '', headers, body, json,
      idempotencyKey: headers['idempotency-key'] ?? '', receivedAt: now(), answeredWith: null,
    }
    deliveries.push(d)
    const behaviour = pending.length ? pending.shift()! : fallback
    let answer: Answer
    try {
      answer = typeof behaviour === 'function' ? await behaviour(d) : behaviour
    } catch (err) {
      answer = { status: 500, body: String(err) }
    }
    d.answeredWith = answer.status
    for (const w of waiters) w()
    const send = () => {
      if (res.destroyed) return
      res.writeHead(answer.status, answer.headers ?? {})
      if (!answer.bodyDelayMs) { res.end(answer.body ?? ''); return }
      res.flushHeaders()
      const timer = setTimeout(() => { timers.delete(timer); if (!res.destroyed) res.end(answer.body ?? '') }, answer.bodyDelayMs)
      timers.add(timer)
    }
    if (answer.delayMs) {
      const timer = setTimeout(() => { timers.delete(timer); send() }, answer.delayMs)
      timers.add(timer)
    } else {
      send()
    }
  }

  const server = createServer((req, res) => { handle(req, res).catch(() => res.destroy()) })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const path = opts.path ?? '/hook'

  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    deliveries,
    queue: (...b) => { pending.push(...b) },
    setDefault: (b) => { fallback = b },
    idempotent() {
      const groups = new Map<string, Delivery[]>()
      for (const d of deliveries) {
        const list = groups.get(d.idempotencyKey) ?? []
        list.push(d)
        groups.set(d.idempotencyKey, list)
      }
      return groups
    },
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (deliveries.length < count) return
          cleanup()
          resolve(deliveries.slice())
        }
        const timer = setTimeout(() => { cleanup(); reject(new Error(`webhook receiver: ${deliveries.length} of ${count} deliveries after ${timeoutMs} ms`)) }, timeoutMs)
        const cleanup = () => { clearTimeout(timer); waiters.delete(check) }
        waiters.add(check)
        check()
      })
    },
    async close() {
      for (const t of timers) clearTimeout(t)
      timers.clear()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}
