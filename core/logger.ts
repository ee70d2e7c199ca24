import { createRequire } from 'node:module'
import { pino, type Logger } from 'pino'
import type { Config } from './config.js'

export type { Logger }

/**
 * One root logger per process; components take a child with their name. Secrets are redacted.
 * Services log to stdout; the CLI logs to stderr so that what a command prints (a token, a
 * summary) is all that reaches stdout.
 */
export function createLogger(cfg: Pick<Config, 'logLevel'>, opts: { name?: string; stderr?: boolean; pretty?: boolean } = {}): Logger {
  const options = {
    name: opts.name ?? 'lds',
    level: cfg.logLevel,
    redact: { paths: ['req.headers.authorization', 'authorization', 'token', 'secret_key', 'password', 'secret'], censor: '[redacted]' },
  }
  // A person at a terminal reads lines, not JSON; pino-pretty is a dev dependency, so a
  // production install (without it) keeps JSON.
  if (opts.pretty && prettyInstalled()) {
    return pino(options, pino.transport({ target: 'pino-pretty', options: { destination: opts.stderr ? 2 : 1, ignore: 'pid,hostname,name', translateTime: 'HH:MM:ss' } }))
  }
  return pino(options, pino.destination(opts.stderr ? 2 : 1))
}

function prettyInstalled(): boolean {
  try { createRequire(import.meta.url).resolve('pino-pretty'); return true } catch { return false }
}
