/**
 * What every event source needs (docket alerts, fetches, prayers, reports, search alerts): the
 * current users and webhook endpoints (kept in memory from their topics), a webhook emitter that
 * sends a user's events to its enabled endpoints of the type, a mailer (optional), and helpers to
 * read rows the table sink holds and to shape them as the API shows them.
 *
 * Those tables and rows trail the topics: a row published just before the event that needs it may
 * not be there yet; a source waits for them with ../lib/catch-up.ts.
 */
import type { Kafka } from 'kafkajs'
import type { Config } from '../../core/config.js'
import type { Logger } from '../../core/logger.js'
import type { Registry } from '../../core/registry.js'
import type { Clock } from '../../core/clock.js'
import type { Db } from '../../core/clickhouse.js'
import { sql, ident } from '../../core/sql.js'
import type { Catalogue } from '../../schemas/catalogue/index.js'
import { formatDatetime } from '../../schemas/values.js'
import type { Publisher } from '../../core/events/publisher.js'
import type { WebhookQueue } from '../../core/events/webhook-queue.js'
import { createWebhookEmitter, type WebhookEmitter } from '../../core/events/webhook-emitter.js'
import type { Mailer, MailContent } from '../../clients/mail.js'
import { openEntityTable, type EntityTable, type EntityTables, type Row } from '../lib/entity-table.js'
import type { Watermarks } from '../../core/events/watermark-reader.js'
import type { ConsumerTimeouts } from '../runner.js'

export type { Row }

export interface SourceDeps {
  cfg: Config; kafka: Kafka; registry: Registry; log: Logger; clock: Clock; db: Db; catalogue: Catalogue
  publisher: Publisher; queue: WebhookQueue; mailer?: Mailer
  /** The table sink's watermarks, when the process already reads them; a source that needs them reads its own otherwise. */
  watermarks?: Watermarks
  /** The process's shared entity tables, when it has them; a source opens its own otherwise. */
  tables?: EntityTables
  /** The source's consumer group timeouts (tests shorten them). */
  consumerTimeouts?: ConsumerTimeouts
}

export interface SourceContext {
  users: EntityTable
  webhooks: EntityTable
  emitter: WebhookEmitter
  /** Mails a user when it has an address and a mailer is configured; failures are logged, not thrown. */
  mail(userId: number, content: MailContent): Promise<void>
  /** Rows of a resource's table (FINAL) whose `column` is one of `values`. */
  rowsWhere(resource: string, column: string, values: readonly unknown[]): Promise<Row[]>
  stop(): Promise<void>
}

export async function openSourceContext(deps: SourceDeps, name: string): Promise<SourceContext> {
  const log = deps.log.child({ stream: name })
  const users = openEntityTable(deps, 'users')
  const webhooks = openEntityTable(deps, 'webhooks')
  await Promise.all([users.start(), webhooks.start()])
  await Promise.all([users.ready(), webhooks.ready()])
  const emitter = createWebhookEmitter({
    queue: deps.queue, publisher: deps.publisher, clock: deps.clock,
    endpointsOf: (user, type) => [...webhooks.values()].filter((w) => Number(w.user_id) === user && Number(w.event_type) === type),
  })
  return {
    users, webhooks, emitter,
    async mail(userId, content) {
      const to = String(users.get(userId)?.email ?? '')
      if (!deps.mailer || !to) return
      await deps.mailer.send({ to, ...content }).catch((err) => log.warn({ err: (err as Error).message }, 'mail not sent'))
    },
    async rowsWhere(resource, column, values) {
      const r = deps.catalogue.get(resource)
      if (!values.length) return []
      const type = values.every((v) => typeof v === 'number') ? 'Int64' : 'String'
      return deps.db.withKeys<Row>(values, type, (k) => sql`SELECT * EXCEPT (_version, _deleted) FROM ${ident(deps.db.database)}.${ident(r.table)} FINAL WHERE ${ident(column)} IN ${k}`)
    },
    async stop() { await Promise.all([users.stop(), webhooks.stop()]) },
  }
}

/** A stored row as the API shows its plain fields: timestamps in the API's form; relations left to the caller. */
export function asShown(row: Row): Row {
  const out: Row = {}
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v) ? formatDatetime(v) : v
  return out
}
