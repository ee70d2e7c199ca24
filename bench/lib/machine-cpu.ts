/**
 * CPU time of the whole machine (every process: ours, the broker, ClickHouse), from /proc/stat.
 * A phase's machine CPU per event says what it costs all the processes it drives, which on a
 * machine with few cores bounds its rate more than any one process's share does.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { treeCpuMsOf } from './children.js'

/** Busy CPU seconds of all cores since boot (user, nice, system, irq, softirq, steal); undefined where /proc/stat is missing. */
export function machineCpuSeconds(): number | undefined {
  let line: string
  try { line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] } catch { return undefined }
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  // /proc/stat counts in USER_HZ, 100 per second on Linux everywhere that matters.
  return (user + nice + system + irq + softirq + (steal || 0)) / 100
}


/** The local infrastructure's servers whose CPU a phase can be charged with. */
export const SERVERS = ['clickhouse', 'kafka'] as const
export type Server = (typeof SERVERS)[number]

/**
 * CPU seconds used so far by each local server (its process and children, from `<dataDir>/run/<name>.pid`);
 * a server that is not local (or not running) is left out. Unlike the machine's total, a server's
 * own time is not moved by other processes' work, but it does count other clients of the same server.
 */
export function serverCpuSeconds(dataDir: string): Partial<Record<Server, number>> {
  const out: Partial<Record<Server, number>> = {}
  for (const name of SERVERS) {
    try {
      const ms = treeCpuMsOf(Number(readFileSync(path.join(dataDir, 'run', `${name}.pid`), 'utf8').trim()))
      if (ms !== undefined) out[name] = ms / 1000
    } catch { /* not local */ }
  }
  return out
}

/** after − before, per server present in both. */
export function serverCpuSpent(before: Partial<Record<Server, number>>, after: Partial<Record<Server, number>>): Partial<Record<Server, number>> {
  const out: Partial<Record<Server, number>> = {}
  for (const name of SERVERS) if (before[name] !== undefined && after[name] !== undefined) out[name] = after[name]! - before[name]!
  return out
}
