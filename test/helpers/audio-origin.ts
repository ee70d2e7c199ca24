/**
 * A court's web server as the audio tests need it, on loopback: serves given files, and the bad
 * answers an original can come with — a 2 GB Content-Length, a redirect to a private address, a
 * server that accepts and never answers.
 */
import { createServer, type Server } from 'node:http'
import { readFileSync } from 'node:fs'
import type { AddressInfo, Socket } from 'node:net'

export interface AudioOrigin { url(path: string): string; close(): Promise<void> }

export async function startAudioOrigin(files: Record<string, string>): Promise<AudioOrigin> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/'
    if (path === '/huge.mp3') {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(2 * 1024 ** 3) })
      res.write(Buffer.alloc(1024))
      return // the rest never comes
    }
    if (path === '/to-private.mp3') { res.writeHead(302, { location: 'http://10.11.12.13/argument.mp3' }); return res.end() }
    if (path === '/hang.mp3') return // accepted, never answered
    const file = files[path]
    if (!file) { res.writeHead(404); return res.end() }
    const body = readFileSync(file)
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(body.length) })
    res.end(body)
  })
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)) })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()) }),
  }
}
