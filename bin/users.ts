/**
 * Managing API users: each change goes through the users topic like every other change, and the
 * API sees it once its read model has applied it (a deactivated user stops working then).
 * Tokens are shown once and stored as SHA-256 hashes; passwords (for HTTP Basic) as scrypt hashes.
 */
import { sql, ident } from '../core/sql.js'
import { newToken, hashToken } from '../core/tokens.js'
import { hashPassword } from '../core/passwords.js'
import { parseRates, parseRate } from '../api/plugins/rates.js'
import type { Runtime } from './runtime.js'
import { openPublisher, type Written } from '../core/events/publisher.js'

export interface UserOptions { write?: boolean; citationRate?: string; rate?: string; password?: string; email?: string; autoSubscribe?: boolean }

function checkOptions(o: UserOptions) {
  if (o.rate) parseRates(o.rate)
  if (o.citationRate) parseRate(o.citationRate)
}

async function publish(rt: Runtime, row: Record<string, unknown>): Promise<Written> {
  const pub = await openPublisher(rt)
  try { return await pub.write('users', { upsert: row }) } finally { await pub.stop() }
}

export async function createUser(rt: Runtime, username: string, opts: UserOptions = {}): Promise<{ id: number; token: string; written: Written }> {
  if (!/^[\w.@+-]{1,150}$/.test(username)) throw new Error('usernames are 1-150 letters, digits and @.+-_')
  checkOptions(opts)
  const token = newToken()
  const now = new Date().toISOString()
  // from the process's id allocator (core/ids.ts): unique across processes by construction
  const id = await rt.ids.next()
  const written = await publish(rt, {
    id, username, token_hash: hashToken(token), can_write: !!opts.write, is_active: true,
    citation_rate: opts.citationRate ?? '', rate: opts.rate ?? '', password_hash: opts.password ? await hashPassword(opts.password) : '',
    email: opts.email ?? '', auto_subscribe: !!opts.autoSubscribe,
    date_created: now, date_modified: now,
  })
  return { id, token, written }
}

/** The stored row of a user (as the table sink applied it), or undefined. */
export async function findUser(rt: Runtime, username: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await rt.db.query<Record<string, unknown>>(sql`
    SELECT * EXCEPT (_version, _deleted) FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident('users')} FINAL WHERE username = ${username} LIMIT 1`)
  return row
}

/** Changes a user's rate, password, write permission or activity; other fields stay. */
export async function updateUser(rt: Runtime, username: string, change: UserOptions & { active?: boolean }): Promise<Written> {
  checkOptions(change)
  const row = await findUser(rt, username)
  if (!row) throw new Error(`no user named ${username}`)
  const next: Record<string, unknown> = { ...row, date_modified: new Date().toISOString() }
  if (change.rate !== undefined) next.rate = change.rate
  if (change.citationRate !== undefined) next.citation_rate = change.citationRate
  if (change.write !== undefined) next.can_write = change.write
  if (change.active !== undefined) next.is_active = change.active
  if (change.password !== undefined) next.password_hash = change.password ? await hashPassword(change.password) : ''
  if (change.email !== undefined) next.email = change.email
  if (change.autoSubscribe !== undefined) next.auto_subscribe = change.autoSubscribe
  return publish(rt, next)
}

/** True once the table sink has applied the user. */
export async function userVisible(rt: Runtime, id: number): Promise<boolean> {
  const rows = await rt.db.query(sql`SELECT 1 FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident('users')} FINAL WHERE id = ${id}`)
  return rows.length > 0
}
