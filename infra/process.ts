/**
 * Shared helpers for the local infrastructure's long-running processes (Kafka, the schema
 * registry, ClickHouse). A service is started detached, with its output appended to a log file
 * and its pid in a pid file, so it outlives the command that started it and a later command
 * (another `infra up`, `infra down`, a test run) can find and stop it.
 *
 * API (everything else in this file is internal):
 *   startDetached({ name, cmd, args, cwd?, env?, logFile, pidFile }) → pid
 *       spawn(detached, stdio → logFile, unref); writes pidFile. The child leads its own process
 *       group, so stopProcess can signal the whole group.
 *   readPid(pidFile) → number | undefined;  isRunning(pidFile) → boolean (alive, not a zombie)
 *   stopProcess(pidFile, { timeoutMs }) → true if something was stopped
 *       SIGTERM to the group, SIGKILL after timeoutMs, resolves once it is gone; removes pidFile.
 *   waitFor(check, { what, timeoutMs, intervalMs?, logFile?, pid? })
 *       polls an async check (exceptions count as "not yet"); on timeout, or when `pid` exits,
 *       throws an Error naming `what`, the log file and its last lines.
 *   withLock(lockFile, fn, { timeoutMs? })
 *       runs fn holding an exclusive lock file (O_EXCL + owner pid; stale locks of dead owners
 *       are taken over), so two concurrent `infra up` calls (e.g. parallel test files) do not
 *       both install or start the same service. Callers inside one process are queued; a
 *       nested call for the same lock file from inside fn would wait forever (not re-entrant).
 *   runCommand(cmd, args, { cwd?, env? }) → stdout+stderr
 *       runs to completion; on a non-zero exit throws with the command and its output's tail.
 *   tcpPortOpen(host, port, timeoutMs?) → boolean;  tailOf(file, lines?) → string;  sleep(ms)
 */
import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'

export interface DetachedSpec {
  /** Short name for messages, e.g. "kafka". */
  name: string
  cmd: string
  args: string[]
  cwd?: string
  /** Added to the current environment. */
  env?: Record<string, string>
  logFile: string
  pidFile: string
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Starts `cmd` detached from this process; returns its pid. */
export function startDetached(spec: DetachedSpec): number {
  mkdirSync(path.dirname(spec.logFile), { recursive: true })
  mkdirSync(path.dirname(spec.pidFile), { recursive: true })
  const out = openSync(spec.logFile, 'a')
  try {
    writeSync(out, `\n--- ${new Date().toISOString()} starting ${spec.name}: ${spec.cmd} ${spec.args.join(' ')}\n`)
    const child = spawn(spec.cmd, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      detached: true,
      stdio: ['ignore', out, out],
    })
    if (child.pid === undefined) throw new Error(`${spec.name}: could not start ${spec.cmd} (is it installed?)`)
    child.on('error', () => { /* reported through the pid check of waitFor */ })
    child.unref()
    writeFileSync(spec.pidFile, `${child.pid}\n`)
    return child.pid
  } finally {
    closeSync(out)
  }
}

export function readPid(pidFile: string): number | undefined {
  if (!existsSync(pidFile)) return undefined
  const pid = Number(readFileSync(pidFile, 'utf8').trim())
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

/** True when the process exists and is not a zombie (a zombie has exited but is not reaped yet). */
export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false
  try { process.kill(pid, 0) } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM' }
  try {
    // /proc/<pid>/stat: "pid (comm) S ..."; comm may contain spaces or parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch { return true } // no /proc (not Linux): trust kill(0)
}

export const isRunning = (pidFile: string): boolean => isAlive(readPid(pidFile))

function signal(pid: number, sig: NodeJS.Signals): void {
  try { process.kill(-pid, sig) } catch { try { process.kill(pid, sig) } catch { /* already gone */ } }
}

/**
 * Stops the process of `pidFile` (and its process group): SIGTERM, then SIGKILL after
 * `timeoutMs` (default 15 s). Resolves once it is gone. Returns false when nothing was running.
 * (A plain number as second argument is accepted as timeoutMs, for older callers.)
 */
export async function stopProcess(pidFile: string, opts: { timeoutMs?: number } | number = {}): Promise<boolean> {
  const timeoutMs = typeof opts === 'number' ? opts : opts.timeoutMs ?? 15_000
  const pid = readPid(pidFile)
  if (!pid || !isAlive(pid)) { rmSync(pidFile, { force: true }); return false }
  signal(pid, 'SIGTERM')
  const deadline = Date.now() + timeoutMs
  while (isAlive(pid) && Date.now() < deadline) await sleep(100)
  if (isAlive(pid)) {
    signal(pid, 'SIGKILL')
    const killDeadline = Date.now() + 10_000
    while (isAlive(pid) && Date.now() < killDeadline) await sleep(50)
    if (isAlive(pid)) throw new Error(`pid ${pid} (${pidFile}) survived SIGKILL`)
  }
  rmSync(pidFile, { force: true })
  return true
}

export function tailOf(file: string, lines = 30): string {
  if (!existsSync(file)) return '(no log file yet)'
  const text = readFileSync(file, 'utf8')
  return text.split('\n').slice(-lines - 1).join('\n').trimEnd() || '(log file is empty)'
}

export interface WaitOptions {
  /** What is awaited, for the error message ("kafka broker on 127.0.0.1:9092"). */
  what: string
  timeoutMs: number
  intervalMs?: number
  /** Log file whose last lines go into the error. */
  logFile?: string
  /** Fail fast when this process exits while we wait. */
  pid?: number
}

/** Polls `check` until it resolves true; a thrown error counts as "not yet". */
export async function waitFor(check: () => Promise<boolean> | boolean, opts: WaitOptions): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs
  const logPart = () => (opts.logFile ? `\nSee ${opts.logFile}; its last lines:\n${tailOf(opts.logFile)}` : '')
  for (;;) {
    const ok = await Promise.resolve().then(check).catch(() => false)
    if (ok) return
    if (opts.pid !== undefined && !isAlive(opts.pid)) {
      throw new Error(`${opts.what}: the process (pid ${opts.pid}) exited while starting.${logPart()}`)
    }
    if (Date.now() >= deadline) throw new Error(`${opts.what}: not ready after ${Math.round(opts.timeoutMs / 1000)} s.${logPart()}`)
    await sleep(opts.intervalMs ?? 250)
  }
}

/** @deprecated use waitFor(check, { what, ... }); kept for existing callers. */
export function waitUntil(check: () => Promise<boolean>, what: string, opts: Omit<WaitOptions, 'what'>): Promise<void> {
  return waitFor(check, { ...opts, what })
}

/**
 * Runs `fn` while holding `lockFile` (created exclusively, holding our pid). A lock whose owner
 * is dead is taken over; a live owner is waited for up to `timeoutMs` (default 10 min: the
 * owner may be downloading).
 */
export function withLock<T>(lockFile: string, fn: () => Promise<T>, opts: { timeoutMs?: number } = {}): Promise<T> {
  // One holder per process at a time: queue behind the previous caller for this file.
  const key = path.resolve(lockFile)
  const run = (lockQueues.get(key) ?? Promise.resolve()).catch(() => {}).then(() => withFileLock(key, fn, opts))
  lockQueues.set(key, run)
  return run.finally(() => { if (lockQueues.get(key) === run) lockQueues.delete(key) })
}

const lockQueues = new Map<string, Promise<unknown>>()

async function withFileLock<T>(lockFile: string, fn: () => Promise<T>, opts: { timeoutMs?: number }): Promise<T> {
  mkdirSync(path.dirname(lockFile), { recursive: true })
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000)
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx')
      writeSync(fd, `${process.pid}\n`)
      closeSync(fd)
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = readPid(lockFile)
      if (owner === process.pid) { rmSync(lockFile, { force: true }); continue } // left by an earlier holder in this process that did not clean up
      if (owner !== undefined && !isAlive(owner)) { rmSync(lockFile, { force: true }); continue }
      if (owner === undefined) {
        // Just created by another process that has not written its pid yet, or garbage.
        await sleep(200)
        if (readPid(lockFile) === undefined) rmSync(lockFile, { force: true })
        continue
      }
      if (Date.now() >= deadline) throw new Error(`timed out waiting for ${lockFile} (held by pid ${owner})`)
      await sleep(250)
    }
  }
  try {
    return await fn()
  } finally {
    if (readPid(lockFile) === process.pid) rmSync(lockFile, { force: true })
  }
}

/** Runs a command to completion and returns its combined output; throws with the output's tail on failure. */
export function runCommand(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => { out += d })
    child.stderr.on('data', (d) => { out += d })
    child.on('error', (err) => reject(new Error(`${cmd}: ${err.message}`)))
    child.on('close', (code, sig) => {
      if (code === 0) resolve(out)
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${sig ?? `exit ${code}`}):\n${out.trimEnd().split('\n').slice(-40).join('\n')}`))
    })
  })
}

export function tcpPortOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port })
    const done = (ok: boolean) => { s.destroy(); resolve(ok) }
    s.setTimeout(timeoutMs, () => done(false))
    s.once('connect', () => done(true))
    s.once('error', () => done(false))
  })
}

/**
 * Stops a service this data dir started (its pid file); a port served by some other process is
 * left alone and said so, and a stale pid file is removed.
 */
export async function stopOwnedService(o: { name: string; pidFile: string; port: number; dataDir: string; timeoutMs: number; stopping?: string }, log: (m: string) => void): Promise<void> {
  if (!isRunning(o.pidFile)) {
    if (await tcpPortOpen('127.0.0.1', o.port)) log(`${o.name}: 127.0.0.1:${o.port} is served by a process not started from ${o.dataDir}; not stopping it`)
    await stopProcess(o.pidFile)
    return
  }
  log(`${o.name}: ${o.stopping ?? 'stopping'} …`)
  await stopProcess(o.pidFile, { timeoutMs: o.timeoutMs })
  log(`${o.name}: stopped`)
}
