/**
 * The citation network processor. Consumes opinion changes and new parallel citations:
 *  - an opinion whose text changed is (re)read: its citations are resolved to clusters, its
 *    edges published to the opinions-cited topic (old edges it no longer makes are deleted),
 *    and its html_with_citations and cited clusters kept in `citation_state`;
 *  - a new citation (volume, reporter, page) re-processes the opinions that cited it before it
 *    existed, so late-arriving clusters get linked.
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
import { extractCitations } from '../core/citations/index.js'
import type { Catalogue } from '../schemas/catalogue/index.js'
import { entityTopic } from '../schemas/registry.js'
import { createVersioner, type Publisher } from '../connectors/publisher.js'
import { createDecoder, validateEntityEvent, type EntityEvent } from './decode.js'
import { startStream, type StreamDef } from './runner.js'
import { buildEdges, linkCitations, sourceText, textHash, type ResolvedCite } from './citation-links.js'

export const STATE_TABLE = 'citation_state'

export async function ensureCitationState(db: Db): Promise<void> {
  await db.command(sql`CREATE TABLE IF NOT EXISTS ${ident(db.database)}.${ident(STATE_TABLE)} (
    opinion_id Int64, text_hash String, edge_ids Array(Int64), cited_cluster_ids Array(Int64),
    unresolved Array(String), html_with_citations String, _version UInt64, _deleted UInt8
  ) ENGINE = ReplacingMergeTree(_version, _deleted) ORDER BY opinion_id`)
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

  async function process(events: NetEvent[]): Promise<void> {
    // Latest event per opinion in this batch; opinions to re-read because a citation arrived.
    const opinions = new Map<number, EntityEvent>()
    const newCitations = new Map<string, number>()
    for (const { kind, event } of events) {
      if (kind === 'opinion') opinions.set(Number(event.key), event)
      else if (event.op === 'upsert' && event.entity) newCitations.set(citeKey(Number(event.entity.volume), String(event.entity.reporter), String(event.entity.page)), Number(event.entity.cluster_id))
    }
    const forced = new Set<number>()
    if (newCitations.size) {
      const waiting = await db.query<{ opinion_id: number }>(sql`SELECT opinion_id FROM ${table(STATE_TABLE)} FINAL WHERE hasAny(unresolved, ${[...newCitations.keys()]})`)
      const missing = waiting.map((w) => Number(w.opinion_id)).filter((id) => !opinions.has(id))
      waiting.forEach((w) => forced.add(Number(w.opinion_id)))
      if (missing.length) {
        const rows = await db.query<Record<string, unknown>>(sql`SELECT * EXCEPT (_version, _deleted) FROM ${table('opinions')} FINAL WHERE id IN ${missing}`)
        for (const row of rows) opinions.set(Number(row.id), { op: 'upsert', version: 1, key: String(row.id), entity: row })
      }
    }
    if (!opinions.size) return
    const states = await loadStates([...opinions.keys()])

    // Read every changed opinion once; collect all its citations for one resolution query.
    const work: { id: number; cluster: number | null; text: string; html: boolean; hash: string; cites: { c: ReturnType<typeof extractCitations>[number]; key: CiteKey }[] }[] = []
    const deletes: number[] = []
    for (const [id, ev] of opinions) {
      if (ev.op === 'delete' || !ev.entity) { deletes.push(id); continue }
      const { text, html } = sourceText(ev.entity)
      const hash = textHash(text)
      if (states.get(id)?.text_hash === hash && !forced.has(id)) continue
      const cites = extractCitations(text, { html })
        .filter((c) => c.kind === 'full_case' && c.volume && c.page && c.candidates.length)
        .map((c) => ({ c, key: { volume: Number(c.volume), reporters: [...new Set(c.candidates.map((x) => x.reporter))], page: c.page! } }))
      work.push({ id, cluster: ev.entity.cluster_id === undefined ? null : Number(ev.entity.cluster_id), text, html, hash, cites })
    }
    const resolved = await resolveCitations(db, work.flatMap((w) => w.cites.map((c) => c.key)))
    for (const [k, clusterId] of newCitations) if (!(resolved.get(k) ?? []).includes(clusterId)) resolved.set(k, [...(resolved.get(k) ?? []), clusterId])

    const citedClusterIds = [...new Set([...resolved.values()].flat())]
    const opinionOfCluster = new Map<number, number>()
    if (citedClusterIds.length) {
      const rows = await db.query<{ cluster_id: number; id: number }>(sql`SELECT cluster_id, min(id) AS id FROM ${table('opinions')} FINAL WHERE cluster_id IN ${citedClusterIds} GROUP BY cluster_id`)
      for (const r of rows) opinionOfCluster.set(Number(r.cluster_id), Number(r.id))
    }
    for (const [id, ev] of opinions) {
      const c = ev.entity?.cluster_id
      if (c !== undefined && c !== null && (!opinionOfCluster.has(Number(c)) || opinionOfCluster.get(Number(c))! > id)) opinionOfCluster.set(Number(c), id)
    }

    const stateRows: Record<string, unknown>[] = []
    for (const w of work) {
      const cites: ResolvedCite[] = w.cites.map(({ c, key }) => ({
        start: c.start, end: c.end, matchedText: c.matchedText, key: citeKey(key.volume, key.reporters[0], key.page), clusters: clustersFor(resolved, key),
      }))
      const { edges, unresolved, citedClusters } = buildEdges(w.id, w.cluster, cites, opinionOfCluster)
      const keep = new Set(edges.map((e) => e.id))
      for (const old of states.get(w.id)?.edge_ids ?? []) if (!keep.has(old)) await publisher.delete('opinions-cited', old)
      for (const e of edges) await publisher.upsert('opinions-cited', e as unknown as Record<string, unknown>)
      // Unresolved keys are kept for every candidate reporter, so a citation under any of them wakes this opinion.
      const waitingKeys = w.cites.filter(({ key }) => clustersFor(resolved, key).length === 0 || unresolved.includes(citeKey(key.volume, key.reporters[0], key.page)))
        .flatMap(({ key }) => key.reporters.map((r) => citeKey(key.volume, r, key.page)))
      stateRows.push({
        opinion_id: w.id, text_hash: w.hash, edge_ids: [...keep], cited_cluster_ids: citedClusters,
        unresolved: [...new Set(waitingKeys)], html_with_citations: linkCitations(w.text, w.html, cites), _version: version(), _deleted: 0,
      })
    }
    for (const id of deletes) {
      for (const old of states.get(id)?.edge_ids ?? []) await publisher.delete('opinions-cited', old)
      stateRows.push({ opinion_id: id, _version: version(), _deleted: 1 })
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
