import { defineResource, t, f } from '../define.js'
import { DOCKET_ALERT_TYPE } from './choices.js'

export const docketAlerts = defineResource({
  name: 'docket-alerts', label: 'Docket Alert', model: 'DocketAlert', plural: 'Docket Alerts', table: 'docket_alerts', keyKind: 'int',
  access: 'owner', owner: 'user_id', pageSize: 50, pageSizeQuery: true, ordering: '-date_created', cursorOrderings: ['date_created'], methods: ['PUT', 'PATCH', 'DELETE'],
  description: 'Follows one docket: new entries are reported by e-mail or webhook.',
  fields: {
    id: t.int({ readOnly: true, label: 'ID' }),
    user: t.fk('users', { hidden: true, help: 'The owning user; rows of other users are not served.' }),
    date_created: t.created(),
    date_modified: t.modified(),
    date_last_hit: t.datetime({ readOnly: true, nullable: true }),
    secret_key: t.string({ readOnly: true }),
    alert_type: t.int({ choices: DOCKET_ALERT_TYPE }),
    docket: t.fk('dockets', { required: true, asId: true }),
  },
  filters: { id: f.exact, alert_type: f.choice(), docket: f.model('docket_id') },
  orderings: ['date_created', 'date_modified'],
})
