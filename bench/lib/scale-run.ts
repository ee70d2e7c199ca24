/**
 * One measured run of bench/scale.ts: a processor role in N processes of its own (`lds run --roles
 * <role>`, as deployed) on a fresh deployment (topic prefix and database), idle and in their
 * consumer groups before the input is published, so that what each process spends from then until
 * its groups have committed the whole input is the work of that input (start-up excluded).
 */
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { loadConfig, PROJECT_ROOT, type Config } from '../../core/config.js'
import { createLogger } from '../../core/logger.js'
import { sql, ident } from '../../core/sql.js'
import { createRuntime, prepare, removeDeployment, startProcessors, stopAll, SEARCH_INDEX_NODE_OPTIONS, type Runtime, type ProcessorRole, type Stoppable } from '../../bin/runtime.js'
import { waitForCatchUp } from '../../bin/catch-up.js'
import { ingestSample } from '../../bin/commands/ingest-sample.js'
import { entityTopic, groupId, PROCESSORS, commandTopic, RELINK, RECOUNT } from '../../schemas/events/index.js'
import { readFileSync } from 'node:fs'
import { SEARCH_INDEXER, SEARCH_REPARTITION, SEARCH_DOCUMENTS } from '../../streams/search/indexer.js'
import { SEARCH_SOURCES } from '../../streams/search/documents.js'
import { SEARCH_TYPES, searchTables, type SearchType } from '../../domain/search/index.js'
import { spawnChild, treeCpuMsOf, sleep, type Child } from './children.js'
import { entityTopics } from './dataset.js'

export type ScaledRole = Extract<ProcessorRole, 'table-sink' | 'citation-network' | 'search-index'>

interface Group { label: string; group: string; topics: () => Promise<string[]> }

/** What a role reads (its input, counted as events) and the groups whose commits say it is done. */
interface RoleSpec {
  /** roles run in this process meanwhile, not measured (what the role waits on) */
  beside: ProcessorRole[]
  groups(rt: Runtime): Group[]
  /** the groups the instances are members of, when not the groups above (the two-stage search index) */
  members?(rt: Runtime): string[]
  /** the topics whose messages are the role's input events */
  input(rt: Runtime): Promise<string[]>
  nodeOptions?: string
}

/** The entity topics the search indexer reads: every resource a search document is built from. */
const searchedTopics = (rt: Runtime) => [...new Set(Object.values(SEARCH_SOURCES).flat())].map((r) => entityTopic(rt.cfg, r))

const citationTopics = (cfg: Config) => [entityTopic(cfg, 'opinions'), entityTopic(cfg, 'citations'), commandTopic(cfg, RELINK.name), commandTopic(cfg, RECOUNT.name)]

export const ROLES: Record<ScaledRole, RoleSpec> = {
  'table-sink': {
    beside: [],
    groups: (rt) => [{ label: 'tables', group: groupId(rt.cfg, PROCESSORS.tableSink), topics: () => entityTopics(rt) }],
    input: (rt) => entityTopics(rt),
  },
  'citation-network': {
    // it resolves citations against the clusters the sink writes, and waits for the sink to have them
    beside: ['table-sink'],
    groups: (rt) => [{ label: 'citation network', group: groupId(rt.cfg, PROCESSORS.citationNetwork), topics: async () => citationTopics(rt.cfg) }],
    input: async (rt) => citationTopics(rt.cfg),
  },
  'search-index': {
    // the indexer builds from the tables: the sink runs here, unmeasured
    beside: ['table-sink'],
    // committed in both modes once searchable (in two stages by the role's searchable commits)
    groups: (rt) => [{ label: 'search index', group: groupId(rt.cfg, SEARCH_INDEXER), topics: async () => searchedTopics(rt) }],
    members: (rt) => (rt.cfg.searchInstances > 1 ? [SEARCH_REPARTITION, SEARCH_DOCUMENTS] : [SEARCH_INDEXER]).map((g) => groupId(rt.cfg, g)),
    input: async (rt) => searchedTopics(rt),
    nodeOptions: SEARCH_INDEX_NODE_OPTIONS,
  },
}

export interface ScaleRun {
  role: ScaledRole
  instances: number
  /** input events: messages of the role's input topics */
  events: number
  /** CPU ms of each instance from idle to done */
  cpuMs: number[]
  /** CPU ms per second of each instance while idle in its groups (polling, heartbeats), measured before the input */
  idleMsPerS: number[]
  seconds: number
  /** search-index: distinct documents in the index at the end */
  documents?: number
  /** search-index: documents built, summed over the instances (their debug lines 'search documents indexed') */
  builds?: number
  /** search-index: the role's LDS_SEARCH_INSTANCES (above 1: two stages) */
  searchInstances?: number
}

/** Documents an instance built since it started: its log's 'search documents indexed' lines (LOG_LEVEL=debug) after the last start. */
function buildsIn(logFile: string): number {
  let text: string
  try { text = readFileSync(logFile, 'utf8') } catch { return NaN }
  let n = 0
  for (const line of text.slice(text.lastIndexOf('\n--- ')).split('\n')) {
    if (!line.includes('search documents indexed')) continue
    try { n += Number((JSON.parse(line) as { documents?: number }).documents ?? 0) } catch { /* not a JSON line */ }
  }
  return n
}

async function inputEvents(rt: Runtime, topics: readonly string[]): Promise<number> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const existing = new Set(await admin.listTopics())
    let n = 0
    for (const t of topics) if (existing.has(t)) for (const p of await admin.fetchTopicOffsets(t)) n += Number(p.high) - Number(p.low)
    return n
  } finally { await admin.disconnect() }
}

/** Node flags for the instances that NODE_OPTIONS refuses (LDS_SCALE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": a profile per instance). */
const CHILD_NODE_ARGS = (process.env.LDS_SCALE_NODE_ARGS ?? '').split(' ').filter(Boolean)

/** How long each instance's idle CPU is measured before the input is published. */
const IDLE_MS = 5_000

/** Starts made of an instance that ends before it joined (a broker still electing leaders of the new topics) before the run fails. */
const STARTS = 3

/**
 * Until each group has `members` members in a stable group (every instance joined, partitions
 * assigned); an instance that ended meanwhile is started again.
 */
async function joined(rt: Runtime, groups: readonly string[], members: number, children: Child[], start: (i: number) => Child): Promise<void> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const deadline = Date.now() + 180_000
    const starts = children.map(() => 0)
    for (;;) {
      for (const [i, c] of children.entries()) {
        if (c.exited() === undefined) continue
        if (++starts[i] >= STARTS) throw new Error(`${c.name} ended (${c.exited()}); its log: ${c.logFile}\n${c.tail(10)}`)
        children[i] = start(i)
      }
      const { groups: found } = await admin.describeGroups([...groups])
      if (found.length === groups.length && found.every((g) => g.state === 'Stable' && g.members.length === members)) return
      if (Date.now() > deadline) throw new Error(`the instances did not join ${groups.join(', ')} within 3 min`)
      await sleep(500)
    }
  } finally { await admin.disconnect() }
}

async function countDocuments(rt: Runtime): Promise<number> {
  let n = 0
  for (const type of Object.keys(SEARCH_TYPES) as SearchType[]) {
    const [r] = await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${ident(rt.db.database)}.${ident(searchTables(type).docs)} FINAL WHERE is_deleted = 0`)
    n += Number(r.n)
  }
  return n
}

/**
 * `searchStages`: how the search index runs at more than one instance: 'setting' passes
 * LDS_SEARCH_INSTANCES as the instance count, as the cluster and compose do (two stages: each
 * document built once); 'one' leaves it at 1 (every instance builds what its partitions touch).
 */
export async function measureScale(role: ScaledRole, instances: number, opts: { opinions: number; seed: number; log: (m: string) => void; searchStages?: 'setting' | 'one' }): Promise<ScaleRun> {
  const spec = ROLES[role]
  const id = `benchscale${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  const searchInstances = role === 'search-index' && (opts.searchStages ?? 'setting') === 'setting' ? instances : 1
  const env = { ...process.env, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', LDS_SEARCH_INSTANCES: String(searchInstances) }
  const cfg = loadConfig(env)
  const rt = createRuntime(cfg, createLogger(cfg))
  const children: Child[] = []
  let beside: Stoppable[] = []
  try {
    await prepare(rt)
    beside = await startProcessors(rt, spec.beside)
    // the search index's instances log each batch's builds (one debug line per batch), counted after the run
    const childEnv = { ...env, NODE_OPTIONS: [process.env.NODE_OPTIONS, spec.nodeOptions].filter(Boolean).join(' '), ...(role === 'search-index' ? { LOG_LEVEL: 'debug' } : {}) }
    const start = (i: number) => spawnChild({
      name: `${role} ${i + 1}`, cmd: process.execPath, args: [...CHILD_NODE_ARGS, '--import', 'tsx', path.join(PROJECT_ROOT, 'bin', 'lds-cli.ts'), 'run', '--roles', role],
      env: childEnv, cwd: PROJECT_ROOT, logFile: path.join(cfg.dataDir, 'logs', `scale-${role}-${instances}-${i + 1}.log`),
    })
    for (let i = 0; i < instances; i++) children.push(start(i))
    const groups = spec.groups(rt)
    await joined(rt, spec.members?.(rt) ?? groups.map((g) => g.group), instances, children, start)
    // a moment for the instances' start-up work to settle (first fetches, caches)
    await sleep(2_000)
    // What an instance costs with nothing to do (fetch polling, heartbeats): a fixed cost per
    // process, which a short run does not amortize; reported beside the per-event figure.
    const idle0 = children.map((c) => treeCpuMsOf(c.pid) ?? 0)
    await sleep(IDLE_MS)
    const idleMsPerS = children.map((c, i) => ((treeCpuMsOf(c.pid) ?? NaN) - idle0[i]) / (IDLE_MS / 1000))
    const before = children.map((c) => treeCpuMsOf(c.pid) ?? 0)
    opts.log(`  ${role} × ${instances}: instances idle in their groups; publishing the sample (${opts.opinions} opinions)`)
    const t0 = Date.now()
    await ingestSample(rt, { opinions: opts.opinions, seed: opts.seed, progress: false })
    await waitForCatchUp(rt.kafka, rt.clock, groups, { progress: false, timeoutMs: 30 * 60_000 })
    const seconds = (Date.now() - t0) / 1000
    const cpuMs = children.map((c, i) => (treeCpuMsOf(c.pid) ?? NaN) - before[i])
    const events = await inputEvents(rt, await spec.input(rt))
    if (role !== 'search-index') return { role, instances, events, cpuMs, idleMsPerS, seconds }
    const documents = await countDocuments(rt)
    const builds = children.reduce((n, c) => n + buildsIn(c.logFile), 0)
    return { role, instances, events, cpuMs, idleMsPerS, seconds, documents, builds, searchInstances }
  } finally {
    await Promise.all(children.map((c) => c.stop({ timeoutMs: 30_000 })))
    await stopAll(rt, beside)
    await removeDeployment(rt)
    await rt.close()
  }
}
