/**
 * The delivery queue of webhook events: `webhook-events` (new events, resends, re-enable requests)
 * and one retry topic per retry (`webhook-events.retry.<n>`, n = 1..7), each holding events due at
 * `due_at`. Every message is keyed by the endpoint's id and every topic has the same partitions, so
 * one delivery instance owns an endpoint: its counters, its disabling and its resends never race.
 * A retry topic's messages are in due order within a partition (one delay per topic), so the
 * consumer waits on the head of each partition instead of polling.
 */
import type { Kafka, Producer } from 'kafkajs'
import type { Config } from '../config.js'
import type { Registry } from '../registry.js'
import { ensureTopics, plainTopic, idempotentProducer, retryRetriable } from '../kafka.js'
import { createTopicCodec, type CommandCodec } from '../../schemas/events/index.js'
import { MAX_RETRY_COUNTER } from '../../domain/webhooks/index.js'

export interface QueuedEvent {
  kind: 'event' | 'reenable'
  event_id: string
  webhook_id: number
  user_id: number
  event_type: number
  /** The envelope as POSTed (JSON text); empty for a re-enable request. */
  content: string
  debug: boolean
  /** Counter of the attempt this message asks for: 0 the first, n retry n. */
  retry_counter: number
  /** Wall-clock ms at which the attempt is due. */
  due_at: number
  /** When the event was made (ISO 8601). */
  date_created: string
  /** Wall-clock ms of the first attempt (0 before it): retries are due at fixed times from it. */
  first_attempt_at?: number
}

const SCHEMA = {
  type: 'record', name: 'WebhookDelivery', namespace: 'org.lds.webhooks',
  doc: 'A webhook event to deliver (or a request to resend an endpoint\'s recent failures), due at due_at.',
  fields: [
    { name: 'kind', type: { type: 'enum', name: 'DeliveryKind', symbols: ['event', 'reenable'] } },
    { name: 'event_id', type: 'string' }, { name: 'webhook_id', type: 'long' }, { name: 'user_id', type: 'long' },
    { name: 'event_type', type: 'int' }, { name: 'content', type: 'string' }, { name: 'debug', type: 'boolean' },
    { name: 'retry_counter', type: 'int' }, { name: 'due_at', type: 'long' }, { name: 'date_created', type: 'string' },
    { name: 'first_attempt_at', type: 'long', default: 0 },
  ],
} as const

export const queueTopic = (cfg: Pick<Config, 'topicPrefix'>) => `${cfg.topicPrefix}webhook-events`
export const retryTopic = (cfg: Pick<Config, 'topicPrefix'>, n: number) => `${cfg.topicPrefix}webhook-events.retry.${n}`
export const deliveryTopics = (cfg: Pick<Config, 'topicPrefix'>) => [queueTopic(cfg), ...Array.from({ length: MAX_RETRY_COUNTER }, (_, i) => retryTopic(cfg, i + 1))]

export interface WebhookQueue {
  readonly codec: CommandCodec<QueuedEvent>
  /** Enqueues at the topic for its counter: 0 → the main topic, n → retry n. */
  send(events: readonly QueuedEvent[]): Promise<void>
  stop(): Promise<void>
}

/** Creates the topics (as many partitions as configured, retained a week beyond the longest schedule) and a producer. */
export async function openWebhookQueue(deps: { cfg: Config; kafka: Kafka; registry: Registry }): Promise<WebhookQueue> {
  const { cfg } = deps
  const codec = await createTopicCodec<QueuedEvent>(queueTopic(cfg), deps.registry, { name: 'webhook-delivery', schema: SCHEMA as never })
  const admin = deps.kafka.admin()
  await admin.connect()
  try {
    await retryRetriable(() => ensureTopics(admin, deliveryTopics(cfg).map((t) => plainTopic(t, cfg.partitions, 10 * 24 * 3600_000))))
  } finally { await admin.disconnect() }
  const producer: Producer = idempotentProducer(deps.kafka)
  await producer.connect()
  return {
    codec,
    async send(events) {
      const byTopic = new Map<string, QueuedEvent[]>()
      for (const e of events) {
        const topic = e.retry_counter === 0 ? queueTopic(cfg) : retryTopic(cfg, e.retry_counter)
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), e])
      }
      await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list.map((e) => ({ key: String(e.webhook_id), value: codec.encode(e) })) })),
      })
    },
    stop: () => producer.disconnect(),
  }
}
