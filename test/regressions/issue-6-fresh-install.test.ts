/**
 * Issue 6, bug 1a: on a fresh clone `npm start` answered `sh: 1: tsx: not found`. The prestart and
 * pretest step (bin/bootstrap.mjs, no dependencies of its own) installs from the lock file when
 * node_modules does not match it.
 */
import t from 'tap'
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { PROJECT_ROOT, projectFile } from '../../core/programs.js'

// A plain .mjs module without types, on purpose (it runs before anything is installed); loaded
// from the sources, as the compiler does not copy it into dist/.
const { installNeeded } = await import(pathToFileURL(projectFile('bin/bootstrap.mjs')).href) as { installNeeded: (dir: string) => string | null }

const lock = { name: 'x', lockfileVersion: 3, packages: { '': { name: 'x' }, 'node_modules/tsx': { version: '4.23.15' }, 'node_modules/fsevents': { version: '2.3.3', optional: true } } }

t.test('npm start and npm test run the bootstrap first', async (t) => {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'))
  t.equal(pkg.scripts.prestart, 'node bin/bootstrap.mjs')
  t.equal(pkg.scripts.pretest, 'node bin/bootstrap.mjs')
})

t.test('an install is needed exactly when node_modules does not match the lock file', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-bootstrap-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock))
  t.equal(installNeeded(dir), 'node_modules does not exist', 'a fresh clone')
  mkdirSync(path.join(dir, 'node_modules'))
  t.match(installNeeded(dir), /not installed by npm/, 'a node_modules npm did not make')
  const hidden = path.join(dir, 'node_modules', '.package-lock.json')
  writeFileSync(hidden, JSON.stringify({ packages: { 'node_modules/tsx': { version: '4.0.0' } } }))
  t.equal(installNeeded(dir), 'tsx 4.23.15 is not installed', 'an outdated install')
  writeFileSync(hidden, JSON.stringify({ packages: { 'node_modules/tsx': { version: '4.23.15' } } }))
  t.equal(installNeeded(dir), null, 'current (optional packages for other platforms do not count)')
})

t.test('--check says why and installs nothing', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lds-bootstrap-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(path.join(dir, 'bin'))
  writeFileSync(path.join(dir, 'bin', 'bootstrap.mjs'), readFileSync(path.join(PROJECT_ROOT, 'bin', 'bootstrap.mjs')))
  writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lock))
  const r = spawnSync(process.execPath, [path.join(dir, 'bin', 'bootstrap.mjs'), '--check'], { encoding: 'utf8' })
  t.equal(r.status, 1)
  t.match(r.stderr, /install needed: node_modules does not exist/)
  t.equal(spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'bootstrap.mjs'), '--check']).status, 0, 'this checkout is installed')
})
