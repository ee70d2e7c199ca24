/**
 * Apache Kafka 4.1.x (version pinned in infra/maven/pom.xml), one KRaft node (broker and
 * controller in one JVM) on 127.0.0.1, from Maven Central jars, run with the machine's `java`
 * (17). Data under <dataDir>/kafka/data, log in <dataDir>/logs/kafka.log, pid in <dataDir>/run.
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
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
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

function serverProperties(cfg: Config, dataDir: string): string {
  const { kafka: port, kafkaController: ctl } = cfg.ports
  return `# written by infra/kafka-server.ts on every start; edit that file, not this one
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${ctl}
listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${ctl}
advertised.listeners=PLAINTEXT://127.0.0.1:${port}
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=${dataDir}
num.partitions=1
default.replication.factor=1
auto.create.topics.enable=true
delete.topic.enable=true
log.cleaner.enable=true
log.cleaner.dedupe.buffer.size=33554432
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
message.max.bytes=16777216
replica.fetch.max.bytes=16777216
# One idle local node: the controller writes a no-op record to the metadata log every 500 ms by
# default (to show it is alive to observers, of which a single node has none), and the log cleaner
# looks over every compacted topic every 15 s.
metadata.max.idle.interval.ms=10000
log.cleaner.backoff.ms=60000
`
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

const javaBaseArgs = (cfg: Config) => {
  const p = kafkaPaths(cfg)
  return [`-Dlog4j2.configurationFile=${p.log4j}`, '-Djava.awt.headless=true', '-cp', `${p.lib}/*`]
}

/** The broker answers a metadata request (through KafkaJS, as the application will). */
async function brokerReady(cfg: Config): Promise<boolean> {
  if (!(await tcpPortOpen('127.0.0.1', cfg.ports.kafka))) return false
  const admin = new Kafka({
    clientId: 'lds-infra',
    brokers: [`127.0.0.1:${cfg.ports.kafka}`],
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
function libVersion(cfg: Config): string | undefined {
  const lib = kafkaPaths(cfg).lib
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
    const p = kafkaPaths(cfg)
    const what = `kafka broker on 127.0.0.1:${cfg.ports.kafka}`
    await withLock(p.lock, async () => {
      if (isRunning(p.pid)) {
        // Ours; possibly still starting (e.g. started by a concurrent `up`).
        await waitFor(() => brokerReady(cfg), { what, timeoutMs: START_TIMEOUT_MS, logFile: p.log, pid: readPid(p.pid) })
        return
      }
      if (await tcpPortOpen('127.0.0.1', cfg.ports.kafka)) {
        if (await brokerReady(cfg).catch(() => false)) {
          log(`kafka: a broker not started from ${cfg.dataDir} already answers on 127.0.0.1:${cfg.ports.kafka}; leaving it alone`)
          return
        }
        throw new Error(`kafka: port 127.0.0.1:${cfg.ports.kafka} is taken by something that is not a Kafka broker (LDS_KAFKA_PORT changes the port)`)
      }
      if (await tcpPortOpen('127.0.0.1', cfg.ports.kafkaController)) {
        throw new Error(`kafka: controller port 127.0.0.1:${cfg.ports.kafkaController} is already taken (LDS_KAFKA_CONTROLLER_PORT changes it)`)
      }
      if (!libVersion(cfg)) throw new Error(`kafka: not installed (no kafka_2.13 jar in ${p.lib}); run \`npx tsx infra/cli.ts up\``)
      mkdirSync(p.data, { recursive: true })
      writeFileSync(p.props, serverProperties(cfg, p.data))
      writeFileSync(p.log4j, log4jProperties())
      if (!existsSync(path.join(p.data, 'meta.properties'))) {
        const clusterId = newClusterId()
        log(`kafka: formatting KRaft storage in ${p.data} (cluster id ${clusterId})`)
        await runCommand('java', [...javaBaseArgs(cfg), 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', p.props, '--ignore-formatted'])
      }
      const pid = startDetached({
        name: 'kafka',
        cmd: 'java',
        args: ['-Xms256m', '-Xmx1g', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExitOnOutOfMemoryError', ...javaBaseArgs(cfg), 'kafka.Kafka', p.props],
        cwd: p.home,
        logFile: p.log,
        pidFile: p.pid,
      })
      log(`kafka: started Apache Kafka ${libVersion(cfg)} (pid ${pid}); waiting for the broker on 127.0.0.1:${cfg.ports.kafka} (log: ${p.log})`)
      await waitFor(() => brokerReady(cfg), { what, timeoutMs: START_TIMEOUT_MS, logFile: p.log, pid })
    })
  },

  async stop(cfg, log) {
    await stopOwnedService({ name: 'kafka', pidFile: kafkaPaths(cfg).pid, port: cfg.ports.kafka, dataDir: cfg.dataDir, timeoutMs: STOP_TIMEOUT_MS, stopping: 'stopping (controlled shutdown)' }, log)
  },

  async status(cfg): Promise<ServiceStatus> {
    const p = kafkaPaths(cfg)
    const ready = await brokerReady(cfg).catch(() => false)
    const pid = isRunning(p.pid) ? readPid(p.pid) : undefined
    let detail: string | undefined
    if (ready && pid) {
      const v = libVersion(cfg)
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
