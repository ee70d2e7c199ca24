/**
 * kafkajs 2.2.4 scheduled its pending-request check at a negative delay whenever nothing was
 * pending, so the check ran at once and scheduled itself again: every connection woke the event
 * loop about a thousand times a second while idle (tulios/kafkajs#1556), most of an idle node
 * process's CPU. patches/kafkajs+2.2.4.patch (applied by `npm ci`'s postinstall) schedules a check
 * only while a request waits; one that waits is still sent when the check comes.
 */
import t from 'tap'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
// Not part of kafkajs's public API: the patched module itself.
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (o: Record<string, unknown>) => {
  checkPendingRequests(): void
  push(r: unknown): void
  destroy(): void
  pending: unknown[]
  throttleCheckTimeoutId: unknown
  throttledUntil: number
}
const { createLogger, LEVELS } = require('kafkajs/src/loggers/index.js') as { createLogger: (o: unknown) => unknown; LEVELS: { NOTHING: number } }

const queue = () => new RequestQueue({
  instrumentationEmitter: null, maxInFlightRequests: 1, requestTimeout: 30_000, enforceRequestTimeout: false,
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
