/**
 * Test harness over the real local infrastructure (started by `npm test` before tap runs).
 * Each test gets its own topic prefix and ClickHouse database, removed at teardown, so
 * tests run in parallel without seeing each other's data.
 */
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { readModelPath } from '../../api/read-model/consumer.js'
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { loadConfig, type Config } from '../../core/config.js'
import { createLogger } from '../../core/logger.js'
import { sql, ident } from '../../core/sql.js'
import { createRuntime, prepare, removeDeployment, type Runtime } from '../../bin/runtime.js'
import { waitFor } from '../kit/wait-for.js'

/**
 * A test's configuration: its own topic prefix and database. Its topics have one partition unless
 * the test asks for more (`LDS_PARTITIONS`): every consumer fetches every partition of ~60 topics,
 * and at 4 each the suite's consumers and broker spent their CPU on empty fetches. Tests of what
 * happens across partitions (the pipeline, the sink's crash, alert races) ask for 4, as deployed.
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const id = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
  return loadConfig({ ...process.env, LDS_PARTITIONS: process.env.LDS_TEST_PARTITIONS ?? '1', LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', ...overrides })
}

/** A runtime on a fresh prefix and database, with tables migrated and schemas registered. */
export async function testStack(t: Test, overrides: Record<string, string> = {}): Promise<Runtime> {
  const cfg = testConfig(overrides)
  const rt = createRuntime(cfg, createLogger(cfg))
  await prepare(rt)
  t.teardown(async () => {
    await removeDeployment(rt)
    await rt.close()
    rmSync(readModelPath(cfg), { recursive: true, force: true })
  })
  return rt
}

/** Lives in the kit; re-exported here for the tests that import it from the harness. */
export { waitFor }

export async function countFinal(rt: Runtime, table: string): Promise<number> {
  const [row] = await rt.db.query<{ n: number }>(sql`SELECT count() AS n FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident(table)} FINAL`)
  return Number(row.n)
}

/**
 * A user with a token, applied through the running table sink (start processors first) and, when
 * an app is given, through that app's read model (which authenticates it).
 */
export async function testUser(rt: Runtime, name = 'tester', opts: { write?: boolean; citationRate?: string; rate?: string; password?: string; email?: string; app?: FastifyInstance } = {}): Promise<string> {
  const { createUser, userVisible } = await import('../../bin/users.js')
  const { id, token, written } = await createUser(rt, name, opts)
  await waitFor(() => userVisible(rt, id), `user ${name} in ClickHouse`, 20_000)
  if (opts.app?.readModel && !(await opts.app.readModel.waitUntilApplied(written.topic, written.partition, written.offset, 60_000))) throw new Error(`user ${name} not in the read model`)
  return token
}
