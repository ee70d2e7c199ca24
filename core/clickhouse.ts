import { createClient, type ClickHouseClient } from '@clickhouse/client'
import type { Config } from './config.js'
import { compile, Identifier, type Sql } from './sql.js'

export type { ClickHouseClient }

/** The thin, typed edge to ClickHouse: every statement goes through `compile`, never string concatenation. */
export interface Db {
  readonly client: ClickHouseClient
  readonly database: string
  query<T = Record<string, unknown>>(q: Sql, opts?: { settings?: Record<string, unknown> }): Promise<T[]>
  command(q: Sql): Promise<void>
  insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void>
  /** Rows as arrays in the order of `columns` (JSONCompactEachRow): no per-row objects or keys. */
  insertCompact(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>
  ping(): Promise<boolean>
  close(): Promise<void>
}

export function createDb(cfg: Pick<Config, 'clickhouseUrl' | 'clickhouseDatabase'>, opts: { database?: string; useDatabase?: boolean } = {}): Db {
  const database = opts.database ?? cfg.clickhouseDatabase
  const client = createClient({
    url: cfg.clickhouseUrl,
    database: opts.useDatabase === false ? 'default' : database,
    request_timeout: 120_000,
    max_open_connections: 20,
    clickhouse_settings: {
      async_insert: 0,
      date_time_input_format: 'best_effort',
      output_format_json_quote_64bit_integers: 0,
      date_time_output_format: 'iso',
      // Keeps long queries alive through proxies that drop idle connections.
      send_progress_in_http_headers: 1,
      http_headers_progress_interval_ms: '10000',
    },
  })
  return {
    client,
    database,
    async query<T>(q: Sql, o: { settings?: Record<string, unknown> } = {}) {
      const { query, query_params } = compile(q)
      const rs = await client.query({ query, query_params, format: 'JSONEachRow', clickhouse_settings: o.settings as never })
      return rs.json<T>()
    },
    async command(q: Sql) {
      const { query, query_params } = compile(q)
      await client.command({ query, query_params })
    },
    async insert(table, rows) {
      if (rows.length === 0) return
      new Identifier(table) // table names come from the catalogue; refuse anything else
      // Qualified, so a client whose session database differs (migrations) still writes to ours.
      await client.insert({ table: `\`${database}\`.\`${table}\``, values: rows as Record<string, unknown>[], format: 'JSONEachRow' })
    },
    async insertCompact(table, columns, rows) {
      if (rows.length === 0) return
      new Identifier(table)
      columns.forEach((c) => new Identifier(c))
      await client.insert({ table: `\`${database}\`.\`${table}\``, columns: [...columns] as [string, ...string[]], values: rows as unknown[][], format: 'JSONCompactEachRow' })
    },
    async ping() {
      const r = await client.ping()
      return r.success
    },
    close: () => client.close(),
  }
}
