/**
 * Child processes of a benchmark (servers under load, a database): each is spawned in its own
 * process group, its output kept in a log file, and every one still alive is stopped when the
 * benchmark ends, however it ends (normal exit, an exception, Ctrl-C or SIGTERM).
 *
 *   spawnChild({ name, cmd, args, env?, logFile, uid?, gid? }) → Child
 *   child.stop({ signal?, timeoutMs? })  signal (default SIGTERM), SIGKILL after timeoutMs; resolves once gone
 *   stopChildrenOnExit()                 installs the handlers once (call first)
 *   freePort(), waitUntil(check, { what, timeoutMs, child? }), memoryOf(pid), cpuMsOf(pid), treeCpuMsOf(pid)
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs'
import path from 'node:path'
import { waitFor, GiveUp } from '../../test/kit/wait-for.js'

export interface ChildSpec {
  name: string
  cmd: string
  args: string[]
  /** The whole environment of the child (not merged). */
  env?: NodeJS.ProcessEnv
  cwd?: string
  logFile: string
  uid?: number
  gid?: number
}

export interface Child {
  readonly name: string
  readonly pid: number
  readonly logFile: string
  /** Exit code (or signal name) once it has exited, else undefined. */
  exited(): number | string | undefined
  /** Resolves once the process has exited. */
  readonly done: Promise<number | string>
  stop(opts?: { signal?: NodeJS.Signals; timeoutMs?: number }): Promise<void>
  /** The last lines of its log, for error messages. */
  tail(lines?: number): string
}

const live = new Set<Child>()
let installed = false

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

function signalGroup(pid: number, sig: NodeJS.Signals) {
  try { process.kill(-pid, sig) } catch { try { process.kill(pid, sig) } catch { /* gone */ } }
}

export function spawnChild(spec: ChildSpec): Child {
  mkdirSync(path.dirname(spec.logFile), { recursive: true })
  const out = openSync(spec.logFile, 'a')
  let proc: ChildProcess
  try {
    writeSync(out, `\n--- ${new Date().toISOString()} ${spec.name}: ${spec.cmd} ${spec.args.join(' ')}\n`)
    proc = spawn(spec.cmd, spec.args, { env: spec.env ?? process.env, cwd: spec.cwd, detached: true, stdio: ['ignore', out, out], uid: spec.uid, gid: spec.gid })
  } finally { closeSync(out) }
  if (proc.pid === undefined) throw new Error(`${spec.name}: could not start ${spec.cmd}`)
  const pid = proc.pid
  let status: number | string | undefined
  const done = new Promise<number | string>((resolve) => {
    proc.once('exit', (code, sig) => { status = code ?? sig ?? 'unknown'; live.delete(child); resolve(status) })
    proc.once('error', (err) => { status = `error: ${err.message}`; live.delete(child); resolve(status) })
  })
  const child: Child = {
    name: spec.name, pid, logFile: spec.logFile, done,
    exited: () => status,
    tail(lines = 20) {
      try { return readFileSync(spec.logFile, 'utf8').split('\n').slice(-lines - 1).join('\n') } catch { return '(no log)' }
    },
    async stop({ signal = 'SIGTERM', timeoutMs = 15_000 } = {}) {
      if (status !== undefined) return
      signalGroup(pid, signal)
      const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), timeoutMs)
      await done
      clearTimeout(timer)
    },
  }
  live.add(child)
  return child
}

/** Stops every child still alive: on exit synchronously (SIGKILL), on SIGINT/SIGTERM gracefully first. */
export function stopChildrenOnExit(): void {
  if (installed) return
  installed = true
  process.on('exit', () => { for (const c of live) signalGroup(c.pid, 'SIGKILL') })
  let stopping = false
  const onSignal = (sig: NodeJS.Signals) => {
    if (stopping) process.exit(130)
    stopping = true
    console.error(`\n${sig}: stopping ${[...live].map((c) => c.name).join(', ') || 'nothing'} …`)
    void Promise.all([...live].map((c) => c.stop({ timeoutMs: 5_000 }))).finally(() => process.exit(130))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

/** Stops every live child (last started first). */
export async function stopAllChildren(): Promise<void> {
  for (const c of [...live].reverse()) await c.stop()
}

export { freePort } from '../../test/kit/ports.js'

/**
 * Polls `check` until it returns a value other than undefined/false (exceptions count as "not
 * yet"); fails after timeoutMs, or at once when `child` exits, with the child's log tail.
 */
export async function waitUntil<T>(check: () => Promise<T | undefined | false>, opts: { what: string; timeoutMs: number; intervalMs?: number; child?: Child }): Promise<T> {
  const { child } = opts
  try {
    // boxed, so that a 0 or an empty string counts as an answer
    const got = await waitFor(async () => {
      if (child?.exited() !== undefined) throw new GiveUp(`${opts.what}: ${child.name} exited (${child.exited()}):\n${child.tail()}`)
      const v = await check()
      return v !== undefined && v !== false && { v }
    }, opts.what, opts.timeoutMs, opts.intervalMs ?? 100)
    return got.v
  } catch (err) {
    if (err instanceof GiveUp || !child) throw err
    throw new Error(`${(err as Error).message}\n${child.tail()}`)
  }
}

export interface Memory { rssMb: number; anonMb: number; fileMb: number }

/** Resident memory of a process from /proc/<pid>/status (Linux), in MB; undefined when gone. */
export function memoryOf(pid: number): Memory | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0)
    return { rssMb: kb('VmRSS') / 1024, anonMb: kb('RssAnon') / 1024, fileMb: kb('RssFile') / 1024 }
  } catch { return undefined }
}

/** Samples memoryOf(pid) every intervalMs until stopped; returns the sample with the largest RSS. */
export function sampleMemory(pid: number, intervalMs = 250): { stop(): Memory | undefined } {
  let peak: Memory | undefined
  const take = () => { const m = memoryOf(pid); if (m && (!peak || m.rssMb > peak.rssMb)) peak = m }
  take()
  const timer = setInterval(take, intervalMs)
  return { stop() { clearInterval(timer); take(); return peak } }
}

/**
 * The command name and CPU time (user + system, ms; 10 ms ticks) of a /proc `stat` file, a
 * process's or one thread's. The name is in parentheses and may hold spaces and parentheses, so
 * the fields are read after its last `)`: utime and stime are the 12th and 13th of them.
 */
function parseStat(stat: string): { name: string; cpuMs: number } {
  const end = stat.lastIndexOf(')')
  const fields = stat.slice(end + 2).split(' ')
  return { name: stat.slice(stat.indexOf('(') + 1, end), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 }
}

/** CPU time (user + system, all threads) a process has used so far in ms, from /proc. */
export function cpuMsOf(pid: number): number | undefined {
  try { return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpuMs } catch { return undefined }
}

/** CPU time (ms) of each thread of a process, keyed `tid name` (V8's and libuv's workers are named by the kernel after the process). */
export function threadCpuMsOf(pid: number): Map<string, number> {
  const out = new Map<string, number>()
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const { name, cpuMs } = parseStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'))
      out.set(`${tid} ${name}`, cpuMs)
    }
  } catch { /* the process ended meanwhile */ }
  return out
}

/** cpuMsOf of a process and every process under it (a launcher and the server it runs), from /proc. */
export function treeCpuMsOf(pid: number): number | undefined {
  const own = cpuMsOf(pid)
  if (own === undefined) return undefined
  let sum = own
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim()
      for (const k of kids ? kids.split(' ') : []) sum += treeCpuMsOf(Number(k)) ?? 0
    }
  } catch { /* the process ended meanwhile */ }
  return sum
}
