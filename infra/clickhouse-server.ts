/**
 * ClickHouse 26.7 from the npm package @chdb/lib-linux-x64-gnu (the whole engine as a shared
 * library, libchdb.so), serving the real HTTP (cfg.ports.clickhouseHttp) and native TCP
 * (cfg.ports.clickhouseTcp) interfaces on 127.0.0.1 through a small Python ctypes launcher,
 * infra/clickhouse/launch.py: clickhouse-local's main with --path, SYSTEM START LISTEN HTTP/TCP
 * and a query that never ends, in an engine process the launcher restarts if it ends after
 * having served (e.g. `KILL QUERY` hit the keep-alive query). No users or RBAC: user `default`,
 * empty password, loopback only.
 *
 * Files under cfg.dataDir: clickhouse/ (databases, MergeTree parts; survives restarts),
 * logs/clickhouse.log (launcher stdout/stderr: start-up errors), logs/clickhouse-server.log (the
 * engine's own warnings and errors), run/clickhouse.pid (the launcher; the engine is its child, in
 * its process group), run/clickhouse.lock (held while starting).
 *
 * The local cluster (infra/cluster/) runs several such engines, each described by a ClickHouseNode
 * (its own ports, data dir and a --config-file with the cluster's macros and remote_servers).
 *
 * The service checks and serves 127.0.0.1:cfg.ports.clickhouseHttp, its own address; the
 * application connects to cfg.clickhouseUrl, which is the same unless CLICKHOUSE_URL says otherwise.
 *
 * Server-wide query defaults (they apply to every HTTP/TCP query; a client may still override):
 *  - async_insert=0: an INSERT has written its part when it returns (26.x defaults to 1).
 *  - mutations_sync=1: ALTER ... UPDATE/DELETE return once the mutation is done (single node, so
 *    1 and 2 are the same), so a migration or test never reads half-mutated data.
 */
import { createClient } from '@clickhouse/client'
import { spawnSync } from 'node:child_process'
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Config } from '../core/config.js'
import { PROJECT_ROOT } from '../core/config.js'
import { isAlive, readPid, startDetached, stopProcess, tailOf, waitFor, withLock } from './process.js'
import type { LocalService, ServiceStatus } from './service.js'

/** Passed to clickhouse-local as query-level defaults for every connection (see the header). */
export const CLICKHOUSE_SERVER_SETTINGS: Readonly<Record<string, string | number>> = Object.freeze({
  async_insert: 0,
  mutations_sync: 1,
})

/**
 * Defaults of every query for its memory (cfg.clickhouseQueryMemoryMb): without a per-query
 * limit, the server's own limit is the only one, and a query that reaches it makes every other
 * query fail with its error while it runs. Large GROUP BYs and sorts spill to disk from a quarter
 * of the limit rather than fail (each of the query's threads reaches the threshold, and merging
 * the spilled parts takes memory too: from half, a GROUP BY on 2 threads still failed).
 */
export function queryMemorySettings(cfg: Config): Record<string, number> {
  const bytes = cfg.clickhouseQueryMemoryMb * 2 ** 20
  const spill = Math.floor(bytes / 4)
  return { max_memory_usage: bytes, max_bytes_before_external_group_by: spill, max_bytes_before_external_sort: spill }
}

const READY_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 10_000
export const LAUNCHER = path.join(PROJECT_ROOT, 'infra', 'clickhouse', 'launch.py')

/** One engine process to run: its ports, files, and an optional server config (macros, remote_servers). */
export interface ClickHouseNode {
  /** for messages: "clickhouse", "clickhouse-s1r1" */
  name: string
  httpPort: number
  tcpPort: number
  data: string
  /** launcher output (start-up errors) */
  log: string
  /** the engine's own warnings and errors */
  serverLog: string
  pid: string
  lock: string
  /** a clickhouse-local --config-file (XML), e.g. the cluster's remote_servers and macros */
  configFile?: string
  /** query-level defaults beyond CLICKHOUSE_SERVER_SETTINGS and the memory limits */
  settings?: Record<string, string | number>
}

/** The single-node stack's ClickHouse, from the configuration. */
export function singleClickHouseNode(cfg: Config): ClickHouseNode {
  return {
    name: 'clickhouse',
    httpPort: cfg.ports.clickhouseHttp,
    tcpPort: cfg.ports.clickhouseTcp,
    data: path.join(cfg.dataDir, 'clickhouse'),
    log: path.join(cfg.dataDir, 'logs', 'clickhouse.log'),
    serverLog: path.join(cfg.dataDir, 'logs', 'clickhouse-server.log'),
    pid: path.join(cfg.dataDir, 'run', 'clickhouse.pid'),
    lock: path.join(cfg.dataDir, 'run', 'clickhouse.lock'),
  }
}

export const nodeUrl = (n: Pick<ClickHouseNode, 'httpPort'>) => `http://127.0.0.1:${n.httpPort}`

export function libchdb(): string {
  const require = createRequire(import.meta.url)
  let dir: string
  try {
    dir = path.dirname(require.resolve('@chdb/lib-linux-x64-gnu/package.json'))
  } catch {
    throw new Error('clickhouse: the npm package @chdb/lib-linux-x64-gnu is not installed (run npm install; it needs linux x64 with glibc)')
  }
  const lib = path.join(dir, 'libchdb.so')
  if (!existsSync(lib)) throw new Error(`clickhouse: ${lib} is missing; reinstall @chdb/lib-linux-x64-gnu`)
  return lib
}

/** The pid in our pid file, only if that process is alive and really is our launcher (pids get reused). */
function ourPid(n: ClickHouseNode): number | undefined {
  const pid = readPid(n.pid)
  if (!isAlive(pid)) return undefined
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    const data = n.data
    return args.some((a) => a.endsWith('launch.py')) && args.some((a) => a !== '' && path.resolve(a) === data) ? pid : undefined
  } catch {
    return pid // no /proc: trust the pid file
  }
}

/** Resident memory of the launcher and the engine process it supervises, in MB. */
function rssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined
  const rssKb = (p: number | string) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))
      return m ? Number(m[1]) : 0
    } catch {
      return 0
    }
  }
  let children: string[] = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)
  } catch { /* no /proc children list: the launcher alone */ }
  const kb = rssKb(pid) + children.reduce((sum, c) => sum + rssKb(c), 0)
  return kb ? Math.round(kb / 1024) : undefined
}

export async function pingNode(n: Pick<ClickHouseNode, 'httpPort'>, timeoutMs = 1000): Promise<boolean> {
  try {
    const res = await fetch(`${nodeUrl(n)}/ping`, { signal: AbortSignal.timeout(timeoutMs) })
    return res.ok && (await res.text()).trim() === 'Ok.'
  } catch {
    return false
  }
}

/** SELECT version() through the same client the application uses. */
async function version(n: ClickHouseNode, timeoutMs = 5000): Promise<string> {
  const client = createClient({ url: nodeUrl(n), request_timeout: timeoutMs, max_open_connections: 1 })
  try {
    const rs = await client.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })
    const [row] = await rs.json<{ v: string }>()
    if (!row?.v) throw new Error('SELECT version() returned no row')
    return row.v
  } finally {
    await client.close()
  }
}

function lastBytes(file: string, n: number): string {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const buf = Buffer.alloc(Math.min(n, size))
    readSync(fd, buf, 0, buf.length, size - buf.length)
    return buf.toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/** withLock excludes other processes; this queues callers inside this one (it is not re-entrant). */
const queues = new Map<string, Promise<unknown>>()
function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).catch(() => {}).then(fn)
  queues.set(key, run)
  return run.finally(() => { if (queues.get(key) === run) queues.delete(key) })
}

/** The engine's last warning/error lines (each <Error> is followed by a stack trace: skipped). */
function serverMessages(n: ClickHouseNode): string {
  const file = n.serverLog
  if (!existsSync(file)) return ''
  const msgs = lastBytes(file, 64 * 1024).split('\n').filter((l) => /<(Fatal|Critical|Error|Warning)>/.test(l))
  return msgs.length ? `\nLast messages of ${file}:\n${msgs.slice(-5).map((l) => l.slice(0, 400)).join('\n')}` : ''
}

/**
 * Starts the engine of `n` unless it runs (or another instance serves its port: used, not
 * started), and waits until it answers SELECT version().
 */
export async function startClickHouseNode(n: ClickHouseNode, cfg: Config, log: (m: string) => void): Promise<void> {
  // Two `infra up` at once (parallel test files) must not both launch: the second engine would
  // fail on the data dir lock. The first launches, the second finds it running.
  await serialized(n.lock, () => withLock(n.lock, async () => {
    let pid = ourPid(n)
    if (!pid && (await pingNode(n))) {
      // Another instance (another checkout, or started by hand) already serves this port: use
      // it rather than fail, but say so; `stop` will not touch it.
      const v = await version(n).catch((e: Error) => { throw new Error(`${n.name}: 127.0.0.1:${n.httpPort} answers /ping but not SELECT version(): ${e.message}`) })
      log(`${n.name}: 127.0.0.1:${n.httpPort} already serves ClickHouse ${v}, not started from ${n.data}; using it`)
      return
    }
    const launched = !pid
    if (!pid) {
      mkdirSync(n.data, { recursive: true })
      const settings = Object.entries({ ...CLICKHOUSE_SERVER_SETTINGS, ...queryMemorySettings(cfg), ...n.settings }).map(([k, v]) => `--${k}=${v}`)
      pid = startDetached({
        name: n.name,
        cmd: 'python3',
        args: [LAUNCHER, libchdb(), n.data, String(n.httpPort), String(n.tcpPort), n.serverLog, ...(n.configFile ? [`--config-file=${n.configFile}`] : []), ...settings],
        cwd: n.data,
        logFile: n.log,
        pidFile: n.pid,
      })
      log(`${n.name}: started (pid ${pid}, data ${n.data}); waiting for ${nodeUrl(n)}/ping`)
    }
    const t0 = Date.now()
    try {
      await waitFor(() => pingNode(n), { what: `${n.name} on ${nodeUrl(n)}/ping`, timeoutMs: READY_TIMEOUT_MS, logFile: n.log, pid })
    } catch (e) {
      throw new Error(`${(e as Error).message}${serverMessages(n)}`)
    }
    let v: string
    try {
      v = await version(n, 10_000)
    } catch (e) {
      throw new Error(`${n.name}: /ping answers but SELECT version() failed: ${(e as Error).message}\nSee ${n.log}; its last lines:\n${tailOf(n.log)}${serverMessages(n)}`)
    }
    if (launched) log(`${n.name}: ClickHouse ${v} ready on ${nodeUrl(n)} (tcp ${n.tcpPort}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    else log(`${n.name}: already running (pid ${pid}, ClickHouse ${v})`)
  }))
}

/** Stops the engine of `n` if this data dir started it; an instance of someone else is left running. */
export async function stopClickHouseNode(n: ClickHouseNode, log: (m: string) => void): Promise<void> {
  const pid = ourPid(n)
  if (!pid) {
    rmSync(n.pid, { force: true }) // stale, or a reused pid that is not ours
    if (await pingNode(n)) log(`${n.name}: 127.0.0.1:${n.httpPort} is served by an instance not started from ${n.data}; left running`)
    return
  }
  const t0 = Date.now()
  // SIGTERM to the launcher's process group (launcher and engine; 0.1-2 s), SIGKILL after STOP_TIMEOUT_MS.
  await stopProcess(n.pid, { timeoutMs: STOP_TIMEOUT_MS })
  log(`${n.name}: stopped (pid ${pid}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`)
}

export async function clickHouseNodeStatus(n: ClickHouseNode): Promise<ServiceStatus> {
  const pid = ourPid(n)
  const address = `127.0.0.1:${n.httpPort}`
  if (!(await pingNode(n))) {
    return { name: n.name, running: false, pid, address, detail: pid ? `pid ${pid} alive but /ping does not answer (starting, or see ${n.log})` : undefined }
  }
  const v = await version(n, 3000).catch((e: Error) => `? (${e.message})`)
  const rss = rssMb(pid)
  const detail = pid
    ? `ClickHouse ${v}${rss ? `, RSS ${rss} MB` : ''}, tcp ${n.tcpPort}`
    : `ClickHouse ${v} (not started from ${n.data})`
  return { name: n.name, running: true, pid, address, detail }
}

export const clickhouse: LocalService = {
  name: 'clickhouse',

  async install() {
    libchdb() // installed by npm with the project; fails clearly if the optional package is missing
    const py = spawnSync('python3', ['-c', 'import ctypes'], { encoding: 'utf8' })
    if (py.error || py.status !== 0) {
      throw new Error(`clickhouse: the launcher needs python3 with ctypes on PATH (${py.error?.message ?? py.stderr.trim()})`)
    }
  },

  start: (cfg, log) => startClickHouseNode(singleClickHouseNode(cfg), cfg, log),
  stop: (cfg, log) => stopClickHouseNode(singleClickHouseNode(cfg), log),
  status: (cfg) => clickHouseNodeStatus(singleClickHouseNode(cfg)),

  async reset(cfg, log) {
    const n = singleClickHouseNode(cfg)
    const pid = ourPid(n)
    if (pid) throw new Error(`clickhouse: refusing to delete ${n.data} while ClickHouse runs on it (pid ${pid}); stop it first`)
    rmSync(n.data, { recursive: true, force: true })
    log(`clickhouse: removed ${n.data}`)
  },
}
