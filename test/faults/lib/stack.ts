/**
 * A case's own slice of the fault instance: a topic prefix and a ClickHouse database, a runtime in
 * the suite process (to publish load and read results), and the cleanup that removes both.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { pino } from 'pino'
import type { Config } from '../../../core/config.js'
import { sql, ident } from '../../../core/sql.js'
import { createDb } from '../../../core/clickhouse.js'
import { createRuntime, prepare, type Runtime } from '../../../bin/runtime.js'
import { caseEnv, configOf, type Env } from './env.js'
import { removeDeployments } from '../../../infra/stale-deployments.js'
import type { Log } from './log.js'

export interface CaseStack {
  env: Env
  cfg: Config
  rt: Runtime
  /** Deletes the case's topics and database; closes the runtime. Never throws. */
  cleanup(): Promise<void>
}

/** What a stack on more than one ClickHouse node adds: its database made on every node first, and dropped on every node. */
export interface StackHooks {
  prepare?(cfg: Config): Promise<void>
  drop?(cfg: Config): Promise<void>
}

/** Topics and tables made (prepare) for a fresh prefix and database; the suite's own log goes to `logFile`. */
export async function openCaseStack(instance: Env, label: string, logFile: string, log: Log, extra: Env = {}, hooks: StackHooks = {}): Promise<CaseStack> {
  const env = caseEnv(instance, label, extra)
  const cfg = configOf(env)
  mkdirSync(path.dirname(logFile), { recursive: true })
  const logger = pino({ name: 'faults', level: env.LOG_LEVEL || 'info' }, pino.destination({ dest: logFile, sync: false, mkdir: true }))
  const rt = createRuntime(cfg, logger)
  await hooks.prepare?.(cfg)
  await prepare(rt)
  log(`prefix ${cfg.topicPrefix}, database ${cfg.clickhouseDatabase}`)
  return {
    env, cfg, rt,
    async cleanup() {
      try { await dropCaseData(cfg, rt) } catch (err) { log(`cleanup of ${cfg.topicPrefix} failed: ${(err as Error).message}`) }
      await hooks.drop?.(cfg).catch((err: Error) => log(`cleanup of ${cfg.clickhouseDatabase} failed: ${err.message}`))
      await rt.close().catch(() => {})
      logger.flush()
    },
  }
}

async function dropCaseData(cfg: Config, rt: Runtime): Promise<void> {
  const admin = rt.kafka.admin()
  await admin.connect()
  try {
    const mine = (await admin.listTopics()).filter((name) => name.startsWith(cfg.topicPrefix))
    if (mine.length) await admin.deleteTopics({ topics: mine, timeout: 30_000 })
    const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(cfg.topicPrefix))
    if (groups.length) await admin.deleteGroups(groups).catch(() => {})
  } finally { await admin.disconnect() }
  const root = createDb(cfg, { useDatabase: false })
  try { await root.command(sql`DROP DATABASE IF EXISTS ${ident(cfg.clickhouseDatabase)} SYNC`) } finally { await root.close() }
}

/** Topics, groups, databases and subjects of cases (names `fc<n>…`) left by an interrupted earlier run. */
export async function sweepLeftovers(cfg: Config, log: Log): Promise<void> {
  await removeDeployments(cfg, (m) => log(m.replace(/^clean: /, 'leftovers of an earlier run: ')), { matches: (name) => /^fc\d/.test(name), deploymentOf: (name) => name.split(/[.-]/)[0] })
}
