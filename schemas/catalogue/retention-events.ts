import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'
import { RETENTION_TYPE } from './choices.js'
import { UINT32 } from './limits.js'

export const retentionEvents = defineResource({
  name: 'retention-events', label: 'Retention Event', model: 'RetentionEvent', plural: 'Retention Events', table: 'retention_events', keyKind: 'int',
  description: 'A reappointment, retention vote or re-election that kept a judge in a position.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    position: t.fk('positions', { required: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    retention_type: t.string({ choices: RETENTION_TYPE, required: true }),
    date_retention: t.date({ required: true }),
    votes_yes: t.int({ ...UINT32, nullable: true }),
    votes_no: t.int({ ...UINT32, nullable: true }),
    votes_yes_percent: t.float(N),
    votes_no_percent: t.float(N),
    unopposed: t.bool(N),
    won: t.bool(N),
  },
  filters: {
    id: f.int, position: f.model('position_id'), date_created: f.datetime, date_modified: f.datetime, date_retention: f.date,
    retention_type: f.choice(), votes_yes: f.int, votes_no: f.int, unopposed: f.bool, won: f.bool,
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_retention'],
})
