/**
 * Every topic, consumer group and registry subject name, made in one place from the configured
 * prefix. Code never spells a topic or group as a literal: it asks here.
 *   entity.<resource>            compacted, keyed by id: the current state of every entity
 *   command.<name>               work for a processor, keyed by the entity it concerns
 *   dlq.<processor>              events a processor could not decode or validate
 *   watermarks                   what each table sink has applied, per source partition
 *   webhook-events[.retry.<n>]   webhook deliveries and their delayed retries
 *   ids                          one message per block of ids leased (core/ids.ts): one partition, not compacted
 */
import type { Config } from '../../core/config.js'

type Prefix = Pick<Config, 'topicPrefix'>

/** The stream processors; each is one consumer group (several instances share its partitions). */
export const PROCESSORS = {
  tableSink: 'table-sink',
  citationNetwork: 'citation-network',
} as const
export type ProcessorName = (typeof PROCESSORS)[keyof typeof PROCESSORS] | (string & {})

export const entityTopic = (cfg: Prefix, resource: string | { name: string }) =>
  `${cfg.topicPrefix}entity.${typeof resource === 'string' ? resource : resource.name}`
export const commandTopic = (cfg: Prefix, name: string) => `${cfg.topicPrefix}command.${name}`
export const dlqTopic = (cfg: Prefix, processor: ProcessorName) => `${cfg.topicPrefix}dlq.${processor}`
export const groupId = (cfg: Prefix, processor: ProcessorName) => `${cfg.topicPrefix}${processor}`
export const watermarkTopic = (cfg: Prefix) => `${cfg.topicPrefix}watermarks`
/** Where processes lease blocks of ids for the rows they create: the offset of a lease is its block (core/ids.ts). */
export const idsTopic = (cfg: Prefix) => `${cfg.topicPrefix}ids`
export const valueSubject = (topic: string) => `${topic}-value`

/** The resource an entity topic carries, or undefined for any other topic. */
export function resourceOfTopic(cfg: Prefix, topic: string): string | undefined {
  const head = `${cfg.topicPrefix}entity.`
  return topic.startsWith(head) ? topic.slice(head.length) : undefined
}
