/**
 * Issue 6, bug 1: the first `npm start` hung forever when one schema registration never got an
 * answer (the client had no deadline). A registry that accepts connections and never replies must
 * now produce a clear error naming the service, its URL and its log file.
 */
import t from 'tap'
import net from 'node:net'
import { createRegistry } from '../../core/registry.js'
import { DependencyError } from '../../core/dependency-error.js'
import { registerEntitySchemas } from '../../core/schema-registration.js'
import { catalogue } from '../../schemas/catalogue/index.js'

t.test('a registry that never answers: a clear error, no hang', async (t) => {
  const sockets: net.Socket[] = []
  const server = net.createServer((s) => { sockets.push(s) }) // accepts, reads nothing, says nothing
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => { sockets.forEach((s) => s.destroy()); server.close() })
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/apis/ccompat/v7`
  const registry = createRegistry({ schemaRegistryUrl: url, dataDir: '/tmp/lds-data' }, { timeoutMs: 200, retries: 1 })
  const started = Date.now()
  const err = await registerEntitySchemas({ topicPrefix: 'x.' }, registry, catalogue).then(() => null, (e: unknown) => e)
  t.ok(err instanceof DependencyError, 'a DependencyError')
  const message = (err as Error).message
  t.match(message, /^schema registry at http:\/\/127\.0\.0\.1:\d+\/apis\/ccompat\/v7 did not register/, 'names the service and its URL')
  t.match(message, /\/tmp\/lds-data\/logs\/registry\.log/, 'points at the local registry log')
  t.ok(Date.now() - started < 10_000, `gave up within the deadline (${Date.now() - started} ms)`)
})
