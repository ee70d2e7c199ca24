/**
 * Every topic, consumer group and registry subject name, made in one place from the configured
 * prefix. Code never spells a topic or group as a literal: it asks here.
 *   entity.<resource>            compacted, keyed by id: the current state of every entity of the
 *                                public feed (schemas/events/feeds.ts); outside consumers read these
 *   internal.entity.<resource>   the same for the service's own resources (users, per-user rows):
 *                                apart by name, so `<prefix>entity.` is exactly the public feed
 *   command.<name>               work for a processor, keyed by the entity it concerns
 *   dlq.<processor>              events a processor could not decode or validate
 *   watermarks                   what each table sink has applied, per source partition
 *   webhook-events[.retry.<n>]   webhook deliveries and their delayed retries
 *   ids                          one message per block of ids leased (core/ids.ts): one partition, not compacted
 *   search.documents             search documents to build, a partition per `type:id` (streams/search/document-keys.ts):
 *                                a work queue, not compacted; only with LDS_SEARCH_INSTANCES above 1
 */
import type { Config } from '../../core/config.js'
import type { ResourceDef } from '../define.js'
import { catalogue } from '../catalogue/index.js'
import { feedOf } from './feeds.js'

type Prefix = Pick<Config, 'topicPrefix'>

/** The stream processors; each is one consumer group (several instances share its partitions). */
export const PROCESSORS = {
  tableSink: 'table-sink',
  citationNetwork: 'citation-network',
} as const
export type ProcessorName = (typeof PROCESSORS)[keyof typeof PROCESSORS] | (string & {})

/** The entity topic of a resource (a definition, or a name of the catalogue; an unknown name is public). */
export function entityTopic(cfg: Prefix, resource: string | ResourceDef): string {
  const r = typeof resource === 'string' ? (catalogue.has(resource) ? catalogue.get(resource) : undefined) : resource
  const name = typeof resource === 'string' ? resource : resource.name
  return `${r && feedOf(r) === 'internal' ? internalEntityPrefix(cfg) : publicFeedPrefix(cfg)}${name}`
}

/** What every topic of the public feed starts with, and no other topic of the deployment. */
export const publicFeedPrefix = (cfg: Prefix) => `${cfg.topicPrefix}entity.`
const internalEntityPrefix = (cfg: Prefix) => `${cfg.topicPrefix}internal.entity.`

/** Where an internal resource's entity topic was named before the public feed was apart (moved by core/events/internal-topics.ts). */
export const formerEntityTopic = (cfg: Prefix, r: ResourceDef) => `${publicFeedPrefix(cfg)}${r.name}`
export const commandTopic = (cfg: Prefix, name: string) => `${cfg.topicPrefix}command.${name}`
export const dlqTopic = (cfg: Prefix, processor: ProcessorName) => `${cfg.topicPrefix}dlq.${processor}`
export const groupId = (cfg: Prefix, processor: ProcessorName) => `${cfg.topicPrefix}${processor}`
export const watermarkTopic = (cfg: Prefix) => `${cfg.topicPrefix}watermarks`
/** Where processes lease blocks of ids for the rows they create: the offset of a lease is its block (core/ids.ts). */
export const idsTopic = (cfg: Prefix) => `${cfg.topicPrefix}ids`
/** The search documents a change touches, from the search-index role's repartition stage to the owner of each document. */
export const searchDocumentsTopic = (cfg: Prefix) => `${cfg.topicPrefix}search.documents`
export const valueSubject = (topic: string) => `${topic}-value`

/** The resource an entity topic carries, or undefined for any other topic. */
export function resourceOfTopic(cfg: Prefix, topic: string): string | undefined {
  for (const head of [publicFeedPrefix(cfg), internalEntityPrefix(cfg)]) if (topic.startsWith(head)) return topic.slice(head.length)
  return undefined
}
