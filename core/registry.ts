/**
 * The schema registry client. Every call has a deadline (a registry that accepts a connection and
 * never answers must not hang a start), registrations are retried with backoff a bounded number of
 * times, and a failure names the registry, its URL and its log file.
 */
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry'
import TimeoutMiddleware from 'mappersmith/middleware/timeout'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import pRetry from 'p-retry'
import { REGISTRY_SERVICE_USER, type Config } from './config.js'
import { DependencyError, localLogFile } from './dependency-error.js'

export { SchemaRegistry }

export interface RegistryOptions { timeoutMs?: number; retries?: number }

export interface Registry {
  readonly client: SchemaRegistry
  readonly url: string
  /** Register an Avro schema under `subject` (idempotent: the registry answers the existing id). */
  registerAvro(subject: string, schema: object): Promise<number>
}

/**
 * Where the local registry keeps the service's password (infra/registry-server.ts makes it on the
 * first start, readable by its owner only). Anyone may read the registry; only this login writes.
 */
export const localRegistryPasswordFile = (dataDir: string) => path.join(dataDir, 'registry', 'service-password')

/** The login to write with: the configured one, else the local registry's own, else none (a registry without authentication). */
export function registryAuth(cfg: Pick<Config, 'dataDir'> & Partial<Pick<Config, 'schemaRegistryAuth'>>): { username: string; password: string } | undefined {
  if (cfg.schemaRegistryAuth) return cfg.schemaRegistryAuth
  const file = localRegistryPasswordFile(cfg.dataDir)
  return existsSync(file) ? { username: REGISTRY_SERVICE_USER, password: readFileSync(file, 'utf8').trim() } : undefined
}

/** An Authorization header for the registry's write calls made with fetch (deletes), or none. */
function registryAuthHeaders(cfg: Pick<Config, 'dataDir'> & Partial<Pick<Config, 'schemaRegistryAuth'>>): Record<string, string> {
  const auth = registryAuth(cfg)
  return auth ? { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` } : {}
}

/** The registry's artifact API (Apicurio 3), beside the ccompat URL the clients use: a subject is an artifact of the default group. */
export function artifactsUrl(cfg: Pick<Config, 'schemaRegistryUrl'>): string {
  return `${new URL(cfg.schemaRegistryUrl).origin}/apis/registry/v3/groups/default/artifacts`
}

/** Removes a subject with every version (one call, with the service's login); false when there was none. */
export async function deleteSubject(cfg: Pick<Config, 'schemaRegistryUrl' | 'dataDir'> & Partial<Pick<Config, 'schemaRegistryAuth'>>, subject: string): Promise<boolean> {
  const res = await fetch(`${artifactsUrl(cfg)}/${encodeURIComponent(subject)}`, { method: 'DELETE', headers: registryAuthHeaders(cfg), signal: AbortSignal.timeout(60_000) })
  if (!res.ok && res.status !== 404) throw new Error(`schema registry: deleting ${subject} answered ${res.status}`)
  return res.ok
}

export function createRegistry(cfg: Pick<Config, 'schemaRegistryUrl' | 'dataDir'> & Partial<Pick<Config, 'schemaRegistryAuth'>>, opts: RegistryOptions = {}): Registry {
  const timeoutMs = opts.timeoutMs ?? 10_000
  const retries = opts.retries ?? 4
  // `host` keeps the ccompat path prefix (e.g. /apis/ccompat/v7).
  const client = new SchemaRegistry(
    { host: cfg.schemaRegistryUrl, auth: registryAuth(cfg), middlewares: [TimeoutMiddleware(timeoutMs) as never], retry: { retries: 3, maxRetryTimeInSecs: 3 } },
    { [SchemaType.AVRO]: { noAnonymousTypes: true } } as never,
  )
  const logFile = localLogFile(cfg, 'schema registry', cfg.schemaRegistryUrl)
  return {
    client,
    url: cfg.schemaRegistryUrl,
    async registerAvro(subject, schema) {
      try {
        return await pRetry(async () => {
          const { id } = await client.register({ type: SchemaType.AVRO, schema: JSON.stringify(schema) }, { subject })
          return id
        }, {
          retries, minTimeout: 250, factor: 2, maxTimeout: 4_000,
          // An incompatible schema (409) or a bad one (422) will not get better by asking again.
          shouldRetry: ({ error }) => !/\b(409|422)\b|incompatible|invalid schema/i.test(String((error as Error).message)),
        })
      } catch (err) {
        throw new DependencyError('schema registry', cfg.schemaRegistryUrl, `did not register ${subject} after ${retries + 1} attempts (${timeoutMs} ms each)`, { logFile, cause: err })
      }
    },
  }
}
