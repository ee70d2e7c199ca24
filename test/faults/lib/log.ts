/** Progress lines of the suite, on stderr with the time since start (stdout carries only the result table). */
export type Log = (msg: string) => void

export function createProgressLog(t0 = Date.now(), write: (s: string) => void = (s) => process.stderr.write(s)): Log {
  return (msg) => write(`[faults +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`)
}

/** A child log: every line prefixed with the case name. */
export const scoped = (log: Log, scope: string): Log => (msg) => log(`${scope}: ${msg}`)
