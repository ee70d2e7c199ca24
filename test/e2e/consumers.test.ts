/**
 * `lds consumers create|revoke` with a real outside client: a kafkajs client built from the printed
 * JSON as it is reads a public topic over SASL/SCRAM, and the broker's ACLs refuse it everything
 * else: the users topic, producing, a group not its own; its topic listing holds only public
 * topics; a name is minted once (--rotate replaces the password); once revoked it cannot connect.
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { Kafka, logLevel, type KafkaConfig } from 'kafkajs'
import '../../core/kafka-compression.js'
import { testStack } from '../helpers/stack.js'
import { openPublisher } from '../../core/events/publisher.js'
import { entityTopic, groupId, PROCESSORS } from '../../schemas/events/names.js'
import { PROJECT_ROOT } from '../../core/config.js'
import { createUser } from '../../bin/users.js'
import { createConsumer, revokeConsumer, type ConsumerSettings } from '../../bin/commands/consumers.js'
import { scramUsers } from '../../infra/scram-users.js'
import type { Runtime } from '../../bin/runtime.js'
import { programArgs } from '../../core/programs.js'

t.setTimeout(180_000)

const ts = '2024-03-01T10:00:00.123456+00:00'
const DOCKETS = 20

/** The CLI run against the test's deployment: stdout, or a rejection with its stderr. */
function lds(rt: Runtime, args: string[]): Promise<string> {
  const env = { ...process.env, LDS_TOPIC_PREFIX: rt.cfg.topicPrefix, CLICKHOUSE_DATABASE: rt.cfg.clickhouseDatabase, LOG_LEVEL: 'error' }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, programArgs('bin/lds-cli.ts', args), { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (b: Buffer) => { out += b.toString() })
    child.stderr.on('data', (b: Buffer) => { err += b.toString() })
    child.on('exit', (code) => code === 0 ? resolve(out) : reject(new Error(`lds ${args.join(' ')} exited ${code}: ${err}`)))
  })
}

const errorType = (err: unknown) => (err as { type?: string }).type ?? (err as Error).name

t.test('an outside consumer reads the public topics and nothing else, until revoked', async (t) => {
  const rt = await testStack(t)
  const pub = await openPublisher(rt)
  await pub.upsert('courts', { id: 'nysd', full_name: 'S.D.N.Y.', short_name: 'S.D.N.Y.', jurisdiction: 'FD', position: 1, date_modified: ts })
  for (let id = 1; id <= DOCKETS; id++) await pub.upsert('dockets', { id, court_id: 'nysd', case_name: `Doe v. Acme ${id}`, docket_number: `1:26-cv-${id}`, source: 0, date_created: ts, date_modified: ts })
  await pub.flush()
  await pub.stop()
  await createUser(rt, 'holder-of-a-token')

  const name = `${rt.cfg.topicPrefix.replace(/\.$/, '')}-reader`
  t.teardown(() => revokeConsumer({ ...rt, scram: scramUsers(rt.cfg) }, name).catch(() => {}))
  const lines = (await lds(rt, ['consumers', 'create', name, '--json'])).trim().split('\n')
  t.equal(lines.length, 1, '--json prints one line')
  const settings = JSON.parse(lines[0]) as ConsumerSettings
  const dockets = entityTopic(rt.cfg, 'dockets')
  const users = entityTopic(rt.cfg, 'users')
  t.match(settings, { brokers: [`127.0.0.1:${rt.cfg.ports.kafkaSasl}`], sasl: { mechanism: 'scram-sha-512', username: name }, ssl: false })
  t.ok(settings.topics.includes(dockets) && !settings.topics.includes(users), 'the dockets topic is offered, the users topic is not')

  const { brokers, sasl, ssl } = settings
  const outside = (extra: Partial<KafkaConfig> = {}) => new Kafka({ brokers, sasl, ssl, clientId: 'outside', logLevel: logLevel.NOTHING, ...extra })
  const kafka = outside()

  await t.test('reads a public topic in a group of its own', async (t) => {
    const consumer = kafka.consumer({ groupId: `${name}.copy` })
    await consumer.connect()
    t.teardown(() => consumer.disconnect())
    await consumer.subscribe({ topic: dockets, fromBeginning: true })
    const keys = new Set<string>()
    await new Promise<void>((resolve) => {
      void consumer.run({ eachMessage: async ({ message }) => { keys.add(String(message.key)); if (keys.size === DOCKETS) resolve() } })
    })
    t.equal(keys.size, DOCKETS, 'every docket read')
  })

  await t.test('lists only public topics', async (t) => {
    const admin = kafka.admin()
    await admin.connect()
    t.teardown(() => admin.disconnect())
    const listed = await admin.listTopics()
    t.ok(listed.includes(dockets), 'the dockets topic is listed')
    t.same(listed.filter((topic) => !settings.topics.includes(topic)), [], 'no topic but the public ones')
  })

  await t.test('is refused on the users topic', async (t) => {
    const consumer = kafka.consumer({ groupId: `${name}.users`, retry: { retries: 0 } })
    await consumer.connect()
    t.teardown(() => consumer.disconnect())
    const refused = await consumer.subscribe({ topic: users, fromBeginning: true }).then(() => undefined, (err: unknown) => err)
    t.equal(errorType(refused), 'TOPIC_AUTHORIZATION_FAILED')
  })

  await t.test('is refused when producing to a public topic', async (t) => {
    const producer = outside({ retry: { retries: 0 } }).producer()
    await producer.connect()
    t.teardown(() => producer.disconnect())
    const refused = await producer.send({ topic: dockets, messages: [{ key: '1', value: 'forged' }] }).then(() => undefined, (err: unknown) => err)
    t.equal(errorType(refused), 'TOPIC_AUTHORIZATION_FAILED')
  })

  await t.test('is refused in a group not named after it (the table sink\'s)', async (t) => {
    // kafkajs reports a refused coordinator lookup as "not found"; the broker's answer is in its debug log.
    const lookups: string[] = []
    const logCreator = () => ({ log }: { log: { message: string; error?: unknown } }) => {
      if (log.message === 'Tried to find group coordinator') lookups.push(String((log.error as { type?: string } | undefined)?.type ?? log.error))
    }
    const consumer = outside({ logLevel: logLevel.DEBUG, logCreator }).consumer({ groupId: groupId(rt.cfg, PROCESSORS.tableSink), retry: { retries: 0, restartOnFailure: async () => false } })
    const crashed = new Promise<unknown>((resolve) => consumer.on(consumer.events.CRASH, ({ payload }) => resolve(payload.error)))
    await consumer.connect()
    t.teardown(() => consumer.disconnect())
    await consumer.subscribe({ topic: dockets, fromBeginning: true })
    await consumer.run({ eachMessage: async () => { t.fail('read in a group of the service') } })
    t.equal(errorType(await crashed), 'KafkaJSGroupCoordinatorNotFound', 'the consumer stops')
    t.ok(lookups.length > 0 && lookups.every((type) => type === 'GROUP_AUTHORIZATION_FAILED'), `the broker refused the group (${lookups.join(', ')})`)
  })

  await t.test('a second create is refused; --rotate replaces the password', async (t) => {
    const deps = { ...rt, scram: scramUsers(rt.cfg) }
    await t.rejects(createConsumer(deps, name), /a consumer named .* exists already \(--rotate/)
    const rotated = await createConsumer(deps, name, { rotate: true })
    t.not(rotated.sasl.password, sasl.password)
    const login = async (password: string) => {
      // a new sasl object: kafkajs keeps the authenticator of the first password on the one it was given
      const admin = new Kafka({ brokers, sasl: { mechanism: sasl.mechanism, username: sasl.username, password }, ssl, logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin()
      try { await admin.connect(); return 'accepted' } catch (err) { return errorType(err) } finally { await admin.disconnect() }
    }
    t.equal(await login(sasl.password), 'KafkaJSSASLAuthenticationError', 'the old password is refused')
    t.equal(await login(rotated.sasl.password), 'accepted', 'the new one works')
  })

  await t.test('cannot connect once revoked', async (t) => {
    t.match(await lds(rt, ['consumers', 'revoke', name]), /revoked: credential deleted/)
    const admin = outside({ retry: { retries: 0 } }).admin()
    const refused = await admin.connect().then(() => undefined, (err: unknown) => err)
    await admin.disconnect()
    t.equal(errorType(refused), 'KafkaJSSASLAuthenticationError')
  })
})
