/**
 * A Confluent-compatible schema registry: Apicurio Registry (version pinned in
 * infra/maven/pom.xml, currently 3.3.3) serving the Confluent API under /apis/ccompat/v7 on
 * 127.0.0.1, from its Maven Central distribution (`apicurio-registry-app:<v>:tar.gz:all`, a
 * Quarkus fast-jar: `java -jar quarkus-run.jar`).
 *
 * Version and Java: no Apicurio 3.1.x or 3.2.x is on Maven Central (the app's metadata lists
 * 3.0.9, 3.3.2, 3.3.3). 3.3.x is compiled for Java 21 (on the default Java 17 it dies with
 * UnsupportedClassVersionError), so it runs on the newest JDK found by globbing
 * /usr/lib/jvm/temurin-* (Temurin 25 here), or the default `java` if that is 21+. (3.0.9, the
 * last Java-17 release there, cannot be resolved by dependency:unpack: its parent pom is missing
 * from Central; a database written by it is upgraded in place by 3.3.3, see below.)
 *
 * Settings and quirks (checked with @kafkajs/confluent-schema-registry 3.9 on 2026-11-22):
 *  - `apicurio.rules.global.compatibility=BACKWARD`: the client reads /config/{subject} and
 *    refuses to register when the level differs from its own (BACKWARD). For a subject that does
 *    not exist yet Apicurio answers 404 and the client, after registering, PUTs BACKWARD on the
 *    subject itself; a subject created by another tool reports the global level, hence this
 *    setting. With it, register /
 *    re-register (same id back) / compatible evolution / encode / decode work, and an
 *    incompatible schema is refused with a RuleViolationException (HTTP 409).
 *  - Storage: H2 file database <dataDir>/registry/registry.mv.db (apicurio.storage.kind=sql,
 *    apicurio.storage.sql.kind=h2, apicurio.datasource.url=jdbc:h2:file:…), so ids survive a
 *    restart. A database written by 3.0.9 is upgraded in place on first start (DB v101 → v109).
 *  - Ids are content ids: the same schema text under two subjects gets the same id (as in
 *    Confluent's registry).
 *  - 3.3.x always starts a Quarkus management interface (health, metrics); its default port is
 *    9000, which is ClickHouse's TCP port, and `quarkus.management.enabled` is build-time only,
 *    so it is moved to 127.0.0.1 on a random free port (quarkus.management.port=0).
 *  - The JDBC pool defaults to 20 idle connections; 2 are plenty here.
 *  - Deleting subjects/versions needs apicurio.rest.deletion.{group,artifact,artifact-version}.enabled.
 *  - C1-only JIT and SerialGC: about 9 s to ready instead of 14 s on a 2-CPU machine; the
 *    registry's load is a few lookups (clients cache ids).
 *  - Anyone may read, only the service writes (outside consumers get the schemas, never a way to
 *    change them): Quarkus's HTTP Basic with its embedded users realm, Apicurio's role-based
 *    authorization with anonymous reads. The one user, `lds` (sr-admin), has a password made on
 *    the first start and kept in <dataDir>/registry/service-password (owner-only); the login is
 *    in a properties file beside it (quarkus.config.locations), so no password is in a process's
 *    arguments. Without credentials a write is answered 401; reads answer as before.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { REGISTRY_SERVICE_USER, type Config } from '../core/config.js'
import { localRegistryPasswordFile } from '../core/registry.js'
import type { LocalService, ServiceStatus } from './service.js'
import { mvn, pomProperty } from './maven/mvn.js'
import { isRunning, readPid, runCommand, startDetached, stopOwnedService, tcpPortOpen, waitFor, withLock } from './process.js'

export const APICURIO_VERSION = pomProperty('apicurio.version')
/** Apicurio 3.2+ needs Java 21; 3.0.x/3.1.x run on 17. */
const MIN_JAVA = /^3\.[01]\./.test(APICURIO_VERSION) ? 17 : 21

const START_TIMEOUT_MS = 120_000
const STOP_TIMEOUT_MS = 15_000

/** The distribution's packaging on Maven Central (tar.gz for 3.3.x). */
const APICURIO_TYPE = pomProperty('apicurio.type')

export const registryPaths = (cfg: Config) => {
  const lib = path.join(cfg.dataDir, 'lib', 'registry', APICURIO_VERSION)
  return {
    lib,
    /** quarkus-run.jar (fast-jar layout), or the older apicurio-registry-app-<v>-runner.jar */
    jar: [path.join(lib, 'quarkus-run.jar'), path.join(lib, `apicurio-registry-app-${APICURIO_VERSION}-runner.jar`)].find(existsSync) ?? path.join(lib, 'quarkus-run.jar'),
    installed: path.join(lib, '.installed'),
    data: path.join(cfg.dataDir, 'registry'),
    log: path.join(cfg.dataDir, 'logs', 'registry.log'),
    pid: path.join(cfg.dataDir, 'run', 'registry.pid'),
    lock: path.join(cfg.dataDir, 'run', 'registry.lock'),
  }
}

/** The ccompat base of this registry, on the configured port (the service's own address). */
const ccompatBase = (cfg: Config) => `http://127.0.0.1:${cfg.ports.registry}/apis/ccompat/v7`

/** The service's login, made on the first start: the password file and the Quarkus properties naming it. */
function serviceLogin(cfg: Config): string {
  const file = localRegistryPasswordFile(cfg.dataDir)
  mkdirSync(path.dirname(file), { recursive: true })
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 })
  const password = readFileSync(file, 'utf8').trim()
  const props = path.join(path.dirname(file), 'auth.properties')
  writeFileSync(props, [
    '# written by infra/registry-server.ts on every start',
    'quarkus.http.auth.basic=true',
    'quarkus.security.users.embedded.enabled=true',
    'quarkus.security.users.embedded.plain-text=true',
    `quarkus.security.users.embedded.users.${REGISTRY_SERVICE_USER}=${password}`,
    `quarkus.security.users.embedded.roles.${REGISTRY_SERVICE_USER}=sr-admin`,
    'apicurio.auth.role-based-authorization=true',
    'apicurio.auth.anonymous-read-access.enabled=true',
    '',
  ].join('\n'), { mode: 0o600 })
  return props
}

async function ready(cfg: Config): Promise<boolean> {
  // The global compatibility level: a constant answer (listing /subjects takes seconds with thousands).
  const res = await fetch(`${ccompatBase(cfg)}/config`, { signal: AbortSignal.timeout(2000) })
  await res.body?.cancel()
  return res.status === 200
}

async function javaMajor(java: string): Promise<number | undefined> {
  try {
    const out = await runCommand(java, ['-version'])
    const m = /version "(\d+)(?:\.(\d+))?/.exec(out)
    if (!m) return undefined
    return m[1] === '1' ? Number(m[2]) : Number(m[1])
  } catch { return undefined }
}

/** A java binary able to run this Apicurio version: the newest /usr/lib/jvm/temurin-*, else the default `java`. */
async function findJava(): Promise<string> {
  const jvmDir = '/usr/lib/jvm'
  const candidates = existsSync(jvmDir)
    ? readdirSync(jvmDir)
      .filter((d) => d.startsWith('temurin-'))
      .map((d) => ({ bin: path.join(jvmDir, d, 'bin', 'java'), major: Number(/^temurin-(\d+)/.exec(d)?.[1] ?? 0) }))
      .filter((c) => existsSync(c.bin))
      .sort((a, b) => b.major - a.major)
    : []
  for (const c of candidates) {
    if (c.major >= MIN_JAVA && ((await javaMajor(c.bin)) ?? 0) >= MIN_JAVA) return c.bin
  }
  const dflt = await javaMajor('java')
  if (dflt !== undefined && dflt >= MIN_JAVA) return 'java'
  throw new Error(
    `registry: Apicurio Registry ${APICURIO_VERSION} needs Java ${MIN_JAVA}+; the default java is ${dflt ?? 'missing'} ` +
      `and no /usr/lib/jvm/temurin-* JDK ${MIN_JAVA}+ was found. Install one (e.g. the temurin-21-jdk or temurin-25-jdk package).`,
  )
}

const installedOk = (cfg: Config) => existsSync(registryPaths(cfg).installed) && existsSync(registryPaths(cfg).jar)

export const registry: LocalService = {
  name: 'registry',

  async install(cfg, log) {
    if (installedOk(cfg)) return
    const p = registryPaths(cfg)
    await withLock(p.lock, async () => {
      if (installedOk(cfg)) return
      rmSync(p.lib, { recursive: true, force: true }) // a half-finished unpack
      mkdirSync(p.lib, { recursive: true })
      log(`registry: fetching Apicurio Registry ${APICURIO_VERSION} (${APICURIO_TYPE}, about 110-160 MB) from Maven Central and unpacking it (mvn dependency:unpack@registry → ${p.lib}) …`)
      const t0 = Date.now()
      await mvn(['dependency:unpack@registry', `-Dregistry.dir=${p.lib}`])
      const jar = registryPaths(cfg).jar
      if (!existsSync(jar)) throw new Error(`registry: Maven finished but ${jar} is missing`)
      writeFileSync(p.installed, `apicurio-registry-app ${APICURIO_VERSION}\n`)
      log(`registry: installed in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    })
  },

  async start(cfg, log) {
    const p = registryPaths(cfg)
    const what = `schema registry on ${ccompatBase(cfg)}`
    await withLock(p.lock, async () => {
      if (isRunning(p.pid)) {
        await waitFor(() => ready(cfg), { what, timeoutMs: START_TIMEOUT_MS, logFile: p.log, pid: readPid(p.pid) })
        return
      }
      if (await tcpPortOpen('127.0.0.1', cfg.ports.registry)) {
        if (await ready(cfg).catch(() => false)) {
          log(`registry: a registry not started from ${cfg.dataDir} already answers on 127.0.0.1:${cfg.ports.registry}; leaving it alone`)
          return
        }
        throw new Error(`registry: port 127.0.0.1:${cfg.ports.registry} is taken by something that does not serve /apis/ccompat/v7 (LDS_REGISTRY_PORT changes the port)`)
      }
      if (!existsSync(p.jar)) throw new Error(`registry: not installed (no ${p.jar}); run \`npx tsx infra/cli.ts up\``)
      const java = await findJava()
      mkdirSync(p.data, { recursive: true })
      const login = serviceLogin(cfg)
      const pid = startDetached({
        name: 'registry',
        cmd: java,
        cwd: p.lib,
        logFile: p.log,
        pidFile: p.pid,
        args: [
          '-Xms64m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:+ExitOnOutOfMemoryError',
          '-Djava.awt.headless=true',
          '-Dquarkus.http.host=127.0.0.1', `-Dquarkus.http.port=${cfg.ports.registry}`,
          '-Dquarkus.management.host=127.0.0.1', '-Dquarkus.management.port=0',
          '-Dapicurio.rules.global.compatibility=BACKWARD',
          '-Dapicurio.storage.kind=sql', '-Dapicurio.storage.sql.kind=h2',
          `-Dapicurio.datasource.url=jdbc:h2:file:${path.join(p.data, 'registry')}`,
          '-Dapicurio.datasource.jdbc.initial-size=2', '-Dapicurio.datasource.jdbc.min-size=2', '-Dapicurio.datasource.jdbc.max-size=20',
          '-Dapicurio.rest.deletion.group.enabled=true',
          '-Dapicurio.rest.deletion.artifact.enabled=true',
          '-Dapicurio.rest.deletion.artifact-version.enabled=true',
          `-Dapicurio.storage.snapshot.location=${p.data}`,
          '-Dquarkus.http.access-log.enabled=false',
          `-Dquarkus.config.locations=${login}`,
          '-Dquarkus.log.console.format=%d{yyyy-MM-dd HH:mm:ss,SSS} %p [%c{3.}] %m%n',
          '-jar', p.jar,
        ],
      })
      log(`registry: started Apicurio Registry ${APICURIO_VERSION} with ${java} (pid ${pid}); waiting for ${ccompatBase(cfg)} (log: ${p.log})`)
      await waitFor(() => ready(cfg), { what, timeoutMs: START_TIMEOUT_MS, logFile: p.log, pid })
    })
  },

  async stop(cfg, log) {
    await stopOwnedService({ name: 'registry', pidFile: registryPaths(cfg).pid, port: cfg.ports.registry, dataDir: cfg.dataDir, timeoutMs: STOP_TIMEOUT_MS }, log)
  },

  async status(cfg): Promise<ServiceStatus> {
    const p = registryPaths(cfg)
    const up = await ready(cfg).catch(() => false)
    const pid = isRunning(p.pid) ? readPid(p.pid) : undefined
    let detail: string | undefined
    if (up) detail = pid ? `Apicurio Registry ${APICURIO_VERSION}, ${ccompatBase(cfg)}` : 'a registry answers, but not one started from this data dir'
    else if (pid) detail = `process ${pid} runs but ${ccompatBase(cfg)} does not answer; see ${p.log}`
    else if (!installedOk(cfg)) detail = 'not installed'
    return { name: 'registry', running: up, pid, address: `127.0.0.1:${cfg.ports.registry}`, detail }
  },

  async reset(cfg, log) {
    const p = registryPaths(cfg)
    if (isRunning(p.pid)) throw new Error('registry: still running; stop it before a reset')
    rmSync(p.data, { recursive: true, force: true })
    rmSync(p.log, { force: true })
    log(`registry: removed ${p.data}`)
  },
}
