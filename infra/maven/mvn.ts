/**
 * The machine's Maven, run on infra/maven/pom.xml (a dependency-only pom whose properties pin
 * the versions of the local Kafka and schema registry).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { PROJECT_ROOT } from '../../core/config.js'
import { runCommand } from '../process.js'

export const POM = path.join(PROJECT_ROOT, 'infra', 'maven', 'pom.xml')

/** A `<properties>` value of the pom, e.g. pomProperty('kafka.version') → "4.1.2". */
export function pomProperty(name: string): string {
  const xml = readFileSync(POM, 'utf8')
  const m = new RegExp(`<${name.replace(/\./g, '\\.')}>\\s*([^<\\s]+)\\s*</${name.replace(/\./g, '\\.')}>`).exec(xml)
  if (!m) throw new Error(`${POM}: no <${name}> property`)
  return m[1]
}

/** `mvn -q -B -f infra/maven/pom.xml <args>`; throws with Maven's output when it fails. */
export async function mvn(args: string[]): Promise<void> {
  try {
    await runCommand('mvn', ['-q', '-B', '-f', POM, ...args])
  } catch (err) {
    const msg = (err as Error).message
    if (/ENOENT/.test(msg)) throw new Error('mvn (Maven 3.8+) is not on PATH; it is needed once, to fetch the Kafka and registry jars from Maven Central')
    throw err
  }
}
