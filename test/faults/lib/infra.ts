/**
 * The fault instance's services: up and down for the whole suite, and the faults themselves
 * (SIGKILL of the broker, ClickHouse or the registry stopped and started again). Everything acts
 * through the services' own pid files under <dataDir>/run, never by process name.
 */
import { existsSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT, type Config } from '../../../core/config.js'
import { infraUp, infraDown } from '../../../infra/cli.js'
import { kafka, kafkaPaths, KAFKA_VERSION } from '../../../infra/kafka-server.js'
import { registry, registryPaths } from '../../../infra/registry-server.js'
import { clickhouse } from '../../../infra/clickhouse-server.js'
import { isAlive, readPid, tcpPortOpen } from '../../../infra/process.js'
import type { Log } from './log.js'
import { waitFor } from './wait.js'

/**
 * The installed jars are the same for every data dir: when the default instance (`.data/lib`) has
 * them and ours has none, ours links to them instead of copying 250 MB from Maven again.
 */
function shareInstalledJars(cfg: Config, log: Log): void {
  const mine = path.join(cfg.dataDir, 'lib')
  const shared = path.join(PROJECT_ROOT, '.data', 'lib')
  if (path.resolve(mine) === path.resolve(shared) || existsSync(mine) || (lstatSync(mine, { throwIfNoEntry: false })?.isSymbolicLink() ?? false)) return
  const kafkaReady = existsSync(path.join(shared, 'kafka', `.installed-${KAFKA_VERSION}`))
  if (!kafkaReady) return
  mkdirSync(cfg.dataDir, { recursive: true })
  symlinkSync(shared, mine, 'dir')
  log(`infra: using the jars installed under ${shared}`)
}

export async function upInstance(cfg: Config, log: Log): Promise<string[]> {
  shareInstalledJars(cfg, log)
  const l = (m: string) => log(`infra: ${m}`)
  return infraUp(cfg, l)
}

export async function downInstance(cfg: Config, log: Log): Promise<void> {
  await infraDown(cfg, (m) => log(`infra: ${m}`))
}

/** SIGKILL of the broker's process group; resolves once it is gone. */
export const killKafka = (cfg: Config, log: Log): Promise<number> =>
  killBrokerProcess({ name: 'kafka', pidFile: kafkaPaths(cfg).pid, port: cfg.ports.kafka, controllerPort: cfg.ports.kafkaController }, log)

/** SIGKILL of a broker's process group (by its pid file); resolves with its pid once it and its ports are gone. */
export async function killBrokerProcess(b: { name: string; pidFile: string; port: number; controllerPort: number }, log: Log): Promise<number> {
  const pid = readPid(b.pidFile)
  if (!pid || !isAlive(pid)) throw new Error(`${b.name}: no running broker in ${b.pidFile}`)
  try { process.kill(-pid, 'SIGKILL') } catch { process.kill(pid, 'SIGKILL') }
  // The leader thread shows as a zombie while the JVM's other threads still hold the sockets: wait for the ports too.
  await waitFor(async () => !isAlive(pid) && !(await tcpPortOpen('127.0.0.1', b.port, 200)) && !(await tcpPortOpen('127.0.0.1', b.controllerPort, 200)),
    `${b.name} pid ${pid} and its ports gone after SIGKILL`, 30_000, 50)
  log(`${b.name}: SIGKILLed (pid ${pid})`)
  return pid
}

export const startKafka = (cfg: Config, log: Log) => kafka.start(cfg, (m) => log(m))
export const stopClickHouse = (cfg: Config, log: Log) => clickhouse.stop(cfg, (m) => log(m))
export const startClickHouse = (cfg: Config, log: Log) => clickhouse.start(cfg, (m) => log(m))
export const stopRegistry = (cfg: Config, log: Log) => registry.stop(cfg, (m) => log(m))
export const startRegistry = (cfg: Config, log: Log) => registry.start(cfg, (m) => log(m))
export const registryLog = (cfg: Config) => registryPaths(cfg).log
