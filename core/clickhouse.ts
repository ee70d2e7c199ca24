/**
 * The thin, typed edge to ClickHouse. Every statement goes through `compile` (bound parameters,
 * never string concatenation), every request has a deadline, and a failure is turned into a typed
 * error here, where the response arrives: `ClickHouseUnavailable` when the server cannot be
 * reached (callers answer 503 or back off), ClickHouse's own `ClickHouseError` otherwise.
 *
 * Key sets of any size: `withKeys` sends a small set as one bound array and a large one as a
 * temporary table in a session of its own, so no query grows with the batch it serves (the HTTP
 * interface refuses form fields beyond a limit).
 */
import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { createClient, ClickHouseError, type ClickHouseClient } from '@clickhouse/client'
import type { Config } from './config.js'
import { compile, Identifier, sql, ident, raw, type Sql } from './sql.js'
import { DependencyError, localLogFile } from './dependency-error.js'
import { rowBinaryInsert, type BinaryColumn, type RowBinaryInsert } from './clickhouse-row-binary.js'

export type { ClickHouseClient }
export { ClickHouseError }

export class ClickHouseUnavailable extends DependencyError {}

/** Keys passed inline up to this many; beyond it, through a temporary table. */
export const INLINE_KEYS = 2_000

export interface QueryOptions { settings?: Record<string, unknown>; sessionId?: string; signal?: AbortSignal }

export interface Db {
  readonly client: ClickHouseClient
  readonly database: string
  query<T = Record<string, unknown>>(q: Sql, opts?: QueryOptions): Promise<T[]>
  command(q: Sql, opts?: QueryOptions): Promise<void>
  insert(table: string, rows: readonly Record<string, unknown>[], opts?: QueryOptions): Promise<void>
  /** Rows as arrays in the order of `columns` (JSONCompactEachRow): no per-row objects or keys. */
  insertCompact(table: string, columns: readonly string[], rows: readonly unknown[][], opts?: QueryOptions): Promise<void>
  /**
   * Rows as arrays in the order of `columns` (name and ClickHouse type), sent as RowBinary
   * (core/clickhouse-row-binary.ts): read as a JSON insert reads them, at a fraction of its cost
   * on both sides. `encoded` are rows already in RowBinary for the same columns (the table
   * sink's, transcoded from their Avro bytes), sent before `rows` in the same insert.
   */
  insertRows(table: string, columns: readonly BinaryColumn[], rows: readonly unknown[][], encoded?: readonly Buffer[]): Promise<void>
  /**
   * `query` (an INSERT … FORMAT <binary format>) with `chunks` as its body, sent in order: the
   * formats the client's insert() does not take. `sent` is called once the last chunk is handed
   * to the socket.
   */
  insertBody(query: string, chunks: readonly Uint8Array[], opts?: { sent?: () => void }): Promise<void>
  /**
   * Runs `build(keys)` where `keys` is an SQL operand for `x IN ${keys}` holding `values`: a bound
   * array when small, `(SELECT k FROM <temporary table>)` when large. The query may use `keys` more than once.
   */
  withKeys<T>(values: readonly unknown[], type: string, build: (keys: Sql) => Sql, opts?: QueryOptions): Promise<T[]>
  ping(): Promise<boolean>
  close(): Promise<void>
}

/** Pieces of a binary body: small enough that backpressure, not one huge buffered write, paces it. */
const BODY_PIECE = 1 << 20

const UNREACHABLE = /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENOTFOUND|socket hang up|Timeout error|timed? ?out|other side closed|EPIPE/i

export interface DbOptions { database?: string; useDatabase?: boolean; requestTimeoutMs?: number }

export function createDb(cfg: Pick<Config, 'clickhouseUrl' | 'clickhouseDatabase'> & Partial<Pick<Config, 'dataDir'>>, opts: DbOptions = {}): Db {
  const database = opts.database ?? cfg.clickhouseDatabase
  const logFile = cfg.dataDir ? localLogFile({ dataDir: cfg.dataDir }, 'ClickHouse', cfg.clickhouseUrl) : undefined
  const client = createClient({
    url: cfg.clickhouseUrl,
    database: opts.useDatabase === false ? 'default' : database,
    request_timeout: opts.requestTimeoutMs ?? 120_000,
    max_open_connections: 20,
    // A busy event loop can hold a socket past the server's keep-alive; drop such sockets rather
    // than reuse them (the client's warning otherwise reaches the newcomer's first-start log).
    keep_alive: { enabled: true, eagerly_destroy_stale_sockets: true },
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

  /** The one place a ClickHouse failure is classified. */
  const edge = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try { return await run() } catch (err) {
      if (err instanceof ClickHouseError) throw err
      const message = String((err as Error)?.message ?? err)
      const code = String((err as { code?: unknown })?.code ?? '')
      if (UNREACHABLE.test(message) || UNREACHABLE.test(code)) throw new ClickHouseUnavailable('ClickHouse', cfg.clickhouseUrl, `did not answer (${what})`, { logFile, cause: err })
      throw err
    }
  }
  const table = (name: string) => { new Identifier(name); return `\`${database}\`.\`${name}\`` }
  const common = (o: QueryOptions = {}) => ({ clickhouse_settings: o.settings as never, session_id: o.sessionId, abort_signal: o.signal })
  const binaryInserts = new Map<string, RowBinaryInsert>()

  const db: Db = {
    client,
    database,
    query<T>(q: Sql, o: QueryOptions = {}) {
      const { query, query_params } = compile(q)
      return edge('query', async () => (await client.query({ query, query_params, format: 'JSONEachRow', ...common(o) })).json<T>())
    },
    command(q: Sql, o: QueryOptions = {}) {
      const { query, query_params } = compile(q)
      return edge('command', async () => { await client.command({ query, query_params, ...common(o) }) })
    },
    async insert(name, rows, o = {}) {
      if (rows.length === 0) return
      // Qualified, so a client whose session database differs (migrations) still writes to ours.
      await edge('insert', () => client.insert({ table: table(name), values: rows as Record<string, unknown>[], format: 'JSONEachRow', ...common(o) }))
    },
    async insertCompact(name, columns, rows, o = {}) {
      if (rows.length === 0) return
      columns.forEach((c) => new Identifier(c))
      await edge('insert', () => client.insert({ table: table(name), columns: [...columns] as [string, ...string[]], values: rows as unknown[][], format: 'JSONCompactEachRow', ...common(o) }))
    },
    async insertRows(name, columns, rows, encoded = []) {
      if (rows.length === 0 && encoded.length === 0) return
      const id = `${name}\u0000${columns.map((c) => `${c.name} ${c.type}`).join(',')}`
      let insert = binaryInserts.get(id)
      if (!insert) binaryInserts.set(id, (insert = rowBinaryInsert(table(name), columns)))
      await db.insertBody(insert.query, rows.length === 0 ? encoded : [...encoded, ...insert.encode(rows)])
    },
    async insertBody(query, chunks, o = {}) {
      function* pieces() {
        for (const c of chunks) for (let at = 0; at < c.length; at += BODY_PIECE) yield Buffer.from(c.buffer, c.byteOffset + at, Math.min(BODY_PIECE, c.length - at))
        o.sent?.()
      }
      // No progress headers: the server answers once the insert is done, so a failure is an HTTP
      // error, not text after a 200. Any other failure of a streamed body is the transport's:
      // ClickHouseUnavailable, which processors retry without limit (as the search postings'
      // insert did before it moved here).
      try {
        await edge('insert', async () => {
          const r = await client.exec({ query, values: Readable.from(pieces(), { objectMode: false }), clickhouse_settings: { send_progress_in_http_headers: 0, wait_end_of_query: 1 } })
          for await (const _ of r.stream) { /* the (empty) answer */ }
        })
      } catch (err) {
        if (err instanceof ClickHouseError || err instanceof ClickHouseUnavailable) throw err
        throw new ClickHouseUnavailable('ClickHouse', cfg.clickhouseUrl, 'did not answer (insert)', { logFile, cause: err })
      }
    },
    async withKeys<T>(values: readonly unknown[], type: string, build: (keys: Sql) => Sql, o: QueryOptions = {}) {
      if (values.length === 0) return []
      if (values.length <= INLINE_KEYS) return db.query<T>(build(sql`${[...values]}`), o)
      // A temporary table lives in one HTTP session; a session runs one query at a time, so the
      // steps go in order. The session (and the table) ends when it times out or here.
      const sessionId = `lds-keys-${randomUUID()}`
      const name = `keys_${randomUUID().replace(/-/g, '')}`
      const tmp = ident(name)
      const s = { ...o, sessionId }
      await db.command(sql`CREATE TEMPORARY TABLE ${tmp} (k ${keyType(type)}) ENGINE = Memory`, s)
      try {
        await edge('insert', () => client.insert({ table: `\`${name}\``, values: values.map((v) => [v]), format: 'JSONCompactEachRow', ...common(s) }))
        return await db.query<T>(build(sql`(SELECT k FROM ${tmp})`), s)
      } finally {
        await db.command(sql`DROP TEMPORARY TABLE IF EXISTS ${tmp}`, s).catch(() => {})
      }
    },
    async ping() {
      const r = await client.ping()
      return r.success
    },
    close: () => client.close(),
  }
  return db
}

/** The column type of a key set: only the plain types key sets use (never from a request). */
function keyType(type: string) {
  if (!/^(Int64|UInt64|Int32|String)$/.test(type)) throw new Error(`unsupported key type ${type}`)
  return raw(type)
}

/**
 * `SELECT columns FROM from FINAL WHERE condition [tail]` where the condition is on a column the
 * table is not ordered by (a cluster's opinions, a party's dockets). FINAL merges every part range
 * the sorting key cannot rule out, so such a condition merged the whole table with every selected
 * column (4 s per 5,000 clusters' opinions at 1.2M opinions, the texts read). Here the keys are
 * found first without FINAL (the condition's columns only, every version), FINAL reads only their
 * ranges, and the condition is checked again on the current version, so a row whose old version
 * matched and whose current one does not is left out: 0.3 s. `key` is the table's sorting key.
 */
export function selectFinal(from: Sql, columns: Sql, condition: Sql, key: string, tail: Sql = sql``): Sql {
  return sql`SELECT ${columns} FROM ${from} FINAL WHERE ${ident(key)} IN (SELECT ${ident(key)} FROM ${from} WHERE ${condition}) AND ${condition} ${tail}`
}

/** Rows (FINAL) whose `column` is in `keys`: on the sorting key `key` a plain FINAL read, else selectFinal. */
export function selectFinalIn(from: Sql, columns: Sql, column: string, keys: unknown, key: string, tail: Sql = sql``): Sql {
  const condition = sql`${ident(column)} IN ${keys}`
  return column === key ? sql`SELECT ${columns} FROM ${from} FINAL WHERE ${condition} ${tail}` : selectFinal(from, columns, condition, key, tail)
}
