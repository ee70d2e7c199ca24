/**
 * A dependency that did not answer in time or refused: the message names the service, the
 * address, and where the local infrastructure keeps that service's log, so the person who sees it
 * knows where to look next.
 */
import path from 'node:path'
import type { Config } from './config.js'

export type ServiceName = 'schema registry' | 'ClickHouse' | 'Kafka' | 'Redis' | 'SMTP' | 'records system' | 'table sink'

const LOG_FILES: Partial<Record<ServiceName, string>> = { 'schema registry': 'registry.log', ClickHouse: 'clickhouse.log', Kafka: 'kafka.log' }

export class DependencyError extends Error {
  override name = 'DependencyError'
  readonly retriable = true
  constructor(readonly service: ServiceName, readonly url: string, what: string, opts: { logFile?: string; cause?: unknown } = {}) {
    const cause = opts.cause instanceof Error ? `: ${opts.cause.message}` : ''
    super(`${service} at ${url} ${what}${cause}${opts.logFile ? ` (its log: ${opts.logFile})` : ''}`, { cause: opts.cause })
  }
}

/** The log file of a service when it runs locally (loopback address), else undefined. */
export function localLogFile(cfg: Pick<Config, 'dataDir'>, service: ServiceName, url: string): string | undefined {
  const file = LOG_FILES[service]
  if (!file || !/(^|\/\/|@)(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(url)) return undefined
  return path.join(cfg.dataDir, 'logs', file)
}
