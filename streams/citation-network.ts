/**
 * The citation network processor. Consumes opinion changes and new parallel citations:
 *  - an opinion whose text changed is (re)read: its citations are resolved to clusters, its
 *    edges published to the opinions-cited topic (old edges it no longer makes are deleted),
 *    and its html_with_citations and cited clusters kept in `citation_state`;
 *  - a new citation (volume, reporter, page), or a first opinion of a cluster, re-processes the
 *    opinions that cited it before it could be linked (backfill).
 * Resolution reads only tables this processor writes itself (`citation_index`, and the cluster of
 * every opinion in `citation_state`), so it never races the table sink.
 * State is written after the edges are acknowledged by Kafka and before offsets are committed,
 * so a crash at any point only repeats work.
 */
import type { Kafka } from 'kafkajs'
import type { Config } from '../core/config.js'
import type { Db } from '../core/clickhouse.js'
import type { Logger } from '../core/logger.js'
import type { SchemaRegistry } from '../core/registry.js'
import { sql, ident } from '../core/sql.js'
import { topicName } from '../core/kafka.js'
import { resolveCitations, clustersFor, citeKey, type CiteKey } from '../core/citation-resolver.js'
import { extractCitations, type FoundCitation } from '../core/citations/index.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { entityTopic } from '../schemas/registry.js'
import { createVersioner, type Publisher } from '../connectors/publisher.js'
import { createDecoder, validateEntityEvent, type EntityEvent } from './decode.js'
import { startStream, type StreamDef } from './runner.js'
import { buildEdges, linkCitations, sourceText, textHash, type ResolvedCite } from './citation-links.js'

export const STATE_TABLE = 'citation_state'
/** The processor's own copy of parallel citations, written before it commits, so resolution never waits on another sink. */
export const INDEX_TABLE = 'citation_index'

export async function ensureCitationState(db: Db): Promise<void> {
  await db.command(sql`CREATE TABLE IF NOT EXISTS ${ident(db.database)}.${ident(STATE_TABLE)} (
    opinion_id Int64, cluster_id Nullable(Int64), text_hash String, edge_ids Array(Int64), cited_cluster_ids Array(Int64),
    unresolved Array(String), html_with_citations String, _version UInt64, _deleted UInt8
  ) ENGINE = ReplacingMergeTree(_version, _deleted) ORDER BY opinion_id`)
  await db.command(sql`CREATE TABLE IF NOT EXISTS ${ident(db.database)}.${ident(INDEX_TABLE)} (
    id Int64, cluster_id Int64, volume Int64, reporter String, page String, _version UInt64, _deleted UInt8
  ) ENGINE = ReplacingMergeTree(_version, _deleted) ORDER BY id`)
}

interface StateRow { opinion_id: number; text_hash: string; edge_ids: number[]; cited_cluster_ids: number[]; unresolved: string[] }
type NetEvent = { kind: 'opinion' | 'citation'; event: EntityEvent }

export function citationNetworkDef(deps: { cfg: Config; db: Db; registry: SchemaRegistry; catalogue: Catalogue; publisher: Publisher; log: Logger }): StreamDef<NetEvent, NetEvent[]> {
  const { cfg, db, publisher, log } = deps
  const decode = createDecoder(deps.registry)
  const opinionsTopic = entityTopic(cfg, 'opinions')
  const citationsTopic = entityTopic(cfg, 'citations')
  const version = createVersioner()
  const table = (name: string) => sql`${ident(db.database)}.${ident(name)}`

  async function loadStates(ids: number[]): Promise<Map<number, StateRow>> {
    if (!ids.length) return new Map()
    const rows = await db.query<StateRow>(sql`SELECT opinion_id, text_hash, edge_ids, cited_cluster_ids, unresolved FROM ${table(STATE_TABLE)} FINAL WHERE opinion_id IN ${ids}`)
    return new Map(rows.map((r) => [Number(r.opinion_id), { ...r, edge_ids: r.edge_ids.map(Number) }]))
  }

  /** Opinions that wait for one of these citation keys (recorded when they could not resolve it). */
  async function waitingOn(keys: string[]): Promise<number[]> {
    if (!keys.length) return []
    const rows = await db.query<{ opinion_id: number }>(sql`SELECT opinion_id FROM ${table(STATE_TABLE)} FINAL WHERE hasAny(unresolved, ${keys})`)
    return rows.map((r) => Number(r.opinion_id))
  }

  async function process(events: NetEvent[]): Promise<void> {
    // 1. Citations first: into the processor's index, so opinions of this batch resolve against them.
    const indexRows: Record<string, unknown>[] = []
    const newKeys = new Set<string>()
    const opinions = new Map<number, EntityEvent>()
    for (const { kind, event } of events) {
      if (kind === 'opinion') { opinions.set(Number(event.key), event); continue }
      if (event.op === 'upsert' && event.entity) {
        const e = event.entity
        indexRows.push({ id: e.id, cluster_id: e.cluster_id, volume: e.volume, reporter: e.reporter, page: e.page, _version: event.version, _deleted: 0 })
        newKeys.add(citeKey(Number(e.volume), String(e.reporter), String(e.page)))
      } else indexRows.push({ id: Number(event.key), cluster_id: 0, volume: 0, reporter: '', page: '', _version: event.version, _deleted: 1 })
    }
    if (indexRows.length) await db.insert(INDEX_TABLE, indexRows)

    // 2. Backfill: opinions waiting on a citation that now exists, or on a cluster that now has an opinion.
    const newClusters = [...new Set([...opinions.values()].filter((e) => e.op === 'upsert' && e.entity?.cluster_id != null).map((e) => Number(e.entity!.cluster_id)))]
    if (newClusters.length) {
      const keys = await db.query<{ volume: number; reporter: string; page: string }>(sql`SELECT volume, reporter, page FROM ${table(INDEX_TABLE)} FINAL WHERE cluster_id IN ${newClusters}`)
      for (const k of keys) newKeys.add(citeKey(k.volume, k.reporter, k.page))
    }
    const forced = new Set(await waitingOn([...newKeys]))
    const missing = [...forced].filter((id) => !opinions.has(id))
    if (missing.length) {
      const rows = await db.query<Record<string, unknown>>(sql`SELECT * EXCEPT (_version, _deleted) FROM ${table('opinions')} FINAL WHERE id IN ${missing}`)
      for (const row of rows) opinions.set(Number(row.id), { op: 'upsert', version: 1, key: String(row.id), entity: row })
      if (rows.length < missing.length) log.warn({ missing: missing.length - rows.length }, 'opinions to re-link are not in ClickHouse yet; they wait for their next change')
    }
    if (!opinions.size) return
    const states = await loadStates([...opinions.keys()])

    // 3. Read every changed opinion once; resolve all their citations in one query.
    const work: { id: number; cluster: number | null; text: string; html: boolean; hash: string; cites: { c: FoundCitation; key: CiteKey }[] }[] = []
    const deletes: number[] = []
    const unchanged: { id: number; cluster: number | null }[] = []
    for (const [id, ev] of opinions) {
      if (ev.op === 'delete' || !ev.entity) { deletes.push(id); continue }
      const cluster = ev.entity.cluster_id == null ? null : Number(ev.entity.cluster_id)
      const { text, html } = sourceText(ev.entity)
      const hash = textHash(text)
      if (states.get(id)?.text_hash === hash && !forced.has(id)) { unchanged.push({ id, cluster }); continue }
      const cites = extractCitations(text, { html })
        .filter((c) => c.kind === 'full_case' && c.volume && c.page && c.candidates.length)
        .map((c) => ({ c, key: { volume: Number(c.volume), reporters: [...new Set(c.candidates.map((x) => x.reporter))], page: c.page! } }))
      work.push({ id, cluster, text, html, hash, cites })
    }
    const resolved = await resolveCitations(db, work.flatMap((w) => w.cites.map((c) => c.key)), INDEX_TABLE)
    const citedClusterIds = [...new Set([...resolved.values()].flat())]
    const opinionOfCluster = new Map<number, number>()
    if (citedClusterIds.length) {
      const rows = await db.query<{ cluster_id: number; id: number }>(sql`SELECT cluster_id, min(opinion_id) AS id FROM ${table(STATE_TABLE)} FINAL WHERE cluster_id IN ${citedClusterIds} GROUP BY cluster_id`)
      for (const r of rows) opinionOfCluster.set(Number(r.cluster_id), Number(r.id))
    }
    for (const w of [...work, ...unchanged]) {
      if (w.cluster !== null && (!opinionOfCluster.has(w.cluster) || opinionOfCluster.get(w.cluster)! > w.id)) opinionOfCluster.set(w.cluster, w.id)
    }

    // 4. Edges out (old ones this opinion no longer makes are deleted), then state, then commit.
    const stateRows: Record<string, unknown>[] = []
    for (const w of work) {
      const cites: ResolvedCite[] = w.cites.map(({ c, key }) => ({
        start: c.start, end: c.end, matchedText: c.matchedText, key: citeKey(key.volume, key.reporters[0], key.page), clusters: clustersFor(resolved, key),
      }))
      const { edges, unresolved, citedClusters } = buildEdges(w.id, w.cluster, cites, opinionOfCluster)
      const keep = new Set(edges.map((e) => e.id))
      for (const old of states.get(w.id)?.edge_ids ?? []) if (!keep.has(old)) await publisher.delete('opinions-cited', old)
      for (const e of edges) await publisher.upsert('opinions-cited', e as unknown as Record<string, unknown>)
      // Waiting keys are kept under every candidate reporter, so a citation under any of them wakes this opinion.
      const waitingKeys = w.cites.filter((wc) => unresolved.includes(citeKey(wc.key.volume, wc.key.reporters[0], wc.key.page)))
        .flatMap(({ key }) => key.reporters.map((r) => citeKey(key.volume, r, key.page)))
      stateRows.push({
        opinion_id: w.id, cluster_id: w.cluster, text_hash: w.hash, edge_ids: [...keep], cited_cluster_ids: citedClusters,
        unresolved: [...new Set(waitingKeys)], html_with_citations: linkCitations(w.text, w.html, cites), _version: version(), _deleted: 0,
      })
    }
    for (const id of deletes) {
      for (const old of states.get(id)?.edge_ids ?? []) await publisher.delete('opinions-cited', old)
      stateRows.push({ opinion_id: id, cluster_id: null, _version: version(), _deleted: 1 })
    }
    await publisher.flush()
    await db.insert(STATE_TABLE, stateRows)
    log.debug({ opinions: work.length, deleted: deletes.length }, 'citation network batch applied')
  }

  return {
    name: 'citation-network',
    groupId: `${cfg.topicPrefix}citation-network`,
    topics: [opinionsTopic, citationsTopic],
    dlqTopic: topicName(cfg, 'dlq', 'citation-network'),
    fetchBytes: cfg.sinkFetchBytes,
    async decode(m) {
      const event = validateEntityEvent(await decode(m.message.value), 'id')
      return { kind: m.topic === opinionsTopic ? 'opinion' : 'citation', event }
    },
    transform: (events) => events.map((e) => e.event),
    sink: process,
  }
}

export async function startCitationNetwork(deps: { cfg: Config; db: Db; registry: SchemaRegistry; catalogue: Catalogue; kafka: Kafka; log: Logger; publisher: Publisher }) {
  await ensureCitationState(deps.db)
  return startStream(citationNetworkDef(deps), deps)
}
