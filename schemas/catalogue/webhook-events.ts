import { defineResource, t, f } from '../define.js'
import { WEBHOOK_EVENT_STATUS, WEBHOOK_EVENT_TYPE } from './choices.js'

/**
 * Webhook events and where each is in its delivery: status, attempts, the last answer and when the
 * next attempt is due. Written by the delivery consumer; listed to their owner at
 * /api/rest/v4/webhooks/{id}/events/.
 */
export const webhookEvents = defineResource({
  name: 'webhook-events', label: 'Webhook Event', model: 'WebhookEvent', plural: 'Webhook Events', table: 'webhook_events', keyKind: 'string',
  api: false, access: 'owner', owner: 'user_id', pageSize: 50, cursorOrderings: ['date_created'], ordering: '-date_created',
  description: 'One event for one webhook endpoint, with its delivery attempts.',
  fields: {
    id: t.string({ readOnly: true, help: 'The event id, sent as Idempotency-Key and webhook-id.' }),
    webhook: t.fk('webhooks', { asId: true, readOnly: true }),
    user: t.fk('users', { hidden: true }),
    event_type: t.int({ choices: WEBHOOK_EVENT_TYPE, readOnly: true }),
    status: t.int({ choices: WEBHOOK_EVENT_STATUS, readOnly: true }),
    retry_counter: t.int({ readOnly: true }),
    next_retry_date: t.datetime({ nullable: true, readOnly: true }),
    status_code: t.int({ nullable: true, readOnly: true }),
    response: t.string({ readOnly: true, help: 'The first 4 KB of the last answer.' }),
    error_message: t.string({ readOnly: true }),
    debug: t.bool({ readOnly: true, help: 'A test event: never retried, never counted.' }),
    content: t.json({ readOnly: true, help: 'The envelope that is POSTed.' }),
    failed_at: t.datetime({ nullable: true, hidden: true }),
    date_created: t.created(),
    date_modified: t.modified(),
  },
  filters: { status: f.choice(), event_type: f.choice(), webhook: f.model('webhook_id') },
  orderings: ['date_created', 'date_modified'],
})
