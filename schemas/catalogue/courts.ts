import { defineResource, t, f, N } from '../define.js'
import { COURT_JURISDICTION } from './choices.js'
import { UINT16 } from './limits.js'

export const courts = defineResource({
  name: 'courts', label: 'Court', model: 'Court', plural: 'Courts', table: 'courts', keyKind: 'string',
  description: 'Courts and other adjudicating bodies, identified by a short string id.',
  ordering: 'position', cursorOrderings: [],
  fields: {
    resource_uri: t.uri(),
    id: t.string({ readOnly: true, input: 'field' }),
    records_court_id: t.int({ ...UINT16, nullable: true }),
    records_has_rss_feed: t.bool(N),
    records_rss_entry_types: t.string(),
    date_last_records_contact: t.datetime(N),
    fjc_court_id: t.string({ maxLength: 3 }),
    date_modified: t.modified(),
    in_use: t.bool(),
    has_opinion_scraper: t.bool(),
    has_oral_argument_scraper: t.bool(),
    position: t.float({ required: true }),
    citation_string: t.string({ maxLength: 100 }),
    short_name: t.string({ required: true, maxLength: 100 }),
    full_name: t.string({ required: true, maxLength: 200 }),
    url: t.string({ maxLength: 500, input: 'url' }),
    start_date: t.date(N),
    end_date: t.date(N),
    jurisdiction: t.string({ choices: COURT_JURISDICTION, required: true }),
    parent_court: t.fk('courts', N),
    appeals_to: t.m2m('courts'),
  },
  filters: {
    id: f.exact, date_modified: f.datetime, in_use: f.bool, has_opinion_scraper: f.bool,
    has_oral_argument_scraper: f.bool, position: f.int, start_date: f.date, end_date: f.date,
    short_name: f.text, full_name: f.text, citation_string: f.text,
    dockets: f.rel('dockets'), jurisdiction: f.multi, parent_court: { lookups: ['exact'], field: 'parent_court_id' },
  },
  orderings: ['id', 'date_modified', 'position', 'start_date', 'end_date'],
})
