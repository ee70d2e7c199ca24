/**
 * `infra/cli.ts clean`: test deployments that a killed test run left behind (topics, consumer groups,
 * database, registry subjects) are removed once old enough; younger ones, and deployments that are
 * not a test's, are kept. The deployments made here are dated 2020, and the clean is run as of a
 * moment in 2020, so no other deployment on the infrastructure is old enough to be touched.
 */
import { randomBytes } from 'node:crypto'
import t from 'tap'
import kafkajs from 'kafkajs'
import { loadConfig } from '../../core/config.js'
import { createLogger } from '../../core/logger.js'
import { createRuntime, prepare, removeDeployment } from '../../bin/runtime.js'
import { sql } from '../../core/sql.js'
import { createDb } from '../../core/clickhouse.js'
import { artifactsUrl } from '../../core/registry.js'
import { removeStaleTestDeployments, testDeploymentOf } from '../../infra/stale-deployments.js'
import { scramUsers } from '../../infra/scram-users.js'
import { everyAcl } from '../../core/kafka.js'

const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } = kafkajs
const HOUR = 3_600_000
const T2020 = Date.UTC(2020, 0, 1)
const idAt = (ms: number) => `t${ms.toString(36)}${randomBytes(3).toString('hex')}`

t.test('a test deployment id tells its creation time; other names are not test deployments', async (t) => {
  const id = idAt(T2020)
  t.same(testDeploymentOf(`${id}.entity.dockets`), { id, createdAt: T2020 })
  t.same(testDeploymentOf(`${id}.entity.dockets-value`), { id, createdAt: T2020 })
  t.same(testDeploymentOf(id), { id, createdAt: T2020 })
  t.same(testDeploymentOf(`${id}-reader`), { id, createdAt: T2020 }, 'a consumer login it minted')
  for (const other of ['lds.entity.dockets', 'bench.q28.entity.courts', 'tests.entity.dockets', 'lds', '__consumer_offsets', `${id}x.entity`]) {
    t.equal(testDeploymentOf(other), undefined, other)
  }
})

t.test('clean removes a stale test deployment whole and keeps a younger one', async (t) => {
  const make = async (id: string) => {
    const cfg = loadConfig({ ...process.env, LDS_TOPIC_PREFIX: `${id}.`, CLICKHOUSE_DATABASE: id, LOG_LEVEL: 'error' })
    const rt = createRuntime(cfg, createLogger(cfg))
    await prepare(rt)
    // A consumer group of the deployment, as a processor leaves one: its committed offsets. (A
    // consumer that stops before its first fetch comes back commits nothing, and its group goes
    // with it, so the offsets are set here.)
    const admin = rt.kafka.admin()
    await admin.connect()
    await admin.setOffsets({ groupId: `${id}.table-sink`, topic: `${id}.entity.courts`, partitions: [{ partition: 0, offset: '0' }] })
    // The ACLs of a consumer login the deployment minted (`lds consumers create`), never revoked.
    await admin.createAcls({ acl: [{
      principal: `User:${id}-reader`, host: '*', permissionType: AclPermissionTypes.ALLOW, operation: AclOperationTypes.READ,
      resourceType: AclResourceTypes.TOPIC, resourceName: `${id}.entity.courts`, resourcePatternType: ResourcePatternTypes.LITERAL,
    }] }).finally(() => admin.disconnect())
    // And the login itself: its SCRAM credential.
    await scram.create(`${id}-reader`, 'a password nobody uses')
    return rt
  }
  const scram = scramUsers(loadConfig(process.env))
  const staleRt = await make(idAt(T2020))
  const youngRt = await make(idAt(T2020 + 2 * HOUR))
  t.teardown(async () => {
    for (const rt of [staleRt, youngRt]) {
      const admin = rt.kafka.admin()
      await admin.connect()
      await admin.deleteAcls({ filters: [everyAcl(`User:${rt.cfg.topicPrefix.replace(/\.$/, '')}-reader`)] }).finally(() => admin.disconnect())
      await scram.remove(`${rt.cfg.topicPrefix.replace(/\.$/, '')}-reader`).catch(() => {})
      await removeDeployment(rt).catch(() => {})
      await rt.close()
    }
  })

  // The SCRAM logins (a JVM start each listing): read once per moment and shared by both deployments.
  const what = async (rt: typeof staleRt, logins: readonly string[]) => {
    const prefix = rt.cfg.topicPrefix
    const admin = rt.kafka.admin()
    await admin.connect()
    try {
      const topics = (await admin.listTopics()).filter((n) => n.startsWith(prefix)).length
      const groups = (await admin.listGroups()).groups.filter((g) => g.groupId.startsWith(prefix)).length
      // Not rt.db: its session names the database, which the clean drops.
      const root = createDb(rt.cfg, { useDatabase: false })
      const [db] = await root.query<{ n: number }>(sql`SELECT count() AS n FROM system.databases WHERE name = ${rt.cfg.clickhouseDatabase}`).finally(() => root.close())
      const res = await fetch(`${artifactsUrl(rt.cfg)}/${encodeURIComponent(`${prefix}entity.courts-value`)}`)
      const { resources } = await admin.describeAcls(everyAcl(`User:${prefix.replace(/\.$/, '')}-reader`))
      const login = logins.includes(`${prefix.replace(/\.$/, '')}-reader`)
      return { topics: topics > 0, groups: groups > 0, database: Number(db.n) === 1, subject: res.ok, acls: resources.length > 0, login }
    } finally { await admin.disconnect() }
  }
  const whole = { topics: true, groups: true, database: true, subject: true, acls: true, login: true }
  const loginsBefore = await scram.list()
  t.same(await what(staleRt, loginsBefore), whole, 'both deployments exist before the clean')
  t.same(await what(youngRt, loginsBefore), whole)

  const log: string[] = []
  const r = await removeStaleTestDeployments(staleRt.cfg, (m) => log.push(m), { olderThanMs: HOUR, now: T2020 + 2 * HOUR })
  t.equal(r.deployments, 1, 'one deployment removed')
  t.ok(r.topics >= 50 && r.subjects >= 50, `its topics (${r.topics}) and subjects (${r.subjects})`)
  t.equal(r.acls, 1, 'its consumer login\'s ACL')
  t.equal(r.logins, 1, 'its consumer login\'s SCRAM credential')
  const loginsAfter = await scram.list()
  t.same(await what(staleRt, loginsAfter), { topics: false, groups: false, database: false, subject: false, acls: false, login: false }, 'the stale one is gone whole')
  t.same(await what(youngRt, loginsAfter), whole, 'the younger one is untouched')
  t.ok(log.some((l) => l.includes('registry subjects')), 'progress is reported')
})
