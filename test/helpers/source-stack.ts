/**
 * What the event-source tests (docket alerts, prayers, archive fetch) start first: a test stack, a
 * publisher, and a list of things to stop, stopped in reverse order when the test ends.
 */
import type { Test } from 'tap'
import { testStack } from './stack.js'
import { openPublisher } from '../../schemas/events/publisher.js'

export async function sourceStack(t: Test, env?: Record<string, string>) {
  const rt = await testStack(t, env)
  const stops: (() => Promise<unknown>)[] = []
  t.teardown(async () => { for (const stop of stops.reverse()) await stop().catch(() => {}) })
  const ts = new Date().toISOString()
  const pub = await openPublisher(rt)
  stops.push(() => pub.stop())
  return { rt, stops, ts, pub }
}
