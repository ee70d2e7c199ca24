import { defineResource, field, filter } from '../define.js'
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
    id: field.string({ readOnly: true, help: 'The event id, sent as Idempotency-Key and webhook-id.' }),
    webhook: field.fk('webhooks', { asId: true, readOnly: true }),
    user: field.fk('users', { hidden: true }),
    event_type: field.int({ choices: WEBHOOK_EVENT_TYPE, readOnly: true }),
    status: field.int({ choices: WEBHOOK_EVENT_STATUS, readOnly: true }),
    retry_counter: field.int({ readOnly: true }),
    next_retry_date: field.datetime({ nullable: true, readOnly: true }),
    status_code: field.int({ nullable: true, readOnly: true }),
    response: field.string({ readOnly: true, help: 'The first 4 KB of the last answer.' }),
    error_message: field.string({ readOnly: true }),
    debug: field.bool({ readOnly: true, help: 'A test event: never retried, never counted.' }),
    content: field.json({ readOnly: true, help: 'The envelope that is POSTed.' }),
    failed_at: field.datetime({ nullable: true, hidden: true }),
    date_created: field.created(),
    date_modified: field.modified(),
  },
  filters: { status: filter.choice(), event_type: filter.choice(), webhook: filter.model('webhook_id') },
  orderings: ['date_created', 'date_modified'],
})
