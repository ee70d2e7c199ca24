/**
 * A PostgreSQL 15 instance for a benchmark peer: Debian's postgresql-15 (installed when missing),
 * a cluster of its own (initdb once into `dir`), on a free loopback port, tuned for a bench
 * (fsync off: losing it on a crash costs nothing). Run as the `postgres` user when we are root
 * (the server refuses root). Stopped with a fast shutdown.
 */
import { spawn, execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { ensurePackage } from '../../infra/debian.js'
import { spawnChild, freePort, waitUntil, type Child } from './children.js'

export const PG_BIN = '/usr/lib/postgresql/15/bin'

export interface LocalPostgres {
  port: number
  /** Connection settings for `pg` (user postgres, database postgres, over TCP). */
  connection: { host: string; port: number; user: string; database: string }
  child: Child
  /** Runs SQL through psql (ON_ERROR_STOP); with `stdin`, streams it to a COPY … FROM STDIN. */
  psql(sqlText: string, stdin?: Readable): Promise<string>
  stop(): Promise<void>
}

function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
  return { uid, gid }
}

export async function startPostgres(opts: { dir: string; log: (m: string) => void; settings?: Record<string, string> }): Promise<LocalPostgres> {
  await ensurePackage('postgresql-15', path.join(PG_BIN, 'postgres'), opts.log)
  const owner = postgresUser()
  const data = path.join(opts.dir, 'data')
  const sockets = path.join(opts.dir, 'run')
  mkdirSync(opts.dir, { recursive: true })
  mkdirSync(sockets, { recursive: true })
  if (owner) { chownSync(opts.dir, owner.uid, owner.gid); chownSync(sockets, owner.uid, owner.gid) }
  if (!existsSync(path.join(data, 'PG_VERSION'))) {
    opts.log(`initdb ${data}`)
    execFileSync(path.join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'], { stdio: 'pipe', uid: owner?.uid, gid: owner?.gid, cwd: os.tmpdir() })
  }
  const port = await freePort()
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1', port: String(port), unix_socket_directories: sockets,
    fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', timezone: 'UTC',
    shared_buffers: '512MB', max_connections: '200', max_wal_size: '4GB', checkpoint_timeout: '30min', ...opts.settings,
  }
  const child = spawnChild({
    name: 'postgres', cmd: path.join(PG_BIN, 'postgres'),
    args: ['-D', data, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
    logFile: path.join(opts.dir, 'postgres.log'), uid: owner?.uid, gid: owner?.gid, cwd: os.tmpdir(),
  })
  const psql = (sqlText: string, stdin?: Readable) => new Promise<string>((resolve, reject) => {
    const p = spawn(path.join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-X', '-q', '-A', '-t', '-c', sqlText], { stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
    let out = '', err = ''
    p.stdout!.on('data', (d) => { out += d })
    p.stderr!.on('data', (d) => { err += d })
    if (stdin) {
      stdin.on('error', (e) => { p.kill(); reject(e) })
      stdin.pipe(p.stdin!)
    }
    p.once('error', reject)
    p.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`psql failed (${code}): ${err.trim().slice(-1000)}`))))
  })
  await waitUntil(async () => (await psql('SELECT 1')).trim() === '1', { what: `PostgreSQL on port ${port}`, timeoutMs: 30_000, intervalMs: 200, child })
  return {
    port, child, psql,
    connection: { host: '127.0.0.1', port, user: 'postgres', database: 'postgres' },
    stop: () => child.stop({ signal: 'SIGINT', timeoutMs: 20_000 }), // SIGINT: fast shutdown
  }
}
