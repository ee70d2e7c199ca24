/**
 * What a stack with nothing to do costs:
 *   npx tsx bench/idle.ts [--seconds 60] [--per-role] [--data-dir /tmp/lds-idle]
 *
 * Starts the stack as `npm start` does (bin/start.ts in a child process: infrastructure up on its
 * own ports and data folder, sample loaded on the first run, every role in one process), waits
 * until it says it is ready and a settle time more, then samples the CPU time of the node process
 * and of each infrastructure service (Kafka, registry, ClickHouse, with their children) from /proc
 * over --seconds, and prints each as % of one core against the goals (node ≤ 1 %, all together
 * ≤ 5 %), with resident memory and node's heap. With --per-role, each role then runs alone (`lds
 * run --roles <role>`) against the same stack, and its memory after the same settle time is
 * reported. Writes .data/bench/idle.json. /proc counts only each process's own CPU time, so the
 * figures hold on a machine that is busy with other work.
 */
import path from 'node:path'
import { mkdirSync, existsSync, symlinkSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { loadConfig, PROJECT_ROOT } from '../core/config.js'
import { infraStatus, infraUp, infraDown } from '../infra/cli.js'
import { PROCESSOR_ROLES } from '../bin/runtime.js'
import { readdirSync } from 'node:fs'
import { spawnChild, stopChildrenOnExit, waitUntil, memoryOf, treeCpuMsOf, threadCpuMsOf, sleep, type Child } from './lib/children.js'
import { table } from './lib/stats.js'
import { parseFlags } from '../test/kit/args.js'
import { compiledFile } from '../core/programs.js'

const flags = parseFlags('npx tsx bench/idle.ts', {
  seconds: { type: 'number', default: 60, help: 'idle seconds sampled' },
  settle: { type: 'number', default: 15, help: 'seconds after "ready" before sampling (startup work ending)' },
  'per-role': { type: 'boolean', help: 'also run each role alone and report its memory' },
  'data-dir': { type: 'string', default: '/tmp/lds-idle', help: "the stack's data folder (the project's installed jars are linked into it)" },
  keep: { type: 'boolean', help: 'leave the data folder (a later run skips the sample load)' },
  compiled: { type: 'boolean', help: 'run the stack from dist/ (`npm run build` first) instead of the sources under tsx' },
  'cpu-prof': { type: 'boolean', help: "profile npm start's process (node --cpu-prof into .data/bench/idle/prof/, written when it stops)" },
  'heap-snapshot': { type: 'boolean', help: "write a heap snapshot of npm start's process after the idle sample (.data/bench/idle/start.heapsnapshot)" },
})

const GOAL_NODE_PCT = 1
const GOAL_TOTAL_PCT = 5

// Ports apart from the shared defaults and from test/fresh-clone.sh.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: '38000', LDS_KAFKA_PORT: '39092', LDS_KAFKA_CONTROLLER_PORT: '39093', LDS_KAFKA_SASL_PORT: '39094', LDS_REGISTRY_PORT: '38081',
  LDS_CLICKHOUSE_HTTP_PORT: '38123', LDS_CLICKHOUSE_TCP_PORT: '39000', LDS_DATA_DIR: flags['data-dir'],
  LOG_LEVEL: 'info',
}
for (const k of ['LDS_TOPIC_PREFIX', 'CLICKHOUSE_DATABASE', 'KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'CLICKHOUSE_URL', 'LDS_TEST']) delete env[k]
const cfg = loadConfig(env)
const logDir = path.join(PROJECT_ROOT, '.data', 'bench', 'idle')
mkdirSync(logDir, { recursive: true })
// The downloaded jars are the project's; a fresh data folder would fetch them again.
mkdirSync(cfg.dataDir, { recursive: true })
const lib = path.join(cfg.dataDir, 'lib')
if (!existsSync(lib) && existsSync(path.join(PROJECT_ROOT, '.data', 'lib'))) symlinkSync(path.join(PROJECT_ROOT, '.data', 'lib'), lib)

stopChildrenOnExit()

/**
 * node's own heap figures, written by the child on SIGUSR2 (a hook loaded with --import): as found,
 * then after a full collection (the child runs with --expose-gc), so what is live is told apart
 * from garbage an idle process has not collected yet; and a heap snapshot when asked for.
 */
const HEAP_HOOK = `data:text/javascript,${encodeURIComponent([
  "import { writeFileSync } from 'node:fs'; import v8 from 'node:v8';",
  "process.on('SIGUSR2', () => { const found = process.memoryUsage(); globalThis.gc(); const live = process.memoryUsage();",
  'if (process.env.LDS_BENCH_HEAP_SNAPSHOT) v8.writeHeapSnapshot(process.env.LDS_BENCH_HEAP_SNAPSHOT);',
  'writeFileSync(process.env.LDS_BENCH_HEAP_FILE, JSON.stringify({ found, live })) })',
].join(' '))}`

/**
 * glibc's malloc settings that package.json's `start` script gives npm start's process: two arenas,
 * and buffers from 128 KB up in their own mappings, given back when freed (glibc raises that
 * threshold as large buffers are freed, and kept what the sample's catch-up freed: ~300 MB).
 */
const START_MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' }

/** A program of the project (`bin/start.ts`) from the sources under tsx, or from dist/ with --compiled. */
function nodeChild(name: string, program: string, args: string[] = [], snapshot?: string): { child: Child; heapFile: string } {
  const heapFile = path.join(logDir, `${name}.heap.json`)
  rmSync(heapFile, { force: true })
  const file = flags.compiled ? compiledFile(program) : path.join(PROJECT_ROOT, program)
  const child = spawnChild({
    name, cmd: process.execPath, cwd: PROJECT_ROOT, logFile: path.join(logDir, `${name}.log`),
    args: ['--max-semi-space-size=64', '--expose-gc', ...(flags.compiled ? [] : ['--import', 'tsx']), ...(flags['cpu-prof'] && name === 'start' ? ['--cpu-prof', '--cpu-prof-dir', path.join(logDir, 'prof')] : []), '--import', HEAP_HOOK, file, ...args],
    env: { ...env, ...START_MALLOC_ENV, LDS_BENCH_HEAP_FILE: heapFile, ...(snapshot ? { LDS_BENCH_HEAP_SNAPSHOT: snapshot } : {}) },
  })
  return { child, heapFile }
}

interface Heap { heapUsedMb: number; liveHeapMb: number; externalMb: number; arrayBuffersMb: number }

async function heapOf(c: { child: Child; heapFile: string }): Promise<Heap | undefined> {
  try { process.kill(c.child.pid, 'SIGUSR2') } catch { return undefined }
  try {
    const m = await waitUntil(async () => existsSync(c.heapFile) && JSON.parse(readFileSync(c.heapFile, 'utf8')) as { found: NodeJS.MemoryUsage; live: NodeJS.MemoryUsage }, { what: 'heap figures', timeoutMs: 300_000 })
    return { heapUsedMb: m.found.heapUsed / 2 ** 20, liveHeapMb: m.live.heapUsed / 2 ** 20, externalMb: m.live.external / 2 ** 20, arrayBuffersMb: m.live.arrayBuffers / 2 ** 20 }
  } catch { return undefined }
}

/** Resident memory of a process and every process under it (a launcher and the server it runs). */
function treeRssMb(pid: number): number | undefined {
  const own = memoryOf(pid)?.rssMb
  if (own === undefined) return undefined
  let sum = own
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim()
      for (const k of kids ? kids.split(' ') : []) sum += treeRssMb(Number(k)) ?? 0
    }
  } catch { /* ended meanwhile */ }
  return sum
}

/** Whether `text` appears in what the child logged (its log file is appended to: earlier runs' lines come before its marker). */
const logged = (c: Child, text: string) => async () => {
  const log = readFileSync(c.logFile, 'utf8')
  return log.slice(log.lastIndexOf('\n--- ')).includes(text)
}
const mb = (n: number | undefined) => (n === undefined ? '-' : `${Math.round(n)} MB`)
const pct = (n: number) => `${n.toFixed(2)} %`

// Up here rather than by bin/start.ts, so that it outlives the one-process run for --per-role.
console.log(`infrastructure on its own ports under ${cfg.dataDir}`)
const startedInfra = await infraUp(cfg, () => {})
console.log(`starting the stack as npm start does (data ${cfg.dataDir}, API port ${cfg.port}); a first run loads the sample`)
let start: ReturnType<typeof nodeChild> | undefined
try {
  start = nodeChild('start', 'bin/start.ts', [], flags['heap-snapshot'] ? path.join(logDir, 'start.heapsnapshot') : undefined)
  await waitUntil(logged(start.child, 'API: http'), { what: 'the stack ready', timeoutMs: 30 * 60_000, intervalMs: 1_000, child: start.child })
  console.log(`ready; settling ${flags.settle} s`)
  await sleep(flags.settle * 1000)

  const services = (await infraStatus(cfg, () => {})).filter((s) => s.running && s.pid)
  const processes = [{ name: 'node (npm start)', pid: start.child.pid }, ...services.map((s) => ({ name: s.name, pid: s.pid! }))]
  const before = processes.map((p) => treeCpuMsOf(p.pid) ?? 0)
  const threadsBefore = threadCpuMsOf(start.child.pid)
  const t0 = performance.now()
  await sleep(flags.seconds * 1000)
  const wallMs = performance.now() - t0
  // node's CPU by thread: the main thread (named after the process) against V8's and libuv's workers.
  const byThread = [...threadCpuMsOf(start.child.pid)].map(([k, ms]) => ({ thread: k, pct: (100 * (ms - (threadsBefore.get(k) ?? 0))) / wallMs })).filter((x) => x.pct > 0).sort((a, b) => b.pct - a.pct)
  const rows = processes.map((p, i) => ({
    name: p.name, pid: p.pid,
    cpuPct: (100 * ((treeCpuMsOf(p.pid) ?? before[i]) - before[i])) / wallMs,
    rssMb: treeRssMb(p.pid),
  }))
  const nodeHeap = await heapOf(start)
  const afterGc = memoryOf(start.child.pid)
  const rssAfterGcMb = afterGc?.rssMb
  const nodePct = rows[0].cpuPct
  const totalPct = rows.reduce((s, r) => s + r.cpuPct, 0)

  console.log(`\nIdle over ${(wallMs / 1000).toFixed(0)} s (CPU time from /proc, % of one core)`)
  console.log(table([['process', 'CPU', 'RSS'],
    ...rows.map((r) => [r.name, pct(r.cpuPct), mb(r.rssMb)]),
    ['all together', pct(totalPct), mb(rows.reduce((s, r) => s + (r.rssMb ?? 0), 0))],
  ]))
  console.log(`node: ${pct(nodePct)} (goal ≤ ${GOAL_NODE_PCT} %: ${nodePct <= GOAL_NODE_PCT ? 'met' : 'NOT met'}); all: ${pct(totalPct)} (goal ≤ ${GOAL_TOTAL_PCT} %: ${totalPct <= GOAL_TOTAL_PCT ? 'met' : 'NOT met'})`)
  console.log(`node by thread: ${byThread.slice(0, 8).map((x) => `${x.thread} ${pct(x.pct)}`).join(', ')}`)
  if (nodeHeap) console.log(`node (main thread): heap used ${mb(nodeHeap.heapUsedMb)}, live after a full collection ${mb(nodeHeap.liveHeapMb)} (RSS then ${mb(rssAfterGcMb)}: ${mb(afterGc?.anonMb)} anonymous, ${mb(afterGc?.fileMb)} mapped files), external ${mb(nodeHeap.externalMb)} (of which array buffers ${mb(nodeHeap.arrayBuffersMb)})`)

  // Each role alone against the same stack: the one-process figure split by what holds it.
  const perRole: ({ role: string; rssMb?: number } & Partial<Heap>)[] = []
  if (flags['per-role']) {
    await start.child.stop({ signal: 'SIGINT', timeoutMs: 120_000 })
    for (const role of ['api', ...PROCESSOR_ROLES]) {
      const r = nodeChild(`role-${role}`, 'bin/lds-cli.ts', ['run', '--roles', role])
      try {
        await waitUntil(logged(r.child, '"msg":"running"'), { what: `${role} running`, timeoutMs: 120_000, intervalMs: 500, child: r.child })
        await sleep(flags.settle * 1000)
        const heap = await heapOf(r)
        perRole.push({ role, rssMb: memoryOf(r.child.pid)?.rssMb, ...heap })
      } catch (err) {
        console.error(`${role}: ${(err as Error).message.split('\n')[0]}`)
      } finally { await r.child.stop({ signal: 'SIGTERM', timeoutMs: 30_000 }) }
    }
    console.log('\nMemory per role, each alone in a process (after catching up and settling)')
    console.log(table([['role', 'RSS', 'heap used', 'live heap', 'external', 'array buffers'], ...perRole.map((r) => [r.role, mb(r.rssMb), mb(r.heapUsedMb), mb(r.liveHeapMb), mb(r.externalMb), mb(r.arrayBuffersMb)])]))
  }

  const out = path.join(PROJECT_ROOT, '.data', 'bench', 'idle.json')
  writeFileSync(out, JSON.stringify({
    at: new Date().toISOString(), seconds: wallMs / 1000,
    goals: { nodePct: GOAL_NODE_PCT, totalPct: GOAL_TOTAL_PCT },
    compiled: flags.compiled === true, processes: rows.map(({ name, cpuPct, rssMb }) => ({ name, cpuPct, rssMb })), nodePct, totalPct, byThread, nodeHeap, rssAfterGcMb, perRole,
  }, null, 2))
  console.log(`written ${path.relative(PROJECT_ROOT, out)}`)
} finally {
  // Ctrl-C as a user gives it (roles stop, then what this run started), also when a step failed.
  await start?.child.stop({ signal: 'SIGINT', timeoutMs: 120_000 })
  if (startedInfra.length) await infraDown(cfg, () => {}, startedInfra) // an empty list would mean every service
  if (!flags.keep) rmSync(cfg.dataDir, { recursive: true, force: true })
}
