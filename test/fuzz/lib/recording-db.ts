/**
 * A Db that records every statement it is asked to run, compiled as ClickHouse receives it
 * (`compile()` from core/sql.ts: the SQL text and, apart, its query_params), then runs it on the
 * wrapped Db. Key sets (`withKeys`) are recorded in their inline form, whatever form the wrapped
 * Db sends them in. Recording is switched on and off by the test (seeding is not recorded).
 */
import { compile, sql, type CompiledSql } from '../../../core/sql.js'
import type { Db } from '../../../core/clickhouse.js'

export interface RecordingDb extends Db {
  /** Statements recorded since the last `take()`, and the buffer emptied. */
  take(): CompiledSql[]
  recording: boolean
}

export function recordingDb(db: Db): RecordingDb {
  let seen: CompiledSql[] = []
  const rec: RecordingDb = {
    recording: false,
    get client() { return db.client },
    get database() { return db.database },
    take() { const out = seen; seen = []; return out },
    query(q, o) { if (rec.recording) seen.push(compile(q)); return db.query(q, o) },
    command(q, o) { if (rec.recording) seen.push(compile(q)); return db.command(q, o) },
    insert: (table, rows, o) => db.insert(table, rows, o),
    insertCompact: (table, columns, rows, o) => db.insertCompact(table, columns, rows, o),
    insertRows: (table, columns, rows, encoded) => db.insertRows(table, columns, rows, encoded),
    insertBody: (query, chunks, o) => db.insertBody(query, chunks, o),
    withKeys(values, type, build, o) {
      if (rec.recording && values.length) seen.push(compile(build(sql`${[...values]}`)))
      return db.withKeys(values, type, build, o)
    },
    ping: () => db.ping(),
    close: () => db.close(),
  }
  return rec
}
