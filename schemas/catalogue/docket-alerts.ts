import { defineResource, field, filter } from '../define.js'
import { DOCKET_ALERT_TYPE } from './choices.js'

export const docketAlerts = defineResource({
  name: 'docket-alerts', label: 'Docket Alert', model: 'DocketAlert', plural: 'Docket Alerts', table: 'docket_alerts', keyKind: 'int',
  access: 'owner', owner: 'user_id', pageSize: 50, pageSizeQuery: true, ordering: '-date_created', cursorOrderings: ['date_created'], methods: ['PUT', 'PATCH', 'DELETE'],
  description: 'Follows one docket: new entries are reported by e-mail or webhook.',
  writeHooks: 'docket-alert',
  fields: {
    id: field.int({ readOnly: true, label: 'ID' }),
    user: field.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    date_created: field.created(),
    date_modified: field.modified(),
    date_last_hit: field.datetime({ readOnly: true, nullable: true }),
    secret_key: field.string({ readOnly: true }),
    alert_type: field.int({ choices: DOCKET_ALERT_TYPE }),
    docket: field.fk('dockets', { required: true, asId: true }),
  },
  filters: { id: filter.exact, alert_type: filter.choice(), docket: filter.model('docket_id') },
  orderings: ['date_created', 'date_modified'],
})
