/**
 * A Redis server for what needs one locally (tests of counters shared by several API processes,
 * benchmarks): Debian's redis-server, installed when missing, on a loopback port, in memory only
 * (no snapshots, no append-only file). Production runs its own Redis (docker-compose) at REDIS_URL.
 */
import { spawn } from 'node:child_process'
import net from 'node:net'
import { ensurePackage } from './debian.js'

export const REDIS_SERVER = '/usr/bin/redis-server'

export interface LocalRedis { url: string; stop(): Promise<void> }

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)) })
  })
}

export async function startRedis(log: (m: string) => void = () => {}): Promise<LocalRedis> {
  await ensurePackage('redis-server', REDIS_SERVER, log)
  const port = await freePort()
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => { output += d })
  child.stderr!.on('data', (d) => { output += d })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output.slice(-500)}`)), 10_000)
    const check = () => {
      const sock = net.connect(port, '127.0.0.1')
      sock.once('connect', () => { sock.destroy(); clearTimeout(timer); resolve() })
      sock.once('error', () => { sock.destroy(); setTimeout(check, 50) })
    }
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)) })
    check()
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => { if (child.exitCode !== null) return resolve(); child.once('exit', () => resolve()); child.kill('SIGTERM') }),
  }
}
