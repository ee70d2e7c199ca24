import { defineResource, field, filter } from '../define.js'
import { ALERT_RATE } from './choices.js'

export const alerts = defineResource({
  name: 'alerts', label: 'Search Alert', model: 'Alert', plural: 'Search Alerts', table: 'alerts', keyKind: 'int',
  access: 'owner', owner: 'user_id', pageSize: 50, pageSizeQuery: true, ordering: '-date_created', cursorOrderings: ['date_created'], methods: ['PUT', 'PATCH', 'DELETE'],
  description: 'A saved search that reports new results by e-mail or webhook at the rate you choose.',
  writeHooks: 'search-alert',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    user: field.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    alert_type: field.string(),
    date_created: field.created(),
    date_modified: field.modified(),
    date_last_hit: field.datetime({ readOnly: true, nullable: true }),
    name: field.string({ required: true, maxLength: 75 }),
    query: field.string({ required: true, maxLength: 2500 }),
    rate: field.string({ choices: ALERT_RATE, required: true }),
    secret_key: field.string({ readOnly: true }),
  },
  filters: { id: filter.exact, name: filter.text, query: filter.text, rate: filter.choice() },
  orderings: ['date_created', 'date_modified', 'name', 'rate'],
})
