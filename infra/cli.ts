/**
 * Local infrastructure without Docker:
 *
 *   npx tsx infra/cli.ts up|down|status|reset [--only kafka,registry,clickhouse]
 *   npx tsx infra/cli.ts clean [--older-than 1h]
 *   (npm run infra -- up …)
 *
 *   up      install what is missing (Maven Central jars, npm engine) and start what is not
 *           running; services already running are left alone, so a second `up` takes well under
 *           a second. Kafka, the registry and ClickHouse start in parallel (none needs another);
 *           the two Maven installs run one after the other (they share ~/.m2).
 *   down    stop what was started from this data dir, in reverse order.
 *   status  a table on stdout; exit 1 when any selected service is down.
 *   reset   down, then remove each service's data and log (installed jars under <dataDir>/lib stay).
 *   clean   remove test deployments (topics, groups, databases, subjects, consumer ACLs) that killed test runs left
 *           behind, older than --older-than (default 1h); `npm test` runs it before the tests.
 *
 * Progress goes to stderr with timings. Exit codes: 0 done, 1 a service failed (or is down, for
 * `status`), 2 usage error.
 *
 * Also a library: `infraUp(cfg, log, only?)` (returns the names of the services this call
 * started) and `infraDown(cfg, log, only?)`, for `npm start` and test setup.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig, type Config } from '../core/config.js'
import type { LocalService, ServiceStatus } from './service.js'
import { kafka } from './kafka-server.js'
import { registry } from './registry-server.js'
import { clickhouse } from './clickhouse-server.js'

export type Log = (msg: string) => void

export const SERVICE_NAMES = ['kafka', 'registry', 'clickhouse'] as const

export class UsageError extends Error {}

/** kafka, registry, then clickhouse: the order they start in (and stop in reverse). */
export async function loadServices(_log?: Log): Promise<LocalService[]> {
  return [kafka, registry, clickhouse]
}

async function pick(log: Log, only?: readonly string[]): Promise<LocalService[]> {
  if (only?.length) {
    const unknown = only.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n))
    if (unknown.length) throw new UsageError(`unknown service(s): ${unknown.join(', ')} (known: ${SERVICE_NAMES.join(', ')})`)
  }
  const all = await loadServices(log)
  if (!only?.length) return all
  const missing = only.filter((n) => !all.some((s) => s.name === n))
  if (missing.length) throw new Error(`not available: ${missing.join(', ')}`)
  return all.filter((s) => only.includes(s.name))
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** Serializes the Maven-based installs: two mvn processes on one cold ~/.m2 can trip over each other. */
function mutex() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.catch(() => {}).then(fn)
    tail = run
    return run
  }
}

/**
 * Installs and starts the selected services (default: all), in parallel; waits until each is
 * ready. Services already running are left alone. Resolves to the names of the services this
 * call started; rejects (after every service has finished trying) naming each that failed.
 */
export async function infraUp(cfg: Config, log: Log, only?: readonly string[]): Promise<string[]> {
  const t0 = Date.now()
  const services = await pick(log, only)
  const serialInstall = mutex()
  const started: string[] = []
  const results = await Promise.allSettled(services.map(async (s) => {
    if ((await s.status(cfg)).running) {
      // Still run install: cheap when present, and it reports a missing or changed install.
      await s.install(cfg, log)
      log(`${s.name}: already running`)
      return
    }
    await (s.name === 'clickhouse' ? s.install(cfg, log) : serialInstall(() => s.install(cfg, log)))
    const ts = Date.now()
    await s.start(cfg, log)
    started.push(s.name)
    log(`${s.name}: ready (${secs(Date.now() - ts)})`)
  }))
  const failed = services.map((s, i) => [s.name, results[i]] as const).filter(([, r]) => r.status === 'rejected')
  if (failed.length) {
    const detail = failed.map(([name, r]) => {
      const msg = String(((r as PromiseRejectedResult).reason as Error)?.message ?? (r as PromiseRejectedResult).reason)
      return msg.startsWith(`${name}`) ? msg : `${name}: ${msg}`
    }).join('\n\n')
    throw new Error(`infra up failed for ${failed.map(([n]) => n).join(', ')}:\n${detail}`)
  }
  log(`up: ${services.map((s) => s.name).join(', ')} ready in ${secs(Date.now() - t0)}`)
  return started
}

/** Stops the selected services (default: all) that were started from this data dir, in reverse order. */
export async function infraDown(cfg: Config, log: Log, only?: readonly string[]): Promise<void> {
  const t0 = Date.now()
  const services = (await pick(log, only)).reverse()
  const errors: string[] = []
  for (const s of services) {
    try { await s.stop(cfg, log) } catch (err) { errors.push(`${s.name}: ${(err as Error).message}`) }
  }
  if (errors.length) throw new Error(`infra down failed:\n${errors.join('\n')}`)
  log(`down: done in ${secs(Date.now() - t0)}`)
}

export async function infraStatus(cfg: Config, log: Log, only?: readonly string[]): Promise<ServiceStatus[]> {
  const services = await pick(log, only)
  return Promise.all(services.map((s) => s.status(cfg)))
}

export async function infraReset(cfg: Config, log: Log, only?: readonly string[]): Promise<void> {
  await infraDown(cfg, log, only)
  for (const s of await pick(() => {}, only)) await s.reset(cfg, log)
  log(`reset: data removed under ${cfg.dataDir} (installed jars under ${path.join(cfg.dataDir, 'lib')} kept)`)
}

function table(rows: ServiceStatus[]): string {
  const cells = [['SERVICE', 'STATE', 'ADDRESS', 'PID', 'DETAIL'], ...rows.map((r) => [r.name, r.running ? 'up' : 'down', r.address, r.pid ? String(r.pid) : '-', r.detail ?? ''])]
  const widths = cells[0].map((_, i) => Math.max(...cells.map((c) => c[i].length)))
  return cells.map((c) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]))).join('  ').trimEnd()).join('\n')
}

const USAGE = 'usage: npx tsx infra/cli.ts up|down|status|reset [--only kafka,registry,clickhouse]\n       npx tsx infra/cli.ts clean [--older-than 1h|30m]'

/** "1h", "30m": the age past which a test deployment is stale. */
function parseAge(value: string | undefined): number | undefined {
  const m = /^(\d+)(m|h)$/.exec(value ?? '')
  return m ? Number(m[1]) * (m[2] === 'h' ? 3_600_000 : 60_000) : undefined
}

export async function main(argv: string[]): Promise<number> {
  const args = [...argv]
  let only: string[] | undefined
  const i = args.findIndex((a) => a === '--only' || a.startsWith('--only='))
  if (i >= 0) {
    const value = args[i].includes('=') ? args[i].slice('--only='.length) : args[i + 1]
    args.splice(i, args[i].includes('=') ? 1 : 2)
    only = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)
    if (!only.length) { console.error(`--only needs a list of services\n${USAGE}`); return 2 }
  }
  const cmd = args[0]
  if (cmd === '--help' || cmd === '-h' || cmd === 'help') { console.log(USAGE); return 0 }
  if (cmd === 'clean') {
    const olderThanMs = args.length === 1 ? 3_600_000 : args[1] === '--older-than' && args.length === 3 ? parseAge(args[2]) : undefined
    if (olderThanMs === undefined) { console.error(USAGE); return 2 }
    return clean(loadConfig(), olderThanMs)
  }
  if (args.length !== 1 || !['up', 'down', 'status', 'reset'].includes(cmd)) { console.error(USAGE); return 2 }

  const cfg = loadConfig()
  const t0 = Date.now()
  const log: Log = (m) => process.stderr.write(`[infra +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}\n`)
  try {
    switch (cmd) {
      case 'up':
        await infraUp(cfg, log, only)
        return 0
      case 'down':
        await infraDown(cfg, log, only)
        return 0
      case 'status': {
        const rows = await infraStatus(cfg, log, only)
        console.log(table(rows))
        return rows.every((r) => r.running) ? 0 : 1
      }
      case 'reset':
        await infraReset(cfg, log, only)
        return 0
    }
  } catch (err) {
    if (err instanceof UsageError) { console.error(`${err.message}\n${USAGE}`); return 2 }
    log(`error: ${(err as Error).message}`)
    return 1
  }
  return 2
}

async function clean(cfg: Config, olderThanMs: number): Promise<number> {
  const t0 = Date.now()
  const log: Log = (m) => process.stderr.write(`[infra +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}\n`)
  const { removeStaleTestDeployments } = await import('./stale-deployments.js')
  try {
    const r = await removeStaleTestDeployments(cfg, log, { olderThanMs })
    log(`clean: ${r.deployments} stale test deployment(s) removed (${r.topics} topics, ${r.groups} groups, ${r.databases} databases, ${r.subjects} subjects, ${r.acls} consumer ACLs, ${r.logins} consumer logins) in ${secs(Date.now() - t0)}`)
    return 0
  } catch (err) {
    log(`clean: ${(err as Error).message} (are the services up? \`npx tsx infra/cli.ts status\`)`)
    return 1
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    console.error(`[infra] ${(err as Error)?.stack ?? err}`)
    process.exit(1)
  })
}
