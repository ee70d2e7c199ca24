import kafkajs, { Kafka, logLevel, Partitioners, type Producer, type Admin, type AclFilter, type Consumer, type ConsumerConfig, type EachBatchPayload, type ITopicConfig, type ProducerConfig } from 'kafkajs'
import pRetry from 'p-retry'
import './kafka-compression.js'
import type { Config } from './config.js'
import type { Logger } from './logger.js'

export type { Producer, Admin }

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error', [logLevel.WARN]: 'warn', [logLevel.INFO]: 'info', [logLevel.DEBUG]: 'debug',
}

/** Broker answers KafkaJS retries by itself: a cluster starting, a leader moving, a member evicted by a rebalance (it rejoins; what it had not committed is read again). */
const RETRIABLE = /coordinator is loading|coordinator is not aware of this member|coordinator is not available|not the correct coordinator|leadership election|not the leader for that topic-partition|does not host this topic-partition|Topic creation errors|There is no leader for this topic-partition/i

/** A KafkaJS client whose log lines go through our logger instead of the console. */
export function createKafka(cfg: Pick<Config, 'kafkaBrokers'>, log: Logger, clientId = 'lds'): Kafka {
  const klog = log.child({ component: 'kafkajs' })
  const retriableCrash = new Set<string>()
  return new Kafka({
    clientId,
    brokers: [...cfg.kafkaBrokers],
    logLevel: logLevel.WARN,
    // Every broker call has a deadline and a bounded number of retries (about a minute in all):
    // a broker that is down produces an error, not a hang.
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 10_000 },
    logCreator: () => ({ level, log: entry }) => {
      const { message, ...rest } = entry
      // The coordinator-rebalance chatter during normal group joins is not a warning for us.
      if (message?.includes('The group is rebalancing') || String((rest as { error?: unknown }).error ?? '').includes('The group is rebalancing')) return
      // Retriable broker answers (a coordinator still loading after a start) are retried by
      // KafkaJS; they are not errors of ours.
      // The answer is in `error` for most lines and in the message itself for some ("Failed to send
      // messages: This server is not the leader…" while a new topic's leaders are elected).
      const retriable = RETRIABLE.test(String((rest as { error?: unknown }).error ?? '')) || RETRIABLE.test(message ?? '')
      // A consumer that crashed on such an answer is restarted by KafkaJS; its "Restarting the
      // consumer" line belongs with the crash it follows.
      const group = (rest as { groupId?: string }).groupId
      if (group !== undefined && message?.startsWith('Crash:')) { if (retriable) retriableCrash.add(group); else retriableCrash.delete(group) }
      const restartAfterRetriable = group !== undefined && message?.startsWith('Restarting the consumer') && retriableCrash.delete(group)
      klog[retriable || restartAfterRetriable ? 'debug' : (LEVELS[level] ?? 'info')](rest, message)
    },
  })
}

/**
 * An idempotent producer: retried without limit (a bounded retry could drop a write), and the
 * default murmur2 partitioner (the same partition for a key as Java clients choose). Retries at
 * most 2 s apart: each retry refreshes the metadata, and when a broker of a cluster dies its
 * partitions get new leaders about 9 s later (the controller's broker session timeout); with 10 s
 * between retries the first send after that came 27 s after the kill (fault case 9).
 */
export function idempotentProducer(kafka: Kafka, extra: ProducerConfig = {}): Producer {
  return kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner, retry: { retries: Number.MAX_SAFE_INTEGER, maxRetryTime: 2_000 }, ...extra })
}

/**
 * Create topics that do not exist yet; existing topics are left as they are. A broker busy
 * creating many topics can answer "unknown topic" while leaders are elected; such retriable
 * answers are retried with backoff.
 */
export async function ensureTopics(admin: Admin, topics: ITopicConfig[]): Promise<void> {
  await pRetry(async () => {
    const existing = new Set(await admin.listTopics())
    const missing = topics.filter((t) => !existing.has(t.topic))
    if (missing.length === 0) return
    try {
      await admin.createTopics({ topics: missing, waitForLeaders: true })
    } catch (err) {
      // Another process may have created one of them between list and create.
      if (!String((err as Error).message).includes('already exists')) throw err
    }
  }, { retries: 6, minTimeout: 250, factor: 2, shouldRetry: ({ error }) => (error as Error & { retriable?: boolean }).retriable === true })
}

/** Compacted entity topics keep the latest state of every key forever: the bulk-data interface. */
// replicationFactor -1: the broker's default.replication.factor (1 on the single node, 3 on the cluster).
export const compactedTopic = (topic: string, numPartitions = 1): ITopicConfig => ({
  topic, numPartitions, replicationFactor: -1,
  configEntries: [
    { name: 'cleanup.policy', value: 'compact' },
    { name: 'min.compaction.lag.ms', value: '60000' },
    { name: 'max.message.bytes', value: String(16 * 1024 * 1024) },
  ],
})

export const plainTopic = (topic: string, numPartitions = 1, retentionMs = 7 * 24 * 3600_000): ITopicConfig => ({
  topic, numPartitions, replicationFactor: -1,
  configEntries: [{ name: 'retention.ms', value: String(retentionMs) }, { name: 'max.message.bytes', value: String(16 * 1024 * 1024) }],
})

/**
 * How long the broker holds a fetch that finds nothing new, for consumers that read many
 * partitions (the stream runner, the read model, entity tables, watermarks). A new event ends the
 * wait at once, so it adds no latency; it paces an idle consumer, whose every fetch names every
 * partition it reads (kafkajs has no fetch sessions): at 1 s an idle `npm start` spent about 3 % of
 * a core in node and as much in Kafka on empty fetches. A stop does not wait for it
 * (patches/kafkajs+2.2.4.patch). kafkajs heartbeats between fetches, so a rebalance is noticed
 * within this wait (under the 30 s session timeout).
 */
export const IDLE_FETCH_WAIT_MS = 5_000

/**
 * Consumer settings for a group with one member for its whole life (a random group id made at each
 * start: a process's in-memory tables and watermarks). No other member ever joins, so there is no
 * rebalance to notice and its idle fetch can wait longer: 15 s, a third of the fetches and
 * heartbeats of the 5 s wait. The session outlasts four such waits (heartbeats come between them);
 * a long session costs nothing here, as no one rejoins the group after a crash. (Not the read
 * model: its group outlives a restart, and the restarted member would wait out the old session.)
 */
export const SOLE_MEMBER_CONSUMER = { maxWaitTimeInMs: 15_000, sessionTimeout: 60_000, heartbeatInterval: 15_000 } as const

/**
 * A consumer that stays stopped once disconnect() is called. kafkajs restarts a crashed consumer a
 * moment after the crash's own disconnect, and when the application's disconnect() ran meanwhile
 * (a crash during shutdown: a rebalance, deleted topics) the restart comes after it and runs on,
 * reconnected, for the life of the process. Here the restart asks whether the consumer was stopped.
 */
export function stoppableConsumer(kafka: Kafka, config: ConsumerConfig): Consumer {
  let stopped = false
  const restartOnFailure = config.retry?.restartOnFailure
  const consumer = kafka.consumer({
    ...config,
    // kafkajs's consumer default (retries: 5), kept: a retry option given here replaces it.
    retry: { retries: 5, ...config.retry, restartOnFailure: async (e) => !stopped && (restartOnFailure ? restartOnFailure(e) : true) },
  })
  const disconnect = consumer.disconnect.bind(consumer)
  consumer.disconnect = async () => { stopped = true; await disconnect() }
  const connect = consumer.connect.bind(consumer)
  consumer.connect = async () => { await groupCoordinatorReady(kafka, config.groupId); await connect() }
  return consumer
}

/**
 * Resolves once the broker's coordinator of `groupId` answers for the group. On a cold broker the
 * offsets topic is still loading for a while; a consumer that joined then crashed on "The
 * coordinator is loading" and was restarted by KafkaJS. Asking first keeps the first join clean.
 */
export async function groupCoordinatorReady(kafka: Pick<Kafka, 'admin'>, groupId: string, opts: { retries?: number; minTimeoutMs?: number } = {}): Promise<void> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    // The cluster's brokers first (a metadata request naming no topic): a fresh admin knows only
    // its seed broker, so kafkajs's first coordinator lookup found no broker for the coordinator's
    // node, refreshed and retried after its initial retry time: about 180 ms of every consumer's
    // start (most of the table sink's), for one round trip's worth of work.
    await admin.describeCluster()
    await waitForGroupCoordinator(admin, groupId, opts)
  } finally { await admin.disconnect() }
}

/** Asks for the group until its coordinator answers; retriable answers (loading, not available, moved) are retried. */
export async function waitForGroupCoordinator(admin: Pick<Admin, 'describeGroups'>, groupId: string, opts: { retries?: number; minTimeoutMs?: number } = {}): Promise<void> {
  await pRetry(() => admin.describeGroups([groupId]), {
    retries: opts.retries ?? 20, minTimeout: opts.minTimeoutMs ?? 200, factor: 1.5, maxTimeout: 3_000,
    shouldRetry: ({ error }) => (error as Error & { retriable?: boolean }).retriable === true || RETRIABLE.test((error as Error).message),
  })
}

/**
 * Commits the offset after a batch (`next`) through the batch's own commit, retrying the broker's
 * retriable answers. Not consumer.commitOffsets(): that does nothing once the consumer is stopping
 * (kafkajs returns early when not running), so a batch a graceful stop lets finish would be
 * written and never committed, and applied again after the restart. The batch's commit is sent
 * while the member is still in its group (kafkajs leaves only after the batch in flight).
 */
export function commitBatch(commit: EachBatchPayload['commitOffsetsIfNecessary'], topic: string, partition: number, next: string): Promise<void> {
  return retryRetriable(() => commit({ topics: [{ topic, partitions: [{ partition, offset: next }] }] }))
}

/**
 * Subscribes to topics, retrying the broker's retriable answers: right after a topic is created
 * its metadata can still answer "unknown topic" for a moment.
 */
export async function subscribeAll(consumer: Consumer, topics: readonly string[], fromBeginning = true): Promise<void> {
  await pRetry(() => consumer.subscribe({ topics: [...topics], fromBeginning }), {
    retries: 8, minTimeout: 100, factor: 2, maxTimeout: 2_000,
    shouldRetry: ({ error }) => (error as Error & { retriable?: boolean }).retriable === true,
  })
}

/** Runs a broker call again while the broker gives retriable answers (leaders moving, a topic just made). */
export function retryRetriable<T>(fn: () => Promise<T>): Promise<T> {
  return pRetry(fn, {
    retries: 8, minTimeout: 100, factor: 2, maxTimeout: 2_000,
    // KafkaJS answers an offsets request whose response it lost (a timeout under load, many topics
    // asked at once) with a TypeError from inside itself; asking again gets the answer.
    shouldRetry: ({ error }) => (error as Error & { retriable?: boolean }).retriable === true || LOST_OFFSETS_ANSWER.test(error.message),
  })
}

const LOST_OFFSETS_ANSWER = /Cannot destructure property 'partitions'/

/**
 * High-water marks of several topics, one topic after another. KafkaJS's admin shares one metadata
 * refresh between concurrent callers; on a multi-broker cluster, offsets asked for many topics at
 * once came back empty for a few of them (a TypeError inside KafkaJS) often enough to crash the API
 * at start, where the same requests in sequence always answered (56 topics in about a second).
 */
export async function endOffsets(admin: Pick<Admin, 'fetchTopicOffsets'>, topics: readonly string[]): Promise<Map<string, Map<number, bigint>>> {
  const out = new Map<string, Map<number, bigint>>()
  for (const topic of topics) {
    const answer = await retryRetriable(() => admin.fetchTopicOffsets(topic))
    out.set(topic, new Map(answer.map((p) => [p.partition, BigInt(p.high)])))
  }
  return out
}

const UNREACHABLE = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|Connection error|Connection timeout|closed connection|broker not connected|KafkaJSConnection|NumberOfRetriesExceeded|There is no leader/i

/**
 * A batch send that outlives a broker outage of any length. KafkaJS retries a send within its
 * client retry budget (about half a minute), then gives up with a non-retriable error; a connector
 * or processor would then lose its batch or crash. Connection failures are retried here until the
 * broker answers (each retry may resend the batch: entity events are versioned upserts, so a
 * duplicate is harmless). Other errors are thrown.
 */
export async function sendUntilDelivered<T>(send: () => Promise<T>, log: Logger, what: string): Promise<T> {
  let warned = false
  return pRetry(async () => {
    const out = await send()
    if (warned) log.info({ what }, 'Kafka answers again; sent')
    return out
  }, {
    retries: Number.MAX_SAFE_INTEGER, minTimeout: 500, factor: 2, maxTimeout: 10_000,
    shouldRetry: ({ error }) => {
      const e = error as Error & { cause?: Error; originalError?: Error }
      const text = `${e.name} ${e.message} ${e.cause?.name ?? ''} ${e.cause?.message ?? ''} ${e.originalError?.message ?? ''}`
      if (!UNREACHABLE.test(text)) return false
      if (!warned) log.warn({ what, err: e.message }, 'Kafka does not answer; retrying until it does')
      warned = true
      return true
    },
  })
}

// Node's CommonJS export detection misses these: they are read from the default export.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs

/** An ACL filter matching every ACL (of `principal`, when given): any resource, pattern, operation, permission. */
export function everyAcl(principal?: string): AclFilter {
  return {
    ...(principal === undefined ? {} : { principal }),
    resourceType: AclResourceTypes.ANY, resourcePatternType: ResourcePatternTypes.ANY,
    operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY,
  }
}
