/**
 * The citation network processor. Consumes opinion changes, new parallel citations and relink
 * commands:
 *  - an opinion whose text changed is (re)read: its citations are resolved to clusters, its
 *    edges published to the opinions-cited topic (old edges it no longer makes are deleted), and
 *    its html_with_citations and cited clusters kept in `citation_state`; citation keys it could
 *    not link yet go to `citation_waiting`;
 *  - a new citation (volume, reporter, page), or a first opinion of a cluster, asks for the
 *    opinions waiting on it to be linked again, through the relink command topic. Commands are
 *    keyed by opinion id and co-partitioned with the opinions topic, so the instance that owns an
 *    opinion is the only one that ever writes its state.
 * Resolution reads only tables this processor writes itself, so it never races the table sink.
 * State is written after the edges are acknowledged by Kafka and before offsets are committed, so
 * a crash at any point only repeats work. Every key set goes to ClickHouse through `withKeys`, so
 * no query grows with the batch.
 *
 * Two instances can race: one links opinion X while another adds the first opinion of a cluster X
 * cites. Each side writes first and reads second (X writes what it waits on, then checks whether it
 * can now be linked; the other writes its state, then looks for waiters), so at least one sees
 * the other and X is linked.
 */
import type { Kafka, Producer } from 'kafkajs'
import type { Config } from '../core/config.js'
import { selectFinal, type Db } from '../core/clickhouse.js'
import type { Logger } from '../core/logger.js'
import type { Registry } from '../core/registry.js'
import type { Clock } from '../core/clock.js'
import { systemClock } from '../core/clock.js'
import { sql, ident } from '../core/sql.js'
import { ensureTopics, plainTopic, idempotentProducer, retryRetriable } from '../core/kafka.js'
import { extractCitations, type FoundCitation } from '../domain/citations/index.js'
import { resolveCitations, clustersFor, citeKey, type CiteKey } from '../domain/citations/resolve.js'
import { buildEdges, linkCitations, sourceText, textHash, type ResolvedCite } from '../domain/citations/links.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { CITATION_STATE, CITATION_INDEX, CITATION_WAITING, CITATION_CITED, citationRowsLoader } from '../schemas/internal/citation-network.js'
import {
  entityTopic, dlqTopic, groupId, PROCESSORS, createDecoder, validateEntityEvent, createVersioner, createCommandCodec,
  RELINK, RECOUNT, type EntityEvent, type RelinkCommand, type RecountCommand, type CommandCodec,
} from '../schemas/events/index.js'
import type { Publisher } from '../core/events/publisher.js'
import { startStream, type StreamDef } from './runner.js'

interface StateRow { opinion_id: number; source_version: number; text_hash: string; edge_ids: number[]; cited_cluster_ids: number[]; unresolved: string[] }

export type NetEvent =
  | { kind: 'opinion'; event: EntityEvent }
  | { kind: 'citation'; event: EntityEvent }
  | { kind: 'relink'; command: RelinkCommand }
  | { kind: 'recount'; command: RecountCommand }

/** Where the network's commands go: the command topics in production, lists in unit tests. */
export interface RelinkSender { send(commands: RelinkCommand[]): Promise<void>; recount?(commands: RecountCommand[]): Promise<void> }

export interface NetworkStats { processed: number; relinked: number; deferred: number }

/** Pause before handing back relinks whose opinion the table sink has not applied yet. */
const DEFER_PAUSE_MS = 500

export function citationNetworkDef(deps: {
  cfg: Config; db: Db; registry: Registry; catalogue: Catalogue; publisher: Publisher; log: Logger
  relink: RelinkSender; relinkCodec?: CommandCodec<RelinkCommand>; recountCodec?: CommandCodec<RecountCommand>; clock?: Clock
}): StreamDef<NetEvent, NetEvent[]> & { stats: NetworkStats } {
  const { cfg, db, publisher, log } = deps
  const clock = deps.clock ?? systemClock()
  const decode = createDecoder(deps.registry)
  const opinionsTopic = entityTopic(cfg, 'opinions')
  const citationsTopic = entityTopic(cfg, 'citations')
  const version = createVersioner()
  const table = (name: string) => sql`${ident(db.database)}.${ident(name)}`
  const loadIndex = citationRowsLoader(db, CITATION_INDEX)
  const stats: NetworkStats = { processed: 0, relinked: 0, deferred: 0 }

  async function loadStates(ids: number[]): Promise<Map<number, StateRow>> {
    const rows = await db.withKeys<StateRow>(ids, 'Int64', (k) => sql`
      SELECT opinion_id, source_version, text_hash, edge_ids, cited_cluster_ids, unresolved FROM ${table(CITATION_STATE)} FINAL WHERE opinion_id IN ${k}`)
    return new Map(rows.map((r) => [Number(r.opinion_id), { ...r, opinion_id: Number(r.opinion_id), source_version: Number(r.source_version), edge_ids: r.edge_ids.map(Number), cited_cluster_ids: r.cited_cluster_ids.map(Number) }]))
  }

  /** Opinions waiting on one of these citation keys. */
  async function waitingOn(keys: string[]): Promise<number[]> {
    const rows = await db.withKeys<{ opinion_id: number }>(keys, 'String', (k) => sql`
      SELECT DISTINCT opinion_id FROM ${table(CITATION_WAITING)} FINAL WHERE key IN ${k}`)
    return rows.map((r) => Number(r.opinion_id))
  }

  /** The lowest opinion id of each cluster that has one: the opinion an edge to the cluster points at. */
  async function opinionsOfClusters(clusterIds: number[]): Promise<Map<number, number>> {
    const rows = await db.withKeys<{ cluster_id: number; id: number }>(clusterIds, 'Int64', (k) => sql`
      ${selectFinal(table(CITATION_STATE), sql`cluster_id, min(opinion_id) AS id`, sql`cluster_id IN ${k}`, 'opinion_id', sql`GROUP BY cluster_id`)}`)
    return new Map(rows.map((r) => [Number(r.cluster_id), Number(r.id)]))
  }

  /** Opinions that cite any of these clusters. */
  async function citersOf(clusterIds: number[]): Promise<number[]> {
    const rows = await db.withKeys<{ opinion_id: number }>(clusterIds, 'Int64', (k) => sql`
      SELECT DISTINCT opinion_id FROM ${table(CITATION_CITED)} FINAL WHERE cluster_id IN ${k}`)
    return rows.map((r) => Number(r.opinion_id))
  }

  /** Citation keys of these clusters (from the index): what waiters on a cluster wait for. */
  async function keysOfClusters(clusterIds: number[]): Promise<string[]> {
    const rows = await db.withKeys<{ volume: number; reporter: string; page: string }>(clusterIds, 'Int64', (k) => sql`
      ${selectFinal(table(CITATION_INDEX), sql`volume, reporter, page`, sql`cluster_id IN ${k}`, 'id')}`)
    return rows.map((r) => citeKey(r.volume, r.reporter, r.page))
  }

  /** Relinked opinions as the table sink holds them; those it has not caught up with are handed back. */
  async function loadForRelink(ids: number[], states: Map<number, StateRow>): Promise<{ ready: Map<number, EntityEvent>; later: number[] }> {
    const rows = await db.withKeys<Record<string, unknown>>(ids, 'Int64', (k) => sql`
      SELECT * EXCEPT (_deleted) FROM ${table('opinions')} FINAL WHERE id IN ${k}`)
    const ready = new Map<number, EntityEvent>()
    for (const row of rows) {
      const id = Number(row.id)
      const v = Number(row._version)
      delete row._version
      ready.set(id, { op: 'upsert', version: v, key: String(id), entity: row })
    }
    const later: number[] = []
    for (const id of ids) {
      const state = states.get(id)
      const row = ready.get(id)
      // Never linked before: the row (if any) is linked now, or the opinion's own event will be.
      if (state && (!row || row.version < state.source_version)) { ready.delete(id); later.push(id) }
    }
    return { ready, later }
  }

  async function process(events: NetEvent[]): Promise<void> {
    // 1. Citations: into the processor's index, so opinions resolve against them.
    const indexRows: Record<string, unknown>[] = []
    const newKeys = new Set<string>()
    const opinions = new Map<number, EntityEvent>()
    const relinkIds = new Set<number>()
    const recounts = new Set<number>()
    for (const e of events) {
      if (e.kind === 'opinion') opinions.set(Number(e.event.key), e.event)
      else if (e.kind === 'relink') relinkIds.add(e.command.opinion_id)
      else if (e.kind === 'recount') recounts.add(e.command.cluster_id)
      else if (e.event.op === 'upsert' && e.event.entity) {
        const c = e.event.entity
        indexRows.push({ id: c.id, cluster_id: c.cluster_id, volume: c.volume, reporter: c.reporter, page: c.page, _version: e.event.version, _deleted: 0 })
        newKeys.add(citeKey(Number(c.volume), String(c.reporter), String(c.page)))
      } else indexRows.push({ id: Number(e.event.key), cluster_id: 0, volume: 0, reporter: '', page: '', _version: e.event.version, _deleted: 1 })
    }
    if (indexRows.length) await db.insert(CITATION_INDEX, indexRows)

    // 2. Opinions asked for again: read as the table sink holds them.
    const forced = new Set<number>()
    const later: number[] = []
    const arrived = new Set(opinions.keys())
    const relinkOnly = [...relinkIds].filter((id) => !opinions.has(id))
    if (relinkOnly.length) {
      const r = await loadForRelink(relinkOnly, await loadStates(relinkOnly))
      for (const [id, ev] of r.ready) { opinions.set(id, ev); forced.add(id) }
      later.push(...r.later)
    }
    for (const id of relinkIds) if (opinions.has(id)) forced.add(id)

    const relinks: RelinkCommand[] = []
    if (opinions.size) relinks.push(...await linkOpinions(opinions, forced, arrived))

    // 3. Backfill: opinions waiting on a citation that now exists.
    if (newKeys.size) for (const id of await waitingOn([...newKeys])) relinks.push({ opinion_id: id, reason: 'citation' })

    if (later.length) {
      stats.deferred += later.length
      log.debug({ opinions: later.length }, 'relinked opinions are not in the opinions table yet; asking again shortly')
      await clock.sleep(DEFER_PAUSE_MS)
      relinks.push(...later.map((id) => ({ opinion_id: id, reason: 'deferred' })))
    }
    if (relinks.length) {
      stats.relinked += relinks.length
      await deps.relink.send(relinks)
    }
    if (recounts.size) await recount([...recounts])
  }

  /** Publishes the number of opinions citing each of these clusters (this instance owns them). */
  async function recount(clusterIds: number[]): Promise<void> {
    const rows = await db.withKeys<{ cluster_id: number; n: number }>(clusterIds, 'Int64', (k) => sql`
      SELECT cluster_id, count() AS n FROM ${table(CITATION_CITED)} FINAL WHERE cluster_id IN ${k} GROUP BY cluster_id`)
    const counts = new Map(rows.map((r) => [Number(r.cluster_id), Number(r.n)]))
    for (const id of clusterIds) await publisher.upsert('citation-counts', { id, citation_count: counts.get(id) ?? 0 })
    await publisher.flush()
  }

  /** Links these opinions; returns the relinks their arrival calls for. */
  async function linkOpinions(opinions: Map<number, EntityEvent>, forced: Set<number>, arrived: ReadonlySet<number>): Promise<RelinkCommand[]> {
    const states = await loadStates([...opinions.keys()])
    const work: { id: number; version: number; cluster: number | null; text: string; html: boolean; hash: string; cites: { c: FoundCitation; key: CiteKey }[] }[] = []
    const deletes: number[] = []
    const unchanged: { id: number; cluster: number | null }[] = []
    for (const [id, ev] of opinions) {
      if (ev.op === 'delete' || !ev.entity) { deletes.push(id); continue }
      const cluster = ev.entity.cluster_id == null ? null : Number(ev.entity.cluster_id)
      const { text, html } = sourceText(ev.entity)
      const hash = textHash(text)
      const state = states.get(id)
      if (state && state.source_version > ev.version) continue // an older copy than the one already linked
      if (state?.text_hash === hash && !forced.has(id)) { unchanged.push({ id, cluster }); continue }
      const cites = extractCitations(text, { html })
        .filter((c) => c.kind === 'full_case' && c.volume && c.page && c.candidates.length)
        .map((c) => ({ c, key: { volume: Number(c.volume), reporters: [...new Set(c.candidates.map((x) => x.reporter))], page: c.page! } }))
      work.push({ id, version: ev.version, cluster, text, html, hash, cites })
    }
    const allCites = work.flatMap((w) => w.cites.map((c) => c.key))
    const resolved = await resolveCitations(loadIndex, allCites)
    const opinionOfCluster = await opinionsOfClusters([...new Set([...resolved.values()].flat())])
    for (const w of [...work, ...unchanged]) {
      if (w.cluster !== null && (!opinionOfCluster.has(w.cluster) || opinionOfCluster.get(w.cluster)! > w.id)) opinionOfCluster.set(w.cluster, w.id)
    }
    // Clusters of every opinion in the batch, unchanged ones included: a replay after a crash between
    // the state insert and the relinks below must send those relinks again (deciding "new" from the
    // state rows would skip them, and the waiters would wait forever).
    const seen = [...work, ...unchanged]
    const batchIds = new Set(seen.map((w) => w.id))
    const touchedClusters = [...new Set(seen.filter((w) => w.cluster !== null).map((w) => w.cluster!))]
    // Clusters whose lowest opinion arrived in this batch (from the opinions topic, a replay included):
    // edges to them must point at it, including edges made before it arrived (to a higher opinion
    // of the cluster, processed first). An opinion that is only relinked changes its own edges, not
    // which opinion its cluster has: relinking its citers again would walk the whole citation graph,
    // and around every cycle of it forever.
    const lowestHere = touchedClusters.filter((c) => arrived.has(opinionOfCluster.get(c)!))

    // Edges out (old ones this opinion no longer makes are deleted), then state, then commit.
    const stateRows: Record<string, unknown>[] = []
    const waitingRows: Record<string, unknown>[] = []
    const citedRows: Record<string, unknown>[] = []
    const changedClusters = new Set<number>()
    /** Keeps citation_cited in step with the clusters an opinion cites; notes clusters whose count moves. */
    const cite = (opinion: number, before: readonly number[], after: readonly number[], v: number) => {
      const now = new Set(after)
      for (const c of before) if (!now.has(c)) { citedRows.push({ cluster_id: c, opinion_id: opinion, _version: v, _deleted: 1 }); changedClusters.add(c) }
      const was = new Set(before)
      for (const c of after) if (!was.has(c)) { citedRows.push({ cluster_id: c, opinion_id: opinion, _version: v, _deleted: 0 }); changedClusters.add(c) }
    }
    const stillWaiting = new Map<number, string[]>()
    const v = version()
    for (const w of work) {
      const cites: ResolvedCite[] = w.cites.map(({ c, key }) => ({
        start: c.start, end: c.end, matchedText: c.matchedText, key: citeKey(key.volume, key.reporters[0], key.page), clusters: clustersFor(resolved, key),
      }))
      const { edges, unresolved, citedClusters } = buildEdges(w.id, w.cluster, cites, opinionOfCluster)
      const keep = new Set(edges.map((e) => e.id))
      for (const old of states.get(w.id)?.edge_ids ?? []) if (!keep.has(old)) await publisher.delete('opinions-cited', old)
      for (const e of edges) await publisher.upsert('opinions-cited', e as unknown as Record<string, unknown>)
      // Waiting keys are kept under every candidate reporter, so a citation under any of them wakes this opinion.
      const waitingKeys = [...new Set(w.cites.filter((wc) => unresolved.includes(citeKey(wc.key.volume, wc.key.reporters[0], wc.key.page)))
        .flatMap(({ key }) => key.reporters.map((r) => citeKey(key.volume, r, key.page))))]
      const old = new Set(states.get(w.id)?.unresolved ?? [])
      for (const k of old) if (!waitingKeys.includes(k)) waitingRows.push({ key: k, opinion_id: w.id, _version: v, _deleted: 1 })
      for (const k of waitingKeys) waitingRows.push({ key: k, opinion_id: w.id, _version: v, _deleted: 0 })
      if (waitingKeys.length) stillWaiting.set(w.id, waitingKeys)
      const html = linkCitations(w.text, w.html, cites)
      cite(w.id, states.get(w.id)?.cited_cluster_ids ?? [], citedClusters, v)
      stateRows.push({
        opinion_id: w.id, cluster_id: w.cluster, source_version: w.version, text_hash: w.hash, edge_ids: [...keep], cited_cluster_ids: citedClusters,
        unresolved: waitingKeys, html_with_citations: html, _version: v, _deleted: 0,
      })
      await publisher.upsert('citation-texts', { id: w.id, html_with_citations: html, cited_clusters_ids: citedClusters })
    }
    for (const id of deletes) {
      const state = states.get(id)
      for (const old of state?.edge_ids ?? []) await publisher.delete('opinions-cited', old)
      for (const k of state?.unresolved ?? []) waitingRows.push({ key: k, opinion_id: id, _version: v, _deleted: 1 })
      cite(id, state?.cited_cluster_ids ?? [], [], v)
      stateRows.push({ opinion_id: id, cluster_id: null, source_version: opinions.get(id)!.version, _version: v, _deleted: 1 })
      if (state) await publisher.delete('citation-texts', id)
    }
    await publisher.flush()
    await db.insert(CITATION_WAITING, waitingRows)
    await db.insert(CITATION_CITED, citedRows)
    await db.insert(CITATION_STATE, stateRows)
    // Counted by the instance that owns each cluster, after this batch's rows are in.
    if (changedClusters.size) await deps.relink.recount?.([...changedClusters].map((cluster_id) => ({ cluster_id })))
    stats.processed += work.length
    log.debug({ opinions: work.length, deleted: deletes.length }, 'citation network batch applied')

    const relinks: RelinkCommand[] = []
    // A cluster with an opinion: whoever waits on its citations can now be linked.
    if (touchedClusters.length) {
      for (const id of await waitingOn(await keysOfClusters(touchedClusters))) if (!batchIds.has(id)) relinks.push({ opinion_id: id, reason: 'cluster' })
    }
    // Opinions that cite a cluster whose lowest opinion just arrived point at another one: relink them.
    if (lowestHere.length) {
      for (const id of await citersOf(lowestHere)) if (!batchIds.has(id)) relinks.push({ opinion_id: id, reason: 'cluster' })
    }
    // Written first, read second: what we wait on may have arrived meanwhile (another instance).
    if (stillWaiting.size) relinks.push(...await recheck(stillWaiting, opinionOfCluster))
    return relinks
  }

  /** Opinions whose waiting keys now resolve to clusters that have an opinion, which they lacked when linked. */
  async function recheck(waiting: Map<number, string[]>, used: Map<number, number>): Promise<RelinkCommand[]> {
    const keys = [...new Set([...waiting.values()].flat())]
    const rows = await loadIndex(keys)
    const clustersOfKey = new Map<string, number[]>()
    for (const r of rows) {
      const k = citeKey(r.volume, r.reporter, r.page)
      clustersOfKey.set(k, [...(clustersOfKey.get(k) ?? []), Number(r.cluster_id)])
    }
    const fresh = [...new Set(rows.map((r) => Number(r.cluster_id)))].filter((c) => !used.has(c))
    const now = fresh.length ? await opinionsOfClusters(fresh) : new Map<number, number>()
    const out: RelinkCommand[] = []
    for (const [id, ks] of waiting) {
      if (ks.some((k) => (clustersOfKey.get(k) ?? []).some((c) => now.has(c)))) out.push({ opinion_id: id, reason: 'recheck' })
    }
    return out
  }

  const relinkTopic = deps.relinkCodec?.topic
  const recountTopic = deps.recountCodec?.topic
  return {
    name: PROCESSORS.citationNetwork,
    groupId: groupId(cfg, PROCESSORS.citationNetwork),
    topics: [opinionsTopic, citationsTopic, ...(relinkTopic ? [relinkTopic] : []), ...(recountTopic ? [recountTopic] : [])],
    dlqTopic: dlqTopic(cfg, PROCESSORS.citationNetwork),
    fetchBytes: cfg.sinkFetchBytes,
    stats,
    async decode(m) {
      if (m.topic === relinkTopic) return { kind: 'relink', command: await deps.relinkCodec!.decode(m.message.value) }
      if (m.topic === recountTopic) return { kind: 'recount', command: await deps.recountCodec!.decode(m.message.value) }
      const event = validateEntityEvent(await decode(m.message.value), 'id')
      return { kind: m.topic === opinionsTopic ? 'opinion' : 'citation', event }
    },
    transform: (events) => events.map((e) => e.event),
    sink: process,
  }
}

/** The command topics (relink, recount), with as many partitions as the opinions topic (co-partitioned). */
async function commandChannel(deps: { cfg: Config; kafka: Kafka; registry: Registry }) {
  const relink = await createCommandCodec(deps.cfg, deps.registry, RELINK)
  const recount = await createCommandCodec(deps.cfg, deps.registry, RECOUNT)
  const admin = deps.kafka.admin()
  await admin.connect()
  try {
    const meta = await retryRetriable(() => admin.fetchTopicMetadata({ topics: [entityTopic(deps.cfg, 'opinions')] }))
    const partitions = meta.topics[0]?.partitions.length || deps.cfg.partitions
    await ensureTopics(admin, [relink.topic, recount.topic].map((t) => plainTopic(t, partitions, 7 * 24 * 3600_000)))
  } finally { await admin.disconnect() }
  const producer: Producer = idempotentProducer(deps.kafka)
  await producer.connect()
  const sender: RelinkSender = {
    async send(commands) { await producer.send({ topic: relink.topic, acks: -1, messages: commands.map((c) => ({ key: RELINK.key(c), value: relink.encode(c) })) }) },
    async recount(commands) { await producer.send({ topic: recount.topic, acks: -1, messages: commands.map((c) => ({ key: RECOUNT.key(c), value: recount.encode(c) })) }) },
  }
  return { relink, recount, producer, sender }
}

export async function startCitationNetwork(deps: { cfg: Config; db: Db; registry: Registry; catalogue: Catalogue; kafka: Kafka; log: Logger; publisher: Publisher; clock?: Clock }) {
  const channel = await commandChannel(deps)
  const stream = await startStream(citationNetworkDef({ ...deps, relink: channel.sender, relinkCodec: channel.relink, recountCodec: channel.recount }), deps)
  return {
    consumer: stream.consumer,
    async stop() {
      await stream.stop()
      await channel.producer.disconnect()
    },
  }
}
