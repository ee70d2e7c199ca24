/**
 * `lds webhooks …`: webhook endpoints for operators. Changes go through the webhooks topic like the
 * API's; enabling an endpoint again also asks the delivery consumer to resend its recent failures.
 */
import { sql, ident } from '../core/sql.js'
import { checkWebhookUrl, newWebhookSecret, isEventType, isWebhookVersion } from '../domain/webhooks/index.js'
import { openPublisher } from '../core/events/publisher.js'
import { openWebhookQueue } from '../core/events/webhook-queue.js'
import type { Runtime } from './runtime.js'
import { findUser } from './users.js'

export type Row = Record<string, unknown>

export async function listWebhooks(rt: Runtime, username?: string): Promise<Row[]> {
  const user = username ? await findUser(rt, username) : undefined
  if (username && !user) throw new Error(`no user named ${username}`)
  return rt.db.query<Row>(sql`SELECT id, user_id, event_type, url, version, enabled, failure_count, date_created FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident('webhooks')} FINAL
    ${user ? sql`WHERE user_id = ${Number(user.id)}` : sql``} ORDER BY id`)
}

export async function addWebhook(rt: Runtime, username: string, url: string, o: { eventType: number; version: number; enabled: boolean }): Promise<Row> {
  const user = await findUser(rt, username)
  if (!user) throw new Error(`no user named ${username}`)
  const check = checkWebhookUrl(url, { allowInsecure: rt.cfg.webhooksAllowInsecure })
  if (!check.ok) throw new Error(check.error)
  if (!isEventType(o.eventType)) throw new Error('event type is 1 to 5')
  if (!isWebhookVersion(o.version)) throw new Error('version is 1 or 2')
  const now = new Date().toISOString()
  // from the process's id allocator (core/ids.ts): unique across processes by construction
  const row = { id: await rt.ids.next(), user_id: Number(user.id), event_type: o.eventType, url, version: o.version, enabled: o.enabled, failure_count: 0, secret: newWebhookSecret(), deliver_updates: false, date_created: now, date_modified: now }
  const pub = await openPublisher(rt)
  try { await pub.write('webhooks', { upsert: row }) } finally { await pub.stop() }
  return row
}

export async function setWebhookEnabled(rt: Runtime, id: number, enabled: boolean): Promise<void> {
  const [row] = await rt.db.query<Row>(sql`SELECT * EXCEPT (_version, _deleted) FROM ${ident(rt.cfg.clickhouseDatabase)}.${ident('webhooks')} FINAL WHERE id = ${id}`)
  if (!row) throw new Error(`no webhook ${id}`)
  const pub = await openPublisher(rt)
  try { await pub.write('webhooks', { upsert: { ...row, enabled, date_modified: new Date().toISOString() } }) } finally { await pub.stop() }
  if (enabled && !row.enabled) {
    const queue = await openWebhookQueue(rt)
    try {
      await queue.send([{ kind: 'reenable', event_id: `reenable-${id}-${Date.now()}`, webhook_id: id, user_id: Number(row.user_id), event_type: Number(row.event_type), content: '', debug: false, retry_counter: 0, due_at: Date.now(), date_created: new Date().toISOString() }])
    } finally { await queue.stop() }
  }
}
