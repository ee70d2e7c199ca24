/**
 * The search-index role's first stage when it runs in several instances (LDS_SEARCH_INSTANCES above
 * 1; indexer.ts): maps each entity change to the search documents it touches (documents.ts
 * `affected`: a court renamed touches every document that shows it, an opinion its cluster's
 * document…) and publishes their keys to the search documents topic (document-keys.ts), where each
 * document has one partition and so one owner among the instances. Two instances of the one-stage
 * indexer build every document a change touches each, twice the work, and a rename handled by one
 * can miss a document the other is building.
 *
 * Before mapping a batch it waits until the table sink has applied it (the lookups read the sink's
 * tables, and a key published after that makes every build of it read the change). It commits the
 * batch's entity offsets (group `search-repartition`) as soon as the keys are durable in the topic
 * (acks from every in-sync replica): it does not wait for the builds, so a batch costs one produce
 * and the stages work side by side.
 *
 * What "indexed and searchable" meant before the split, the `search-indexer` group's committed entity
 * offsets (the readiness of `npm start`, tests and benchmarks wait on it), is kept by
 * startSearchableCommits below, from the two groups' commits.
 */
import type { Kafka, Producer } from 'kafkajs'
import type { Config } from '../../core/config.js'
import type { Db } from '../../core/clickhouse.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import { idempotentProducer, retryRetriable } from '../../core/kafka.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { dlqTopic, groupId, searchDocumentsTopic, createDecoder, createVersioner } from '../../schemas/events/index.js'
import type { Watermarks } from '../../core/events/watermark-reader.js'
import { SEARCH_TYPES, type SearchType } from '../../domain/search/index.js'
import { startStream, type StreamDef, type BatchContext, type ConsumerTimeouts } from '../runner.js'
import { SEARCH_SOURCES, type DocumentSource, type Row } from './documents.js'
import { createParentLedger, type ParentsOf } from './parents.js'
import { encodeDocumentKeys, type ChangeAt, type DocumentKey } from './document-keys.js'
import { searchedTopics, readBatch, changeStream, type Change } from './changes.js'
import type { CommitWatch } from './commit-watch.js'

const SEARCH_REPARTITION = 'search-repartition'
const SEARCH_INDEXER = 'search-indexer'

/** Messages (of up to KEYS_PER_MESSAGE keys) per produce request. */
const SEND_CHUNK = 100
/** Entity partitions whose batches are mapped at once (their rows and parents are apart: a key's changes are all in one partition). */
const ROUTES_IN_PARALLEL = 2

export interface RepartitionDeps {
  cfg: Config; kafka: Kafka; registry: Registry; log: Logger; db: Db; catalogue: Catalogue
  watermarks: Watermarks
  source: DocumentSource
  /** Partitions of the documents topic. */
  partitions: number
  consumerTimeouts?: ConsumerTimeouts
  /** Told after each commit of a batch's entity offsets (the searchable commits look at once). */
  onRouted?: () => void
}

/** The document keys of a batch's rows, per type: all touched, and those to build only if indexed (decided by their owner). */
export async function touchedKeys(source: Pick<DocumentSource, 'affected'>, rowsOf: ReadonlyMap<string, Row[]>, parentsBefore: ParentsOf, after: readonly ChangeAt[]): Promise<DocumentKey[]> {
  const keys: DocumentKey[] = []
  for (const type of Object.keys(SEARCH_TYPES) as SearchType[]) {
    const ids = new Set<number>()
    const ifIndexed = new Set<number>()
    for (const resource of SEARCH_SOURCES[type]) {
      const rows = rowsOf.get(resource)
      // with the parents a moved or deleted row was last indexed under
      if (rows?.length) for (const id of await source.affected(type, resource, rows, [...parentsBefore.get(resource)?.values() ?? []].flat(), ifIndexed)) ids.add(id)
    }
    for (const id of ids) keys.push({ type, id, ifIndexed: false, after })
    for (const id of ifIndexed) if (!ids.has(id)) keys.push({ type, id, ifIndexed: true, after })
  }
  return keys
}

export async function startRepartition(deps: RepartitionDeps) {
  const { cfg, db, catalogue: cat, source, watermarks } = deps
  const log = deps.log.child({ stream: SEARCH_REPARTITION })
  const decode = createDecoder(deps.registry)
  const version = createVersioner()
  const byTopic = searchedTopics(cfg, cat)
  const parents = createParentLedger(db)
  const topic = searchDocumentsTopic(cfg)
  const producer: Producer = idempotentProducer(deps.kafka)
  await producer.connect()

  async function publish(keys: readonly DocumentKey[]): Promise<void> {
    const messages = encodeDocumentKeys(keys, deps.partitions)
    for (let i = 0; i < messages.length; i += SEND_CHUNK) await producer.send({ topic, acks: -1, messages: messages.slice(i, i + SEND_CHUNK) })
  }

  async function route(changes: Change[], batch?: BatchContext): Promise<void> {
    if (!changes.length) return
    const { last, rowsOf, parentsNow, parentsBefore } = await readBatch({ db, cat, watermarks, parents }, changes, batch)
    const keys = await touchedKeys(source, rowsOf, parentsBefore, last.map((p) => [p.topic, p.partition, String(p.offset)] as const))
    // durable before the batch is committed: a crash before the commit publishes them again (a build is idempotent)
    if (keys.length) await publish(keys)
    // after the keys: a batch retried before this reads the same old parents again
    await parents.record(parentsNow, parentsBefore, version())
    log.debug({ changes: changes.length, documents: keys.length }, 'search documents routed')
  }

  const def: StreamDef<Change, Change[]> = {
    name: SEARCH_REPARTITION,
    groupId: groupId(cfg, SEARCH_REPARTITION),
    topics: [...byTopic.keys()],
    dlqTopic: dlqTopic(cfg, SEARCH_REPARTITION),
    ...changeStream(cat, byTopic, decode),
    sink: route,
    afterCommit: () => deps.onRouted?.(),
    concurrency: ROUTES_IN_PARALLEL,
    timeouts: deps.consumerTimeouts,
  }
  await startWhereSearchable(deps).catch((err) => log.warn({ err: (err as Error).message }, 'search index: the first two-stage start reads the entity topics from their beginning'))
  const stream = await startStream(def, deps).catch(async (err) => { await producer.disconnect(); throw err })
  return {
    consumer: stream.consumer,
    async stop() { await stream.stop(); await producer.disconnect() },
  }
}

/**
 * A deployment that ran one stage and now runs two: the repartition group, new, starts where the
 * one-stage indexer's commits say the index is, not from the topics' beginning (which would build
 * every document again). Only while the group has no offsets and no members (its first instance's
 * start; a commit of member "" is refused once another instance has joined, and that one seeded it).
 */
async function startWhereSearchable(deps: Pick<RepartitionDeps, 'cfg' | 'kafka' | 'catalogue'>): Promise<void> {
  const topics = [...searchedTopics(deps.cfg, deps.catalogue).keys()]
  const admin = deps.kafka.admin()
  await admin.connect()
  try {
    const offsets = async (group: string) => (await retryRetriable(() => admin.fetchOffsets({ groupId: groupId(deps.cfg, group), topics })))
      .map(({ topic, partitions }) => ({ topic, partitions: partitions.filter((p) => /^\d+$/.test(p.offset)).map(({ partition, offset }) => ({ partition, offset })) }))
      .filter((t) => t.partitions.length)
    if ((await offsets(SEARCH_REPARTITION)).length) return
    const searchable = await offsets(SEARCH_INDEXER)
    if (!searchable.length) return
    const committer = groupCommitter(deps.kafka)
    try { await committer.commit(groupId(deps.cfg, SEARCH_REPARTITION), searchable) } finally { await committer.stop() }
  } finally { await admin.disconnect() }
}

/**
 * How often the searchable commits look for entity offsets the repartition stage has committed past
 * them: at once after a commit of this instance's repartition stage, else at this pace (another
 * instance's commits; an idle role asks the broker twice per turn).
 */
const SEARCHABLE_POLL_MS = 1_000

/**
 * Keeps the `search-indexer` group's committed entity offsets meaning "indexed, percolated and
 * searchable" in the two-stage mode, without either stage waiting for the other. From broker state
 * only, so any instance may do it and none keeps anything an instance that dies would take along:
 * read the repartition group's committed entity offsets C, then the documents topic's end offsets
 * H (every key of a change before C is below H: keys are durable before C is committed); once the
 * documents group has committed H on every partition (each build committed only once searchable and
 * percolated), everything before C is searchable, and C is committed for `search-indexer`. Every
 * instance runs it; commits that would go back are left out.
 */
export function startSearchableCommits(deps: { cfg: Config; kafka: Kafka; log: Logger; catalogue: Catalogue; built: CommitWatch }) {
  const { cfg, kafka, built } = deps
  const log = deps.log.child({ stream: 'search-searchable' })
  const entityTopics = [...searchedTopics(cfg, deps.catalogue).keys()]
  const documents = searchDocumentsTopic(cfg)
  const admin = kafka.admin()
  const committer = groupCommitter(kafka)
  let stopped = false
  let wake: (() => void) | undefined
  let poked = false
  const pause = (ms: number) => new Promise<void>((resolve) => { const t = setTimeout(() => { wake = undefined; resolve() }, ms); wake = () => { clearTimeout(t); wake = undefined; resolve() } })

  const committed = async (group: string): Promise<Map<string, Map<number, bigint>>> => {
    const out = new Map<string, Map<number, bigint>>()
    for (const { topic, partitions } of await retryRetriable(() => admin.fetchOffsets({ groupId: groupId(cfg, group), topics: entityTopics }))) {
      out.set(topic, new Map(partitions.filter((p) => /^\d+$/.test(p.offset)).map((p) => [p.partition, BigInt(p.offset)])))
    }
    return out
  }

  async function turn(): Promise<void> {
    const routed = await committed(SEARCH_REPARTITION)
    const ahead = (searchable: Map<string, Map<number, bigint>>) => [...routed].map(([topic, parts]) => ({
      topic, partitions: [...parts].filter(([p, at]) => at > (searchable.get(topic)?.get(p) ?? -1n)).map(([partition, at]) => ({ partition, offset: String(at) })),
    })).filter((t) => t.partitions.length)
    if (!ahead(await committed(SEARCH_INDEXER)).length) return
    const ends = new Map((await retryRetriable(() => admin.fetchTopicOffsets(documents))).filter((p) => BigInt(p.high) > 0n).map((p) => [p.partition, BigInt(p.high)]))
    while (!stopped && !await built.reached(ends, 1_000)) { /* the documents stage is building them */ }
    if (stopped) return
    // asked again just before: another instance may have committed further meanwhile
    const topics = ahead(await committed(SEARCH_INDEXER))
    if (topics.length) await committer.commit(groupId(cfg, SEARCH_INDEXER), topics)
  }

  const loop = (async () => {
    await admin.connect()
    while (!stopped) {
      try { await turn() } catch (err) {
        if (!stopped) log.warn({ err: (err as Error).message }, 'search index: the searchable offsets could not be committed; trying again')
      }
      if (!stopped && !poked) await pause(SEARCHABLE_POLL_MS)
      poked = false
    }
  })()
  return {
    /** Something was committed: look now (or right after the turn under way). */
    poke() { if (wake) wake(); else poked = true },
    async stop() {
      stopped = true
      wake?.()
      await loop.catch(() => { /* logged */ })
      await admin.disconnect().catch(() => { /* gone */ })
      await committer.stop()
    },
  }
}

/**
 * Commits offsets for a consumer group this process is no member of, as an admin tool does (member
 * "" and generation -1: the broker takes them while the group has no members, and `search-indexer`
 * has none in the two-stage mode). KafkaJS's admin has no such call (its setOffsets joins the
 * group as a consumer), so this asks its cluster client, which KafkaJS keeps behind a symbol.
 */
function groupCommitter(kafka: Kafka) {
  interface Coordinator { offsetCommit(r: { groupId: string; groupGenerationId: number; memberId: string; retentionTime?: number; topics: { topic: string; partitions: { partition: number; offset: string }[] }[] }): Promise<unknown> }
  interface Cluster { connect(): Promise<void>; disconnect(): Promise<void>; findGroupCoordinator(r: { groupId: string }): Promise<Coordinator> }
  const create = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster')
  if (!create) throw new Error('kafkajs: no cluster client to commit the searchable offsets with (kafkajs changed?)')
  let cluster: Promise<Cluster> | undefined
  const connected = () => (cluster ??= (async () => {
    const c = (kafka as unknown as Record<symbol, (o: object) => Cluster>)[create]({})
    await c.connect()
    return c
  })())
  return {
    async commit(group: string, topics: { topic: string; partitions: { partition: number; offset: string }[] }[]): Promise<void> {
      const c = await connected()
      await retryRetriable(async () => (await c.findGroupCoordinator({ groupId: group })).offsetCommit({ groupId: group, groupGenerationId: -1, memberId: '', retentionTime: -1, topics }))
    },
    async stop() { if (cluster) await cluster.then((c) => c.disconnect()).catch(() => { /* never connected */ }) },
  }
}
