/**
 * Facts about the citation network of one stack: when it has nothing left to do, what state and
 * edges it produced, and how two runs' edges compare.
 */
import { sql, ident } from '../../../core/sql.js'
import type { Runtime } from '../../../bin/runtime.js'
import { entityTopic, commandTopic, groupId, PROCESSORS, RELINK } from '../../../schemas/events/index.js'
import { CITATION_STATE, CITATION_INDEX } from '../../../schemas/internal/citation-network.js'
import { groupLag } from './kafka-facts.js'
import { withAdmin } from './admin.js'
import { waitDrained } from './wait.js'

/** The topics each processor group reads (the relink topic only once the network created it). */
async function groupTopics(rt: Runtime, existing: Set<string>) {
  const entity = rt.catalogue.stored.map((r) => entityTopic(rt.cfg, r)).filter((t) => existing.has(t))
  const net = [entityTopic(rt.cfg, 'opinions'), entityTopic(rt.cfg, 'citations'), commandTopic(rt.cfg, RELINK.name)].filter((t) => existing.has(t))
  return { sink: entity, net }
}

/** Lag of the table sink and the citation network over everything they read. */
export async function pipelineLag(rt: Runtime): Promise<{ sink: number; net: number }> {
  return withAdmin(rt, async (admin) => {
    const topics = await groupTopics(rt, new Set(await admin.listTopics()))
    return {
      sink: await groupLag(admin, groupId(rt.cfg, PROCESSORS.tableSink), topics.sink),
      net: await groupLag(admin, groupId(rt.cfg, PROCESSORS.citationNetwork), topics.net),
    }
  })
}

/**
 * Waits until both processors have committed everything, twice in a row: the network's own
 * output (edges for the sink, relink commands for itself) is written before it commits, so two
 * quiet readings mean nothing is in flight. Fails only when the lag stops going down.
 */
export async function waitPipelineQuiet(rt: Runtime, stallMs: number): Promise<number> {
  return waitDrained(async () => { const l = await pipelineLag(rt); return l.sink + l.net },
    `the table sink and the citation network of ${rt.cfg.topicPrefix} to commit everything`, { stallMs, maxMs: 45 * 60_000, quietReads: 2 })
}

export interface Edge { id: number; citing: number; cited: number; cluster: number | null; depth: number; status: string; candidates: number }

export async function edges(rt: Runtime): Promise<Map<number, Edge>> {
  const rows = await rt.db.query<{ id: number; citing_opinion_id: number; cited_opinion_id: number; cited_cluster_id: number | null; depth: number; match_status: string; candidates: number }>(sql`
    SELECT id, citing_opinion_id, cited_opinion_id, cited_cluster_id, depth, match_status, candidates
    FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident('opinions_cited')} FINAL`)
  return new Map(rows.map((r) => [Number(r.id), {
    id: Number(r.id), citing: Number(r.citing_opinion_id), cited: Number(r.cited_opinion_id), cluster: r.cited_cluster_id === null ? null : Number(r.cited_cluster_id),
    depth: Number(r.depth), status: r.match_status, candidates: Number(r.candidates),
  }]))
}

const same = (a: Edge, b: Edge) => a.citing === b.citing && a.cited === b.cited && a.cluster === b.cluster && a.depth === b.depth && a.status === b.status && a.candidates === b.candidates

export interface EdgeDiff {
  reference: number
  actual: number
  /** In the reference, not in the run. */
  missing: number
  /** In the run, not in the reference. */
  extra: number
  /** Same edge id, different attributes. */
  different: number
  /** Of missing + extra: pairs of the same citing opinion and cited cluster that point at another opinion of that cluster. */
  otherOpinionOfCluster: number
  /**
   * The same comparison on (citing opinion, cited cluster, depth, status, candidates), i.e. ignoring
   * which opinion of the cited cluster an edge points at: what was really lost or added.
   */
  byCluster: { missing: number; extra: number; missingExamples: string[]; extraExamples: string[] }
  examples: string[]
}

export function compareEdges(reference: Map<number, Edge>, actual: Map<number, Edge>): EdgeDiff {
  const d: EdgeDiff = { reference: reference.size, actual: actual.size, missing: 0, extra: 0, different: 0, otherOpinionOfCluster: 0, byCluster: { missing: 0, extra: 0, missingExamples: [], extraExamples: [] }, examples: [] }
  const show = (s: string) => { if (d.examples.length < 8) d.examples.push(s) }
  const byCitingCluster = (m: Map<number, Edge>) => new Set([...m.values()].map((e) => `${e.citing}>${e.cluster}`))
  const refPairs = byCitingCluster(reference), actPairs = byCitingCluster(actual)
  for (const [id, e] of reference) {
    const a = actual.get(id)
    if (!a) {
      d.missing++
      if (actPairs.has(`${e.citing}>${e.cluster}`)) d.otherOpinionOfCluster++
      show(`missing ${JSON.stringify(e)}`)
    } else if (!same(a, e)) { d.different++; show(`different: reference ${JSON.stringify(e)} run ${JSON.stringify(a)}`) }
  }
  for (const [id, e] of actual) {
    if (reference.has(id)) continue
    d.extra++
    if (refPairs.has(`${e.citing}>${e.cluster}`)) d.otherOpinionOfCluster++
    show(`extra ${JSON.stringify(e)}`)
  }
  const loose = (m: Map<number, Edge>) => {
    const out = new Map<string, number>()
    for (const e of m.values()) { const k = `${e.citing}>${e.cluster}:${e.depth}:${e.status}:${e.candidates}`; out.set(k, (out.get(k) ?? 0) + 1) }
    return out
  }
  const lr = loose(reference), la = loose(actual)
  for (const [k, n] of lr) {
    const m = Math.max(0, n - (la.get(k) ?? 0))
    d.byCluster.missing += m
    if (m && d.byCluster.missingExamples.length < 10) d.byCluster.missingExamples.push(k)
  }
  for (const [k, n] of la) {
    const m = Math.max(0, n - (lr.get(k) ?? 0))
    d.byCluster.extra += m
    if (m && d.byCluster.extraExamples.length < 10) d.byCluster.extraExamples.push(k)
  }
  return d
}

export interface StateTally {
  /** Opinions (of those published, not deleted) without a citation_state row. */
  missingState: number
  stateRows: number
  stateDuplicates: number
  /** States built from an older version of their opinion than the one in the opinions table. */
  staleState: number
  /** Edge ids listed by a state but absent from opinions_cited (FINAL), and edges no state lists. */
  edgesNotInTable: number
  edgesWithoutState: number
  edgeRows: number
  edgeDuplicates: number
}

/** The network's state against its input (the opinions table) and its output (the edges table). */
export async function stateTally(rt: Runtime): Promise<StateTally> {
  const db = ident(rt.cfg.clickhouseDatabase)
  const st = sql`${db}.${ident(CITATION_STATE)}`
  const oc = sql`${db}.${ident('opinions_cited')}`
  const op = sql`${db}.${ident('opinions')}`
  const [s] = await rt.db.query<Record<string, number>>(sql`
    SELECT
      (SELECT count() FROM ${op} FINAL WHERE id NOT IN (SELECT opinion_id FROM ${st} FINAL)) AS missingState,
      (SELECT count() FROM ${st} FINAL) AS stateRows,
      (SELECT count() - uniqExact(opinion_id) FROM ${st} FINAL) AS stateDuplicates,
      (SELECT count() FROM (SELECT id, _version FROM ${op} FINAL) AS o INNER JOIN (SELECT opinion_id, source_version FROM ${st} FINAL) AS s ON o.id = s.opinion_id WHERE s.source_version != o._version) AS staleState,
      (SELECT count() FROM (SELECT arrayJoin(edge_ids) AS e FROM ${st} FINAL) WHERE e NOT IN (SELECT id FROM ${oc} FINAL)) AS edgesNotInTable,
      (SELECT count() FROM ${oc} FINAL WHERE id NOT IN (SELECT arrayJoin(edge_ids) FROM ${st} FINAL)) AS edgesWithoutState,
      (SELECT count() FROM ${oc} FINAL) AS edgeRows,
      (SELECT count() - uniqExact(id) FROM ${oc} FINAL) AS edgeDuplicates`)
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Number(v)])) as unknown as StateTally
}

/**
 * Edges that do not point at the lowest opinion id of their cited cluster (the rule the network
 * documents: "the lowest opinion id of each cluster that has one"), judged against the opinions table.
 */
export async function edgesNotAtLowestOpinion(rt: Runtime): Promise<{ count: number; examples: string[] }> {
  const db = ident(rt.cfg.clickhouseDatabase)
  const rows = await rt.db.query<{ citing: number; cited: number; cluster: number; lowest: number }>(sql`
    SELECT e.citing_opinion_id AS citing, e.cited_opinion_id AS cited, e.cited_cluster_id AS cluster, c.lowest AS lowest
    FROM (SELECT citing_opinion_id, cited_opinion_id, cited_cluster_id FROM ${db}.${ident('opinions_cited')} FINAL) AS e
    INNER JOIN (SELECT cluster_id, min(id) AS lowest FROM ${db}.${ident('opinions')} FINAL GROUP BY cluster_id) AS c ON e.cited_cluster_id = c.cluster_id
    WHERE e.cited_opinion_id != c.lowest ORDER BY citing`)
  return { count: rows.length, examples: rows.slice(0, 4).map((r) => `${r.citing}→${r.cited} (cluster ${r.cluster}, lowest opinion ${r.lowest})`) }
}

/** What one stack's network holds about these citing opinions: its state, and its edges. */
export async function explainOpinions(rt: Runtime, ids: number[]): Promise<Record<number, unknown>> {
  if (!ids.length) return {}
  const db = ident(rt.cfg.clickhouseDatabase)
  const states = await rt.db.query<{ opinion_id: number; cluster_id: number; edge_ids: number[]; unresolved: string[]; cited_cluster_ids: number[] }>(sql`
    SELECT opinion_id, cluster_id, edge_ids, unresolved, cited_cluster_ids FROM ${db}.${ident(CITATION_STATE)} FINAL WHERE opinion_id IN ${ids}`)
  const es = await rt.db.query<{ citing_opinion_id: number; cited_opinion_id: number; cited_cluster_id: number; depth: number }>(sql`
    SELECT citing_opinion_id, cited_opinion_id, cited_cluster_id, depth FROM ${db}.${ident('opinions_cited')} FINAL WHERE citing_opinion_id IN ${ids} ORDER BY cited_cluster_id`)
  const out: Record<number, unknown> = {}
  for (const s of states) {
    out[Number(s.opinion_id)] = {
      cluster: Number(s.cluster_id), unresolved: s.unresolved, citedClusters: s.cited_cluster_ids.map(Number),
      edges: es.filter((e) => Number(e.citing_opinion_id) === Number(s.opinion_id)).map((e) => `${e.cited_opinion_id}@${e.cited_cluster_id}x${e.depth}`),
    }
  }
  return out
}

/**
 * Opinions still waiting on a citation key that resolves now: the key is in the network's index
 * and every cluster it names (other than the opinion's own) has an opinion linked. Each such
 * opinion lacks edges it should have (a relink that never came).
 */
export async function stuckWaiting(rt: Runtime): Promise<{ opinions: number; examples: string[] }> {
  const db = ident(rt.cfg.clickhouseDatabase)
  const waiting = await rt.db.query<{ opinion_id: number; cluster_id: number | null; key: string }>(sql`
    SELECT opinion_id, cluster_id, arrayJoin(unresolved) AS key FROM ${db}.${ident(CITATION_STATE)} FINAL WHERE length(unresolved) > 0`)
  if (!waiting.length) return { opinions: 0, examples: [] }
  const keys = [...new Set(waiting.map((w) => w.key))]
  const index = await rt.db.withKeys<{ key: string; cluster_id: number }>(keys, 'String', (k) => sql`
    SELECT concat(toString(volume), '|', reporter, '|', page) AS key, cluster_id FROM ${db}.${ident(CITATION_INDEX)} FINAL
    WHERE concat(toString(volume), '|', reporter, '|', page) IN ${k}`)
  const clustersOf = new Map<string, number[]>()
  for (const r of index) clustersOf.set(r.key, [...(clustersOf.get(r.key) ?? []), Number(r.cluster_id)])
  const named = [...new Set(index.map((r) => Number(r.cluster_id)))]
  const withOpinion = new Set((await rt.db.withKeys<{ cluster_id: number }>(named, 'Int64', (k) => sql`
    SELECT DISTINCT cluster_id FROM ${db}.${ident(CITATION_STATE)} FINAL WHERE cluster_id IN ${k}`)).map((r) => Number(r.cluster_id)))
  const stuck = new Map<number, string>()
  for (const w of waiting) {
    const clusters = (clustersOf.get(w.key) ?? []).filter((c) => c !== (w.cluster_id === null ? null : Number(w.cluster_id)))
    if (clusters.length && clusters.every((c) => withOpinion.has(c))) stuck.set(Number(w.opinion_id), `opinion ${w.opinion_id} waits on ${w.key} (cluster ${clusters.join(',')}, which has an opinion)`)
  }
  return { opinions: stuck.size, examples: [...stuck.values()].slice(0, 4) }
}
