import { defineResource, t, f, N } from '../define.js'
import { MEMBERSHIP_LEVEL } from './choices.js'

/** The caller's membership tiers: read-only, each user sees only its own. */
export const memberships = defineResource({
  name: 'memberships', label: 'Membership', model: 'Membership', plural: 'Memberships', table: 'memberships', keyKind: 'int',
  access: 'owner', owner: 'user_id', writes: { create: false, update: false },
  description: 'Your membership: its level, when it started and ended, and whether it is active.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    user: t.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    level: t.string({ choices: MEMBERSHIP_LEVEL, required: true, help: 'Membership tier; it sets rate limits and alert quotas.' }),
    date_start: t.date(),
    date_end: t.date(N),
    is_active: t.bool(),
    date_created: t.created(),
    date_modified: t.modified(),
  },
  filters: { id: f.int, level: f.choice(), is_active: f.bool, date_start: f.date, date_end: f.date },
  orderings: ['id', 'date_created', 'date_modified', 'date_start', 'date_end'],
})
