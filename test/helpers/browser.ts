/**
 * Headless Chromium for browser tests, through playwright-core (Playwright's own browser
 * download is not reachable here, so the system's Chromium is used).
 *
 * `ensureChromium()` installs the distribution's package when `/usr/bin/chromium` is missing
 * (`apt-get install -y chromium`, after `apt-get update` if the first try fails), holding a lock
 * file so that two test processes never run apt at once; the other one waits for the lock to go
 * and finds Chromium installed. When Chromium cannot be had, it throws with the reason: a browser
 * test fails, it is not skipped.
 *
 * `launchBrowser(t)` starts Chromium with a fresh profile directory and closes it (and removes
 * the profile) at the test's teardown.
 */
import { spawnSync } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync, openSync, writeSync, closeSync, readFileSync, statSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import { chromium, type BrowserContext } from 'playwright-core'
import { waitFor } from '../kit/wait-for.js'

export const CHROMIUM_PATH = '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
]
const LOCK_PATH = join(tmpdir(), 'lds-chromium-install.lock')
/** An install takes a minute or two; a lock older than this belongs to a process that died. */
const STALE_LOCK_MS = 15 * 60_000
const WAIT_FOR_LOCK_MS = 15 * 60_000

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the lock file, or returns false when a live process holds it. */
function tryLock(): boolean {
  try {
    const fd = openSync(LOCK_PATH, 'wx')
    writeSync(fd, String(process.pid))
    closeSync(fd)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  // Held: break it only when its owner is gone or it is too old to be a running install.
  try {
    const owner = Number(readFileSync(LOCK_PATH, 'utf8'))
    const age = Date.now() - statSync(LOCK_PATH).mtimeMs
    if ((owner && !alive(owner)) || age > STALE_LOCK_MS) unlinkSync(LOCK_PATH)
  } catch { /* released meanwhile */ }
  return false
}

function apt(args: string[]): { ok: boolean; output: string } {
  const res = spawnSync('apt-get', args, {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, encoding: 'utf8', timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024,
  })
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}${res.error ? String(res.error) : ''}`
  return { ok: res.status === 0, output }
}

function install(): string[] {
  const log: string[] = []
  const tail = (s: string) => s.trim().split('\n').slice(-5).join('\n')
  let res = apt(['install', '-y', '--no-install-recommends', 'chromium'])
  log.push(`apt-get install: ${res.ok ? 'ok' : tail(res.output)}`)
  if (!res.ok) {
    const update = apt(['update'])
    log.push(`apt-get update: ${update.ok ? 'ok' : tail(update.output)}`)
    res = apt(['install', '-y', '--no-install-recommends', 'chromium'])
    log.push(`apt-get install (after update): ${res.ok ? 'ok' : tail(res.output)}`)
  }
  return log
}

/** The path of a working Chromium, installing it first when missing; throws when it cannot. */
export async function ensureChromium(path = CHROMIUM_PATH): Promise<string> {
  if (executable(path)) return path
  await waitFor(() => tryLock(), `the Chromium install lock ${LOCK_PATH} (Chromium is missing and another process holds the lock)`, WAIT_FOR_LOCK_MS, 500)
  let log: string[] = []
  try {
    // Another process may have installed it while this one waited for the lock.
    if (!executable(path)) log = install()
  } finally {
    try { unlinkSync(LOCK_PATH) } catch { /* already gone */ }
  }
  if (!executable(path)) {
    throw new Error(`Browser tests need Chromium at ${path}, and installing it failed (run as root: DEBIAN_FRONTEND=noninteractive apt-get install -y chromium).\n${log.join('\n')}`)
  }
  return path
}

/** A headless Chromium context with a fresh profile, closed at the end of the test. */
export async function launchBrowser(t: Test): Promise<BrowserContext> {
  const executablePath = await ensureChromium()
  const profile = mkdtempSync(join(tmpdir(), 'lds-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 },
  })
  t.teardown(async () => {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  })
  return context
}
