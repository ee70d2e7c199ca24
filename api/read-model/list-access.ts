/**
 * When a list may be answered from the read model's list indexes: once the read model has caught
 * up, and only while it holds at least what the table sink has applied to ClickHouse for that
 * resource, partition by partition. A list is then never staler than the ClickHouse answer it
 * replaces (a client that waited for the sink's watermark, as writes do, sees its change).
 */
import type { Config } from '../../core/config.js'
import type { Watermarks } from '../../core/events/watermark-reader.js'
import { entityTopic } from '../../schemas/events/index.js'
import type { ListIndexAccess } from '../engine/context.js'
import type { ReadModel } from './consumer.js'

export function listIndexAccess(cfg: Pick<Config, 'topicPrefix'>, readModel: ReadModel, watermarks: Pick<Watermarks, 'appliedOf'>): ListIndexAccess {
  const topics = new Map<string, string>()
  const topicOf = (resource: string) => {
    let t = topics.get(resource)
    if (!t) { t = entityTopic(cfg, resource); topics.set(resource, t) }
    return t
  }
  return {
    store: readModel.store,
    usable(resource) {
      if (!readModel.caughtUp()) return false
      const topic = topicOf(resource)
      for (const [partition, sinkNext] of watermarks.appliedOf(topic)) {
        if (BigInt(readModel.store.offset(topic, partition) ?? '0') < sinkNext) return false
      }
      return true
    },
  }
}
