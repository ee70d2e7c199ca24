/** The entity topics of the catalogue: compacted, keyed by id, with the configured partition count. */
import type { Kafka } from 'kafkajs'
import type { Config } from '../core/config.js'
import { ensureTopics, compactedTopic } from '../core/kafka.js'
import type { Catalogue } from './catalogue/index.js'
import { entityTopic } from './events/names.js'

/** Creates the entity topics that do not exist yet (existing ones keep their partition count). */
export async function ensureEntityTopics(cfg: Pick<Config, 'topicPrefix' | 'partitions'>, kafka: Kafka, cat: Catalogue): Promise<void> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    await ensureTopics(admin, cat.stored.map((r) => compactedTopic(entityTopic(cfg, r), cfg.partitions)))
  } finally { await admin.disconnect() }
}
