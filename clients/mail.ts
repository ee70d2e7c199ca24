/**
 * The mail sender: a thin, typed edge over nodemailer's SMTP transport, plus the builders of
 * every message the service sends (webhook failing / disabled, docket alert, search alert,
 * prayer granted). Options come in as a plain object; nothing here reads process.env.
 *
 *   const mailer = createMailer({ host, port, from: 'alerts@example.org' })
 *   await mailer.send({ to, ...webhookFailingMail({...}) })
 *   await mailer.close()
 *
 * Errors are classified once, here: `MailSendError.retriable` is true for connection problems
 * and SMTP 4xx answers (try again later), false for 5xx answers (the message will never go).
 */
import nodemailer from 'nodemailer'
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js'
import { EVENT_TYPES, eventTypeName, type EventTypeId } from '../domain/webhooks/event-types.js'
import { ALERT_RATES, ALERT_TYPES, type AlertRate, type AlertType } from '../domain/alerts/search-alerts.js'

// ---------------------------------------------------------------------------------------------
// Transport

export interface MailerOptions {
  host: string
  port: number
  /** The sender of every message, e.g. `"Legal Data Service" <alerts@example.org>`. */
  from: string
  /** Implicit TLS (port 465). Default false: plain, upgraded with STARTTLS when offered. */
  secure?: boolean
  /** Refuse to send unless STARTTLS succeeds. Default false. */
  requireTLS?: boolean
  auth?: { user: string; pass: string }
  /** Milliseconds for connecting, greeting and each SMTP command. Default 10 s. */
  timeoutMs?: number
}

export interface OutgoingMail {
  to: string | string[]
  subject: string
  text: string
  html?: string
  /** Extra headers (e.g. List-Unsubscribe). */
  headers?: Record<string, string>
}

export interface SentMail {
  messageId: string
  accepted: string[]
  rejected: string[]
}

export class MailSendError extends Error {
  constructor(message: string, readonly retriable: boolean, readonly responseCode: number | null, opts: { cause?: unknown } = {}) {
    super(message, opts)
    this.name = 'MailSendError'
  }
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<SentMail>
  /** Connects and authenticates without sending: a readiness check. */
  verify(): Promise<void>
  close(): Promise<void>
}

export function createMailer(opts: MailerOptions): Mailer {
  if (!opts.host || !Number.isInteger(opts.port) || opts.port <= 0) throw new Error('mailer needs a host and a port')
  if (!opts.from) throw new Error('mailer needs a from address')
  const timeout = opts.timeoutMs ?? 10_000
  const transportOptions: SMTPTransport.Options = {
    host: opts.host,
    port: opts.port,
    secure: opts.secure ?? false,
    requireTLS: opts.requireTLS ?? false,
    auth: opts.auth ? { user: opts.auth.user, pass: opts.auth.pass } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    logger: false,
    debug: false,
  }
  const transport = nodemailer.createTransport(transportOptions)

  return {
    async send(mail) {
      if (!mail.to || (Array.isArray(mail.to) && mail.to.length === 0)) throw new MailSendError('no recipient', false, null)
      try {
        const info = await transport.sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers,
        })
        const list = (xs: unknown[] | undefined) => (xs ?? []).map((x) => (typeof x === 'string' ? x : (x as { address: string }).address))
        return { messageId: info.messageId, accepted: list(info.accepted), rejected: list(info.rejected) }
      } catch (err) {
        throw toMailError(err)
      }
    },
    async verify() {
      try { await transport.verify() } catch (err) { throw toMailError(err) }
    },
    async close() {
      transport.close()
    },
  }
}

function toMailError(err: unknown): MailSendError {
  const e = err as { message?: string; responseCode?: number; code?: string }
  const code = typeof e.responseCode === 'number' ? e.responseCode : null
  // SMTP 5xx is permanent; 4xx, timeouts and connection errors may pass later
  const retriable = code === null ? e.code !== 'EAUTH' && e.code !== 'EENVELOPE' : code < 500
  return new MailSendError(e.message ?? String(err), retriable, code, { cause: err })
}

// ---------------------------------------------------------------------------------------------
// Message builders: pure, each returns { subject, text, html }

export interface MailContent { subject: string; text: string; html: string }

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

const link = (base: string, path: string) => (/^https?:\/\//.test(path) ? path : `${base.replace(/\/+$/, '')}${path.startsWith('/') ? '' : '/'}${path}`)

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`
}

const eventLabel = (t: EventTypeId) => EVENT_TYPES[eventTypeName(t)].label

export interface WebhookMailInput {
  webhook: { url: string; event_type: EventTypeId; version: number }
  /** The failing event (the endpoint's oldest pending one). */
  eventId: string
  /** How many times that event has failed so far. */
  failureNumber: number
  /** When the next attempt is due (ISO), for the failing notice. */
  nextAttemptAt?: string | null
  /** Where the owner manages webhooks. */
  panelUrl: string
}

/** Sent at the failures of retries 1 and 5 (the 2nd and 6th failure), for the oldest pending event. */
export function webhookFailingMail(i: WebhookMailInput): MailContent {
  const label = eventLabel(i.webhook.event_type)
  const subject = `[Action Needed]: Your ${label} webhook is failing.`
  const next = i.nextAttemptAt ? `The next attempt is scheduled for ${i.nextAttemptAt}.` : ''
  const lines = [
    `Your ${label} webhook (version ${i.webhook.version}) at ${i.webhook.url} is failing.`,
    `Event ${i.eventId} has failed ${i.failureNumber} times. We retry failed events up to seven times with growing delays; after the eighth failure the endpoint is disabled.`,
    next,
    `Check the webhook logs and fix the endpoint: ${i.panelUrl}`,
  ].filter(Boolean)
  return {
    subject,
    text: lines.join('\n\n') + '\n',
    html: page(subject, lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')),
  }
}

/** Sent at the 8th failure (retry 7), when the endpoint is disabled. */
export function webhookDisabledMail(i: Omit<WebhookMailInput, 'nextAttemptAt'>): MailContent {
  const label = eventLabel(i.webhook.event_type)
  const subject = `[Action Needed]: Your ${label} webhook is now disabled.`
  const lines = [
    `Your ${label} webhook (version ${i.webhook.version}) at ${i.webhook.url} has been disabled after event ${i.eventId} failed ${i.failureNumber} times.`,
    'New and undelivered events will not be sent while it is disabled.',
    `Once you fix the endpoint, re-enable it in the webhooks panel; events that failed within the last two days will be delivered again: ${i.panelUrl}`,
  ]
  return { subject, text: lines.join('\n\n') + '\n', html: page(subject, lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')) }
}

export interface DocketAlertMailInput {
  siteUrl: string
  docket: { id: number; case_name: string; docket_number?: string | null; court?: string | null; absolute_url: string }
  entries: readonly {
    entry_number: number | null
    date_filed: string | null
    description: string
    archive_documents?: readonly { description?: string; absolute_url?: string; document_number?: string; attachment_number?: number | null }[]
  }[]
  /** A link that disables this alert without logging in (built from the alert's secret key). */
  unsubscribeUrl?: string
}

export function docketAlertMail(i: DocketAlertMailInput): MailContent {
  const n = i.entries.length
  const subject = `${n} New ${n === 1 ? 'Entry' : 'Entries'} in ${i.docket.case_name}${i.docket.docket_number ? ` (${i.docket.docket_number})` : ''}`
  const docketUrl = link(i.siteUrl, i.docket.absolute_url)
  const text: string[] = [`New filings in ${i.docket.case_name}${i.docket.court ? `, ${i.docket.court}` : ''}.`, `Docket: ${docketUrl}`, '']
  const rows: string[] = []
  for (const e of i.entries) {
    text.push(`#${e.entry_number ?? '—'}  ${e.date_filed ?? ''}  ${e.description}`)
    const docs = (e.archive_documents ?? []).map((d) => ({ label: d.description || `Document ${d.document_number ?? ''}${d.attachment_number ? `-${d.attachment_number}` : ''}`, url: d.absolute_url ? link(i.siteUrl, d.absolute_url) : null }))
    for (const d of docs) text.push(`    ${d.label}${d.url ? `: ${d.url}` : ''}`)
    rows.push(`<tr><td>${escapeHtml(String(e.entry_number ?? '—'))}</td><td>${escapeHtml(e.date_filed ?? '')}</td><td>${escapeHtml(e.description)}${docs.map((d) => `<br>${d.url ? `<a href="${escapeHtml(d.url)}">${escapeHtml(d.label)}</a>` : escapeHtml(d.label)}`).join('')}</td></tr>`)
  }
  if (i.unsubscribeUrl) text.push('', `Disable this alert: ${i.unsubscribeUrl}`)
  const html = page(subject, [
    `<p>New filings in <a href="${escapeHtml(docketUrl)}">${escapeHtml(i.docket.case_name)}</a>${i.docket.court ? `, ${escapeHtml(i.docket.court)}` : ''}.</p>`,
    `<table><tr><th>#</th><th>Filed</th><th>Description</th></tr>${rows.join('')}</table>`,
    i.unsubscribeUrl ? `<p><a href="${escapeHtml(i.unsubscribeUrl)}">Disable this alert</a></p>` : '',
  ].join(''))
  return { subject, text: text.join('\n') + '\n', html }
}

export interface SearchAlertMailInput {
  siteUrl: string
  /** rt: one alert's hits as they arrive; dly/wly/mly: a digest of one or more alerts. */
  rate: AlertRate
  alerts: readonly {
    alert: { name: string; alert_type: AlertType; query: string }
    /** Result rows: a title (caseName) and a link; snippets may hold <strong> highlights. */
    results: readonly { caseName?: string; case_name?: string; absolute_url: string; snippet?: string; dateFiled?: string | null }[]
  }[]
}

export function searchAlertMail(i: SearchAlertMailInput): MailContent {
  const hits = i.alerts.reduce((n, a) => n + a.results.length, 0)
  const rateLabel = ALERT_RATES[i.rate]
  const subject = i.rate === 'rt' && i.alerts.length === 1
    ? `New hits for your alert: ${i.alerts[0].alert.name}`
    : `Your ${rateLabel.toLowerCase()} alerts: ${hits} new ${hits === 1 ? 'hit' : 'hits'}`
  const text: string[] = []
  const html: string[] = []
  for (const { alert, results } of i.alerts) {
    const kind = ALERT_TYPES[alert.alert_type]
    const searchUrl = link(i.siteUrl, `/?${alert.query}`)
    text.push(`Your ${rateLabel.toLowerCase()} ${kind.toLowerCase()} alert "${alert.name}" has ${results.length} new ${results.length === 1 ? 'hit' : 'hits'}:`)
    html.push(`<h2>${escapeHtml(alert.name)}</h2><p>${escapeHtml(`${rateLabel} ${kind.toLowerCase()} alert`)}, ${results.length} new ${results.length === 1 ? 'hit' : 'hits'} — <a href="${escapeHtml(searchUrl)}">see all results</a></p><ol>`)
    for (const r of results) {
      const title = r.caseName ?? r.case_name ?? '(untitled)'
      const url = link(i.siteUrl, r.absolute_url)
      text.push(`  - ${title}${r.dateFiled ? ` (${r.dateFiled})` : ''}: ${url}`)
      if (r.snippet) text.push(`    ${stripTags(r.snippet)}`)
      html.push(`<li><a href="${escapeHtml(url)}">${escapeHtml(title)}</a>${r.dateFiled ? ` (${escapeHtml(r.dateFiled)})` : ''}${r.snippet ? `<br>${keepStrong(r.snippet)}` : ''}</li>`)
    }
    text.push(`  All results: ${searchUrl}`, '')
    html.push('</ol>')
  }
  return { subject, text: text.join('\n'), html: page(subject, html.join('')) }
}

export interface PrayerGrantedMailInput {
  siteUrl: string
  document: { description: string; absolute_url: string; case_name?: string; document_number?: string | null }
  /** How many people asked for it. */
  prayerCount?: number
}

export function prayerGrantedMail(i: PrayerGrantedMailInput): MailContent {
  const url = link(i.siteUrl, i.document.absolute_url)
  const what = i.document.description || `Document ${i.document.document_number ?? ''}`.trim()
  const subject = `A document you requested is now available: ${what}`
  const lines = [
    `Good news: ${what}${i.document.case_name ? ` in ${i.document.case_name}` : ''} is now in the archive, thanks to another user's purchase.`,
    i.prayerCount && i.prayerCount > 1 ? `${i.prayerCount} people had asked for it.` : '',
    `Read it here: ${url}`,
  ].filter(Boolean)
  return { subject, text: lines.join('\n\n') + '\n', html: page(subject, lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('').replace(escapeHtml(url), `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`)) }
}

function stripTags(s: string): string {
  return s.replace(/<[^>]*>/g, '')
}

/** Escapes a snippet but keeps its <strong> highlights. */
function keepStrong(s: string): string {
  return escapeHtml(s).replace(/&lt;(\/?)strong&gt;/g, '<$1strong>')
}
