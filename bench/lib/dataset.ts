/**
 * The data a read benchmark runs over: the sample generator's corpus (courts, judges, dockets,
 * clusters, opinions, …) for N opinions, published to the benchmark's own topics and applied to
 * its own ClickHouse database by the table sink started here. A marker file remembers what was
 * loaded, so a second run with the same size reuses it (the topics, the tables and the API's read
 * model); `reload` (or a different size) removes the topics, consumer groups, database and read
 * model of the prefix and loads again. Everything streams: the generator, the publisher's
 * batches, the sink's inserts; memory does not grow with N.
 */
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { sql, ident } from '../../core/sql.js'
import { createDb } from '../../core/clickhouse.js'
import { forgetRegisteredSchemas } from '../../core/schema-registration.js'
import { deleteSubject } from '../../core/registry.js'
import { prepare, startProcessors, type Runtime, type Stoppable, type ProcessorRole } from '../../bin/runtime.js'
import { waitForCatchUp } from '../../bin/catch-up.js'
import { ingestSample } from '../../bin/commands/ingest-sample.js'
import { entityTopic, groupId, PROCESSORS, commandTopic, RELINK, RECOUNT } from '../../schemas/events/index.js'
import { readModelPath } from '../../api/read-model/consumer.js'
import { waitFor } from '../../test/kit/wait-for.js'

export interface CourtSpan { court: string; dockets: number; from: string; to: string }

export interface BenchData {
  opinions: number
  seed: number
  dockets: number
  minDocketId: number
  maxDocketId: number
  /** Courts with the most dockets, with the span of their filing dates. */
  courts: CourtSpan[]
  loadedAt: string
  loadSeconds?: number
}

export interface LoadOptions { opinions: number; seed: number; reload: boolean; roles: readonly ProcessorRole[]; markerFile: string; log: (m: string) => void }

const dockets = (rt: Runtime) => sql`${ident(rt.cfg.clickhouseDatabase)}.${ident('dockets')}`

async function describeData(rt: Runtime, opinions: number, seed: number): Promise<Omit<BenchData, 'loadedAt' | 'loadSeconds'>> {
  const [s] = await rt.db.query<{ n: number; lo: number; hi: number }>(sql`SELECT count() AS n, min(id) AS lo, max(id) AS hi FROM ${dockets(rt)} FINAL`)
  const courts = await rt.db.query<{ court: string; dockets: number; from: string; to: string }>(sql`
    SELECT court_id AS court, count() AS dockets, min(date_filed) AS from, max(date_filed) AS to
    FROM ${dockets(rt)} FINAL WHERE date_filed IS NOT NULL GROUP BY court_id ORDER BY dockets DESC, court LIMIT 50`)
  return { opinions, seed, dockets: Number(s.n), minDocketId: Number(s.lo), maxDocketId: Number(s.hi), courts: courts.map((c) => ({ ...c, dockets: Number(c.dockets) })) }
}

function readMarker(file: string): BenchData | undefined {
  try { return JSON.parse(readFileSync(file, 'utf8')) as BenchData } catch { return undefined }
}

async function countDockets(rt: Runtime): Promise<number> {
  try { return Number((await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${dockets(rt)} FINAL`))[0].n) } catch { return -1 }
}

/**
 * The entity topics that exist: every catalogue resource's, less those a resource does not have
 * (a view over another's table has no topic of its own).
 */
export async function entityTopics(rt: Runtime): Promise<string[]> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const existing = new Set(await admin.listTopics())
    return rt.catalogue.resources.map((r) => entityTopic(rt.cfg, r)).filter((t) => existing.has(t))
  } finally { await admin.disconnect() }
}

/** Removes the topics, consumer groups, database and read model of the benchmark's prefix. */
export async function resetData(rt: Runtime, log: (m: string) => void): Promise<void> {
  const prefix = rt.cfg.topicPrefix
  const admin = rt.kafka.admin()
  const known = new Set(rt.catalogue.resources.map((r) => entityTopic(rt.cfg, r)))
  await admin.connect()
  try {
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix))
    if (groups.length) { log(`deleting ${groups.length} consumer groups ${prefix}*`); await admin.deleteGroups(groups).catch((err) => log(`  (some groups not deleted: ${(err as Error).message})`)) }
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix))
    topics.forEach((t) => known.add(t))
    if (topics.length) {
      log(`deleting ${topics.length} topics ${prefix}*`)
      await admin.deleteTopics({ topics, timeout: 60_000 })
      // Topic deletion is asynchronous: wait until they are gone before they are created again.
      await waitFor(async () => !(await admin.listTopics()).some((t) => t.startsWith(prefix)), `the deletion of topics ${prefix}*`, 60_000, 500)
    }
  } finally { await admin.disconnect() }
  // Schemas registered for the prefix go too: the catalogue may have changed incompatibly since.
  let deleted = 0
  for (const topic of known) {
    for (const subject of [`${topic}-value`, `${topic}-key`]) {
      if (await deleteSubject(rt.cfg, subject).catch(() => false)) deleted++
    }
  }
  if (deleted) log(`deleted ${deleted} registry subjects ${prefix}*`)
  forgetRegisteredSchemas(rt.registry)
  const root = createDb(rt.cfg, { useDatabase: false })
  try { await root.command(sql`DROP DATABASE IF EXISTS ${ident(rt.cfg.clickhouseDatabase)}`) } finally { await root.close() }
  const store = readModelPath(rt.cfg)
  if (existsSync(store)) { log(`removing the read model ${store}`); rmSync(store, { recursive: true, force: true }) }
}

/**
 * Makes sure the data of `opts.opinions` is loaded and applied; returns what it is and the running
 * processors (the caller stops them), which keep applying changes for the change → visible test.
 */
export async function ensureData(rt: Runtime, opts: LoadOptions): Promise<{ data: BenchData; processors: Stoppable[]; reused: boolean }> {
  const marker = readMarker(opts.markerFile)
  let reusable = !opts.reload && !!marker && marker.opinions === opts.opinions && marker.seed === opts.seed && (await countDockets(rt)) === marker.dockets
  if (reusable) {
    // The catalogue may have changed since the load in a way the registered schemas refuse.
    try { await prepare(rt) } catch (err) {
      opts.log(`the loaded data cannot be reused (${(err as Error).message.split('\n')[0].slice(0, 200)}); loading again`)
      reusable = false
    }
  }
  if (!reusable) {
    rmSync(opts.markerFile, { force: true })
    await resetData(rt, opts.log)
    await prepare(rt)
  }
  const processors = await startProcessors(rt, opts.roles)
  const started = Date.now()
  if (!reusable) {
    opts.log(`publishing the sample corpus: ${opts.opinions.toLocaleString('en-US')} opinions (seed ${opts.seed})`)
    const s = await ingestSample(rt, { opinions: opts.opinions, seed: opts.seed })
    opts.log(`published ${s.published.toLocaleString('en-US')} records in ${s.seconds.toFixed(1)} s (${Object.entries(s.byResource).map(([k, v]) => `${k} ${v}`).join(', ')})`)
  }
  opts.log(reusable ? 'reusing the loaded data; checking that the processors are caught up' : 'applying the topics (table sink)')
  const cfg = rt.cfg
  const topics = await entityTopics(rt)
  const groups = [{ label: 'tables', group: groupId(cfg, PROCESSORS.tableSink), topics: async () => topics }]
  if (opts.roles.includes('citation-network')) {
    groups.unshift({ label: 'citation network', group: groupId(cfg, PROCESSORS.citationNetwork), topics: async () => [entityTopic(cfg, 'opinions'), entityTopic(cfg, 'citations'), commandTopic(cfg, RELINK.name), commandTopic(cfg, RECOUNT.name)] })
  }
  await waitForCatchUp(rt.kafka, rt.clock, groups, { progress: true, timeoutMs: 3 * 60 * 60_000 })
  if (reusable && marker) return { data: marker, processors, reused: true }
  const data: BenchData = { ...(await describeData(rt, opts.opinions, opts.seed)), loadedAt: new Date().toISOString(), loadSeconds: (Date.now() - started) / 1000 }
  mkdirSync(path.dirname(opts.markerFile), { recursive: true })
  writeFileSync(opts.markerFile, JSON.stringify(data, null, 2))
  return { data, processors, reused: false }
}
