import { defineResource, field, filter, N } from '../define.js'
import { MEMBERSHIP_LEVEL } from './choices.js'

/** The caller's membership tiers: read-only, each user sees only its own. */
export const memberships = defineResource({
  name: 'memberships', label: 'Membership', model: 'Membership', plural: 'Memberships', table: 'memberships', keyKind: 'int',
  access: 'owner', owner: 'user_id', writes: { create: false, update: false },
  description: 'Your membership: its level, when it started and ended, and whether it is active.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    user: field.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    level: field.string({ choices: MEMBERSHIP_LEVEL, required: true, help: 'Membership tier; it sets rate limits and alert quotas.' }),
    date_start: field.date(),
    date_end: field.date(N),
    is_active: field.bool(),
    date_created: field.created(),
    date_modified: field.modified(),
  },
  filters: { id: filter.int, level: filter.choice(), is_active: filter.bool, date_start: filter.date, date_end: filter.date },
  orderings: ['id', 'date_created', 'date_modified', 'date_start', 'date_end'],
})
