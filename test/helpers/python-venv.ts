/**
 * A Python virtual environment with a requirements file installed, made once under
 * .data/venvs/<hash of the file> (from PyPI, like any user of the example would) and reused by
 * later runs until the file changes.
 */
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { PROJECT_ROOT } from '../../core/config.js'

const run = promisify(execFile)

/** The venv's python, with `requirements` installed. */
export async function pythonWith(requirements: string): Promise<string> {
  const hash = createHash('sha256').update(readFileSync(requirements)).digest('hex').slice(0, 12)
  const dir = path.join(PROJECT_ROOT, '.data', 'venvs', hash)
  const python = path.join(dir, 'bin', 'python')
  const ready = path.join(dir, '.installed')
  if (existsSync(ready)) return python
  await run('python3', ['-m', 'venv', dir])
  await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', requirements], { maxBuffer: 16 * 1024 * 1024 })
  writeFileSync(ready, `${requirements}\n`)
  return python
}
