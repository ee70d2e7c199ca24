/**
 * ClickHouse 26.7 from the npm package @chdb/lib-linux-x64-gnu (the whole engine as a shared
 * library), serving its real HTTP interface on 127.0.0.1 through a small Python launcher.
 * MergeTree data lives under .data/clickhouse and survives restarts. Settings: async_insert=0
 * (an insert is durable when it returns) and mutations_sync=1 (mutations finish before they return).
 */
import { createRequire } from 'node:module'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '../core/config.js'
import { PROJECT_ROOT } from '../core/config.js'
import type { LocalService } from './service.js'
import { isRunning, readPid, startDetached, stopProcess, waitUntil } from './process.js'

const paths = (cfg: Config) => ({
  data: path.join(cfg.dataDir, 'clickhouse'),
  log: path.join(cfg.dataDir, 'logs', 'clickhouse.log'),
  pid: path.join(cfg.dataDir, 'run', 'clickhouse.pid'),
})

function libchdb(): string {
  const require = createRequire(import.meta.url)
  return path.join(path.dirname(require.resolve('@chdb/lib-linux-x64-gnu/package.json')), 'libchdb.so')
}

async function version(cfg: Config): Promise<string | undefined> {
  const res = await fetch(`http://127.0.0.1:${cfg.ports.clickhouseHttp}/?query=SELECT%20version()`, { signal: AbortSignal.timeout(2000) })
  return res.ok ? (await res.text()).trim() : undefined
}

export const clickhouse: LocalService = {
  name: 'clickhouse',
  async install() {
    libchdb() // installed by npm; fails clearly here if the optional package is missing
  },
  async start(cfg, log) {
    const p = paths(cfg)
    if (isRunning(p.pid) || await version(cfg).catch(() => undefined)) return
    mkdirSync(p.data, { recursive: true })
    const pid = startDetached({
      cmd: 'python3', logFile: p.log, pidFile: p.pid, cwd: p.data,
      args: [path.join(PROJECT_ROOT, 'infra/clickhouse/launch.py'), libchdb(), p.data + '/', String(cfg.ports.clickhouseHttp), String(cfg.ports.clickhouseTcp)],
    })
    log(`clickhouse: started (pid ${pid}); waiting for 127.0.0.1:${cfg.ports.clickhouseHttp}`)
    await waitUntil(async () => !!(await version(cfg)), 'clickhouse', { timeoutMs: 60_000, logFile: p.log, pid })
  },
  async stop(cfg, log) {
    if (await stopProcess(paths(cfg).pid, 10_000)) log('clickhouse: stopped')
  },
  async status(cfg) {
    const v = await version(cfg).catch(() => undefined)
    return { name: 'clickhouse', running: !!v, pid: readPid(paths(cfg).pid), address: `127.0.0.1:${cfg.ports.clickhouseHttp}`, detail: v ? `ClickHouse ${v}` : undefined }
  },
  async reset(cfg) {
    rmSync(paths(cfg).data, { recursive: true, force: true })
  },
}
