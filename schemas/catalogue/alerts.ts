import { defineResource, t, f } from '../define.js'
import { ALERT_RATE } from './choices.js'

export const alerts = defineResource({
  name: 'alerts', label: 'Search Alert', model: 'Alert', plural: 'Search Alerts', table: 'alerts', keyKind: 'int',
  access: 'owner', owner: 'user_id', pageSize: 50, pageSizeQuery: true, ordering: '-date_created', cursorOrderings: ['date_created'], methods: ['PUT', 'PATCH', 'DELETE'],
  description: 'A saved search that reports new results by e-mail or webhook at the rate you choose.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    user: t.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    alert_type: t.string(),
    date_created: t.created(),
    date_modified: t.modified(),
    date_last_hit: t.datetime({ readOnly: true, nullable: true }),
    name: t.string({ required: true, maxLength: 75 }),
    query: t.string({ required: true, maxLength: 2500 }),
    rate: t.string({ choices: ALERT_RATE, required: true }),
    secret_key: t.string({ readOnly: true }),
  },
  filters: { id: f.exact, name: f.text, query: f.text, rate: f.choice() },
  orderings: ['date_created', 'date_modified', 'name', 'rate'],
})
