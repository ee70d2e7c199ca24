import { defineResource, field, filter } from '../define.js'

/**
 * API users. Internal: no endpoint. Tokens are stored only as a SHA-256 hash; the key itself is
 * shown once, when `lds users create` makes it.
 */
export const users = defineResource({
  name: 'users', label: 'User', model: 'User', plural: 'Users', table: 'users', keyKind: 'int', api: false, feed: 'internal', cursorOrderings: ['id'],
  description: 'An API user with a hashed token and its permissions.',
  fields: {
    id: field.int(),
    username: field.string(),
    token_hash: field.string(),
    can_write: field.bool(),
    is_active: field.bool(),
    /** Per-user override of the citation-lookup rate, e.g. "120/min"; empty for the default. */
    citation_rate: field.string(),
    /** Per-user override of the general request rates, e.g. "10/min,300/day"; "0/hour" blocks the account; empty for the default. */
    rate: field.string(),
    /** scrypt hash of the password for HTTP Basic ("scrypt$<salt>$<hash>"); empty when the user has none. */
    password_hash: field.string(),
    /** Where alerts and webhook failure notices are mailed; empty: no mail. */
    email: field.string(),
    /** Subscribe to a docket (a docket alert) when the service fetches it for this user. */
    auto_subscribe: field.bool(),
    date_created: field.created(),
    date_modified: field.modified(),
  },
  filters: { username: filter.exact, token_hash: filter.exact },
  orderings: ['id'],
})
