/**
 * A Confluent-compatible schema registry: Apicurio Registry 3.0.9 (the newest 3.x whose
 * runnable `-all.zip` is on Maven Central; runs on Java 17), serving the Confluent API under
 * /apis/ccompat/v7 on 127.0.0.1. Schemas persist in an H2 file under .data/registry, so ids
 * survive restarts. Global compatibility is BACKWARD because the Confluent client reads
 * /config/{subject} and refuses to register when the level differs from its own.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '../core/config.js'
import { PROJECT_ROOT } from '../core/config.js'
import type { LocalService } from './service.js'
import { copyArtifact, run } from './maven.js'
import { isRunning, readPid, startDetached, stopProcess, waitUntil } from './process.js'

const VERSION = '3.0.9'

const paths = (cfg: Config) => ({
  lib: path.join(cfg.dataDir, 'lib', 'registry'),
  jar: path.join(cfg.dataDir, 'lib', 'registry', `apicurio-registry-app-${VERSION}-runner.jar`),
  data: path.join(cfg.dataDir, 'registry'),
  log: path.join(cfg.dataDir, 'logs', 'registry.log'),
  pid: path.join(cfg.dataDir, 'run', 'registry.pid'),
})

async function ready(cfg: Config): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${cfg.ports.registry}/apis/ccompat/v7/subjects`, { signal: AbortSignal.timeout(2000) })
  return res.ok
}

export const registry: LocalService = {
  name: 'registry',
  async install(cfg, log) {
    const p = paths(cfg)
    if (existsSync(p.jar)) return
    log(`registry: fetching Apicurio Registry ${VERSION} from Maven Central into ${p.lib}`)
    const zip = await copyArtifact(path.join(PROJECT_ROOT, 'infra/maven/kafka.pom.xml'), `io.apicurio:apicurio-registry-app:${VERSION}:zip:all`, p.lib)
    await run('python3', ['-m', 'zipfile', '-e', zip, p.lib])
    rmSync(zip, { force: true })
  },
  async start(cfg, log) {
    const p = paths(cfg)
    if (isRunning(p.pid) || await ready(cfg).catch(() => false)) return
    mkdirSync(p.data, { recursive: true })
    const pid = startDetached({
      cmd: 'java', logFile: p.log, pidFile: p.pid, cwd: p.lib,
      args: [
        '-Xms128m', '-Xmx512m', '-XX:+UseSerialGC',
        '-Dquarkus.http.host=127.0.0.1', `-Dquarkus.http.port=${cfg.ports.registry}`,
        '-Dapicurio.rules.global.compatibility=BACKWARD',
        '-Dapicurio.storage.sql.kind=h2',
        `-Dapicurio.datasource.url=jdbc:h2:file:${path.join(p.data, 'registry')};DB_CLOSE_ON_EXIT=FALSE`,
        '-Dapicurio.rest.deletion.group.enabled=true', '-Dapicurio.rest.deletion.artifact.enabled=true',
        '-Dapicurio.rest.deletion.artifact-version.enabled=true',
        '-Dquarkus.log.level=WARN', '-Dquarkus.log.category."io.apicurio".level=WARN',
        '-jar', p.jar,
      ],
    })
    log(`registry: started (pid ${pid}); waiting for 127.0.0.1:${cfg.ports.registry}/apis/ccompat/v7`)
    await waitUntil(() => ready(cfg), 'schema registry', { timeoutMs: 90_000, logFile: p.log, pid })
  },
  async stop(cfg, log) {
    if (await stopProcess(paths(cfg).pid, 15_000)) log('registry: stopped')
  },
  async status(cfg) {
    const up = await ready(cfg).catch(() => false)
    return { name: 'registry', running: up, pid: readPid(paths(cfg).pid), address: `127.0.0.1:${cfg.ports.registry}`, detail: up ? `Apicurio Registry ${VERSION}, /apis/ccompat/v7` : undefined }
  },
  async reset(cfg) {
    rmSync(paths(cfg).data, { recursive: true, force: true })
  },
}
