/**
 * What `lds consumers create` grants and refuses before it touches the broker: the ACLs give
 * reading of the named public topics and the consumer's own groups only, and a name that would
 * reach the service's own groups, a super user, or a malformed one is refused.
 */
import t from 'tap'
import kafkajs from 'kafkajs'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { checkConsumerName, consumerAcls, publicTopics, saslBrokers } from '../../../bin/commands/consumers.js'
import { loadConfig } from '../../../core/config.js'
import { entityTopic, publicFeedPrefix } from '../../../schemas/events/names.js'

const { AclOperationTypes: Op, AclResourceTypes: Res, ResourcePatternTypes: Pattern } = kafkajs

t.test('the ACLs: read and describe the public feed\'s topics by their prefix, read own groups, nothing else', async (t) => {
  const acls = consumerAcls('acme', 'p.entity.')
  const topicAcls = acls.filter((a) => a.resourceType === Res.TOPIC)
  t.same(topicAcls.map((a) => `${a.resourceName}:${a.resourcePatternType}:${a.operation}`).sort(),
    [`p.entity.:${Pattern.PREFIXED}:${Op.DESCRIBE}`, `p.entity.:${Pattern.PREFIXED}:${Op.READ}`].sort())
  const groupAcls = acls.filter((a) => a.resourceType === Res.GROUP)
  t.same(groupAcls.map((a) => [a.resourceName, a.resourcePatternType, a.operation]), [['acme.', Pattern.PREFIXED, Op.READ]])
  t.equal(acls.length, topicAcls.length + groupAcls.length, 'no other resource (cluster, transactional id)')
  t.ok(acls.every((a) => a.principal === 'User:acme' && a.host === '*'))
})

t.test('the public topics of a deployment leave the internal ones out', async (t) => {
  const topics = publicTopics({ topicPrefix: 'p.' }, catalogue)
  t.ok(topics.includes('p.entity.dockets'))
  for (const internal of ['users', 'webhooks', 'alerts', 'docket-alerts', 'prayers', 'archive-fetch']) {
    const topic = entityTopic({ topicPrefix: 'p.' }, internal)
    t.notOk(topics.includes(topic), `${internal} is not in the feed`)
    t.notOk(topic.startsWith(publicFeedPrefix({ topicPrefix: 'p.' })), `${internal}'s topic (${topic}) is outside the prefix the ACLs grant`)
  }
  t.ok(topics.every((topic) => topic.startsWith(publicFeedPrefix({ topicPrefix: 'p.' }))), 'and every public topic inside it')
})

t.test('names that would reach further than the consumer\'s own groups are refused', async (t) => {
  t.doesNotThrow(() => checkConsumerName({ topicPrefix: 'lds.' }, 'acme-research'))
  t.throws(() => checkConsumerName({ topicPrefix: 'lds.' }, 'lds'), /would include the service's own/, 'groups lds.* are the service\'s')
  t.throws(() => checkConsumerName({ topicPrefix: 'lds.' }, 'anonymous'), /reserved/, 'the internal listeners\' super user')
  for (const bad of ['', 'Acme', 'a.b', 'a b', '-x', 'x'.repeat(65)]) t.throws(() => checkConsumerName({ topicPrefix: 'lds.' }, bad), /use 1 to 64/, JSON.stringify(bad))
})

t.test('consumers connect to the SASL port on the first broker\'s host', async (t) => {
  t.same(saslBrokers(loadConfig({})), ['127.0.0.1:9094'])
  t.same(saslBrokers(loadConfig({ KAFKA_BROKERS: 'kafka.example:9092,kafka2.example:9092', LDS_KAFKA_SASL_PORT: '19191' })), ['kafka.example:19191'])
  t.same(saslBrokers(loadConfig({ KAFKA_BROKERS: 'kafka-1:9092', LDS_KAFKA_SASL_BROKERS: 'localhost:19191, localhost:19192' })), ['localhost:19191', 'localhost:19192'],
    'where the service reaches the brokers by names outsiders cannot (docker-compose), the addresses given')
})
