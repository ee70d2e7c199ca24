import { defineResource, field, filter, N } from '../define.js'
import { COURT_JURISDICTION } from './choices.js'
import { UINT16 } from './limits.js'

export const courts = defineResource({
  name: 'courts', label: 'Court', model: 'Court', plural: 'Courts', table: 'courts', keyKind: 'string',
  description: 'Courts and other adjudicating bodies, identified by a short string id.',
  ordering: 'position', cursorOrderings: [],
  search: { types: ['o', 'r', 'd', 'rd', 'p', 'oa'] },
  fields: {
    resource_uri: field.uri(),
    id: field.string({ readOnly: true, input: 'field' }),
    records_court_id: field.int({ ...UINT16, nullable: true }),
    records_has_rss_feed: field.bool(N),
    records_rss_entry_types: field.string(),
    date_last_records_contact: field.datetime(N),
    fjc_court_id: field.string({ maxLength: 3 }),
    date_modified: field.modified(),
    in_use: field.bool(),
    has_opinion_scraper: field.bool(),
    has_oral_argument_scraper: field.bool(),
    position: field.float({ required: true }),
    citation_string: field.string({ maxLength: 100 }),
    short_name: field.string({ required: true, maxLength: 100 }),
    full_name: field.string({ required: true, maxLength: 200 }),
    url: field.string({ maxLength: 500, input: 'url' }),
    start_date: field.date(N),
    end_date: field.date(N),
    jurisdiction: field.string({ choices: COURT_JURISDICTION, required: true }),
    parent_court: field.fk('courts', N),
    appeals_to: field.m2m('courts'),
  // In the reference's bulk files but not in its API: kept so that a bulk load loses nothing and the export
  // writes it back. Nullable, so that an older deployment's schemas stay compatible (a default of null).
    notes: field.string({ hidden: true, nullable: true }),
  },
  filters: {
    id: filter.exact, date_modified: filter.datetime, in_use: filter.bool, has_opinion_scraper: filter.bool,
    has_oral_argument_scraper: filter.bool, position: filter.int, start_date: filter.date, end_date: filter.date,
    short_name: filter.text, full_name: filter.text, citation_string: filter.text,
    dockets: filter.rel('dockets'), jurisdiction: filter.multi, parent_court: { lookups: ['exact'], field: 'parent_court_id' },
  },
  orderings: ['id', 'date_modified', 'position', 'start_date', 'end_date'],
})
