/**
 * A proxy in front of a source API that fails at random, as a busy public API does: a share of
 * requests answer 429 with `Retry-After`, another share 503; the rest are forwarded. Seeded, so a
 * run can be repeated; it counts what it answered and the User-Agents it saw.
 */
import { createServer, type Server } from 'node:http'
import { request } from 'undici'
import { mulberry32 } from '../kit/random.js'
import { freePort } from '../kit/ports.js'

export interface FlakyProxy {
  root: string
  stats: { forwarded: number; throttled: number; unavailable: number }
  userAgents: Set<string>
  close(): Promise<void>
}

export async function startFlakyProxy(target: string, opts: { throttleShare: number; unavailableShare: number; retryAfterSeconds: number; seed?: number }): Promise<FlakyProxy> {
  const random = mulberry32(opts.seed ?? 1)
  const upstream = new URL(target)
  const stats = { forwarded: 0, throttled: 0, unavailable: 0 }
  const userAgents = new Set<string>()
  const server: Server = createServer((req, res) => {
    userAgents.add(req.headers['user-agent'] ?? '')
    const roll = random()
    if (roll < opts.throttleShare) {
      stats.throttled++
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(opts.retryAfterSeconds) })
      res.end(JSON.stringify({ detail: `Request was throttled. Expected available in ${opts.retryAfterSeconds} seconds.` }))
      return
    }
    if (roll < opts.throttleShare + opts.unavailableShare) {
      stats.unavailable++
      res.writeHead(503, { 'content-type': 'text/plain' })
      res.end('busy')
      return
    }
    stats.forwarded++
    const headers = { ...req.headers, host: upstream.host }
    request(new URL(req.url ?? '/', upstream.origin), { method: 'GET', headers })
      .then(async (up) => {
        res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? 'application/json') })
        res.end(Buffer.from(await up.body.arrayBuffer()))
      })
      .catch((err: Error) => { res.writeHead(502); res.end(err.message) })
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    root: `http://127.0.0.1:${port}${upstream.pathname}`, stats, userAgents,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
