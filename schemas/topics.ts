/**
 * The entity topics of the catalogue (compacted, keyed by id, with the configured partition count),
 * and the ids topic the service leases blocks of row ids from (core/ids.ts).
 */
import type { Kafka, ITopicConfig } from 'kafkajs'
import type { Config } from '../core/config.js'
import { ensureTopics, compactedTopic, plainTopic } from '../core/kafka.js'
import type { Catalogue } from './catalogue/index.js'
import { entityTopic, idsTopic } from './events/names.js'

/**
 * The ids topic: one partition (its offsets are the leases), not compacted (compaction would not
 * free offsets, but the lease messages are never read: a day of them is kept for inspection).
 */
export const idsTopicConfig = (cfg: Pick<Config, 'topicPrefix'>): ITopicConfig => plainTopic(idsTopic(cfg), 1, 24 * 3600_000)

/**
 * A topic with `replication` copies, and writes (acks=all) acknowledged once all but one of them
 * have it: on 3 brokers, one can fail without losing an acknowledged event or stopping producers.
 */
export function withReplication(t: ITopicConfig, replication: number): ITopicConfig {
  const minIsr = Math.max(1, replication - 1)
  return { ...t, replicationFactor: replication, configEntries: [...(t.configEntries ?? []), { name: 'min.insync.replicas', value: String(minIsr) }] }
}

/**
 * Creates the entity topics and the ids topic that do not exist yet (existing ones keep their
 * partition count): whatever publishes entities may create rows, and so lease ids.
 */
export async function ensureEntityTopics(cfg: Pick<Config, 'topicPrefix' | 'partitions'> & Partial<Pick<Config, 'kafkaReplication'>>, kafka: Kafka, cat: Catalogue): Promise<void> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    const topics = [...cat.stored.map((r) => compactedTopic(entityTopic(cfg, r), cfg.partitions)), idsTopicConfig(cfg)]
    await ensureTopics(admin, topics.map((t) => withReplication(t, cfg.kafkaReplication ?? 1)))
  } finally { await admin.disconnect() }
}
