/**
 * `lds consumers create|revoke|list`: outside readers of the public topics. A consumer is a
 * SCRAM-SHA-512 user on the broker's SASL listener (LDS_KAFKA_SASL_PORT) with ACLs granting
 * exactly: READ and DESCRIBE on the topics prefixed `<prefix>entity.`, which are this deployment's
 * public feed and nothing else (internal resources' topics are `<prefix>internal.entity.…`), so a
 * public resource added later is readable without a new grant; and READ on consumer groups
 * prefixed `<name>.` (its own offsets). The broker's StandardAuthorizer denies
 * everything else: internal topics, producing, other groups; metadata lists only what it may describe.
 * SCRAM users are broker-wide; their ACLs name this deployment's topics.
 */
import { randomBytes } from 'node:crypto'
import kafkajs, { type AclEntry, type AclOperationTypes as AclOperation, type Kafka as KafkaClient } from 'kafkajs'
import type { Config } from '../../core/config.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { publicFeedResources } from '../../schemas/events/feeds.js'
import { entityTopic, publicFeedPrefix } from '../../schemas/events/names.js'
import type { ScramUsers } from '../../infra/scram-users.js'
import { everyAcl } from '../../core/kafka.js'

// Node's CommonJS export detection misses these: they are read from the default export.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes, Kafka, logLevel } = kafkajs

/** How long `create` waits for the broker to accept the new login and apply its ACLs. */
const USABLE_TIMEOUT_MS = 60_000

export interface ConsumerDeps { cfg: Config; kafka: KafkaClient; catalogue: Catalogue; scram: ScramUsers }

/** What a kafkajs client takes as it is: `new Kafka({ brokers, sasl, ssl })`. */
export interface ConsumerSettings {
  brokers: string[]
  sasl: { mechanism: 'scram-sha-512'; username: string; password: string }
  ssl: false
  topics: string[]
}

export class ConsumerError extends Error {}

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/

/** Refuses a name that is malformed, a super user's, or whose group prefix would cover this deployment's own groups. */
export function checkConsumerName(cfg: Pick<Config, 'topicPrefix'>, name: string): void {
  if (!NAME.test(name)) throw new ConsumerError(`consumer name ${JSON.stringify(name)}: use 1 to 64 lower-case letters, digits, - and _, starting with a letter or digit`)
  // The PLAINTEXT listener's principal, a super user (infra/kafka-server.ts).
  if (name.toUpperCase() === 'ANONYMOUS') throw new ConsumerError('consumer name "anonymous" is reserved')
  // The consumer may use groups `<name>.*`; the service's own all start with the topic prefix.
  if (cfg.topicPrefix.startsWith(`${name}.`)) throw new ConsumerError(`consumer name ${JSON.stringify(name)}: its groups (${name}.…) would include the service's own (${cfg.topicPrefix}…); pick another`)
}

export const publicTopics = (cfg: Pick<Config, 'topicPrefix'>, cat: Catalogue): string[] => publicFeedResources(cat).map((r) => entityTopic(cfg, r))

export const consumerPrincipal = (name: string) => `User:${name}`
export const consumerGroupPrefix = (name: string) => `${name}.`

/** The ACLs of a consumer: nothing more than reading the topics under `feedPrefix` and committing in its own groups. */
export function consumerAcls(name: string, feedPrefix: string): AclEntry[] {
  const allow = { principal: consumerPrincipal(name), host: '*', permissionType: AclPermissionTypes.ALLOW }
  const onFeed = (operation: AclOperation): AclEntry => ({ ...allow, resourceType: AclResourceTypes.TOPIC, resourceName: feedPrefix, resourcePatternType: ResourcePatternTypes.PREFIXED, operation })
  return [
    onFeed(AclOperationTypes.READ), onFeed(AclOperationTypes.DESCRIBE),
    { ...allow, resourceType: AclResourceTypes.GROUP, resourceName: consumerGroupPrefix(name), resourcePatternType: ResourcePatternTypes.PREFIXED, operation: AclOperationTypes.READ },
  ]
}

/** The consumers' bootstrap addresses: LDS_KAFKA_SASL_BROKERS, else the first broker's host on the SASL port. */
export function saslBrokers(cfg: Pick<Config, 'kafkaBrokers' | 'kafkaSaslBrokers' | 'ports'>): string[] {
  if (cfg.kafkaSaslBrokers.length) return [...cfg.kafkaSaslBrokers]
  const [first = '127.0.0.1'] = cfg.kafkaBrokers
  const host = first.replace(/:\d+$/, '')
  return [`${host}:${cfg.ports.kafkaSasl}`]
}

/**
 * Mints a SCRAM user with the consumer ACLs and returns its settings (the only time the password
 * is shown). An existing name is refused unless `rotate`: then its password is replaced and its
 * ACLs set again to this deployment's current public topics.
 */
export async function createConsumer(deps: ConsumerDeps, name: string, opts: { rotate?: boolean } = {}, progress: (m: string) => void = () => {}): Promise<ConsumerSettings> {
  checkConsumerName(deps.cfg, name)
  const topics = publicTopics(deps.cfg, deps.catalogue)
  const admin = deps.kafka.admin()
  await admin.connect()
  try {
    const password = randomBytes(24).toString('base64url')
    progress(`${opts.rotate ? 'setting a new password of' : 'creating'} SCRAM user ${name} …`)
    if (opts.rotate) await deps.scram.rotate(name, password)
    else {
      if (!(await deps.scram.create(name, password))) throw new ConsumerError(`a consumer named ${name} exists already (--rotate gives it a new password)`)
      // Someone else's groups under the new name's prefix would become the consumer's to read.
      const { groups } = await admin.listGroups()
      const taken = groups.find((g) => g.groupId.startsWith(consumerGroupPrefix(name)))
      if (taken) {
        await deps.scram.remove(name)
        throw new ConsumerError(`consumer name ${JSON.stringify(name)}: a group ${taken.groupId} exists already, which the consumer could then use; pick another name`)
      }
    }
    progress(`granting read on the public topics (${publicFeedPrefix(deps.cfg)}*, ${topics.length} today) and groups ${consumerGroupPrefix(name)}* …`)
    await deleteConsumerAcls(admin, name)
    await admin.createAcls({ acl: consumerAcls(name, publicFeedPrefix(deps.cfg)) })
    const settings: ConsumerSettings = { brokers: saslBrokers(deps.cfg), sasl: { mechanism: 'scram-sha-512', username: name, password }, ssl: false, topics }
    const existing = new Set(await admin.listTopics())
    await waitUntilUsable(settings, topics.filter((t) => existing.has(t)), progress)
    return settings
  } finally { await admin.disconnect() }
}

/**
 * Resolves once the settings log in and show every existing public topic. The controller commits
 * a credential and ACLs before the broker applies them; a busy broker applies them seconds later,
 * and settings printed before that would be refused.
 */
async function waitUntilUsable(s: ConsumerSettings, existingTopics: readonly string[], progress: (m: string) => void): Promise<void> {
  const deadline = Date.now() + USABLE_TIMEOUT_MS
  let told = false
  for (;;) {
    // a copy: kafkajs keeps its authenticator on the sasl object it is given
    const admin = new Kafka({ brokers: s.brokers, sasl: { ...s.sasl }, ssl: s.ssl, clientId: 'lds-consumers-check', logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin()
    let missing = existingTopics.length
    try {
      await admin.connect()
      const visible = new Set(await admin.listTopics())
      missing = existingTopics.filter((t) => !visible.has(t)).length
      if (!missing) return
    } catch (err) {
      if ((err as Error).name !== 'KafkaJSSASLAuthenticationError') throw err
    } finally { await admin.disconnect() }
    if (Date.now() > deadline) throw new ConsumerError(`the broker has not applied ${s.sasl.username}'s login and ACLs after ${USABLE_TIMEOUT_MS / 1000} s (${missing} public topics not visible yet); try the settings again later`)
    if (!told) { progress('waiting for the broker to apply the login and ACLs …'); told = true }
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Deletes the consumer's credential (no new connection) and its ACLs (nothing for open ones). */
export async function revokeConsumer(deps: ConsumerDeps, name: string): Promise<{ credential: boolean; acls: number }> {
  if (!NAME.test(name)) throw new ConsumerError(`no consumer named ${JSON.stringify(name)}`)
  const credential = await deps.scram.remove(name)
  const admin = deps.kafka.admin()
  await admin.connect()
  try {
    const acls = await deleteConsumerAcls(admin, name)
    if (!credential && !acls) throw new ConsumerError(`no consumer named ${name}`)
    return { credential, acls }
  } finally { await admin.disconnect() }
}

/** Every SCRAM user, with how many of this deployment's public topics it may read. */
export async function listConsumers(deps: ConsumerDeps): Promise<{ name: string; topics: number }[]> {
  const names = await deps.scram.list()
  const mine = new Set(publicTopics(deps.cfg, deps.catalogue))
  const admin = deps.kafka.admin()
  await admin.connect()
  try {
    const { resources } = await admin.describeAcls({
      resourceType: AclResourceTypes.TOPIC, resourcePatternType: ResourcePatternTypes.LITERAL,
      operation: AclOperationTypes.READ, permissionType: AclPermissionTypes.ALLOW,
    })
    const readable = new Map<string, number>()
    for (const r of resources) {
      if (!mine.has(r.resourceName)) continue
      for (const a of r.acls) readable.set(a.principal, (readable.get(a.principal) ?? 0) + 1)
    }
    return names.map((name) => ({ name, topics: readable.get(consumerPrincipal(name)) ?? 0 }))
  } finally { await admin.disconnect() }
}

async function deleteConsumerAcls(admin: ReturnType<KafkaClient['admin']>, name: string): Promise<number> {
  const { filterResponses } = await admin.deleteAcls({ filters: [everyAcl(consumerPrincipal(name))] })
  return filterResponses.reduce((n, f) => n + f.matchingAcls.length, 0)
}

/** The settings for a person: kafkajs, and the properties of librdkafka and Java clients. */
export function consumerSettingsText(s: ConsumerSettings): string {
  return [
    `consumer ${s.sasl.username}: its password is shown this once (lds consumers create ${s.sasl.username} --rotate makes a new one)`,
    '',
    `  bootstrap servers  ${s.brokers.join(',')}`,
    `  SASL               SCRAM-SHA-512 over plaintext, username ${s.sasl.username}`,
    `  password           ${s.sasl.password}`,
    `  consumer groups    names starting with "${consumerGroupPrefix(s.sasl.username)}"`,
    `  topics             ${s.topics.join(', ')}`,
    '',
    'kafkajs:',
    `  new Kafka({ brokers: ${JSON.stringify(s.brokers)}, sasl: { mechanism: 'scram-sha-512', username: ${JSON.stringify(s.sasl.username)}, password: ${JSON.stringify(s.sasl.password)} }, ssl: false })`,
    'librdkafka (confluent-kafka) and Java clients:',
    `  bootstrap.servers=${s.brokers.join(',')}`,
    '  security.protocol=SASL_PLAINTEXT',
    '  sasl.mechanism=SCRAM-SHA-512',
    `  sasl.username=${s.sasl.username}   (Java: sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${s.sasl.username}" password="…";)`,
    `  sasl.password=${s.sasl.password}`,
    '',
    '--json prints these settings as one line a kafkajs client takes as it is.',
  ].join('\n')
}
