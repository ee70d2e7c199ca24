/** Fetching runtimes from Maven Central with the machine's Maven; each step is skipped when its output exists. */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import path from 'node:path'

export function run(cmd: string, args: string[], opts: { cwd?: string } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => { out += d })
    child.stderr.on('data', (d) => { out += d })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code}):\n${out.slice(-3000)}`))))
  })
}

export const hasFiles = (dir: string, suffix: string) => existsSync(dir) && readdirSync(dir).some((f) => f.endsWith(suffix))

/** Copies the dependencies of a dependency-only pom into `outDir`. */
export async function copyDependencies(pom: string, outDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true })
  await run('mvn', ['-q', '-B', '-f', pom, 'dependency:copy-dependencies', `-DoutputDirectory=${outDir}`])
}

/** Copies one artifact (e.g. a zip) into `outDir`; `pom` is any project file (the goal needs one). */
export async function copyArtifact(pom: string, coords: string, outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true })
  await run('mvn', ['-q', '-B', '-f', pom, 'dependency:copy', `-Dartifact=${coords}`, `-DoutputDirectory=${outDir}`, '-Dmdep.overWriteReleases=false'])
  const [g, a, v, type, classifier] = coords.split(':')
  void g
  return path.join(outDir, `${a}-${v}${classifier ? `-${classifier}` : ''}.${type}`)
}
