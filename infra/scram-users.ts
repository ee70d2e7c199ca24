/**
 * SCRAM-SHA-512 users on the broker, managed through Kafka's own Admin client (KafkaJS cannot
 * alter SCRAM credentials): ScramUsers.java beside this file, compiled once against the broker's
 * jars into <kafka lib>/../scram-users-<hash of the source>/ and run with the machine's `java`, as
 * the broker is. Passwords go to the JVM on stdin, never as arguments (which every local user can
 * read with ps).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '../core/config.js'
import { kafka as kafkaService, kafkaPaths } from './kafka-server.js'
import { projectFile } from '../core/programs.js'

const SOURCE = projectFile('infra', 'ScramUsers.java')
/** ScramUsers.java's answer to `create` of an existing user and `delete` of an unknown one. */
const EXIT_EXISTS_OR_MISSING = 3

export interface ScramUsers {
  /** Users with a SCRAM-SHA-512 credential. */
  list(): Promise<string[]>
  /** false when the user exists already (nothing changed). */
  create(name: string, password: string): Promise<boolean>
  /** Sets a new password, whether the user existed or not. */
  rotate(name: string, password: string): Promise<void>
  /** false when the user had no credential. */
  remove(name: string): Promise<boolean>
}

export function scramUsers(cfg: Config, log: (m: string) => void = () => {}): ScramUsers {
  let prepared: Promise<{ lib: string; classes: string }> | undefined
  const prepare = () => (prepared ??= compiled(cfg, log))
  const run = async (args: string[], stdin = '') => {
    const { lib, classes } = await prepare()
    return java(['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', `-Dlog4j2.configurationFile=${path.join(classes, 'log4j2.properties')}`,
      '-cp', `${lib}/*${path.delimiter}${classes}`, 'ScramUsers', cfg.kafkaBrokers.join(','), ...args], stdin)
  }
  const failed = (what: string, r: JavaResult) => new Error(`${what} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}`)
  return {
    async list() {
      const r = await run(['list'])
      if (r.code !== 0) throw failed('listing SCRAM users', r)
      return r.stdout.split('\n').map((s) => s.trim()).filter(Boolean).sort()
    },
    async create(name, password) {
      const r = await run(['create', name], `${password}\n`)
      if (r.code === EXIT_EXISTS_OR_MISSING) return false
      if (r.code !== 0) throw failed(`creating SCRAM user ${name}`, r)
      return true
    },
    async rotate(name, password) {
      const r = await run(['rotate', name], `${password}\n`)
      if (r.code !== 0) throw failed(`setting the password of SCRAM user ${name}`, r)
    },
    async remove(name) {
      const r = await run(['delete', name])
      if (r.code === EXIT_EXISTS_OR_MISSING) return false
      if (r.code !== 0) throw failed(`deleting SCRAM user ${name}`, r)
      return true
    },
  }
}

/** The broker's jars: this deployment's, the main stack's (the local cluster shares them), or installed now. */
async function kafkaLib(cfg: Config, log: (m: string) => void): Promise<string> {
  const own = kafkaPaths(cfg).lib
  const candidates = [own, path.join(path.dirname(cfg.dataDir), 'lib', 'kafka')]
  const hasJars = (dir: string) => existsSync(dir) && readdirSync(dir).some((f) => /^kafka-clients-.+\.jar$/.test(f))
  const found = candidates.find(hasJars)
  if (found) return found
  await kafkaService.install(cfg, log)
  return own
}

/** ScramUsers.class for this source, compiled once (into a temporary folder, renamed when complete). */
async function compiled(cfg: Config, log: (m: string) => void): Promise<{ lib: string; classes: string }> {
  const lib = await kafkaLib(cfg, log)
  const source = readFileSync(SOURCE)
  const classes = path.join(path.dirname(lib), `scram-users-${createHash('sha256').update(source).digest('hex').slice(0, 12)}`)
  if (existsSync(path.join(classes, 'ScramUsers.class'))) return { lib, classes }
  const tmp = `${classes}.tmp-${process.pid}`
  mkdirSync(tmp, { recursive: true })
  try {
    const r = await run('javac', ['-nowarn', '-cp', `${lib}/*`, '-d', tmp, SOURCE])
    if (r.code !== 0) throw new Error(`javac ScramUsers.java failed (exit ${r.code}): ${r.stderr.trim()}`)
    // Kafka's admin client logs its version at info: a command's output stays its own.
    writeFileSync(path.join(tmp, 'log4j2.properties'), 'status = error\nrootLogger.level = error\nappender.err.type = Console\nappender.err.name = err\nappender.err.target = SYSTEM_ERR\nappender.err.layout.type = PatternLayout\nappender.err.layout.pattern = %p %m%n\nrootLogger.appenderRef.err.ref = err\n')
    try { renameSync(tmp, classes) } catch (err) { if (!existsSync(path.join(classes, 'ScramUsers.class'))) throw err }
  } finally { rmSync(tmp, { recursive: true, force: true }) }
  return { lib, classes }
}

interface JavaResult { code: number; stdout: string; stderr: string }

const java = (args: string[], stdin: string) => run('java', args, stdin)

function run(cmd: string, args: string[], stdin = ''): Promise<JavaResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    child.on('error', (err) => reject(new Error(`${cmd} could not be run (${err.message}); Kafka's tools need a Java 17 or newer on the PATH`)))
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }))
    child.stdin.end(stdin)
  })
}
