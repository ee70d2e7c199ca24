/**
 * Debian packages the project installs when a test or benchmark needs them and they are missing
 * (redis-server, postgresql): `apt-get install` under a lock file, so two processes never run apt
 * at once; the other waits and finds the package installed. A failure says why, with apt's last
 * lines: the caller fails (tests) or prints the reason and skips a peer (benchmarks).
 */
import { spawn } from 'node:child_process'
import { accessSync, constants, openSync, writeSync, closeSync, readFileSync, statSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'

const STALE_LOCK_MS = 15 * 60_000

export function executable(path: string): boolean {
  try { accessSync(path, constants.X_OK); return true } catch { return false }
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM' }
}

function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx')
    writeSync(fd, String(process.pid))
    closeSync(fd)
    return true
  } catch (err) { if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err }
  try {
    const owner = Number(readFileSync(lock, 'utf8'))
    if ((owner && !alive(owner)) || Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock)
  } catch { /* released meanwhile */ }
  return false
}

/** apt-get in a child process, awaited: the caller's event loop (an API serving, say) goes on meanwhile. */
function apt(args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 10 * 60_000 })
    let output = ''
    const keep = (d: Buffer) => { output = (output + d.toString()).slice(-64 * 1024) }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', (err) => resolve({ ok: false, output: `${output}${String(err)}` }))
    child.on('close', (code) => resolve({ ok: code === 0, output }))
  })
}

/** Installs `pkg` unless `binary` is already executable; throws with apt's reason when it cannot. */
export async function ensurePackage(pkg: string, binary: string, log: (m: string) => void = () => {}): Promise<void> {
  if (executable(binary)) return
  const lock = join(tmpdir(), `lds-apt-${pkg}.lock`)
  const deadline = Date.now() + STALE_LOCK_MS
  while (!tryLock(lock)) {
    if (Date.now() > deadline) throw new Error(`waited too long for another install of ${pkg}`)
    await delay(1_000)
    if (executable(binary)) return
  }
  try {
    if (executable(binary)) return
    log(`installing the Debian package ${pkg} (apt-get) …`)
    let res = await apt(['install', '-y', '--no-install-recommends', pkg])
    if (!res.ok) { await apt(['update']); res = await apt(['install', '-y', '--no-install-recommends', pkg]) }
    if (!res.ok || !executable(binary)) throw new Error(`could not install ${pkg}: ${res.output.trim().split('\n').slice(-5).join(' | ')}`)
    log(`${pkg} installed`)
  } finally { try { unlinkSync(lock) } catch { /* gone */ } }
}

const LBZIP2 = '/usr/bin/lbzip2'

/**
 * lbzip2 (bzip2 on every core, the same format) for the bulk import and export: installed when
 * missing. Where it cannot be, one line says so and plain bzip2 is used. `LDS_BZIP2` (a chosen
 * program) skips the install. Returns whether lbzip2 is there.
 */
export async function ensureLbzip2(log: (m: string) => void = (m) => process.stderr.write(`${m}\n`)): Promise<boolean> {
  if (process.env.LDS_BZIP2 || executable(LBZIP2)) return executable(LBZIP2)
  try {
    await ensurePackage('lbzip2', LBZIP2, log)
    return true
  } catch (err) {
    log(`lbzip2 is not installed and could not be (${(err as Error).message.slice(0, 200)}); using bzip2, on one core`)
    return false
  }
}

const FFMPEG = '/usr/bin/ffmpeg'
const FFPROBE = '/usr/bin/ffprobe'

/**
 * ffmpeg and ffprobe (Debian's `ffmpeg` package) for the audio role, the sample's originals and
 * the audio tests: installed when missing. Throws with apt's reason when it cannot be.
 */
export async function ensureFfmpeg(log: (m: string) => void = (m) => process.stderr.write(`${m}\n`)): Promise<{ ffmpeg: string; ffprobe: string }> {
  await ensurePackage('ffmpeg', FFMPEG, log)
  if (!executable(FFPROBE)) throw new Error(`ffmpeg is installed but ${FFPROBE} is missing`)
  return { ffmpeg: FFMPEG, ffprobe: FFPROBE }
}
