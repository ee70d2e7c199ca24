/**
 * Gates that make a processor's read race certain instead of likely (the issue-10 tests): a
 * processor reading an in-memory entity table (users, webhooks, docket alerts) or rows the table
 * sink writes sees them late, deterministically, unless it waits for them.
 *
 *  - `registry`: a registry whose schema look-up of `gated`'s schema is held until the gate opens:
 *    an entity table decodes nothing of that topic meanwhile (its decoder caches schemas, so only
 *    the first event of the topic a process decodes is held).
 *  - `kafka`: a client whose admins open that gate once they are asked for the gated topic's end
 *    offsets after `arm()`: that request is how a processor starts waiting for its table.
 *  - `holdSink(...resources)`: the table sink stops reading those topics until the processor waits
 *    on `watermarks` (the wrapper releases it), or `release()` is called.
 *  - `release()`: opens the schema gate and releases the sink; a test calls it when, without the
 *    fix, nothing would have waited (say, on the processor's END_BATCH_PROCESS).
 */
import type { Kafka, Admin, Consumer } from 'kafkajs'
import type { Runtime } from '../../bin/runtime.js'
import type { Registry } from '../../core/registry.js'
import { createWatermarks, type Watermarks } from '../../core/events/watermark-reader.js'
import { entityTopic } from '../../schemas/events/index.js'
import { registerEntitySchemas } from '../../core/schema-registration.js'

export interface RaceGates {
  registry: Registry
  kafka: Kafka
  /** The sink's watermarks, releasing a held sink when a processor waits on them. */
  watermarks: Watermarks
  /** The sink's watermarks themselves. */
  real: Watermarks
  /** From now on, asking for the gated topic's end offsets opens the schema gate. */
  arm(): void
  holdSink(...resources: string[]): void
  release(): void
  stop(): Promise<void>
}

export async function raceGates(rt: Runtime, sink: { consumer: Consumer }, gated: string): Promise<RaceGates> {
  const gatedTopic = entityTopic(rt.cfg, gated)
  const schema = (await registerEntitySchemas(rt.cfg, rt.registry, rt.catalogue)).get(gated)!
  let openGate = () => {}
  const gate = new Promise<void>((r) => { openGate = r })
  const client = new Proxy(rt.registry.client, {
    get(target, prop) {
      if (prop === 'getSchema') return (id: number) => (id === schema ? gate : Promise.resolve()).then(() => target.getSchema(id))
      const v = Reflect.get(target, prop) as unknown
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  let armed = false
  const kafka: Kafka = Object.create(rt.kafka, {
    admin: {
      value: (...args: Parameters<Kafka['admin']>): Admin => {
        const admin = rt.kafka.admin(...args)
        const fetch = admin.fetchTopicOffsets.bind(admin)
        admin.fetchTopicOffsets = async (topic) => { const r = await fetch(topic); if (armed && topic === gatedTopic) openGate(); return r }
        return admin
      },
    },
  })
  let releaseSink = () => {}
  const real = createWatermarks(rt)
  await real.start()
  return {
    registry: { ...rt.registry, client },
    kafka,
    real,
    watermarks: { ...real, waitUntilApplied(...args) { releaseSink(); return real.waitUntilApplied(...args) } },
    arm() { armed = true },
    holdSink(...resources) {
      const held = resources.map((r) => ({ topic: entityTopic(rt.cfg, r) }))
      sink.consumer.pause(held)
      releaseSink = () => { releaseSink = () => {}; sink.consumer.resume(held) }
    },
    release() { openGate(); releaseSink() },
    stop: () => real.stop(),
  }
}
