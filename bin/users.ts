/** Creating API users: the record goes through the users topic like every other change. */
import { sql, ident } from '../core/sql.js'
import { newToken, hashToken } from '../core/tokens.js'
import type { Runtime } from './runtime.js'
import { openPublisher } from '../connectors/publisher.js'

export async function createUser(rt: Runtime, username: string, opts: { write?: boolean; citationRate?: string } = {}): Promise<{ id: number; token: string }> {
  if (!/^[\w.@+-]{1,150}$/.test(username)) throw new Error('usernames are 1-150 letters, digits and @.+-_')
  const token = newToken()
  const now = new Date().toISOString()
  // Ids from the clock: unique across processes without a coordinating counter.
  const id = Date.now() * 1000 + Math.floor(Math.random() * 1000)
  const pub = await openPublisher(rt)
  try {
    await pub.upsert('users', {
      id, username, token_hash: hashToken(token), can_write: !!opts.write, is_active: true,
      citation_rate: opts.citationRate ?? '', date_created: now, date_modified: now,
    })
  } finally { await pub.stop() }
  return { id, token }
}

/** True once the table sink has applied the user (the API reads users from ClickHouse). */
export async function userVisible(rt: Runtime, id: number): Promise<boolean> {
  const rows = await rt.db.query(sql`SELECT 1 FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident('users')} FINAL WHERE id = ${id}`)
  return rows.length > 0
}
