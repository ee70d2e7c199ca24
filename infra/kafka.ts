/**
 * Apache Kafka 4.1.1, single node in KRaft mode (broker and controller in one JVM), from Maven
 * Central jars, on 127.0.0.1. Checked with KafkaJS 2.2.4: metadata, topic creation (compacted
 * too), idempotent producer (InitProducerId v1), consumer groups and offset commits all work;
 * right after a start the coordinator answers "loading" for a second, which KafkaJS retries.
 */
import { mkdirSync, writeFileSync, existsSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { Kafka, logLevel } from 'kafkajs'
import type { Config } from '../core/config.js'
import { PROJECT_ROOT } from '../core/config.js'
import type { LocalService } from './service.js'
import { copyDependencies, hasFiles, run } from './maven.js'
import { isRunning, readPid, startDetached, stopProcess, waitUntil, tcpPortOpen } from './process.js'
import { rmSync } from 'node:fs'

const paths = (cfg: Config) => ({
  lib: path.join(cfg.dataDir, 'lib', 'kafka'),
  home: path.join(cfg.dataDir, 'kafka'),
  data: path.join(cfg.dataDir, 'kafka', 'data'),
  props: path.join(cfg.dataDir, 'kafka', 'server.properties'),
  log4j: path.join(cfg.dataDir, 'kafka', 'log4j2.properties'),
  log: path.join(cfg.dataDir, 'logs', 'kafka.log'),
  pid: path.join(cfg.dataDir, 'run', 'kafka.pid'),
})

function serverProperties(cfg: Config, dataDir: string): string {
  const { kafka: port, kafkaController: ctl } = cfg.ports
  return `# written by infra/kafka.ts
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
auto.create.topics.enable=true
delete.topic.enable=true
log.cleaner.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
message.max.bytes=16777216
replica.fetch.max.bytes=16777216
`
}

function log4j(logFile: string): string {
  return `status = error
appender.file.type = File
appender.file.name = file
appender.file.fileName = ${logFile}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
logger.kafka.name = kafka
logger.kafka.level = warn
logger.apache.name = org.apache.kafka
logger.apache.level = warn
logger.started.name = kafka.server.KafkaRaftServer
logger.started.level = info
`
}

async function brokerReady(cfg: Config): Promise<boolean> {
  if (!(await tcpPortOpen('127.0.0.1', cfg.ports.kafka))) return false
  const admin = new Kafka({ clientId: 'lds-infra', brokers: [`127.0.0.1:${cfg.ports.kafka}`], logLevel: logLevel.NOTHING, retry: { retries: 0 } }).admin()
  try {
    await admin.connect()
    const { brokers } = await admin.describeCluster()
    return brokers.length > 0
  } finally { await admin.disconnect().catch(() => {}) }
}

export const kafka: LocalService = {
  name: 'kafka',
  async install(cfg, log) {
    const p = paths(cfg)
    if (hasFiles(p.lib, '.jar')) return
    log(`kafka: fetching Apache Kafka 4.1.1 jars from Maven Central into ${p.lib}`)
    await copyDependencies(path.join(PROJECT_ROOT, 'infra/maven/kafka.pom.xml'), p.lib)
  },
  async start(cfg, log) {
    const p = paths(cfg)
    if (isRunning(p.pid) || await brokerReady(cfg).catch(() => false)) return
    mkdirSync(p.data, { recursive: true })
    writeFileSync(p.props, serverProperties(cfg, p.data))
    writeFileSync(p.log4j, log4j(p.log))
    const cp = `${p.lib}/*`
    if (!existsSync(path.join(p.data, 'meta.properties'))) {
      log('kafka: formatting storage (KRaft)')
      await run('java', ['-cp', cp, `-Dlog4j2.configurationFile=${p.log4j}`, 'kafka.tools.StorageTool', 'format', '-t', randomBytes(16).toString('base64url'), '-c', p.props, '--ignore-formatted'])
    }
    const pid = startDetached({
      cmd: 'java', logFile: p.log, pidFile: p.pid,
      args: ['-Xms256m', '-Xmx1g', '-XX:+UseG1GC', '-Djava.awt.headless=true', `-Dlog4j2.configurationFile=${p.log4j}`, '-cp', cp, 'kafka.Kafka', p.props],
    })
    log(`kafka: started (pid ${pid}); waiting for the broker on 127.0.0.1:${cfg.ports.kafka}`)
    await waitUntil(() => brokerReady(cfg), 'kafka', { timeoutMs: 90_000, logFile: p.log, pid })
  },
  async stop(cfg, log) {
    if (await stopProcess(paths(cfg).pid, 20_000)) log('kafka: stopped')
  },
  async status(cfg) {
    const p = paths(cfg)
    const ready = await brokerReady(cfg).catch(() => false)
    return { name: 'kafka', running: ready, pid: readPid(p.pid), address: `127.0.0.1:${cfg.ports.kafka}`, detail: ready ? 'Apache Kafka 4.1.1 (KRaft)' : undefined }
  },
  async reset(cfg) {
    rmSync(paths(cfg).home, { recursive: true, force: true })
  },
}
