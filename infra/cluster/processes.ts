/**
 * The cluster's own long-running processes beside Kafka, the registry and ClickHouse: Redis (the
 * API processes' shared counters), the API workers behind one port, and every processor instance
 * (`lds run --roles <role>`). Each is detached with a pid file and log under <dataDir>/cluster, so
 * `cluster up` can be run again (it starts only what is not running) and `cluster down` finds them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT } from '../../core/config.js'
import { programArgs } from '../../core/programs.js'
import { SEARCH_INDEX_NODE_OPTIONS } from '../../bin/runtime.js'
import { ensurePackage } from '../debian.js'
import { REDIS_SERVER } from '../redis.js'
import { isRunning, readPid, startDetached, stopProcess, waitFor } from '../process.js'
import { API_INSTANCES, ROLE_GROUPS, REDIS_PORT } from './topology.js'

export interface ClusterProcess {
  /** e.g. "redis", "api", "table-sink-2" */
  name: string
  cmd: string
  args: string[]
  env?: Record<string, string>
  log: string
  pid: string
}


const node = (script: string, ...args: string[]) => ({ cmd: process.execPath, args: programArgs(script, args) })

export function redisProcess(dir: string): ClusterProcess {
  return {
    name: 'redis', cmd: REDIS_SERVER,
    args: ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    log: path.join(dir, 'logs', 'redis.log'), pid: path.join(dir, 'run', 'redis.pid'),
  }
}

/** The API launcher and the processor instances, in start order (`down` stops them in reverse). */
export function roleProcesses(dir: string, env: Record<string, string>): ClusterProcess[] {
  const out: ClusterProcess[] = []
  for (const g of ROLE_GROUPS) {
    for (let i = 1; i <= g.instances; i++) {
      const name = g.instances > 1 ? `${g.name}-${i}` : g.name
      // the search index in several instances runs its two stages (each document built by one instance)
      const extra: Record<string, string> = g.roles.includes('search-index') ? { NODE_OPTIONS: SEARCH_INDEX_NODE_OPTIONS, LDS_SEARCH_INSTANCES: String(g.instances) } : {}
      out.push({ name, ...node('bin/lds-cli.ts', 'run', '--roles', g.roles), env: { ...env, ...extra }, log: path.join(dir, 'logs', `${name}.log`), pid: path.join(dir, 'run', `${name}.pid`) })
    }
  }
  out.push({ name: 'api', ...node('infra/cluster/api-workers.ts', String(API_INSTANCES)), env, log: path.join(dir, 'logs', 'api.log'), pid: path.join(dir, 'run', 'api.pid') })
  return out
}

/** Starts `p` unless it runs; returns whether it was started now. */
export function startProcess(p: ClusterProcess): boolean {
  if (isRunning(p.pid)) return false
  startDetached({ name: p.name, cmd: p.cmd, args: p.args, cwd: PROJECT_ROOT, env: p.env, logFile: p.log, pidFile: p.pid })
  return true
}

/**
 * Starts a role process unless it runs, and waits until it logs that it is running (its schemas
 * checked, topics and tables there): one at a time, so fourteen processes do not all ask the
 * registry for a hundred schemas at the same moment.
 */
export async function startRole(p: ClusterProcess, timeoutMs: number): Promise<boolean> {
  if (isRunning(p.pid)) return false
  const from = existsSync(p.log) ? statSync(p.log).size : 0
  startDetached({ name: p.name, cmd: p.cmd, args: p.args, cwd: PROJECT_ROOT, env: p.env, logFile: p.log, pidFile: p.pid })
  const running = () => {
    const text = readFileSync(p.log, 'utf8').slice(from)
    return /"msg":"running"/.test(text)
  }
  await waitFor(running, { what: `${p.name} (lds run --roles …)`, timeoutMs, logFile: p.log, pid: readPid(p.pid) })
  return true
}

export const processPid = (p: ClusterProcess): number | undefined => (isRunning(p.pid) ? readPid(p.pid) : undefined)

export const stopClusterProcess = (p: ClusterProcess): Promise<boolean> => stopProcess(p.pid, { timeoutMs: 20_000 })

export const ensureRedisServer = (log: (m: string) => void) => ensurePackage('redis-server', REDIS_SERVER, log)
