/**
 * The search indexer: keeps the search index of every type (schemas/internal/search-layout.ts layout) and
 * the stored result objects in step with the entity topics.
 *
 * A batch of entity changes becomes, per search type, the set of documents it touches
 * (documents.ts `affected`); those documents are rebuilt from the tables the table sink keeps,
 * analyzed, and inserted per chunk of 5,000 (the postings grouped by toIndexRows, index-rows.ts,
 * into one Native block, the document rows, the results into search_results). The indexer reads what the sink
 * wrote, so before building it waits until the sink's watermarks cover the batch's offsets: a
 * document is never built from rows older than the change that asked for it, and one whose last
 * build already saw the batch's changes is left out (seen-changes.ts). A chunk's inserts run
 * while the next chunk is built. A document whose entity is gone is deleted from the index.
 *
 * With several instances of the role (LDS_SEARCH_INSTANCES above 1) that is not enough: a document
 * touched by changes in partitions of two instances would be built by both, and a court renamed in
 * one could race a build in the other. The role then runs in two stages: the repartition stage
 * (repartition.ts) maps changes to document keys on an internal topic (document-keys.ts), and this
 * stage builds the documents of its share of that topic's partitions, so each has one owner. With
 * one instance the stage in between would only cost a topic hop, and is not run.
 *
 * An optional percolator (the search alerts) matches each chunk's documents as they are built;
 * only the matches are kept, and they are delivered once the batch is searchable, before its
 * offsets are committed: a crash repeats them (alert hits are recorded, so nothing is sent twice).
 */
import type { Kafka } from 'kafkajs'
import pRetry from 'p-retry'
import type { Config } from '../../core/config.js'
import type { Db } from '../../core/clickhouse.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import { ensureTopics, retryRetriable } from '../../core/kafka.js'
import { sql, ident, compile } from '../../core/sql.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { dlqTopic, groupId, searchDocumentsTopic, createDecoder, createVersioner } from '../../schemas/events/index.js'
import { useWatermarks, type Watermarks } from '../../core/events/watermark-reader.js'
import { SEARCH_RESULTS } from '../../schemas/internal/search.js'
import { SEARCH_TYPES, analyzeDocument, textHash, searchTables, type SearchType, type AnalyzedDoc } from '../../domain/search/index.js'
import { refreshSql, indexColumns, postingsInsertSql } from '../../schemas/internal/search-layout.js'
import { toIndexRows, type IndexDoc, type IndexRows } from './index-rows.js'
import { startStream, type StreamDef, type BatchContext, type ConsumerTimeouts } from '../runner.js'
import { createDocumentSource, SEARCH_SOURCES, type Built, type DocumentSource, type Row } from './documents.js'
import { createSeenChanges, offsetKey, type Offsets, type SeenChanges } from './seen-changes.js'
import { createParentLedger } from './parents.js'
import { searchedTopics, readBatch, changeStream, type Change } from './changes.js'
import { decodeDocumentKeys, documentKeysTopicConfig, wantedOf, type DocumentKey } from './document-keys.js'
import { createCommitWatch } from './commit-watch.js'
import { startRepartition, startSearchableCommits } from './repartition.js'

/**
 * The consumer group whose committed entity offsets mean "indexed, percolated and searchable", in
 * both modes: the one-stage indexer's own; in two stages, committed by startSearchableCommits
 * (repartition.ts) once the documents stage has built every key published before.
 */
export const SEARCH_INDEXER = 'search-indexer'
/** Two stages: the group of the entity topics (the repartition stage; its commits mean "keys published"). */
export const SEARCH_REPARTITION = 'search-repartition'
/** Two stages: the group of the documents topic (the builders; its commits mean "built and searchable"). */
export const SEARCH_DOCUMENTS = 'search-documents'

/** The mode the role runs in (LDS_SEARCH_INSTANCES). */
export const searchStages = (cfg: Pick<Config, 'searchInstances'>): 1 | 2 => (cfg.searchInstances > 1 ? 2 : 1)

/**
 * search_results rows. A result goes in as a JSON object, which the server keeps as its text in
 * the String column: stringified once, not once into a string and again to escape that string
 * (an opinion's result carries its text for snippets).
 */
const RESULT_COLUMNS = ['type', 'id', 'result', 'date_created', 'indexed_at', '_version', '_deleted'] as const
const RESULTS_AS_TEXT = { settings: { input_format_json_read_objects_as_strings: 1 } }

/** Documents per build-and-insert step (bounds memory for a large catch-up batch). */
const CHUNK = 5_000
/** Chunks whose inserts may still run while the next is built. */
const WRITES_IN_FLIGHT = 2
/** Two stages: partitions of the documents topic whose batches an instance builds at once. */
const BUILDS_IN_PARALLEL = 4

export interface IndexedDocument { type: SearchType; id: number; built: Built; analyzed: AnalyzedDoc }

/** What the indexer hands its documents to (streams/search/percolator.ts). */
export interface Percolation<Hit> {
  match(docs: readonly IndexedDocument[]): Hit[]
  deliver(hits: readonly Hit[]): Promise<void>
}

export interface IndexerDeps {
  cfg: Config; kafka: Kafka; registry: Registry; log: Logger; db: Db; catalogue: Catalogue; watermarks?: Watermarks
  /** The consumer groups' timeouts (tests shorten them). */
  consumerTimeouts?: ConsumerTimeouts
  /** Told of every chunk of documents built (tests count builds per document). */
  onBuilt?: (type: SearchType, ids: readonly number[]) => void
}

export interface RunningIndexer {
  /** The consumer of the entity topics (one stage: the indexer; two: the repartition stage). */
  consumer: import('kafkajs').Consumer
  /** Two stages: the consumer of the documents topic. */
  documents?: import('kafkajs').Consumer
  stages: 1 | 2
  stop(): Promise<void>
}

export async function startSearchIndexer<Hit>(deps: IndexerDeps, percolation?: Percolation<Hit>): Promise<RunningIndexer> {
  return searchStages(deps.cfg) === 1 ? startOneStage(deps, percolation) : startTwoStages(deps, percolation)
}

/**
 * Builds documents per chunk and writes them; `finish` waits for the writes, makes them searchable
 * and delivers the percolator's hits. One per batch.
 */
function createBuildRun<Hit>(o: {
  db: Db; log: Logger; source: DocumentSource; version: () => number; live: LiveVersions; seen: SeenChanges
  appliedNow: () => Offsets; percolation?: Percolation<Hit>; onBuilt?: IndexerDeps['onBuilt']
}) {
  const { db, log, source, percolation } = o
  const hits: Hit[] = []
  const reloads = new Set<SearchType>()
  const builds: [SearchType, number[], Offsets][] = []
  const writes: Promise<void>[] = []
  let documents = 0

  /** Per document of the chunk, its newest indexed row's text hash and text version. */
  async function previousTexts(type: SearchType, ids: number[]): Promise<Map<number, PreviousText>> {
    const rows = await db.withKeys<{ id: number; hash: number; text_version: number; deleted: number }>(ids, 'Int64', (k) => sql`
      SELECT id, argMax(text_hash, version) AS hash, argMax(text_version, version) AS text_version, argMax(is_deleted, version) AS deleted
      FROM ${ident(db.database)}.${ident(searchTables(type).docs)} WHERE id IN ${k} GROUP BY id`)
    return new Map(rows.map((r) => [Number(r.id), { hash: Number(r.hash), textVersion: Number(r.text_version), deleted: Number(r.deleted) === 1 }]))
  }

  return {
    get documents() { return documents },
    async build(type: SearchType, list: readonly number[]): Promise<void> {
      for (let i = 0; i < list.length; i += CHUNK) {
        const chunk = list.slice(i, i + CHUNK)
        const applied = o.appliedNow()
        const [built, before] = await Promise.all([source.build(type, chunk), previousTexts(type, chunk)])
        const v = o.version()
        const now = new Date().toISOString()
        const docs: IndexDoc[] = []
        const results: unknown[][] = []
        const indexed: IndexedDocument[] = []
        for (const id of chunk) {
          const b = built.get(id) ?? null
          if (!b) {
            docs.push({ doc: analyzeDocument(type, { id }), version: v, deleted: true })
            results.push([type, id, {}, null, now, v, 1])
            continue
          }
          // A document that cannot be analyzed (a value its search field cannot hold) keeps the
          // version it had: one bad row must not stop every later change on its partition.
          let analyzed: ReturnType<typeof analyzeDocument>
          try { analyzed = analyzeDocument(type, b.doc) } catch (err) {
            log.error({ type, id, err: (err as Error).message }, 'search document not indexed: a value cannot be indexed')
            continue
          }
          docs.push({ doc: analyzed, version: v, ...textVersionOf(before.get(id), textHash(type, b.doc), v) })
          results.push([type, id, b.result, b.created, now, v, 0])
          if (percolation) indexed.push({ type, id, built: b, analyzed })
        }
        o.onBuilt?.(type, chunk)
        // a chunk's documents are matched now and let go: a catch-up batch touches tens of thousands
        if (percolation) for (const hit of percolation.match(indexed)) hits.push(hit)
        // the chunk's inserts go on while the next chunk (or type) is built: the server works
        // beside this process instead of in turn with it
        const write = startIndexRowsWrite(db, type, toIndexRows(type, docs))
        await write.sent
        writes.push(write.done.then(() => db.insertCompact(SEARCH_RESULTS, RESULT_COLUMNS, results, RESULTS_AS_TEXT)))
        writes.at(-1)!.catch(() => { /* awaited below */ })
        if (writes.length > WRITES_IN_FLIGHT) await writes.shift()
        reloads.add(type)
        builds.push([type, chunk, applied])
        documents += chunk.length
      }
    },
    async finish(): Promise<void> {
      await Promise.all(writes)
      // Committed only once searchable (see liveVersionReloader).
      await Promise.all([...reloads].map((type) => o.live.changed(type)))
      if (percolation && hits.length) await percolation.deliver(hits)
    },
    /** Once the batch is done: its builds are remembered (seen-changes.ts). */
    record(): void { for (const [type, chunk, applied] of builds) o.seen.record(type, chunk, applied) },
  }
}

/** The sink's applied offsets now, on these topics. */
function appliedOn(watermarks: Watermarks, topics: Iterable<string>): () => Offsets {
  const list = [...topics]
  return () => {
    const out = new Map<string, bigint>()
    for (const topic of list) for (const [partition, offset] of watermarks.appliedOf(topic)) out.set(offsetKey(topic, partition), offset)
    return out
  }
}

/** One instance: the indexer reads the entity topics and builds every document their changes touch. */
async function startOneStage<Hit>(deps: IndexerDeps, percolation?: Percolation<Hit>): Promise<RunningIndexer> {
  const { cfg, db, catalogue: cat } = deps
  const log = deps.log.child({ stream: SEARCH_INDEXER })
  const source = createDocumentSource(db)
  const decode = createDecoder(deps.registry)
  const version = createVersioner()
  const { watermarks, release: releaseWatermarks } = await useWatermarks(deps)
  const byTopic = searchedTopics(cfg, cat)
  const live = liveVersionReloader(db, log)
  // changes that a document's last build already saw are not built again (seen-changes.ts)
  const seen = createSeenChanges()
  // the documents each opinion, party… was last indexed into: a row that moves leaves them (parents.ts)
  const parents = createParentLedger(db)
  const appliedNow = appliedOn(watermarks, byTopic.keys())

  async function index(changes: Change[], batch?: BatchContext): Promise<void> {
    if (!changes.length) return
    const { last, rowsOf, parentsNow, parentsBefore } = await readBatch({ db, cat, watermarks, parents }, changes, batch)
    const run = createBuildRun({ db, log, source, version, live, seen, appliedNow, percolation, onBuilt: deps.onBuilt })
    const lastByKey: Offsets = new Map(last.map((p) => [offsetKey(p.topic, p.partition), p.offset]))
    let seenBefore = 0
    for (const type of Object.keys(SEARCH_TYPES) as SearchType[]) {
      const ids = new Set<number>()
      for (const resource of SEARCH_SOURCES[type]) {
        const rows = rowsOf.get(resource)
        // with the parents a moved or deleted row was last indexed under
        if (rows?.length) for (const id of await source.affected(type, resource, rows, [...parentsBefore.get(resource)?.values() ?? []].flat())) ids.add(id)
      }
      const list = [...ids].filter((id) => !seen.saw(type, id, lastByKey))
      seenBefore += ids.size - list.length
      await run.build(type, list)
    }
    await run.finish()
    await parents.record(parentsNow, parentsBefore, version())
    run.record()
    log.debug({ changes: changes.length, documents: run.documents, seenBefore }, 'search documents indexed')
  }

  const def: StreamDef<Change, Change[]> = {
    name: SEARCH_INDEXER,
    groupId: groupId(cfg, SEARCH_INDEXER),
    topics: [...byTopic.keys()],
    dlqTopic: dlqTopic(cfg, SEARCH_INDEXER),
    ...changeStream(cat, byTopic, decode),
    sink: index,
    timeouts: deps.consumerTimeouts,
  }
  const stream = await startStream(def, deps)
  return {
    consumer: stream.consumer,
    stages: 1,
    async stop() { await stream.stop(); await releaseWatermarks() },
  }
}

/**
 * Several instances: the repartition stage (repartition.ts) publishes the keys of the documents
 * each change touches, and this stage builds those of its share of the documents topic's
 * partitions. A key is published only once the sink has applied its change, so a build reads it.
 */
async function startTwoStages<Hit>(deps: IndexerDeps, percolation?: Percolation<Hit>): Promise<RunningIndexer> {
  const { cfg, db } = deps
  const log = deps.log.child({ stream: SEARCH_DOCUMENTS })
  const source = createDocumentSource(db)
  const version = createVersioner()
  const { watermarks, release: releaseWatermarks } = await useWatermarks(deps)
  const entityTopics = [...searchedTopics(cfg, deps.catalogue).keys()]
  const topic = searchDocumentsTopic(cfg)
  const partitions = await ensureDocumentKeysTopic(deps)
  const live = liveVersionReloader(db, log)
  const seen = createSeenChanges()
  const appliedNow = appliedOn(watermarks, entityTopics)
  const built = createCommitWatch(deps.kafka, groupId(cfg, SEARCH_DOCUMENTS), topic)

  async function index(keys: DocumentKey[]): Promise<void> {
    if (!keys.length) return
    const run = createBuildRun({ db, log, source, version, live, seen, appliedNow, percolation, onBuilt: deps.onBuilt })
    let seenBefore = 0
    for (const [type, docs] of wantedOf(keys)) {
      // a key that asks only if the document is indexed is decided here, by the owner, after
      // every earlier key of the document was built
      const conditional = [...docs].filter(([, w]) => w.ifIndexed).map(([id]) => id)
      const inIndex = new Set(await source.indexed(type, conditional))
      const asked = [...docs].filter(([id, w]) => !w.ifIndexed || inIndex.has(id))
      const list = asked.filter(([id, w]) => !seen.saw(type, id, w.after)).map(([id]) => id)
      seenBefore += asked.length - list.length
      await run.build(type, list)
    }
    await run.finish()
    run.record()
    log.debug({ keys: keys.length, documents: run.documents, seenBefore }, 'search documents indexed')
  }

  const def: StreamDef<DocumentKey[], DocumentKey[]> = {
    name: SEARCH_DOCUMENTS,
    groupId: groupId(cfg, SEARCH_DOCUMENTS),
    topics: [topic],
    dlqTopic: dlqTopic(cfg, SEARCH_DOCUMENTS),
    decode: (m) => decodeDocumentKeys(m.message.value),
    transform: (events) => events.flatMap((e) => e.event),
    sink: index,
    afterCommit: (c) => built.committed(c.partition, BigInt(c.offset)),
    // partitions hold different documents: their batches are independent, and built side by side
    // their inserts share the reloads of the live versions (coalesced per type) instead of each
    // paying one in turn
    concurrency: BUILDS_IN_PARALLEL,
    timeouts: deps.consumerTimeouts,
  }
  const stream = await startStream(def, deps)
  const stops: (() => Promise<void>)[] = [() => stream.stop(), () => built.stop(), releaseWatermarks]
  const stopAll = async () => { for (const stop of stops.splice(0)) await stop() }
  try {
    const searchable = startSearchableCommits({ ...deps, built, log })
    stops.unshift(() => searchable.stop())
    const repartition = await startRepartition({ ...deps, watermarks, source, partitions, onRouted: () => searchable.poke() })
    stops.unshift(() => repartition.stop())
    return { consumer: repartition.consumer, documents: stream.consumer, stages: 2, stop: stopAll }
  } catch (err) {
    await stopAll()
    throw err
  }
}

/** Creates the documents topic if missing; its partition count (an existing topic keeps its own). */
async function ensureDocumentKeysTopic(deps: Pick<IndexerDeps, 'cfg' | 'kafka'>): Promise<number> {
  const admin = deps.kafka.admin()
  await admin.connect()
  try {
    const config = documentKeysTopicConfig(deps.cfg)
    await retryRetriable(() => ensureTopics(admin, [config]))
    // another instance may have created it a moment ago, and a busy broker can answer "unknown
    // topic" for a while after it is created: the consumers subscribe once its metadata is served
    await pRetry(() => admin.fetchTopicMetadata({ topics: [config.topic] }), {
      retries: 30, minTimeout: 200, factor: 1.5, maxTimeout: 2_000,
      shouldRetry: ({ error }) => (error as Error & { retriable?: boolean }).retriable === true,
    })
    return (await retryRetriable(() => admin.fetchTopicOffsets(config.topic))).length
  } finally { await admin.disconnect() }
}

export interface PreviousText { hash: number; textVersion: number; deleted: boolean }

/**
 * The text version of a document indexed at `version`: the previous row's when its text is the
 * same (the row is written without postings: a citation count or the links of an opinion's HTML
 * changed, not its words), else `version` (new postings). Hash 0 is a row written before text
 * hashes were kept: never the same.
 */
export function textVersionOf(previous: PreviousText | undefined, hash: number, version: number): { textVersion: number; textHash: number } {
  const same = previous !== undefined && !previous.deleted && previous.hash !== 0 && previous.hash === hash && previous.textVersion < version
  return { textVersion: same ? previous.textVersion : version, textHash: hash }
}

/**
 * Writes a batch's index rows (toIndexRows): the postings block, then the document rows. Not
 * atomic, and need not be: a batch that fails is indexed again at a new version, and
 * postings at a version that never became current are never read (queries keep the current one).
 */
export async function writeIndexRows(db: Db, type: SearchType, rows: IndexRows, o: { table?: string } = {}): Promise<void> {
  await startIndexRowsWrite(db, type, rows, o).done
}

/**
 * writeIndexRows in two steps: `sent` once the postings are handed to the socket, `done` once both
 * inserts are done. A caller that prepares the next batch meanwhile should wait for `sent` first:
 * the body only moves while the event loop runs, so a long synchronous step would hold the
 * server waiting for the rest of the block instead of working beside it.
 */
export function startIndexRowsWrite(db: Db, type: SearchType, rows: IndexRows, o: { table?: string } = {}): { sent: Promise<void>; done: Promise<void> } {
  const tables = { database: db.database, table: o.table }
  let sent!: () => void
  const isSent = new Promise<void>((resolve) => { sent = resolve })
  // postings first: a reload of the live versions (due any time on a server that runs them) may
  // then see a document's new version only once its postings are there
  const postings = rows.postingRows ? db.insertBody(compile(postingsInsertSql(type, tables)).query, rows.postings, { sent }) : Promise.resolve()
  const done = postings.then(() => db.insertCompact(searchTables(type, tables).docs, indexColumns(type), rows.docs))
  done.then(sent, sent)
  // the postings' arrays go back to toIndexRows once their insert has settled
  void postings.then(() => rows.release(), () => rows.release())
  return { sent: isSent, done }
}

/**
 * Text queries count a posting only at its document's current version, which they read from the
 * type's live-version dictionary (schemas/internal/search-layout.ts). The dictionary's LIFETIME is not
 * enough: the embedded server (chDB) runs no periodic dictionary updates, and a server that does
 * would wait up to its lifetime. So the indexer reloads it after its inserts, and a batch is
 * committed only once a reload that started after its inserts has finished: what the indexer has
 * committed is searchable. Reloads are coalesced per type: one runs at a time, and every change
 * made while it runs is covered by the next one, so a catch-up of many batches costs few reloads.
 */
type LiveVersions = ReturnType<typeof liveVersionReloader>

function liveVersionReloader(db: Db, log: Logger) {
  interface State { started: number; finished: number; running: boolean; waiters: { after: number; done: (err?: Error) => void }[] }
  const states = new Map<SearchType, State>()
  const run = async (type: SearchType, st: State) => {
    st.running = true
    while (st.waiters.some((w) => w.after > st.finished)) {
      const generation = ++st.started
      let failure: Error | undefined
      try { await db.command(refreshSql(type, { database: db.database })) } catch (err) { failure = err as Error }
      st.finished = generation
      const due = st.waiters.filter((w) => w.after <= generation)
      st.waiters = st.waiters.filter((w) => w.after > generation)
      if (failure) log.warn({ type, err: failure.message }, 'search index: reloading current versions failed')
      for (const w of due) w.done(failure)
    }
    st.running = false
  }
  return {
    /** Resolves once a reload that started after this call has finished (rejects if it failed: the batch is retried). */
    changed(type: SearchType): Promise<void> {
      let st = states.get(type)
      if (!st) states.set(type, (st = { started: 0, finished: 0, running: false, waiters: [] }))
      const state = st
      const p = new Promise<void>((resolve, reject) => state.waiters.push({ after: state.started + 1, done: (err) => (err ? reject(err) : resolve()) }))
      if (!state.running) void run(type, state)
      return p
    },
  }
}
