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
const LAUNCHER = path.join(PROJECT_ROOT, 'infra', 'clickhouse', 'launch.py')

const paths = (cfg: Config) => ({
  data: path.join(cfg.dataDir, 'clickhouse'),
  log: path.join(cfg.dataDir, 'logs', 'clickhouse.log'),
  serverLog: path.join(cfg.dataDir, 'logs', 'clickhouse-server.log'),
  pid: path.join(cfg.dataDir, 'run', 'clickhouse.pid'),
  lock: path.join(cfg.dataDir, 'run', 'clickhouse.lock'),
})

const httpUrl = (cfg: Config) => `http://127.0.0.1:${cfg.ports.clickhouseHttp}`

function libchdb(): string {
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
function ourPid(cfg: Config): number | undefined {
  const pid = readPid(paths(cfg).pid)
  if (!isAlive(pid)) return undefined
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    const data = paths(cfg).data
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

async function ping(cfg: Config, timeoutMs = 1000): Promise<boolean> {
  try {
    const res = await fetch(`${httpUrl(cfg)}/ping`, { signal: AbortSignal.timeout(timeoutMs) })
    return res.ok && (await res.text()).trim() === 'Ok.'
  } catch {
    return false
  }
}

/** SELECT version() through the same client the application uses. */
async function version(cfg: Config, timeoutMs = 5000): Promise<string> {
  const client = createClient({ url: httpUrl(cfg), request_timeout: timeoutMs, max_open_connections: 1 })
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
function serverMessages(cfg: Config): string {
  const file = paths(cfg).serverLog
  if (!existsSync(file)) return ''
  const msgs = lastBytes(file, 64 * 1024).split('\n').filter((l) => /<(Fatal|Critical|Error|Warning)>/.test(l))
  return msgs.length ? `\nLast messages of ${file}:\n${msgs.slice(-5).map((l) => l.slice(0, 400)).join('\n')}` : ''
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

  async start(cfg, log) {
    const p = paths(cfg)
    // Two `infra up` at once (parallel test files) must not both launch: the second engine would
    // fail on the data dir lock. The first launches, the second finds it running.
    await serialized(p.lock, () => withLock(p.lock, async () => {
      let pid = ourPid(cfg)
      if (!pid && (await ping(cfg))) {
        // Another instance (another checkout, or started by hand) already serves this port: use
        // it rather than fail, but say so; `stop` will not touch it.
        const v = await version(cfg).catch((e: Error) => { throw new Error(`clickhouse: 127.0.0.1:${cfg.ports.clickhouseHttp} answers /ping but not SELECT version(): ${e.message}`) })
        log(`clickhouse: 127.0.0.1:${cfg.ports.clickhouseHttp} already serves ClickHouse ${v}, not started from ${p.data}; using it`)
        return
      }
      const launched = !pid
      if (!pid) {
        mkdirSync(p.data, { recursive: true })
        const settings = Object.entries({ ...CLICKHOUSE_SERVER_SETTINGS, ...queryMemorySettings(cfg) }).map(([k, v]) => `--${k}=${v}`)
        pid = startDetached({
          name: 'clickhouse',
          cmd: 'python3',
          args: [LAUNCHER, libchdb(), p.data, String(cfg.ports.clickhouseHttp), String(cfg.ports.clickhouseTcp), p.serverLog, ...settings],
          cwd: p.data,
          logFile: p.log,
          pidFile: p.pid,
        })
        log(`clickhouse: started (pid ${pid}, data ${p.data}); waiting for ${httpUrl(cfg)}/ping`)
      }
      const t0 = Date.now()
      try {
        await waitFor(() => ping(cfg), { what: `clickhouse on ${httpUrl(cfg)}/ping`, timeoutMs: READY_TIMEOUT_MS, logFile: p.log, pid })
      } catch (e) {
        throw new Error(`${(e as Error).message}${serverMessages(cfg)}`)
      }
      let v: string
      try {
        v = await version(cfg, 10_000)
      } catch (e) {
        throw new Error(`clickhouse: /ping answers but SELECT version() failed: ${(e as Error).message}\nSee ${p.log}; its last lines:\n${tailOf(p.log)}${serverMessages(cfg)}`)
      }
      if (launched) log(`clickhouse: ClickHouse ${v} ready on ${httpUrl(cfg)} (tcp ${cfg.ports.clickhouseTcp}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
      else log(`clickhouse: already running (pid ${pid}, ClickHouse ${v})`)
    }))
  },

  async stop(cfg, log) {
    const p = paths(cfg)
    const pid = ourPid(cfg)
    if (!pid) {
      rmSync(p.pid, { force: true }) // stale, or a reused pid that is not ours
      if (await ping(cfg)) log(`clickhouse: 127.0.0.1:${cfg.ports.clickhouseHttp} is served by an instance not started from ${p.data}; left running`)
      return
    }
    const t0 = Date.now()
    // SIGTERM to the launcher's process group (launcher and engine; 0.1-2 s), SIGKILL after STOP_TIMEOUT_MS.
    await stopProcess(p.pid, { timeoutMs: STOP_TIMEOUT_MS })
    log(`clickhouse: stopped (pid ${pid}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`)
  },

  async status(cfg): Promise<ServiceStatus> {
    const pid = ourPid(cfg)
    const address = `127.0.0.1:${cfg.ports.clickhouseHttp}`
    if (!(await ping(cfg))) {
      return { name: 'clickhouse', running: false, pid, address, detail: pid ? `pid ${pid} alive but /ping does not answer (starting, or see ${paths(cfg).log})` : undefined }
    }
    const v = await version(cfg, 3000).catch((e: Error) => `? (${e.message})`)
    const rss = rssMb(pid)
    const detail = pid
      ? `ClickHouse ${v}${rss ? `, RSS ${rss} MB` : ''}, tcp ${cfg.ports.clickhouseTcp}`
      : `ClickHouse ${v} (not started from ${paths(cfg).data})`
    return { name: 'clickhouse', running: true, pid, address, detail }
  },

  async reset(cfg, log) {
    const p = paths(cfg)
    const pid = ourPid(cfg)
    if (pid) throw new Error(`clickhouse: refusing to delete ${p.data} while ClickHouse runs on it (pid ${pid}); stop it first`)
    rmSync(p.data, { recursive: true, force: true })
    log(`clickhouse: removed ${p.data}`)
  },
}
