/** The fetcher of audio originals: the webhooks' address rules on every hop, and its size and time bounds. */
import t from 'tap'
import { createServer } from 'node:http'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { createRemoteFileFetcher, RemoteFileError } from '../../../clients/remote-file.js'

const body = Buffer.alloc(300_000, 7)
const server = createServer((req, res) => {
  if (req.url === '/file') { res.writeHead(200, { 'content-length': String(body.length) }); return res.end(body) }
  if (req.url === '/chunked') { res.writeHead(200); res.write(body); res.write(body); return res.end() } // no Content-Length
  if (req.url === '/hop') { res.writeHead(301, { location: '/file' }); return res.end() }
  if (req.url === '/metadata') { res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }); return res.end() }
  if (req.url === '/loop') { res.writeHead(302, { location: '/loop' }); return res.end() }
  if (req.url === '/missing') { res.writeHead(404); return res.end() }
  if (req.url === '/slow') { res.writeHead(200); res.write('x'); return } // never ends
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
t.teardown(() => { server.closeAllConnections(); server.close() })
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
const dir = mkdtempSync(path.join(tmpdir(), 'lds-remote-file-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const dest = path.join(dir, 'out')

const insecure = createRemoteFileFetcher({ allowInsecure: true, limits: { maxBytes: 400_000, totalTimeoutMs: 1_500, connectTimeoutMs: 1_000, maxRedirects: 3 } })
t.teardown(() => insecure.close())
const strict = createRemoteFileFetcher()
t.teardown(() => strict.close())

async function reason(p: Promise<unknown>): Promise<string> {
  try { await p; return 'none' } catch (err) { return err instanceof RemoteFileError ? err.reason : `not a RemoteFileError: ${(err as Error).message}` }
}

t.test('fetches through redirects, with the SHA-1 of what it wrote', async (t) => {
  const got = await insecure.fetchToFile(`${base}/hop`, dest)
  t.equal(got.bytes, body.length)
  t.equal(got.sha1, createHash('sha1').update(body).digest('hex'))
  t.same(readFileSync(dest), body)
  t.equal(got.finalUrl, `${base}/file`)
})

t.test('refusals and bounds, each with its reason', async (t) => {
  t.equal(await reason(insecure.fetchToFile(`${base}/metadata`, dest)), 'forbidden-address', 'a redirect to the metadata address, even in insecure mode')
  t.equal(await reason(insecure.fetchToFile('http://10.0.0.5/a.mp3', dest)), 'forbidden-address', 'a private address, even in insecure mode')
  t.equal(await reason(strict.fetchToFile(`${base}/file`, dest)), 'forbidden-address', 'loopback without insecure mode')
  t.equal(await reason(strict.fetchToFile('http://example.org/a.mp3', dest)), 'bad-url', 'http without insecure mode')
  t.equal(await reason(strict.fetchToFile('https://user:pw@example.org/a.mp3', dest)), 'bad-url', 'credentials in the URL')
  t.equal(await reason(insecure.fetchToFile(`${base}/chunked`, dest)), 'too-large', 'a body past the limit without a Content-Length')
  t.equal(await reason(insecure.fetchToFile(`${base}/loop`, dest)), 'too-many-redirects')
  t.equal(await reason(insecure.fetchToFile(`${base}/missing`, dest)), 'http-status')
  t.equal(await reason(insecure.fetchToFile(`${base}/slow`, dest)), 'timeout', 'a body that never ends')
})
