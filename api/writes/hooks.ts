/**
 * What each writable resource adds to the generic write engine (api/engine/write.ts): server-made
 * fields (ids, owner, timestamps, secrets), defaults, and the rules of api-facts §10 and the spec:
 * search alerts (type resolution, match-all refused, frequency estimate, quotas), docket alerts
 * (one per docket and user, an existing docket), prayers (one per document, five a day, only for a
 * document not yet available), archive fetch (what each request type needs), user tags (a unique
 * slug per user) and docket tags (only on your own tags, once per docket).
 * Hooks read the caller's existing rows and related rows from the read model. New rows get their
 * ids from the process's id allocator (core/ids.ts: blocks leased from Kafka, unique across API
 * processes by construction); when none can be leased the write fails with a 503, it never falls
 * back to a made-up id.
 */
import { randomBytes } from 'node:crypto'
import { FieldErrors, LdsError } from '../../core/errors.js'
import type { Clock } from '../../core/clock.js'
import type { IdSource } from '../../core/ids.js'
import { catalogue, checkNamed, type Catalogue } from '../../schemas/catalogue/index.js'
import type { ReadStore } from '../read-model/store.js'
import type { ApiUser } from '../read-model/users.js'
import { checkSearchAlert, checkAlertFrequency, type AlertRate, type AlertType, type MembershipLevel } from '../../domain/alerts/index.js'
import { checkNewPrayer } from '../../domain/alerts/prayers.js'
import { checkWebhookUrl, newWebhookSecret } from '../../domain/webhooks/index.js'
import type { RecordsGateway, RecordsSession } from '../../clients/records-gateway.js'
import type { RecordsSessions } from '../../clients/records-sessions.js'

export type Record_ = Record<string, unknown>

export interface WriteContext {
  user: ApiUser
  clock: Clock
  catalogue: Catalogue
  store: ReadStore
  /** The caller's rows of a resource (through the read model's owner index). */
  mine(resource: string): Record_[]
  /** The search engine's views of an alert query (undefined until search is available). */
  search?: { isMatchAll(query: string): boolean; estimate(query: string): Promise<number | null> }
  /** Webhook targets may be http and loopback (LDS_WEBHOOKS_ALLOW_INSECURE). */
  allowInsecureWebhooks: boolean
  /** Asks the delivery consumer to resend a re-enabled endpoint's recent failures. */
  reenableWebhook?(webhook: Record_): Promise<void>
  /** The records system (when configured) and where a fetch request's session goes for the fetcher. */
  records?: { gateway: RecordsGateway; sessions: RecordsSessions }
  /** Ids of created rows (core/ids.ts). */
  ids: IdSource
}

export interface WriteHooks {
  create(fields: Record_, ctx: WriteContext): Promise<Record_> | Record_
  update?(row: Record_, fields: Record_, ctx: WriteContext): Promise<Record_> | Record_
  delete?(row: Record_, ctx: WriteContext): void
  /** Keys added to the answer of a create or update (e.g. estimated_hits). */
  answerExtra?(record: Record_, fields: Record_, ctx: WriteContext): Promise<Record_> | Record_
  /** After the change is visible (an update: `before` is the row it replaced). */
  afterWrite?(record: Record_, before: Record_ | undefined, ctx: WriteContext): Promise<void>
}

/** The id of a row being created: from the allocator (a lease that fails is a DependencyError, a 503). */
async function newId(ctx: WriteContext): Promise<number> {
  return ctx.ids.next()
}
const secretKey = () => randomBytes(20).toString('hex')
const stamp = (ctx: WriteContext) => new Date(ctx.clock.now()).toISOString()
const exists = (ctx: WriteContext, resource: string, id: unknown) => id !== null && id !== undefined && ctx.store.get(resource, id as number) !== undefined
const noSuch = (field: string, id: unknown) => new FieldErrors({ [field]: [`Invalid pk "${String(id)}" - object does not exist.`] })

/** The caller's membership level from the memberships resource, or null. */
function membershipOf(ctx: WriteContext): MembershipLevel | null {
  const now = stamp(ctx).slice(0, 10)
  const active = ctx.mine('memberships').find((m) => m.is_active && (!m.date_end || String(m.date_end) >= now))
  if (!active) return null
  const level = String(active.level).replace('-', '_')
  return (['legacy', 'tier_1', 'tier_2', 'tier_3', 'tier_4'].includes(level) ? level : 'tier_1') as MembershipLevel
}

/** A match-all query (no q and no filter) — used until the search engine is wired in. */
function plainMatchAll(query: string): boolean {
  const params = new URLSearchParams(query.replace(/^\?/, ''))
  for (const [k, v] of params) if (k !== 'type' && k !== 'order_by' && v.trim() !== '') return false
  return true
}

const alertHooks: WriteHooks = {
  async create(fields, ctx) {
    const row = checkedAlert(fields, ctx, undefined)
    return { id: await newId(ctx), ...row }
  },
  update(row, fields, ctx) {
    return { ...row, ...checkedAlert(fields, ctx, row), id: row.id, user_id: row.user_id, secret_key: row.secret_key, date_created: row.date_created }
  },
  async answerExtra(record, fields, ctx) {
    if (fields.query === undefined) return {}
    const hits = ctx.search ? await ctx.search.estimate(String(record.query)) : null
    if (!ctx.search) return {}
    const freq = checkAlertFrequency(hits)
    if (!freq.ok) throw freq.error
    return { estimated_hits: freq.value }
  },
}

function checkedAlert(fields: Record_, ctx: WriteContext, existing: Record_ | undefined): Record_ {
  const mine = ctx.mine('alerts').map((a) => ({ id: Number(a.id), rate: a.rate as AlertRate, alert_type: a.alert_type as AlertType }))
  const check = checkSearchAlert(fields, {
    isMatchAll: ctx.search?.isMatchAll ?? plainMatchAll, user: { membership: membershipOf(ctx) }, userAlerts: mine,
  }, existing ? { id: Number(existing.id), name: String(existing.name), query: String(existing.query), rate: existing.rate as AlertRate, alert_type: existing.alert_type as AlertType } : undefined)
  if (!check.ok) throw check.error
  const now = stamp(ctx)
  const v = check.value
  return {
    ...(existing ? {} : { user_id: ctx.user.id, date_created: now, secret_key: secretKey(), date_last_hit: null }),
    name: v.name, query: v.query, rate: v.rate, alert_type: v.alert_type, date_modified: now,
  }
}

const docketAlertHooks: WriteHooks = {
  async create(fields, ctx) {
    if (!exists(ctx, 'dockets', fields.docket_id)) throw noSuch('docket', fields.docket_id)
    if (ctx.mine('docket-alerts').some((a) => Number(a.docket_id) === Number(fields.docket_id))) {
      throw new FieldErrors({ non_field_errors: ['The fields docket, user must make a unique set.'] })
    }
    const now = stamp(ctx)
    return { id: await newId(ctx), user_id: ctx.user.id, date_created: now, date_modified: now, date_last_hit: null, secret_key: secretKey(), alert_type: 1, ...fields }
  },
  update(row, fields, ctx) {
    if (fields.docket_id !== undefined && Number(fields.docket_id) !== Number(row.docket_id)) {
      if (!exists(ctx, 'dockets', fields.docket_id)) throw noSuch('docket', fields.docket_id)
      if (ctx.mine('docket-alerts').some((a) => Number(a.docket_id) === Number(fields.docket_id))) throw new FieldErrors({ non_field_errors: ['The fields docket, user must make a unique set.'] })
    }
    // Re-upping (alert_type=1) or toggling restarts the dormancy clock: date_modified moves.
    return { ...row, ...fields, date_modified: stamp(ctx) }
  },
}

const prayerHooks: WriteHooks = {
  async create(fields, ctx) {
    const doc = ctx.store.get('archive-documents', fields.archive_document_id as number)
    if (!doc) throw noSuch('archive_document', fields.archive_document_id)
    if (doc.is_available === true) throw new FieldErrors({ non_field_errors: ['This document is already available; there is nothing to pray for.'] })
    const mine = ctx.mine('prayers').map((p) => ({ archive_document: Number(p.archive_document_id), date_created: Date.parse(String(p.date_created)) }))
    const refused = checkNewPrayer(Number(fields.archive_document_id), mine, ctx.clock.now())
    if (refused) throw refused
    return { id: await newId(ctx), user_id: ctx.user.id, date_created: stamp(ctx), status: 1, archive_document_id: fields.archive_document_id }
  },
}

/** How long a fetch request waits for its login to the records system. */
const LOGIN_BUDGET_MS = 15_000

/** How long a records session is kept when the records system does not say (seconds). */
const SESSION_DEFAULT_S = 30 * 60

const fetchHooks: WriteHooks = {
  async create(fields, ctx) {
    const type = Number(fields.request_type)
    const errors: Record<string, string[]> = {}
    if (type === 1) {
      if (!fields.records_case_id && !fields.docket_number && !fields.docket_id) errors.non_field_errors = ['A docket request needs a docket, a records case id or a docket number.']
      if ((fields.records_case_id || fields.docket_number) && !fields.court_id && !fields.docket_id) errors.court = ['A court is required with a records case id or a docket number.']
    } else if (!fields.archive_document_id) {
      errors.archive_document = ['This field is required for a PDF or an attachment page.']
    }
    if (fields.docket_id != null && !exists(ctx, 'dockets', fields.docket_id)) errors.docket = [`Invalid pk "${String(fields.docket_id)}" - object does not exist.`]
    if (fields.court_id != null && !exists(ctx, 'courts', fields.court_id)) errors.court = [`Invalid pk "${String(fields.court_id)}" - object does not exist.`]
    if (fields.archive_document_id != null && !exists(ctx, 'archive-documents', fields.archive_document_id)) errors.archive_document = [`Invalid pk "${String(fields.archive_document_id)}" - object does not exist.`]
    if (Object.keys(errors).length) throw new FieldErrors(errors)
    // The purchase is the user's: log in to the records system with the credentials sent (a
    // refusal is the caller's to fix, now), and hand the session, not the password, to the
    // fetcher. The credentials themselves are not stored.
    const { records_username: username, records_password: password, client_code: _c, ...keep } = fields
    let session: RecordsSession | undefined
    if (ctx.records) {
      // bounded: the caller waits for this answer (the gateway alone would retry for minutes)
      const login = await ctx.records.gateway.login(String(username), String(password), AbortSignal.timeout(LOGIN_BUDGET_MS))
        .catch(() => ({ ok: false as const, failure: { kind: 'timeout' as const, message: `The records system did not answer within ${LOGIN_BUDGET_MS / 1000} s.` } }))
      if (!login.ok) {
        if (login.failure.kind === 'auth_failed') throw new FieldErrors({ non_field_errors: ['The records system rejected this username and password.'] })
        throw new LdsError('LDS_ERR_UNAVAILABLE', { detail: `The records system could not be reached to log in; nothing was requested. Try again later. (${login.failure.message})` })
      }
      session = login.value
    }
    const now = stamp(ctx)
    const row = {
      id: await newId(ctx), user_id: ctx.user.id, date_created: now, date_modified: now, date_completed: null, status: 1, message: '',
      court_id: null, docket_id: null, archive_document_id: null, show_parties_and_counsel: false, show_terminated_parties: false, show_list_of_member_cases: false,
      ...keep,
    }
    // kept before the request is published, so the fetcher finds it whenever it reads the request
    if (session && ctx.records) await ctx.records.sessions.put(Number(row.id), session.token, (session.expiresInS ?? SESSION_DEFAULT_S) * 1000)
    return row
  },
}

const tagHooks: WriteHooks = {
  async create(fields, ctx) {
    if (ctx.mine('tags').some((x) => x.name === fields.name)) throw new FieldErrors({ non_field_errors: ['The fields user, name must make a unique set.'] })
    const now = stamp(ctx)
    return { id: await newId(ctx), user_id: ctx.user.id, date_created: now, date_modified: now, title: '', description: '', view_count: 0, published: false, ...fields }
  },
  update(row, fields, ctx) {
    if (fields.name !== undefined && fields.name !== row.name && ctx.mine('tags').some((x) => x.name === fields.name)) throw new FieldErrors({ non_field_errors: ['The fields user, name must make a unique set.'] })
    return { ...row, ...fields, date_modified: stamp(ctx) }
  },
}

const docketTagHooks: WriteHooks = {
  async create(fields, ctx) {
    const tag = ctx.store.get('tags', fields.tag_id as number)
    if (!tag || Number(tag.user_id) !== ctx.user.id) throw noSuch('tag', fields.tag_id)
    if (!exists(ctx, 'dockets', fields.docket_id)) throw noSuch('docket', fields.docket_id)
    if (ctx.mine('docket-tags').some((x) => Number(x.tag_id) === Number(fields.tag_id) && Number(x.docket_id) === Number(fields.docket_id))) {
      throw new FieldErrors({ non_field_errors: ['The fields docket, tag must make a unique set.'] })
    }
    return { id: await newId(ctx), user_id: ctx.user.id, published: !!tag.published, ...fields }
  },
}

const webhookHooks: WriteHooks = {
  async create(fields, ctx) {
    const url = checkWebhookUrl(String(fields.url), { allowInsecure: ctx.allowInsecureWebhooks })
    if (!url.ok) throw new FieldErrors({ url: [url.error] })
    const version = fields.version ?? 1
    if (ctx.mine('webhooks').some((w) => Number(w.event_type) === Number(fields.event_type) && Number(w.version) === Number(version))) {
      throw new FieldErrors({ non_field_errors: ['You already have a webhook for this event type and version.'] })
    }
    const now = stamp(ctx)
    return { id: await newId(ctx), user_id: ctx.user.id, enabled: false, failure_count: 0, deliver_updates: false, ...fields, version, secret: newWebhookSecret(), date_created: now, date_modified: now }
  },
  update(row, fields, ctx) {
    if (fields.url !== undefined) {
      const url = checkWebhookUrl(String(fields.url), { allowInsecure: ctx.allowInsecureWebhooks })
      if (!url.ok) throw new FieldErrors({ url: [url.error] })
    }
    const next: Record_ = { ...row, ...fields, date_modified: stamp(ctx) }
    if (ctx.mine('webhooks').some((w) => w.id !== row.id && Number(w.event_type) === Number(next.event_type) && Number(w.version) === Number(next.version))) {
      throw new FieldErrors({ non_field_errors: ['You already have a webhook for this event type and version.'] })
    }
    return next
  },
  async afterWrite(record, before, ctx) {
    if (before && !before.enabled && record.enabled) await ctx.reenableWebhook?.(record)
  },
}

/** The write hooks, by the name a resource declares (ResourceDef.writeHooks). */
export const WRITE_HOOK_IMPLEMENTATIONS: Readonly<Record<string, WriteHooks>> = {
  'search-alert': alertHooks,
  'docket-alert': docketAlertHooks,
  prayer: prayerHooks,
  'fetch-request': fetchHooks,
  'user-tag': tagHooks,
  'docket-tag': docketTagHooks,
  webhook: webhookHooks,
}

/** Hooks the resources declare without an implementation here, and implementations none declares. */
export function checkWriteHooks(cat: Catalogue, implemented: Readonly<Record<string, WriteHooks>> = WRITE_HOOK_IMPLEMENTATIONS): string[] {
  return checkNamed('write hooks', cat.resources, (r) => r.writeHooks, Object.keys(implemented))
}

function hooksByResource(cat: Catalogue): Record<string, WriteHooks> {
  const problems = checkWriteHooks(cat)
  if (problems.length) throw new Error(`write hooks do not match the catalogue:\n  ${problems.join('\n  ')}`)
  return Object.fromEntries(cat.resources.filter((r) => r.writeHooks).map((r) => [r.name, WRITE_HOOK_IMPLEMENTATIONS[r.writeHooks!]]))
}

/** Writable resources and their hooks, by resource name; checked against the catalogue when this module loads. */
export const WRITE_HOOKS: Readonly<Record<string, WriteHooks>> = hooksByResource(catalogue)

export { LdsError }
