/**
 * CPU time of the whole machine (every process: ours, the broker, ClickHouse), from /proc/stat.
 * A phase's machine CPU per event says what it costs all the processes it drives, which on a
 * machine with few cores bounds its rate more than any one process's share does.
 */
import { readFileSync } from 'node:fs'

/** Busy CPU seconds of all cores since boot (user, nice, system, irq, softirq, steal); undefined where /proc/stat is missing. */
export function machineCpuSeconds(): number | undefined {
  let line: string
  try { line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] } catch { return undefined }
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  // /proc/stat counts in USER_HZ, 100 per second on Linux everywhere that matters.
  return (user + nice + system + irq + softirq + (steal || 0)) / 100
}

