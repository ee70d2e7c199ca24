import { defineResource, t, f, N, TIMESTAMP_FILTERS } from '../define.js'

export const retentionEvents = defineResource({
  name: 'retention-events', label: 'Retention Event', model: 'RetentionEvent', plural: 'Retention Events', table: 'retention_events', keyKind: 'int',
  description: 'A reappointment, retention vote or re-election that kept a judge in a position.',
  fields: {
    resource_uri: t.uri(), id: t.int(), position: t.fk('positions'), date_created: t.created(), date_modified: t.modified(),
    retention_type: t.string(), date_retention: t.date(), votes_yes: t.int(N), votes_no: t.int(N),
    votes_yes_percent: t.float(N), votes_no_percent: t.float(N), unopposed: t.bool(N), won: t.bool(N),
  },
  filters: {
    id: f.int, position: f.model('position_id'), date_created: f.datetime, date_modified: f.datetime, date_retention: f.date,
    retention_type: f.choice(), votes_yes: f.int, votes_no: f.int, unopposed: f.bool, won: f.bool,
  },
  orderings: ['id', 'date_created', 'date_modified', 'date_retention'],
})
