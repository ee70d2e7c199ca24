/**
 * Local infrastructure without Docker: `npx tsx infra/cli.ts up|down|status|reset [--only a,b]`.
 * Every command is idempotent: `up` installs what is missing and starts what is not running.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig, type Config } from '../core/config.js'
import type { LocalService } from './service.js'
import { kafka } from './kafka.js'
import { registry } from './registry.js'
import { clickhouse } from './clickhouse.js'

export const SERVICES: readonly LocalService[] = [kafka, registry, clickhouse]

type Log = (msg: string) => void

function pick(only?: string[]): LocalService[] {
  if (!only?.length) return [...SERVICES]
  const unknown = only.filter((n) => !SERVICES.some((s) => s.name === n))
  if (unknown.length) throw new Error(`unknown service(s): ${unknown.join(', ')} (known: ${SERVICES.map((s) => s.name).join(', ')})`)
  return SERVICES.filter((s) => only.includes(s.name))
}

async function timed<T>(log: Log, what: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now()
  const r = await fn()
  const ms = Date.now() - t0
  if (ms > 200) log(`${what} (${(ms / 1000).toFixed(1)} s)`)
  return r
}

/** Installs and starts what is not running; returns the names of the services this call started. */
export async function infraUp(cfg: Config, log: Log, only?: string[]): Promise<string[]> {
  const services = pick(only)
  const before = new Map(await Promise.all(services.map(async (s) => [s.name, (await s.status(cfg)).running] as const)))
  // Installs first (Maven and downloads), then starts; ClickHouse and Kafka start in parallel,
  // the registry after Kafka only to spread the JVM start-up load on small machines.
  for (const s of services) await timed(log, `${s.name}: installed`, () => s.install(cfg, log))
  const byName = new Map(services.map((s) => [s.name, s]))
  await Promise.all([
    (async () => {
      if (byName.has('kafka')) await timed(log, 'kafka: ready', () => kafka.start(cfg, log))
      if (byName.has('registry')) await timed(log, 'registry: ready', () => registry.start(cfg, log))
    })(),
    byName.has('clickhouse') ? timed(log, 'clickhouse: ready', () => clickhouse.start(cfg, log)) : Promise.resolve(),
  ])
  return services.filter((s) => !before.get(s.name)).map((s) => s.name)
}

export async function infraDown(cfg: Config, log: Log, only?: string[]): Promise<void> {
  for (const s of pick(only).reverse()) await s.stop(cfg, log)
}

async function main(argv: string[]): Promise<number> {
  const cmd = argv[0]
  const onlyIdx = argv.indexOf('--only')
  const only = onlyIdx >= 0 ? argv[onlyIdx + 1]?.split(',').map((s) => s.trim()) : undefined
  const cfg = loadConfig()
  const log: Log = (m) => process.stderr.write(`[infra] ${m}\n`)
  switch (cmd) {
    case 'up':
      await infraUp(cfg, log, only)
      log('all services ready')
      return 0
    case 'down':
      await infraDown(cfg, log, only)
      return 0
    case 'status': {
      const rows = await Promise.all(pick(only).map((s) => s.status(cfg)))
      for (const r of rows) console.log(`${r.name.padEnd(11)} ${r.running ? 'up  ' : 'down'}  ${r.address.padEnd(16)} ${r.pid ? `pid ${r.pid}` : ''} ${r.detail ?? ''}`)
      return rows.every((r) => r.running) ? 0 : 1
    }
    case 'reset':
      await infraDown(cfg, log, only)
      for (const s of pick(only)) await s.reset(cfg, log)
      log(`data removed under ${cfg.dataDir} (installed jars kept)`)
      return 0
    default:
      console.error('usage: npm run infra -- up|down|status|reset [--only kafka,registry,clickhouse]')
      return 2
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    console.error(`[infra] ${(err as Error).message}`)
    process.exit(1)
  })
}
