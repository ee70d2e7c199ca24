/**
 * A connection's disconnect waited for every request in flight, the consumer's idle fetch too,
 * which the broker holds for up to the fetch wait (5 s): each consumer's stop took up to that wait
 * even after its fetcher had abandoned the fetch, and a Ctrl-C of `npm start`, stopping its roles
 * one after another, took about 50 s. patches/kafkajs+2.2.4.patch rejects the fetches in flight at
 * a disconnect (as a broker closing the connection would) and still waits for everything else.
 * Also: a request made while its connection was being closed (a consumer stopped while its fetch
 * was still finding the broker) was written to the ended socket, and kafkajs logged "Connection
 * error: write after end" at error level; it now fails as a closed connection. And the broker's answer to a
 * rejected fetch, arriving before the socket closed, was logged as "Response without match" (level
 * 40) at a Ctrl-C of `npm start`; it is now dropped quietly.
 */
import t from 'tap'
import net from 'node:net'
import { once } from 'node:events'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// Not part of kafkajs's public API: the patched module itself.
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (o: Record<string, unknown>) => {
  push(r: unknown): void
  rejectFetches(e: Error): void
  waitForPendingRequests(): Promise<void>
  fulfillRequest(r: { correlationId: number; payload: unknown; size: number }): void
  destroy(): void
}
const Connection = require('kafkajs/src/network/connection.js') as new (o: Record<string, unknown>) => {
  connect(): Promise<void>
  disconnect(): Promise<void>
  send(o: { request: unknown; response: unknown }): Promise<unknown>
  socket: net.Socket
}
const socketFactory = (require('kafkajs/src/network/socketFactory.js') as () => unknown)()
const apiVersions = require('kafkajs/src/protocol/requests/apiVersions/index.js') as { protocol(o: { version: number }): () => { request: unknown; response: unknown } }
const { createLogger, LEVELS } = require('kafkajs/src/loggers/index.js') as { createLogger: (o: unknown) => unknown; LEVELS: { NOTHING: number; ERROR: number; WARN: number } }

const queue = () => new RequestQueue({
  instrumentationEmitter: null, maxInFlightRequests: null, requestTimeout: 30_000, enforceRequestTimeout: false,
  clientId: 'test', broker: 'localhost:0', logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => {} }), isConnected: () => true,
})

/** A request sent and never answered (the broker holds it); its outcome as a promise. */
function inFlight(q: InstanceType<typeof RequestQueue>, correlationId: number, apiName: string, apiKey: number) {
  return new Promise<unknown>((resolve, reject) => {
    q.push({ entry: { correlationId, apiKey, apiName, apiVersion: 3, resolve, reject }, expectResponse: true, sendRequest: () => {} })
  })
}

t.test('a fetch in flight is rejected and does not hold the wait', async (t) => {
  const q = queue()
  t.teardown(() => q.destroy())
  const fetch = inFlight(q, 1, 'Fetch', 1)
  q.rejectFetches(new Error('closed with a fetch in flight'))
  await t.rejects(fetch, /fetch in flight/, 'the fetch fails, as when the broker closes the connection')
  await q.waitForPendingRequests() // would never resolve while the fetch was counted
})

t.test('the broker\'s late answer to a rejected fetch is dropped quietly; an answer nobody asked for is still logged', async (t) => {
  // At a Ctrl-C the broker could answer a held fetch between its rejection and the socket's close:
  // kafkajs then logged "Response without match" at warn level, in every newcomer's stop.
  const warnings: string[] = []
  const q = new RequestQueue({
    instrumentationEmitter: null, maxInFlightRequests: null, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'localhost:0',
    logger: createLogger({ level: LEVELS.WARN, logCreator: () => ({ log }: { log: { message: string } }) => { warnings.push(log.message) } }), isConnected: () => true,
  })
  t.teardown(() => q.destroy())
  const fetch = inFlight(q, 1, 'Fetch', 1)
  q.rejectFetches(new Error('closed with a fetch in flight'))
  await t.rejects(fetch)
  q.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 })
  t.same(warnings, [], 'the abandoned fetch\'s answer: nothing logged')
  q.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 })
  q.fulfillRequest({ correlationId: 42, payload: Buffer.alloc(0), size: 0 })
  t.same(warnings, ['Response without match', 'Response without match'], 'a second answer to it, and one to a request never sent, are still warned of')
})

t.test('other requests in flight are still waited for', async (t) => {
  const q = queue()
  t.teardown(() => q.destroy())
  const fetch = inFlight(q, 1, 'Fetch', 1)
  const commit = inFlight(q, 2, 'OffsetCommit', 8)
  q.rejectFetches(new Error('closed with a fetch in flight'))
  await t.rejects(fetch)
  let drained = false
  const waiting = q.waitForPendingRequests().then(() => { drained = true })
  await new Promise((r) => setImmediate(r))
  t.notOk(drained, 'the commit is still in flight: not drained')
  q.fulfillRequest({ correlationId: 2, payload: Buffer.alloc(0), size: 0 })
  await waiting
  t.ok(drained, 'drained once the commit is answered')
  await commit.catch(() => {}) // its empty payload does not decode; only the wait matters here
})

t.test('a request on a connection whose socket has ended fails as closed, without a socket error', async (t) => {
  // Only a TCP peer is needed: the request must never reach it.
  const server = net.createServer((s) => s.on('error', () => {}))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => server.close())
  const errors: string[] = []
  const logger = createLogger({ level: LEVELS.ERROR, logCreator: () => ({ log }: { log: { message: string } }) => { errors.push(log.message) } })
  const connection = new Connection({
    host: '127.0.0.1', port: (server.address() as net.AddressInfo).port, logger, socketFactory,
    requestTimeout: 30_000, connectionTimeout: 1_000, enforceRequestTimeout: true,
  })
  await connection.connect()
  connection.socket.end() // the moment of the race: ended, while the connection still counts as connected
  await t.rejects(connection.send(apiVersions.protocol({ version: 0 })()), { name: 'KafkaJSConnectionClosedError' })
  await new Promise((r) => setImmediate(r))
  t.same(errors, [], 'nothing logged as an error')
  await connection.disconnect()
})
