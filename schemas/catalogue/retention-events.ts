import { defineResource, field, filter, N, TIMESTAMP_FILTERS } from '../define.js'
import { RETENTION_TYPE } from './choices.js'
import { UINT32 } from './limits.js'

export const retentionEvents = defineResource({
  name: 'retention-events', label: 'Retention Event', model: 'RetentionEvent', plural: 'Retention Events', table: 'retention_events', keyKind: 'int',
  description: 'A reappointment, retention vote or re-election that kept a judge in a position.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    position: field.fk('positions', { required: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    retention_type: field.string({ choices: RETENTION_TYPE, required: true }),
    date_retention: field.date({ required: true }),
    votes_yes: field.int({ ...UINT32, nullable: true }),
    votes_no: field.int({ ...UINT32, nullable: true }),
    votes_yes_percent: field.float(N),
    votes_no_percent: field.float(N),
    unopposed: field.bool(N),
    won: field.bool(N),
  },
  filters: {
    id: filter.int, position: filter.model('position_id'), date_created: filter.datetime, date_modified: filter.datetime, date_retention: filter.date,
    retention_type: filter.choice(), votes_yes: filter.int, votes_no: filter.int, unopposed: filter.bool, won: filter.bool,
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_retention'],
})
