/**
 * A ClickHouse database of a test's own: created empty, dropped when the test ends.
 */
import type { Test } from 'tap'
import { loadConfig } from '../../core/config.js'
import { createDb, type Db } from '../../core/clickhouse.js'
import { sql, ident } from '../../core/sql.js'

export async function scratchDatabase(t: Test, name: string): Promise<Db> {
  const cfg = loadConfig()
  const root = createDb(cfg, { useDatabase: false })
  const db = createDb(cfg, { database: name })
  t.teardown(async () => {
    await root.command(sql`DROP DATABASE IF EXISTS ${ident(name)}`).catch(() => {})
    await db.close()
    await root.close()
  })
  await root.command(sql`CREATE DATABASE ${ident(name)}`)
  return db
}
