/**
 * The fault suite (`npm run faults`): kills and outages against the real stack, each case on its
 * own topic prefix and database, all on the suite's own infrastructure instance (data dir
 * .data/faults; Kafka 19092/19093 (SASL 19098), registry 18081, ClickHouse 18123/19001, API 18000;
 * each overridable: LDS_FAULTS_DATA_DIR, LDS_FAULTS_KAFKA_PORT, LDS_FAULTS_KAFKA_CONTROLLER_PORT, LDS_FAULTS_KAFKA_SASL_PORT,
 * LDS_FAULTS_REGISTRY_PORT, LDS_FAULTS_CLICKHOUSE_HTTP_PORT, LDS_FAULTS_CLICKHOUSE_TCP_PORT,
 * LDS_FAULTS_API_PORT; LDS_FAULTS_LOG_LEVEL for the children, default info; LDS_FAULTS_PARTITIONS,
 * default 4, 2 with --small).
 *
 *   npm run faults -- [--small] [--only 1,3] [--keep]
 *   npm run faults -- --cluster [--small] [--only 9,12] [--keep]
 *
 *   --small   small loads and short outages (what CI runs)
 *   --only    run these cases only
 *   --keep    leave the fault infrastructure up at the end
 *   --cluster the cluster cases (9–12: a broker of three killed, a rolling restart of the brokers,
 *             a ClickHouse node killed, an API process of two killed) on the local cluster of
 *             `npm run cluster` (its infrastructure is brought up if it is not running, and
 *             stopped again at the end unless it was running before or --keep is given); the
 *             cases' API processes answer on LDS_FAULTS_API_PORT, default 18010
 *   --serial  one case at a time (default with --small: the cases that only kill their own
 *             processes run side by side first, then those that stop shared services, one by one)
 *
 * stdout: the result table (Markdown). stderr: progress. Files: <dataDir>/report.md and
 * report.json, and every child's log under <dataDir>/logs/faults/case-<n>/. Exit code 0 only if
 * every case run passed; 2 on a usage error.
 */
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import path from 'node:path'
import { faultInstanceEnv, configOf } from './lib/env.js'
import { createProgressLog } from './lib/log.js'
import { upInstance, downInstance } from './lib/infra.js'
import { sweepLeftovers } from './lib/stack.js'
import { waitFor } from './lib/wait.js'
import { runCase, type CaseBase, type CaseResult, type FaultCase } from './lib/case.js'
import { killAllRoles } from './lib/role.js'
import { resultTable, writeReports } from './lib/report.js'
import { CASES } from './cases/index.js'
import { CLUSTER_CASES } from './cases/cluster/index.js'
import { clusterInstanceEnv, clusterMain, clusterStackHooks, downCluster, upCluster } from './lib/cluster.js'
import { parseFlags, usage, type FlagSpec } from '../kit/args.js'

const FLAGS = {
  small: { type: 'boolean', help: 'small loads and short outages (what CI runs)' },
  only: { type: 'string', default: '', help: 'run these cases only, e.g. 1,3' },
  keep: { type: 'boolean', help: 'leave the fault infrastructure up at the end' },
  serial: { type: 'boolean', help: 'one case at a time' },
  cluster: { type: 'boolean', help: 'the cluster cases, on the local cluster (npm run cluster)' },
} satisfies Record<string, FlagSpec>

interface Options { small: boolean; keep: boolean; serial: boolean; cluster: boolean; only?: number[] }

/** Exits with 2 and the usage on a usage error (an unknown flag, a bad --only). */
function options(argv: string[]): Options {
  const { small, keep, serial, cluster, only } = parseFlags('npm run faults --', FLAGS, argv)
  if (!only) return { small, keep, serial, cluster }
  const all = cluster ? CLUSTER_CASES : CASES
  const ids = only.split(',').map((s) => s.trim()).filter(Boolean).map(Number)
  if (!ids.length || ids.some((n) => !all.some((c) => c.id === n))) {
    console.error(`--only needs case numbers among ${all.map((c) => c.id).join(',')}${cluster ? ' (with --cluster)' : ''}\n${usage('npm run faults --', FLAGS)}`)
    process.exit(2)
  }
  return { small, keep, serial, cluster, only: ids }
}

async function main(): Promise<number> {
  const opts = options(process.argv.slice(2))
  const t0 = Date.now()
  const log = createProgressLog(t0)
  // --small: 2 partitions per topic (every consumer polls every partition of ~50 topics; on 2 cores
  // that polling is a good part of the load), still enough for two instances to share a group.
  const main = clusterMain()
  const instance = opts.cluster ? clusterInstanceEnv(process.env, main, opts.small ? 2 : 4) : faultInstanceEnv(process.env, opts.small ? 2 : 4)
  const cfg = configOf(instance)
  const logRoot = path.join(cfg.dataDir, 'logs', 'faults')
  rmSync(logRoot, { recursive: true, force: true })
  const cases: FaultCase[] = (opts.cluster ? CLUSTER_CASES : CASES).filter((c) => !opts.only || opts.only.includes(c.id))
  const results: CaseResult[] = []

  let clusterWasRunning = false
  let interrupted = false
  let cleaning: Promise<void> | undefined
  const cleanUp = () => (cleaning ??= (async () => {
    const n = await killAllRoles(true)
    if (n) log(`killed ${n} child process(es) left running`)
    if (opts.cluster) {
      if (opts.keep || clusterWasRunning) log(`the cluster stays up (${clusterWasRunning ? 'it was running before' : '--keep'}); to stop it: npm run cluster -- down`)
      else await downCluster(main, log).catch((err) => log(`cluster down failed: ${(err as Error).message}`))
    } else if (opts.keep) {
      const vars = ['LDS_DATA_DIR', 'LDS_KAFKA_PORT', 'LDS_KAFKA_CONTROLLER_PORT', 'LDS_KAFKA_SASL_PORT', 'LDS_REGISTRY_PORT', 'LDS_CLICKHOUSE_HTTP_PORT', 'LDS_CLICKHOUSE_TCP_PORT'].map((k) => `${k}=${instance[k]}`).join(' ')
      log(`--keep: the fault infrastructure stays up; to stop it: ${vars} npx tsx infra/cli.ts down`)
    }
    else await downInstance(cfg, log).catch((err) => log(`infra down failed: ${(err as Error).message}`))
  })())
  const onSignal = (sig: NodeJS.Signals) => {
    if (interrupted) process.exit(130)
    interrupted = true
    log(`${sig}: stopping children and the fault infrastructure …`)
    void cleanUp().finally(() => process.exit(130))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  log(`fault suite${opts.small ? ' (--small)' : ''}: cases ${cases.map((c) => c.id).join(', ')}; instance ${cfg.dataDir}, kafka ${cfg.kafkaBrokers.join(',')}, registry ${cfg.schemaRegistryUrl}, clickhouse ${cfg.clickhouseUrl}`)
  let infraSeconds = 0
  let together: FaultCase[] = []
  try {
    const ti = Date.now()
    if (opts.cluster) clusterWasRunning = (await upCluster(main, log)).wasRunning
    else await upInstance(cfg, log)
    infraSeconds = (Date.now() - ti) / 1000
    // Right after a broker start the group coordinator may still be loading: retried, and never fatal.
    await waitFor(() => sweepLeftovers(cfg, log).then(() => true), 'leftovers of earlier runs removed', 30_000, 1_000)
      .catch((err: Error) => log(`warning: ${err.message}`))
    const base: CaseBase = { instance, cfg, small: opts.small, log, logRoot, stackHooks: opts.cluster ? clusterStackHooks(main, log) : undefined }
    // Side by side: cases whose faults stay inside their own processes (the 30 s session timeouts
    // they wait through overlap). Never beside a case that stops a shared service.
    together = opts.small && !opts.serial ? cases.filter((c) => c.scope === 'own-processes') : []
    if (together.length > 1) {
      log(`cases ${together.map((c) => c.id).join(', ')} side by side`)
      results.push(...await Promise.all(together.map((c) => runCase(c, base))))
      await killAllRoles()
    }
    for (const c of cases.filter((c) => together.length <= 1 || !together.includes(c))) {
      if (interrupted) break
      results.push(await runCase(c, base))
      await killAllRoles()
    }
    results.sort((a, b) => a.id - b.id)
  } catch (err) {
    log(`error: ${(err as Error).message}`)
    await cleanUp()
    return 1
  }
  await cleanUp()
  const seconds = (Date.now() - t0) / 1000
  const command = `npm run faults --${opts.cluster ? ' --cluster' : ''}${opts.small ? ' --small' : ''}${opts.only ? ` --only ${opts.only.join(',')}` : ''}${opts.keep ? ' --keep' : ''}${opts.serial ? ' --serial' : ''}`.replace(/ --$/, '')
  const files = writeReports(cfg.dataDir, {
    startedAt: new Date(t0).toISOString(), seconds, small: opts.small, only: opts.only, infraSeconds, command,
    partitions: cfg.partitions, sideBySide: together.map((c) => c.id), loadAverage: loadavg(),
  }, results)
  console.log(resultTable(results))
  const failed = results.filter((r) => !r.pass).length
  log(`${results.length - failed} of ${results.length} passed in ${seconds.toFixed(1)} s; reports: ${files.md}, ${files.json}`)
  return failed || results.length < cases.length ? 1 : 0
}

main().then((code) => process.exit(code), (err) => { console.error(err); process.exit(1) })
