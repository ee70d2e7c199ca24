/**
 * The contract every piece of local infrastructure implements. `infra/cli.ts` runs
 * `install` then `start` for each service in order; every step is idempotent.
 */
import type { Config } from '../core/config.js'

export interface ServiceStatus {
  name: string
  running: boolean
  /** pid of the process we started, if any */
  pid?: number
  /** human-readable address, e.g. 127.0.0.1:9092 */
  address: string
  detail?: string
}

export interface LocalService {
  readonly name: string
  /** Download/unpack what is missing (under cfg.dataDir); no-op when present. */
  install(cfg: Config, log: (msg: string) => void): Promise<void>
  /** Start detached (survives the calling process) if not already running, then wait until ready or throw a clear error after a timeout. */
  start(cfg: Config, log: (msg: string) => void): Promise<void>
  /** Stop what we started (pid file under cfg.dataDir); no-op when not running. */
  stop(cfg: Config, log: (msg: string) => void): Promise<void>
  status(cfg: Config): Promise<ServiceStatus>
  /** Remove this service's data (not its installed binaries). Only called when stopped. */
  reset(cfg: Config, log: (msg: string) => void): Promise<void>
}
