/**
 * Apache Kafka 4.1.x (version pinned in infra/maven/pom.xml), KRaft nodes (broker and controller
 * in one JVM) on 127.0.0.1, from Maven Central jars, run with the machine's `java` (17). The
 * `kafka` service is one such node (singleKafkaNode): data under <dataDir>/kafka/data, log in
 * <dataDir>/logs/kafka.log, pid in <dataDir>/run. The local cluster (infra/cluster/) starts three
 * nodes described the same way (KafkaNode) with startKafkaNode / stopKafkaNode.
 *
 * Listeners: PLAINTEXT (the service, and inter-broker), CONTROLLER, and CONSUMERS (SASL/SCRAM-SHA-512,
 * LDS_KAFKA_SASL_PORT) for outside consumers, whose SCRAM users and ACLs `lds consumers create`
 * makes; KRaft's StandardAuthorizer checks everything (authProperties).
 *
 * KafkaJS 2.2.4 against Kafka 4.1.2 (checked 2026-11-22 with a throw-away script and
 * test/integration/infra-kafka.test.ts; Kafka 4 removed the oldest protocol versions, KafkaJS
 * negotiates newer ones, so no fallback to 3.9.1 was needed):
 *   - admin: describeCluster, createTopics (plain, and cleanup.policy=compact), fetchTopicMetadata,
 *     fetchTopicOffsets, describeConfigs (cleanup.policy=compact read back), deleteTopics: work.
 *   - producer with `idempotent: true` (InitProducerId, sequence numbers), acks=-1: works.
 *   - consumer group: join/sync/heartbeat, eachMessage, commitOffsets, admin.fetchOffsets reads
 *     the committed offsets back, a second consumer of the group resumes after them: works.
 *   - transactional producer (sendOffsets + commit), gzip batches, and topic auto-creation by
 *     producing to a new topic (auto.create.topics.enable=true) work too.
 *   - test/integration/infra-kafka.test.ts also passes against 4.1.1 (what this repo ran before).
 *   - Quirk: right after a start the group coordinator may answer "The coordinator is loading"
 *     (and a new topic may briefly have "no leader") for about a second; KafkaJS retries these.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { Kafka, logLevel } from 'kafkajs'
import type { Config } from '../core/config.js'
import type { LocalService, ServiceStatus } from './service.js'
import { mvn, pomProperty } from './maven/mvn.js'
import { isRunning, readPid, runCommand, startDetached, stopOwnedService, tcpPortOpen, waitFor, withLock } from './process.js'

export const KAFKA_VERSION = pomProperty('kafka.version')

const START_TIMEOUT_MS = 90_000
const STOP_TIMEOUT_MS = 30_000

export const kafkaPaths = (cfg: Config) => ({
  lib: path.join(cfg.dataDir, 'lib', 'kafka'),
  /** written after a complete copy, so an interrupted install is redone */
  installed: path.join(cfg.dataDir, 'lib', 'kafka', `.installed-${KAFKA_VERSION}`),
  home: path.join(cfg.dataDir, 'kafka'),
  data: path.join(cfg.dataDir, 'kafka', 'data'),
  props: path.join(cfg.dataDir, 'kafka', 'server.properties'),
  log4j: path.join(cfg.dataDir, 'kafka', 'log4j2.properties'),
  log: path.join(cfg.dataDir, 'logs', 'kafka.log'),
  pid: path.join(cfg.dataDir, 'run', 'kafka.pid'),
  lock: path.join(cfg.dataDir, 'run', 'kafka.lock'),
})

/** One KRaft node (broker and controller) to run: its identity, ports, files and replication defaults. */
export interface KafkaNode {
  /** for messages, e.g. "kafka" or "kafka-2" */
  name: string
  nodeId: number
  port: number
  controllerPort: number
  /** the SASL/SCRAM-SHA-512 listener for outside consumers (ACLs apply; the PLAINTEXT one is the service's) */
  saslPort: number
  /** controller.quorum.voters: id@127.0.0.1:port of every controller */
  voters: string
  /** replication factor of new topics and of Kafka's own (offsets, transactions) */
  replication: number
  minInsync: number
  /** the installed jars (shared by every node) */
  lib: string
  /** node folder: server.properties, log4j2.properties, data/ */
  home: string
  log: string
  pid: string
  lock: string
  /** where this node's KRaft cluster id is kept, so every node of one cluster formats with the same */
  clusterIdFile?: string
  /** -Xms and -Xmx */
  heap: { min: string; max: string }
  /** extra server.properties lines */
  extraProperties?: string
  /** how long a start may take (default 90 s) */
  startTimeoutMs?: number
}

/** The single-node stack's broker, from the configuration. */
export function singleKafkaNode(cfg: Config): KafkaNode {
  const p = kafkaPaths(cfg)
  const { kafka: port, kafkaController: ctl, kafkaSasl: saslPort } = cfg.ports
  return {
    name: 'kafka', nodeId: 1, port, controllerPort: ctl, saslPort, voters: `1@127.0.0.1:${ctl}`, replication: 1, minInsync: 1,
    lib: p.lib, home: p.home, log: p.log, pid: p.pid, lock: p.lock, heap: { min: '256m', max: '1g' },
    // One idle local node: the controller writes a no-op record to the metadata log every 500 ms by
    // default (to show it is alive to observers, of which a single node has none), and the log cleaner
    // looks over every compacted topic every 15 s.
    extraProperties: 'metadata.max.idle.interval.ms=10000\nlog.cleaner.backoff.ms=60000\n',
  }
}

const nodeFiles = (n: KafkaNode) => ({ data: path.join(n.home, 'data'), props: path.join(n.home, 'server.properties'), log4j: path.join(n.home, 'log4j2.properties') })

function serverProperties(n: KafkaNode): string {
  const { port, controllerPort: ctl } = n
  return `# written by infra/kafka-server.ts on every start; edit that file, not this one
process.roles=broker,controller
node.id=${n.nodeId}
controller.quorum.voters=${n.voters}
listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${ctl},${SASL_LISTENER}://127.0.0.1:${n.saslPort}
advertised.listeners=PLAINTEXT://127.0.0.1:${port},${SASL_LISTENER}://127.0.0.1:${n.saslPort}
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,${SASL_LISTENER}:SASL_PLAINTEXT
inter.broker.listener.name=PLAINTEXT
${authProperties()}
log.dirs=${nodeFiles(n).data}
num.partitions=1
default.replication.factor=${n.replication}
min.insync.replicas=${n.minInsync}
auto.create.topics.enable=true
delete.topic.enable=true
log.cleaner.enable=true
log.cleaner.dedupe.buffer.size=33554432
offsets.topic.replication.factor=${n.replication}
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=${n.replication}
transaction.state.log.min.isr=${n.minInsync}
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=${n.replication}
share.coordinator.state.topic.min.isr=${n.minInsync}
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
message.max.bytes=16777216
replica.fetch.max.bytes=16777216
${n.extraProperties ?? ''}`
}

/** The listener outside consumers connect to; its principals are SCRAM users (`lds consumers create`). */
const SASL_LISTENER = 'CONSUMERS'
const SCRAM_MECHANISM = 'SCRAM-SHA-512'

/**
 * SCRAM on the consumers' listener, and KRaft's own authorizer. The PLAINTEXT and CONTROLLER
 * listeners authenticate nobody, so their principal is User:ANONYMOUS: making it a super user keeps
 * the service, inter-broker replication and the controllers exactly as they were, while a SCRAM
 * user gets only what its ACLs grant (nothing, when it has none).
 */
function authProperties(): string {
  const l = SASL_LISTENER.toLowerCase()
  return `sasl.enabled.mechanisms=${SCRAM_MECHANISM}
listener.name.${l}.sasl.enabled.mechanisms=${SCRAM_MECHANISM}
listener.name.${l}.${SCRAM_MECHANISM.toLowerCase()}.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:ANONYMOUS
allow.everyone.if.no.acl.found=false`
}

/** log4j2 to stdout, which startDetached sends to <dataDir>/logs/kafka.log. */
function log4jProperties(): string {
  return `# written by infra/kafka-server.ts
status = warn
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.out.ref = out
# the version and "Kafka Server started" lines
logger.started.name = kafka.server.KafkaRaftServer
logger.started.level = info
logger.appinfo.name = org.apache.kafka.common.utils.AppInfoParser
logger.appinfo.level = info
`
}

const javaBaseArgs = (n: KafkaNode) => [`-Dlog4j2.configurationFile=${nodeFiles(n).log4j}`, '-Djava.awt.headless=true', '-cp', `${n.lib}/*`]

/** The broker on `port` answers a metadata request (through KafkaJS, as the application will). */
export async function brokerReady(port: number): Promise<boolean> {
  if (!(await tcpPortOpen('127.0.0.1', port))) return false
  const admin = new Kafka({
    clientId: 'lds-infra',
    brokers: [`127.0.0.1:${port}`],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2000,
    requestTimeout: 5000,
    retry: { retries: 0 },
  }).admin()
  try {
    await admin.connect()
    const { brokers, controller } = await admin.describeCluster()
    return brokers.length > 0 && controller !== null && controller >= 0
  } finally {
    await admin.disconnect().catch(() => {})
  }
}

/** The Kafka version of the jars in lib (what a broker started from them runs). */
function libVersion(lib: string): string | undefined {
  if (!existsSync(lib)) return undefined
  for (const f of readdirSync(lib)) {
    const m = /^kafka_2\.13-(.+)\.jar$/.exec(f)
    if (m) return m[1]
  }
  return undefined
}

function installed(cfg: Config): boolean {
  const p = kafkaPaths(cfg)
  return existsSync(p.installed) && existsSync(path.join(p.lib, `kafka_2.13-${KAFKA_VERSION}.jar`))
}

export const kafka: LocalService = {
  name: 'kafka',

  async install(cfg, log) {
    if (installed(cfg)) return
    const p = kafkaPaths(cfg)
    await withLock(p.lock, async () => {
      if (installed(cfg)) return
      if (isRunning(p.pid)) {
        // A broker started from these jars (an older version, or an older layout) is running:
        // do not pull its classpath away. The next start after `infra down` installs.
        log(`kafka: running from jars in ${p.lib} that are not Kafka ${KAFKA_VERSION}; left alone (infra down, then up, to upgrade)`)
        return
      }
      // Another version's jars (or a half-finished copy) must not share the classpath.
      if (existsSync(p.lib) && readdirSync(p.lib).length) {
        log(`kafka: removing incomplete or other-version jars in ${p.lib}`)
        rmSync(p.lib, { recursive: true, force: true })
      }
      mkdirSync(p.lib, { recursive: true })
      log(`kafka: fetching Apache Kafka ${KAFKA_VERSION} and log4j2 jars from Maven Central (mvn dependency:copy-dependencies → ${p.lib}) …`)
      const t0 = Date.now()
      await mvn(['dependency:copy-dependencies', `-DoutputDirectory=${p.lib}`])
      const jars = readdirSync(p.lib).filter((f) => f.endsWith('.jar'))
      if (!jars.includes(`kafka_2.13-${KAFKA_VERSION}.jar`)) throw new Error(`kafka: Maven finished but ${p.lib} has no kafka_2.13-${KAFKA_VERSION}.jar`)
      writeFileSync(p.installed, `${jars.join('\n')}\n`)
      log(`kafka: ${jars.length} jars installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    })
  },

  async start(cfg, log) {
    await startKafkaNode(singleKafkaNode(cfg), log)
  },

  async stop(cfg, log) {
    await stopKafkaNode(singleKafkaNode(cfg), cfg.dataDir, log)
  },

  async status(cfg): Promise<ServiceStatus> {
    const p = kafkaPaths(cfg)
    const ready = await brokerReady(cfg.ports.kafka).catch(() => false)
    const pid = isRunning(p.pid) ? readPid(p.pid) : undefined
    let detail: string | undefined
    if (ready && pid) {
      const v = libVersion(kafkaPaths(cfg).lib)
      detail = v === KAFKA_VERSION ? `Apache Kafka ${v} (KRaft)` : `Apache Kafka ${v ?? '?'} (KRaft); ${KAFKA_VERSION} is pinned: infra down, then up, to upgrade`
    } else if (ready) detail = 'a broker answers, but not one started from this data dir'
    else if (pid) detail = `process ${pid} runs but the broker does not answer; see ${p.log}`
    else if (!installed(cfg)) detail = 'not installed'
    return { name: 'kafka', running: ready, pid, address: `127.0.0.1:${cfg.ports.kafka}`, detail }
  },

  async reset(cfg, log) {
    const p = kafkaPaths(cfg)
    if (isRunning(p.pid)) throw new Error('kafka: still running; stop it before a reset')
    rmSync(p.home, { recursive: true, force: true })
    rmSync(p.log, { force: true })
    log(`kafka: removed ${p.home}`)
  },
}

/**
 * How long a start may take: a broker loads every partition it holds before it answers (about 15 ms
 * each on this 2-core machine under load: 14,787 partition folders took 224 s), so a data folder
 * that kept many topics gets longer than an empty one, instead of a start given up on while it
 * still makes progress.
 */
function startTimeoutFor(dataDir: string): number {
  let partitions = 0
  try { partitions = readdirSync(dataDir).length } catch { /* not formatted yet */ }
  return START_TIMEOUT_MS + partitions * 25
}

/**
 * Starts one KRaft node unless it runs already, and waits until it answers; formats its storage
 * first on a first start (with the cluster id in n.clusterIdFile, when several nodes share one).
 */
export async function startKafkaNode(n: KafkaNode, log: (m: string) => void): Promise<void> {
  const f = nodeFiles(n)
  const what = `${n.name} broker on 127.0.0.1:${n.port}`
  const timeoutMs = n.startTimeoutMs ?? startTimeoutFor(f.data)
  await withLock(n.lock, async () => {
    if (isRunning(n.pid)) {
      // Ours; possibly still starting (e.g. started by a concurrent `up`).
      await waitFor(() => brokerReady(n.port), { what, timeoutMs, logFile: n.log, pid: readPid(n.pid) })
      return
    }
    if (await tcpPortOpen('127.0.0.1', n.port)) {
      if (await brokerReady(n.port).catch(() => false)) {
        log(`${n.name}: a broker not started from ${n.home} already answers on 127.0.0.1:${n.port}; leaving it alone`)
        return
      }
      throw new Error(`${n.name}: port 127.0.0.1:${n.port} is taken by something that is not a Kafka broker`)
    }
    if (await tcpPortOpen('127.0.0.1', n.controllerPort)) {
      throw new Error(`${n.name}: controller port 127.0.0.1:${n.controllerPort} is already taken`)
    }
    if (await tcpPortOpen('127.0.0.1', n.saslPort)) {
      throw new Error(`${n.name}: SASL port 127.0.0.1:${n.saslPort} is already taken (LDS_KAFKA_SASL_PORT picks another)`)
    }
    if (!libVersion(n.lib)) throw new Error(`${n.name}: not installed (no kafka_2.13 jar in ${n.lib}); run \`npx tsx infra/cli.ts up\``)
    mkdirSync(f.data, { recursive: true })
    writeFileSync(f.props, serverProperties(n))
    writeFileSync(f.log4j, log4jProperties())
    if (!existsSync(path.join(f.data, 'meta.properties'))) {
      const clusterId = sharedClusterId(n.clusterIdFile)
      log(`${n.name}: formatting KRaft storage in ${f.data} (cluster id ${clusterId})`)
      await runCommand('java', [...javaBaseArgs(n), 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', f.props, '--ignore-formatted'])
    }
    const pid = startDetached({
      name: n.name,
      cmd: 'java',
      args: [`-Xms${n.heap.min}`, `-Xmx${n.heap.max}`, '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExitOnOutOfMemoryError', ...javaBaseArgs(n), 'kafka.Kafka', f.props],
      cwd: n.home,
      logFile: n.log,
      pidFile: n.pid,
    })
    log(`${n.name}: started Apache Kafka ${libVersion(n.lib)} (pid ${pid}); waiting for the broker on 127.0.0.1:${n.port} (log: ${n.log})`)
    // A node of a 3-voter quorum answers once a majority of controllers is up: callers start all nodes before awaiting.
    await waitFor(() => brokerReady(n.port), { what, timeoutMs, logFile: n.log, pid })
  })
}

export async function stopKafkaNode(n: KafkaNode, dataDir: string, log: (m: string) => void): Promise<void> {
  await stopOwnedService({ name: n.name, pidFile: n.pid, port: n.port, dataDir, timeoutMs: STOP_TIMEOUT_MS, stopping: 'stopping (controlled shutdown)' }, log)
}

/** A new cluster id, or the one in `file` (written on first use) so that every node of a cluster shares it. */
function sharedClusterId(file?: string): string {
  if (!file) return newClusterId()
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const id = newClusterId()
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, `${id}\n`)
  return id
}

/**
 * A Kafka cluster id: 16 random bytes in url-safe base64 (22 characters). One that starts with '-'
 * is drawn again, as Kafka's own Uuid.randomUuid does: the storage tool would read it as an option
 * and refuse to format (1 start in 64 failed so).
 */
export function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url')
    if (!id.startsWith('-')) return id
  }
}
