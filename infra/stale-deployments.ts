/**
 * Test deployments left behind on the local infrastructure. Every test stack is a deployment of its
 * own (topic prefix, consumer groups, ClickHouse database, registry subjects, all named after an id
 * `t<ms since the epoch, base 36><6 hex>`, test/helpers/stack.ts), removed at its teardown; a test
 * process that is killed never gets there, and registry subjects are never removed by a teardown
 * (one DELETE per subject would cost every test stack seconds). Left alone, they pile up: the
 * broker then loads tens of thousands of partitions at each start, and the registry lists slowly.
 *
 * `npx tsx infra/cli.ts clean` removes those older than an hour (a running suite's are younger).
 */
import pMap from 'p-map'
import { Kafka, logLevel } from 'kafkajs'
import type { Config } from '../core/config.js'
import { createDb } from '../core/clickhouse.js'
import { sql, ident } from '../core/sql.js'
import { artifactsUrl, deleteSubject } from '../core/registry.js'

/** A test deployment's id: the creation time in base 36, then 6 random hex digits. */
const TEST_ID = /^t([0-9a-z]{8})[0-9a-f]{6}$/

/** The test deployment a topic, group, database or subject name belongs to, and when it was made. */
export function testDeploymentOf(name: string): { id: string; createdAt: number } | undefined {
  const id = name.split('.')[0]
  const m = TEST_ID.exec(id)
  if (!m) return undefined
  const createdAt = parseInt(m[1], 36)
  return Number.isFinite(createdAt) ? { id, createdAt } : undefined
}

export interface CleanResult { deployments: number; topics: number; groups: number; databases: number; subjects: number }

async function registrySubjects(cfg: Pick<Config, 'schemaRegistryUrl'>): Promise<string[]> {
  const names: string[] = []
  for (let offset = 0; ; offset += 1000) {
    const res = await fetch(`${artifactsUrl(cfg)}?limit=1000&offset=${offset}`, { signal: AbortSignal.timeout(60_000) })
    if (!res.ok) throw new Error(`schema registry: listing subjects answered ${res.status}`)
    const page = await res.json() as { artifacts: { artifactId: string }[]; count: number }
    names.push(...page.artifacts.map((a) => a.artifactId))
    if (!page.artifacts.length || names.length >= page.count) return names
  }
}

/**
 * Removes every test deployment created more than `olderThanMs` ago: its topics and consumer groups,
 * its database, its subjects. Other deployments (the sample's `lds`, benchmarks' `bench.*`) are never
 * touched: only names that parse as a test deployment's id are.
 */
export async function removeStaleTestDeployments(cfg: Config, log: (m: string) => void, opts: { olderThanMs: number; now?: number }): Promise<CleanResult> {
  const cutoff = (opts.now ?? Date.now()) - opts.olderThanMs
  const stale = (name: string) => { const d = testDeploymentOf(name); return d !== undefined && d.createdAt < cutoff }
  const ids = new Set<string>()
  const note = (names: string[]) => { for (const n of names) ids.add(n.split('.')[0]); return names }

  const kafka = new Kafka({ clientId: 'lds-clean', brokers: [...cfg.kafkaBrokers], logLevel: logLevel.NOTHING })
  const admin = kafka.admin()
  await admin.connect()
  let topics: string[] = []
  let groups: string[] = []
  try {
    topics = note((await admin.listTopics()).filter(stale))
    for (let i = 0; i < topics.length; i += 500) {
      await admin.deleteTopics({ topics: topics.slice(i, i + 500), timeout: 120_000 })
      log(`clean: topics ${Math.min(i + 500, topics.length)}/${topics.length}`)
    }
    groups = note((await admin.listGroups()).groups.map((g) => g.groupId).filter(stale))
    for (let i = 0; i < groups.length; i += 500) await admin.deleteGroups(groups.slice(i, i + 500)).catch(() => {})
    if (groups.length) log(`clean: consumer groups ${groups.length}`)
  } finally { await admin.disconnect() }

  const root = createDb(cfg, { useDatabase: false })
  let databases: string[] = []
  try {
    const rows = await root.query<{ name: string }>(sql`SELECT name FROM system.databases`)
    databases = note(rows.map((r) => r.name).filter(stale))
    await pMap(databases, (d) => root.command(sql`DROP DATABASE IF EXISTS ${ident(d)}`), { concurrency: 4 })
    if (databases.length) log(`clean: ClickHouse databases ${databases.length}`)
  } finally { await root.close() }

  const subjects = note((await registrySubjects(cfg)).filter(stale))
  let deleted = 0
  await pMap(subjects, async (s) => {
    await deleteSubject(cfg, s)
    if (++deleted % 1000 === 0) log(`clean: registry subjects ${deleted}/${subjects.length}`)
  }, { concurrency: 8 })
  if (subjects.length) log(`clean: registry subjects ${subjects.length}`)

  return { deployments: ids.size, topics: topics.length, groups: groups.length, databases: databases.length, subjects: subjects.length }
}
