import { pino, type Logger } from 'pino'
import type { Config } from './config.js'

export type { Logger }

/** One root logger per process; components take a child with their name. Secrets are redacted. */
export function createLogger(cfg: Pick<Config, 'logLevel'>, name = 'lds'): Logger {
  return pino({
    name,
    level: cfg.logLevel,
    redact: { paths: ['req.headers.authorization', 'authorization', 'token', 'secret_key', 'password'], censor: '[redacted]' },
  })
}
