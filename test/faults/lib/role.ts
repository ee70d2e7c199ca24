/**
 * Service roles as child processes (`lds run --roles …`), so a case can SIGKILL or SIGTERM them
 * and start them again. Each child writes its (JSON) log to its own file; the suite reads those
 * files for facts (started, restarts, errors). Every child started is tracked, so the suite can
 * kill what is left when a case fails or the run is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT } from '../../../core/config.js'
import type { Env } from './env.js'
import { waitFor, GiveUp } from './wait.js'
import { programArgs } from '../../../core/programs.js'

export interface Exit { code: number | null; signal: NodeJS.Signals | null; at: number }

export interface RoleProcess {
  readonly label: string
  readonly roles: string
  readonly pid: number
  readonly logFile: string
  readonly startedAt: number
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<Exit>
  exit: Exit | undefined
  alive(): boolean
  kill(signal: NodeJS.Signals): void
  /** The log written so far, as text. */
  logText(): string
}

const LIVE = new Set<RoleProcess>()
/** Set once the suite is shutting down: no child may start any more. */
let closed = false

const CLI = 'bin/lds-cli.ts'

/**
 * Runs an `lds` command as a child with `env` (only), its stdout and stderr appended to `logFile`
 * (stderr to `stderrFile` instead, when given).
 */
export function spawnLds(label: string, args: string[], env: Env, logFile: string, stderrFile?: string): RoleProcess {
  return spawnScript(label, CLI, args, env, logFile, stderrFile)
}

/** Runs a program of the project (`script`, its source path from the root: `bin/lds-cli.ts`) as a tracked child, as spawnLds does. */
export function spawnScript(label: string, script: string, args: string[], env: Env, logFile: string, stderrFile?: string): RoleProcess {
  if (closed) throw new Error(`${label}: not started, the suite is shutting down`)
  mkdirSync(path.dirname(logFile), { recursive: true })
  const fd = openSync(logFile, 'a')
  const errFd = stderrFile ? openSync(stderrFile, 'w') : fd
  const command = `${script} ${args.join(' ')}`
  writeSync(fd, `--- ${new Date().toISOString()} ${label}: ${command}\n`)
  let child: ChildProcess
  try {
    child = spawn(process.execPath, programArgs(script, args), { cwd: PROJECT_ROOT, env, stdio: ['ignore', fd, errFd] })
  } finally { closeSync(fd); if (errFd !== fd) closeSync(errFd) }
  if (child.pid === undefined) throw new Error(`${label}: could not start ${command}`)
  const startedAt = Date.now()
  const proc: RoleProcess = {
    label, roles: args.join(' '), pid: child.pid, logFile, startedAt, exit: undefined,
    exited: new Promise<Exit>((resolve) => child.once('exit', (code, signal) => {
      proc.exit = { code, signal, at: Date.now() }
      LIVE.delete(proc)
      resolve(proc.exit)
    })),
    alive: () => proc.exit === undefined,
    kill(signal) { if (proc.exit === undefined) child.kill(signal) },
    logText: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  }
  child.on('error', () => { /* seen as an exit */ })
  LIVE.add(proc)
  return proc
}

/** `lds run --roles <roles>`: the processors or the API in a process of their own. */
export function startRole(label: string, roles: string, env: Env, logFile: string): RoleProcess {
  return spawnLds(label, ['run', '--roles', roles], env, logFile)
}

/** JSON log lines of a child (pino), from the last start marker on when `sinceStart`. */
export function logEntries(p: Pick<RoleProcess, 'logText'>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const line of p.logText().split('\n')) {
    if (!line.startsWith('{')) continue
    try { out.push(JSON.parse(line) as Record<string, unknown>) } catch { /* a line cut by SIGKILL */ }
  }
  return out
}

/** Resolves once the child logged that its roles are running; fails early if it exits. */
export async function waitRunning(p: RoleProcess, timeoutMs = 90_000): Promise<number> {
  await waitFor(() => {
    if (!p.alive()) throw new GiveUp(`${p.label} exited (${describeExit(p.exit!)}) while starting; see ${p.logFile}; its log ends: ${logTail(p, 12).replace(/^\s+at .*$/gm, '').replace(/\n+/g, ' | ').slice(-700)}`)
    return logEntries(p).some((e) => e.msg === 'running')
  }, `${p.label} to start (${p.logFile})`, timeoutMs, 100)
  return Date.now() - p.startedAt
}

/** Sends `signal` and waits for the exit; SIGKILL after `graceMs` if it is still there. */
export async function stopRole(p: RoleProcess, signal: NodeJS.Signals, graceMs = 30_000): Promise<Exit & { ms: number; forced: boolean }> {
  const t0 = Date.now()
  if (!p.alive()) return { ...p.exit!, ms: 0, forced: false }
  p.kill(signal)
  let forced = false
  const timer = setTimeout(() => { forced = true; p.kill('SIGKILL') }, graceMs)
  const exit = await p.exited
  clearTimeout(timer)
  return { ...exit, ms: Date.now() - t0, forced }
}

export const describeExit = (e: Exit) => (e.signal ? `signal ${e.signal}` : `exit code ${e.code}`)

/** SIGKILL of every child still running (a failed case, an interrupted run); `final`: none may start after. */
export async function killAllRoles(final = false): Promise<number> {
  if (final) closed = true
  const left = [...LIVE]
  for (const p of left) p.kill('SIGKILL')
  await Promise.all(left.map((p) => p.exited))
  return left.length
}

/** The tail of a child's log, for a failure message. */
export function logTail(p: Pick<RoleProcess, 'logText'>, lines = 8): string {
  return p.logText().trimEnd().split('\n').slice(-lines).join('\n')
}

export interface LogFacts {
  /** "stream started" lines: one per processor per process start. */
  streamStarts: number
  /** KafkaJS consumer crashes and the restarts it scheduled. */
  consumerCrashes: number
  consumerRestarts: number
  /** Batches whose sink write failed at least once (the first failed attempt logs a warning). */
  sinkRetryWarnings: number
  errors: number
  firstErrors: string[]
}

export function logFacts(p: Pick<RoleProcess, 'logText'>): LogFacts {
  const f: LogFacts = { streamStarts: 0, consumerCrashes: 0, consumerRestarts: 0, sinkRetryWarnings: 0, errors: 0, firstErrors: [] }
  for (const e of logEntries(p)) {
    const msg = String(e.msg ?? '')
    if (msg === 'stream started') f.streamStarts++
    if (msg.startsWith('Crash')) f.consumerCrashes++
    if (msg.startsWith('Restarting the consumer')) f.consumerRestarts++
    if (msg.startsWith('sink write failed')) f.sinkRetryWarnings++
    if (Number(e.level) >= 50) {
      f.errors++
      if (f.firstErrors.length < 3) f.firstErrors.push(`${msg}${e.err ? `: ${String(typeof e.err === 'object' ? (e.err as { message?: string }).message : e.err)}` : ''}${e.error ? `: ${String(e.error)}` : ''}`.slice(0, 300))
    }
  }
  return f
}
