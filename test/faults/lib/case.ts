/**
 * What a fault case is and what it reports. A case fills `ctx.record` as it learns things (so a
 * case that fails half-way still reports what it saw), lists its checks, and the runner turns the
 * record and the checks into one result: pass only when every check holds and nothing was lost or
 * duplicated.
 */
import path from 'node:path'
import type { Config } from '../../../core/config.js'
import type { Env } from './env.js'
import type { Log } from './log.js'
import { openCaseStack, type CaseStack, type StackHooks } from './stack.js'
import { startRole, type RoleProcess } from './role.js'
import { loadsSettled } from './load.js'

export interface CaseRecord {
  published: number
  rows: number
  lost: number
  duplicated: number
  details: Record<string, unknown>
}

export interface CaseResult extends CaseRecord {
  id: number
  title: string
  seconds: number
  pass: boolean
  reason: string
}

export interface Sizes { small: boolean }

export interface CaseContext {
  /** The fault instance (ports, data dir) and its config; cases add their own prefix and database. */
  readonly instance: Env
  readonly cfg: Config
  readonly small: boolean
  readonly log: Log
  /** Where this case's logs go (children, the suite's own runtime). */
  readonly logDir: string
  readonly record: CaseRecord
  /** A check: a fact and the one-line reason shown when it does not hold. */
  check(ok: boolean, failure: string): boolean
  /** A fresh prefix and database, removed when the case ends. */
  stack(label: string, extra?: Env): Promise<CaseStack>
  /** A child `lds run --roles <roles>` on `env`; killed when the case ends if still running. */
  role(label: string, roles: string, env: Env): RoleProcess
  /** Aborted when the case ends (loads stop publishing). */
  readonly signal: AbortSignal
  /** Runs at the end of the case, last registered first, whatever happened. */
  defer(fn: () => Promise<unknown> | unknown): void
}

export interface FaultCase {
  id: number
  title: string
  /**
   * What the fault touches: only the case's own processes (such cases may run side by side), or
   * the shared infrastructure (Kafka, ClickHouse, the registry: such a case runs alone).
   */
  scope: 'own-processes' | 'infrastructure'
  /** Returns the reason shown when the case passes (what was shown). */
  run(ctx: CaseContext): Promise<string>
}

export interface CaseBase { instance: Env; cfg: Config; small: boolean; log: Log; logRoot: string; stackHooks?: StackHooks }

export async function runCase(c: FaultCase, base: CaseBase): Promise<CaseResult> {
  const t0 = Date.now()
  const log: Log = (m) => base.log(`case ${c.id}: ${m}`)
  const logDir = path.join(base.logRoot, `case-${c.id}`)
  const record: CaseRecord = { published: 0, rows: 0, lost: 0, duplicated: 0, details: {} }
  const failures: string[] = []
  const deferred: (() => Promise<unknown> | unknown)[] = []
  const roleCount = new Map<string, number>()
  const ended = new AbortController()
  const ctx: CaseContext = {
    instance: base.instance, cfg: base.cfg, small: base.small, log, logDir, record, signal: ended.signal,
    check(ok, failure) { if (!ok) { failures.push(failure); log(`CHECK FAILED: ${failure}`) } return ok },
    async stack(label, extra = {}) {
      const s = await openCaseStack(base.instance, `c${c.id}${label}`, path.join(logDir, `suite-${label}.log`), log, extra, base.stackHooks)
      deferred.push(() => s.cleanup())
      return s
    },
    role(label, roles, env) {
      const n = (roleCount.get(label) ?? 0) + 1
      roleCount.set(label, n)
      const p = startRole(`${label}#${n}`, roles, env, path.join(logDir, `${label}-${n}.log`))
      deferred.push(async () => { if (p.alive()) { p.kill('SIGKILL'); await p.exited } })
      return p
    },
    defer(fn) { deferred.push(fn) },
  }
  log(`start: ${c.title}`)
  let passReason = ''
  let error: string | undefined
  try {
    passReason = await c.run(ctx)
  } catch (err) {
    error = (err as Error).message
    log(`ERROR: ${error}`)
  }
  ended.abort()
  await loadsSettled(ended.signal)
  for (const fn of deferred.reverse()) {
    try { await fn() } catch (err) { log(`cleanup: ${(err as Error).message}`) }
  }
  if (record.lost !== 0) failures.push(`${record.lost} lost`)
  if (record.duplicated !== 0) failures.push(`${record.duplicated} duplicated`)
  const pass = !error && failures.length === 0
  const reason = error ? `error: ${error}${failures.length ? `; ${failures.join('; ')}` : ''}` : pass ? passReason : failures.join('; ')
  const result: CaseResult = { id: c.id, title: c.title, ...record, seconds: (Date.now() - t0) / 1000, pass, reason: oneLine(reason) }
  log(`${pass ? 'PASS' : 'FAIL'} in ${result.seconds.toFixed(1)} s: ${result.reason}`)
  return result
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' | ').slice(0, 600)
