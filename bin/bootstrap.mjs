#!/usr/bin/env node
/**
 * Runs before `npm start` and `npm test` (prestart / pretest), with no dependency of its own: on a
 * fresh clone nothing is installed yet, and `tsx` (what the scripts run) would not be found.
 * When node_modules does not match package-lock.json it runs `npm ci`; otherwise it does nothing.
 *
 *   node bin/bootstrap.mjs           install if needed
 *   node bin/bootstrap.mjs --check   exit 1 and say why when an install is needed, install nothing
 */
import { existsSync, readFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Why an install is needed, or null when node_modules matches the lock file. */
export function installNeeded(dir) {
  const lockFile = path.join(dir, 'package-lock.json')
  const hidden = path.join(dir, 'node_modules', '.package-lock.json')
  if (!existsSync(path.join(dir, 'node_modules'))) return 'node_modules does not exist'
  if (!existsSync(hidden)) return 'node_modules was not installed by npm from the lock file'
  if (!existsSync(lockFile)) return null
  const want = JSON.parse(readFileSync(lockFile, 'utf8')).packages ?? {}
  const have = JSON.parse(readFileSync(hidden, 'utf8')).packages ?? {}
  for (const [name, entry] of Object.entries(want)) {
    if (!name.startsWith('node_modules/') || entry.optional) continue
    if (have[name]?.version !== entry.version) return `${name.slice('node_modules/'.length)} ${entry.version} is not installed`
  }
  return null
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const why = installNeeded(root)
  if (why && process.argv.includes('--check')) { console.error(`install needed: ${why}`); process.exit(1) }
  if (why) {
    const hasLock = existsSync(path.join(root, 'package-lock.json'))
    const args = hasLock ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund']
    console.error(`[bootstrap] ${why}; running npm ${args[0]} (about 20 s) …`)
    const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd: root, stdio: 'inherit' })
    if (r.status !== 0) { console.error(`[bootstrap] npm ${args[0]} failed (exit ${r.status}); see the output above`); process.exit(r.status ?? 1) }
    console.error('[bootstrap] dependencies installed')
  }
}
