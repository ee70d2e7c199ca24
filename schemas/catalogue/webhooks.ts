import { defineResource, field, filter } from '../define.js'
import { WEBHOOK_EVENT_TYPE, WEBHOOK_VERSION } from './choices.js'

/**
 * Webhook endpoints: where a user's events of one type are POSTed, in which format version, and
 * whether delivery is on. Our addition (the reference manages them in a web panel): served at
 * /api/rest/v4/webhooks/ to their owner, and managed with `lds webhooks`.
 */
export const webhooks = defineResource({
  name: 'webhooks', label: 'Webhook', model: 'Webhook', plural: 'Webhooks', table: 'webhooks', keyKind: 'int',
  access: 'owner', owner: 'user_id', pageSize: 50, pageSizeQuery: true, methods: ['PATCH', 'PUT', 'DELETE'],
  description: 'An endpoint that receives your events (docket alerts, search alerts, fetches, reports, granted prayers) by HTTPS POST, signed with its secret.',
  writeHooks: 'webhook',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    user: field.fk('users', { hidden: true, help: 'The owning user.' }),
    event_type: field.int({ choices: WEBHOOK_EVENT_TYPE, required: true }),
    url: field.string({ required: true, maxLength: 2000, input: 'url', help: 'Where events are POSTed: https, a public address.' }),
    version: field.int({ choices: WEBHOOK_VERSION, help: 'The event format: 1 or 2 (2 nests documents in search alert results).' }),
    enabled: field.bool({ help: 'Events are delivered only while enabled; re-enabling sends again the events that failed in the last two days.' }),
    failure_count: field.int({ readOnly: true, help: 'Deliveries that failed (test events excluded).' }),
    secret: field.string({ readOnly: true, help: 'The Standard Webhooks signing secret (whsec_…) of this endpoint.' }),
    deliver_updates: field.bool({ help: 'Docket alerts only: also send an event when a docket entry is changed, not only when one is added.' }),
    date_created: field.created(),
    date_modified: field.modified(),
  },
  filters: { id: filter.exact, event_type: filter.choice(), enabled: filter.bool },
  orderings: ['id', 'date_created', 'date_modified'],
})
