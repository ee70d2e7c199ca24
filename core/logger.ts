import { pino, type Logger } from 'pino'
import type { Config } from './config.js'

export type { Logger }

/**
 * One root logger per process; components take a child with their name. Secrets are redacted.
 * Services log to stdout; the CLI logs to stderr so that what a command prints (a token, a
 * summary) is all that reaches stdout.
 */
export function createLogger(cfg: Pick<Config, 'logLevel'>, opts: { name?: string; stderr?: boolean } = {}): Logger {
  return pino({
    name: opts.name ?? 'lds',
    level: cfg.logLevel,
    redact: { paths: ['req.headers.authorization', 'authorization', 'token', 'secret_key', 'password'], censor: '[redacted]' },
  }, pino.destination(opts.stderr ? 2 : 1))
}
