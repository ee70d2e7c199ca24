/**
 * kafkajs 2.2.4 scheduled its pending-request check at a negative delay whenever nothing was
 * pending, so the check ran at once and scheduled itself again: every connection woke the event
 * loop about a thousand times a second while idle (tulios/kafkajs#1556), most of an idle node
 * process's CPU. patches/kafkajs+2.2.4.patch (applied by `npm ci`'s postinstall) schedules a check
 * only while a request waits; one that waits is still sent when the check comes.
 * Likewise its request-timeout check: an interval of 100 ms for the life of every connection. An
 * idle consumer always has a fetch in flight (the broker holds it for the fetch wait), so the check
 * is now one timer set for the earliest deadline in flight, and none when nothing is in flight (a
 * request that overstays its timeout still fails).
 */
import t from 'tap'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// Not part of kafkajs's public API: the patched module itself.
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (o: Record<string, unknown>) => {
  checkPendingRequests(): void
  scheduleRequestTimeoutCheck(): void
  fulfillRequest(r: { correlationId: number; payload: unknown; size: number }): void
  requestTimeoutIntervalId: unknown
  push(r: unknown): void
  destroy(): void
  pending: unknown[]
  throttleCheckTimeoutId: unknown
  throttledUntil: number
}
const { createLogger, LEVELS } = require('kafkajs/src/loggers/index.js') as { createLogger: (o: unknown) => unknown; LEVELS: { NOTHING: number } }

const queue = (o: { enforceRequestTimeout?: boolean; requestTimeout?: number } = {}) => new RequestQueue({
  instrumentationEmitter: null, maxInFlightRequests: 1, requestTimeout: o.requestTimeout ?? 30_000, enforceRequestTimeout: o.enforceRequestTimeout ?? false,
  clientId: 'test', broker: 'localhost:0', logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => {} }), isConnected: () => true,
})

t.test('an idle queue schedules nothing', async (t) => {
  const q = queue()
  t.teardown(() => q.destroy())
  q.checkPendingRequests()
  t.equal(q.throttleCheckTimeoutId ?? null, null, 'no timer while nothing is pending')
})

t.test('a request that waits is still sent when its check comes', async (t) => {
  const q = queue()
  t.teardown(() => q.destroy())
  let sent = 0
  const request = (correlationId: number) => ({ entry: { correlationId, apiKey: 1, apiName: 'Fetch', apiVersion: 11 }, expectResponse: true, sendRequest: () => { sent++ } })
  q.throttledUntil = Date.now() + 30 // throttled by the broker: the request must wait
  q.push(request(1) as never)
  t.equal(sent, 0, 'held while throttled')
  t.not(q.throttleCheckTimeoutId ?? null, null, 'a check is scheduled for when the throttle ends')
  await new Promise((r) => setTimeout(r, 80))
  t.equal(sent, 1, 'sent once the throttle ended')
})

t.test('the request-timeout check runs only while a request is in flight', async (t) => {
  const q = queue({ enforceRequestTimeout: true })
  t.teardown(() => q.destroy())
  q.scheduleRequestTimeoutCheck() // as a connection does once connected
  t.equal(q.requestTimeoutIntervalId ?? null, null, 'idle: no interval')
  const done: unknown[] = []
  q.push({ entry: { correlationId: 7, apiKey: 12, apiName: 'Heartbeat', apiVersion: 3, resolve: (r: unknown) => done.push(r), reject: (e: unknown) => done.push(e) }, expectResponse: true, sendRequest: () => {} } as never)
  t.not(q.requestTimeoutIntervalId ?? null, null, 'a request in flight: checked')
  q.fulfillRequest({ correlationId: 7, payload: Buffer.alloc(0), size: 0 })
  const deadline = Date.now() + 5_000
  while ((q.requestTimeoutIntervalId ?? null) !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  t.equal(q.requestTimeoutIntervalId ?? null, null, 'nothing in flight: the interval stopped itself')
})

t.test('a request that overstays its timeout still fails', async (t) => {
  const q = queue({ enforceRequestTimeout: true, requestTimeout: 50 })
  t.teardown(() => q.destroy())
  q.scheduleRequestTimeoutCheck()
  const failed = new Promise<Error>((resolve) => {
    q.push({ entry: { correlationId: 9, apiKey: 12, apiName: 'Heartbeat', apiVersion: 3, resolve: () => {}, reject: resolve }, expectResponse: true, sendRequest: () => {} } as never)
  })
  t.match((await failed).message, /timed out/i, 'timed out by the check')
})

t.test('a request held by the broker wakes nothing before its deadline', async (t) => {
  // What the old check did: ten wake-ups a second for as long as a fetch was held.
  const wakes = { n: 0 }
  const realSetTimeout = globalThis.setTimeout
  const realSetInterval = globalThis.setInterval
  const counted = (fn: (...a: unknown[]) => void) => (...a: unknown[]) => { wakes.n++; fn(...a) }
  globalThis.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => realSetTimeout(counted(fn), ms, ...rest)) as typeof setTimeout
  globalThis.setInterval = ((fn: (...a: unknown[]) => void, ms?: number, ...rest: unknown[]) => realSetInterval(counted(fn), ms, ...rest)) as typeof setInterval
  const q = queue({ enforceRequestTimeout: true, requestTimeout: 30_000 })
  try {
    q.scheduleRequestTimeoutCheck()
    q.push({ entry: { correlationId: 11, apiKey: 1, apiName: 'Fetch', apiVersion: 11, resolve: () => {}, reject: () => {} }, expectResponse: true, sendRequest: () => {} } as never)
  } finally {
    globalThis.setTimeout = realSetTimeout
    globalThis.setInterval = realSetInterval
  }
  t.teardown(() => q.destroy())
  await new Promise((r) => realSetTimeout(r, 500))
  t.equal(wakes.n, 0, 'no check ran while the fetch was held for half a second')
})
