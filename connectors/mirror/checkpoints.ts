/**
 * Where a mirror stands, per source and resource, in a compacted topic of its own
 * (`<prefix>mirror.checkpoints`, keyed `<source root>|<resource>`): the source's link to the page
 * after the last one published, the last `date_modified` seen and the ids seen at that instant.
 * A checkpoint is written only after Kafka acknowledged the records it covers, so a mirror killed
 * at any point resumes without losing a record (and repeats at most what followed it: upserts of
 * the same objects, harmless to state).
 */
import { randomBytes } from 'node:crypto'
import type { Kafka, Producer } from 'kafkajs'
import type { Config } from '../../core/config.js'
import { compactedTopic, ensureTopics, idempotentProducer, stoppableConsumer, subscribeAll } from '../../core/kafka.js'

/** Where the walk of a list, or of one date_modified range of it, stands. */
export interface RangeCheckpoint {
  /** The source's link to the next page to read; null once the list was read to its end. */
  next: string | null
  /** The latest date_modified published (modified modes): the next poll asks for changes from it on. */
  modifiedSince: string | null
  /** Ids published with exactly `modifiedSince`, so that the next poll does not publish them again. */
  idsAtModified: (string | number)[]
  /** Records published so far (for a whole list: over all runs). */
  records: number
}

export interface Checkpoint extends RangeCheckpoint {
  /**
   * A pass that reads date_modified ranges at once (mirror.ts), while it is not complete: each
   * range's end (none for the last) and where it stands. Absent between passes.
   */
  ranges?: (RangeCheckpoint & { before: string | null; done: boolean })[]
  /** With `ranges`: the newest date_modified when the pass began; objects changed after it may be met twice. */
  newestAtStart?: string
}

export interface CheckpointStore {
  get(resource: string): Checkpoint | undefined
  save(resource: string, cp: Checkpoint): Promise<void>
  close(): Promise<void>
}

export const checkpointTopic = (cfg: Pick<Config, 'topicPrefix'>) => `${cfg.topicPrefix}mirror.checkpoints`

/** The key of a source's resource: one mirror deployment may follow several sources. */
export const checkpointKey = (sourceRoot: string, resource: string) => `${sourceRoot}|${resource}`

/** Reads the topic to its end (its high watermarks when asked). */
async function readAll(kafka: Kafka, cfg: Pick<Config, 'topicPrefix'>, topic: string): Promise<Map<string, Checkpoint>> {
  const found = new Map<string, Checkpoint>()
  const admin = kafka.admin()
  await admin.connect()
  try {
    const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]))
    const remaining = new Set([...ends].filter(([, high]) => high > 0).map(([p]) => p))
    if (remaining.size === 0) return found
    const groupId = `${cfg.topicPrefix}mirror-checkpoints-${randomBytes(4).toString('hex')}`
    const consumer = stoppableConsumer(kafka, { groupId })
    await consumer.connect()
    try {
      await subscribeAll(consumer, [topic], true)
      await new Promise<void>((resolve, reject) => {
        consumer.run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const key = message.key?.toString()
            if (key) {
              if (message.value) found.set(key, JSON.parse(message.value.toString()) as Checkpoint)
              else found.delete(key)
            }
            if (Number(message.offset) + 1 >= ends.get(partition)!) { remaining.delete(partition); if (remaining.size === 0) resolve() }
          },
        }).catch(reject)
      })
    } finally {
      await consumer.disconnect()
      await admin.deleteGroups([groupId]).catch(() => undefined)
    }
    return found
  } finally { await admin.disconnect() }
}

export async function openCheckpoints(deps: { cfg: Pick<Config, 'topicPrefix'>; kafka: Kafka }, sourceRoot: string, opts: { restart?: boolean } = {}): Promise<CheckpointStore> {
  const topic = checkpointTopic(deps.cfg)
  const admin = deps.kafka.admin()
  await admin.connect()
  try { await ensureTopics(admin, [compactedTopic(topic)]) } finally { await admin.disconnect() }
  const all = opts.restart ? new Map<string, Checkpoint>() : await readAll(deps.kafka, deps.cfg, topic)
  const producer: Producer = idempotentProducer(deps.kafka)
  await producer.connect()
  return {
    get: (resource) => all.get(checkpointKey(sourceRoot, resource)),
    async save(resource, cp) {
      const key = checkpointKey(sourceRoot, resource)
      await producer.send({ topic, acks: -1, messages: [{ key, value: JSON.stringify(cp) }] })
      all.set(key, cp)
    },
    close: () => producer.disconnect(),
  }
}
