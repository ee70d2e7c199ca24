/**
 * Detached local processes: started with their output in a log file and their pid in a file,
 * so they outlive the command that started them and a later command can find and stop them.
 */
import { spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'

export interface DetachedSpec { cmd: string; args: string[]; cwd?: string; env?: Record<string, string>; logFile: string; pidFile: string }

export function startDetached(spec: DetachedSpec): number {
  mkdirSync(path.dirname(spec.logFile), { recursive: true })
  mkdirSync(path.dirname(spec.pidFile), { recursive: true })
  const out = openSync(spec.logFile, 'a')
  const child = spawn(spec.cmd, spec.args, { cwd: spec.cwd, env: { ...process.env, ...spec.env }, detached: true, stdio: ['ignore', out, out] })
  closeSync(out)
  child.unref()
  writeFileSync(spec.pidFile, String(child.pid))
  return child.pid!
}

export function readPid(pidFile: string): number | undefined {
  if (!existsSync(pidFile)) return undefined
  const pid = Number(readFileSync(pidFile, 'utf8').trim())
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false
  try { process.kill(pid, 0); return true } catch { return false }
}

export const isRunning = (pidFile: string) => isAlive(readPid(pidFile))

/** SIGTERM, then SIGKILL after `timeoutMs`; returns once the process is gone. */
export async function stopProcess(pidFile: string, timeoutMs = 15_000): Promise<boolean> {
  const pid = readPid(pidFile)
  if (!isAlive(pid)) { rmSync(pidFile, { force: true }); return false }
  try { process.kill(-pid!, 'SIGTERM') } catch { try { process.kill(pid!, 'SIGTERM') } catch { /* gone */ } }
  const deadline = Date.now() + timeoutMs
  while (isAlive(pid) && Date.now() < deadline) await sleep(100)
  if (isAlive(pid)) { try { process.kill(-pid!, 'SIGKILL') } catch { try { process.kill(pid!, 'SIGKILL') } catch { /* gone */ } } }
  while (isAlive(pid)) await sleep(50)
  rmSync(pidFile, { force: true })
  return true
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function tailOf(file: string, lines = 25): string {
  if (!existsSync(file)) return '(no log yet)'
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
}

/** Polls `check` until true; on timeout throws with the end of the log so the cause is visible. */
export async function waitUntil(check: () => Promise<boolean>, what: string, opts: { timeoutMs: number; logFile?: string; pid?: number }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return
    if (opts.pid !== undefined && !isAlive(opts.pid)) {
      throw new Error(`${what}: the process exited while starting.${opts.logFile ? `\nlast lines of ${opts.logFile}:\n${tailOf(opts.logFile)}` : ''}`)
    }
    await sleep(250)
  }
  throw new Error(`${what}: not ready after ${opts.timeoutMs / 1000} s.${opts.logFile ? `\nlast lines of ${opts.logFile}:\n${tailOf(opts.logFile)}` : ''}`)
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
