/**
 * Test deployments left behind on the local infrastructure. Every test stack is a deployment of its
 * own (topic prefix, consumer groups, ClickHouse database, registry subjects, the ACLs of consumer
 * logins it mints, all named after an id `t<ms since the epoch, base 36><6 hex>`,
 * test/helpers/stack.ts), removed at its teardown; a test
 * process that is killed never gets there, and registry subjects are never removed by a teardown
 * (one DELETE per subject would cost every test stack seconds). Left alone, they pile up: the
 * broker then loads tens of thousands of partitions at each start, and the registry lists slowly.
 *
 * `npx tsx infra/cli.ts clean` removes those older than an hour (a running suite's are younger).
 */
import pMap from 'p-map'
import { Kafka, logLevel, type Admin } from 'kafkajs'
import type { Config } from '../core/config.js'
import { createDb } from '../core/clickhouse.js'
import { sql, ident } from '../core/sql.js'
import { artifactsUrl, deleteSubject } from '../core/registry.js'
import { everyAcl } from '../core/kafka.js'
import { scramUsers } from './scram-users.js'

/** A test deployment's id: the creation time in base 36, then 6 random hex digits. */
const TEST_ID = /^t([0-9a-z]{8})[0-9a-f]{6}$/

/**
 * The test deployment a topic, group, database, subject or consumer login (`t<id>-reader`) name
 * belongs to, and when it was made.
 */
export function testDeploymentOf(name: string): { id: string; createdAt: number } | undefined {
  const id = name.split(/[.-]/)[0]
  const m = TEST_ID.exec(id)
  if (!m) return undefined
  const createdAt = parseInt(m[1], 36)
  return Number.isFinite(createdAt) ? { id, createdAt } : undefined
}

export interface CleanResult { deployments: number; topics: number; groups: number; databases: number; subjects: number; acls: number; logins: number }

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
 * Deletes the ACLs of consumer logins a test deployment minted (`lds consumers create`, named
 * `t<id>-…`), which outlive its deleted topics when the test was killed before revoking them.
 * Returns how many were deleted. Their SCRAM credentials stay (Kafka lists them only through its
 * Java admin client; without ACLs they reach nothing): `lds consumers revoke <name>` removes one.
 * A broker without an authorizer has no ACLs: nothing to do.
 */
async function deleteStaleConsumerAcls(admin: Admin, stale: (name: string) => boolean): Promise<{ acls: number; logins: string[] }> {
  let resources
  try {
    ({ resources } = await admin.describeAcls(everyAcl()))
  } catch (err) {
    if (/SECURITY_DISABLED|No Authorizer/i.test(`${(err as { type?: string }).type} ${(err as Error).message}`)) return { acls: 0, logins: [] }
    throw err
  }
  const logins = [...new Set(resources.flatMap((r) => r.acls.map((a) => a.principal)))]
    .filter((p) => p.startsWith('User:') && stale(p.slice('User:'.length))).map((p) => p.slice('User:'.length))
  if (!logins.length) return { acls: 0, logins }
  const { filterResponses } = await admin.deleteAcls({ filters: logins.map((name) => everyAcl(`User:${name}`)) })
  return { acls: filterResponses.reduce((n, f) => n + f.matchingAcls.length, 0), logins }
}

/**
 * Removes every test deployment created more than `olderThanMs` ago: its topics and consumer groups,
 * its database, its subjects. Other deployments (the sample's `lds`, benchmarks' `bench.*`) are never
 * touched: only names that parse as a test deployment's id are.
 */
export async function removeStaleTestDeployments(cfg: Config, log: (m: string) => void, opts: { olderThanMs: number; now?: number }): Promise<CleanResult> {
  const cutoff = (opts.now ?? Date.now()) - opts.olderThanMs
  return removeDeployments(cfg, log, {
    matches: (name) => { const d = testDeploymentOf(name); return d !== undefined && d.createdAt < cutoff },
    deploymentOf: (name) => testDeploymentOf(name)!.id,
  })
}

/**
 * Removes what deployments left on the infrastructure of `cfg`: every topic, consumer group,
 * ClickHouse database and registry subject whose name `matches`, and the ACLs of consumer logins
 * so named. `deploymentOf` names the deployment a matching name belongs to (for the count).
 * Used by `infra clean` (test deployments) and the fault suite (its cases' leftovers).
 */
export async function removeDeployments(cfg: Config, log: (m: string) => void, sel: { matches: (name: string) => boolean; deploymentOf: (name: string) => string }): Promise<CleanResult> {
  const stale = sel.matches
  const ids = new Set<string>()
  const note = (names: string[]) => { for (const n of names) ids.add(sel.deploymentOf(n)); return names }

  const kafka = new Kafka({ clientId: 'lds-clean', brokers: [...cfg.kafkaBrokers], logLevel: logLevel.NOTHING })
  const admin = kafka.admin()
  await admin.connect()
  let topics: string[] = []
  let groups: string[] = []
  let acls = 0
  try {
    topics = note((await admin.listTopics()).filter(stale))
    for (let i = 0; i < topics.length; i += 500) {
      await admin.deleteTopics({ topics: topics.slice(i, i + 500), timeout: 120_000 })
      log(`clean: topics ${Math.min(i + 500, topics.length)}/${topics.length}`)
    }
    groups = note((await admin.listGroups()).groups.map((g) => g.groupId).filter(stale))
    for (let i = 0; i < groups.length; i += 500) await admin.deleteGroups(groups.slice(i, i + 500)).catch(() => {})
    if (groups.length) log(`clean: consumer groups ${groups.length}`)
    const logins = await deleteStaleConsumerAcls(admin, stale)
    note(logins.logins)
    acls = logins.acls
    if (logins.logins.length) log(`clean: ACLs of consumer logins ${logins.logins.join(', ')} (${acls})`)
  } finally { await admin.disconnect() }

  const root = createDb(cfg, { useDatabase: false })
  let databases: string[] = []
  try {
    const rows = await root.query<{ name: string }>(sql`SELECT name FROM system.databases`)
    databases = note(rows.map((r) => r.name).filter(stale))
    await pMap(databases, (d) => root.command(sql`DROP DATABASE IF EXISTS ${ident(d)}`), { concurrency: 4 })
    if (databases.length) log(`clean: ClickHouse databases ${databases.length}`)
  } finally { await root.close() }

  const logins = note(await deleteStaleScramLogins(cfg, stale, log))

  const subjects = note((await registrySubjects(cfg)).filter(stale))
  let deleted = 0
  await pMap(subjects, async (s) => {
    await deleteSubject(cfg, s)
    if (++deleted % 1000 === 0) log(`clean: registry subjects ${deleted}/${subjects.length}`)
  }, { concurrency: 8 })
  if (subjects.length) log(`clean: registry subjects ${subjects.length}`)

  return { deployments: ids.size, topics: topics.length, groups: groups.length, databases: databases.length, subjects: subjects.length, acls, logins: logins.length }
}

/**
 * Deletes the SCRAM credentials of consumer logins so named (`lds consumers create` of a killed test).
 * Without their ACLs they reach nothing, but they would pile up in the broker's metadata. Listing
 * them needs Kafka's Java admin client (infra/scram-users.ts); where there is no Java, or no broker
 * that answers for credentials, they are left and the clean goes on.
 */
async function deleteStaleScramLogins(cfg: Config, stale: (name: string) => boolean, log: (m: string) => void): Promise<string[]> {
  const scram = scramUsers(cfg)
  try {
    const names = (await scram.list()).filter(stale)
    for (const name of names) await scram.remove(name)
    if (names.length) log(`clean: SCRAM credentials of consumer logins ${names.join(', ')}`)
    return names
  } catch (err) {
    log(`clean: SCRAM credentials not checked (${(err as Error).message.split('\n')[0]})`)
    return []
  }
}
