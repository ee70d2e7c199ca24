import { defineResource, t, f, N } from '../define.js'

export const originatingCourtInformation = defineResource({
  name: 'originating-court-information', label: 'Originating Court Information', model: 'OriginatingCourtInformation', plural: 'Originating Court Information', table: 'originating_court_information', keyKind: 'int', access: 'authenticated',
  description: 'What happened to an appeal in the court below: its docket number, judges and dates.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    docket_number: t.string(),
    docket_number_raw: t.string(),
    assigned_to_str: t.string(),
    ordering_judge_str: t.string(),
    court_reporter: t.string(),
    date_disposed: t.date(N),
    date_filed: t.date(N),
    date_judgment: t.date(N),
    date_judgment_eod: t.date(N),
    date_filed_noa: t.date(N),
    date_received_coa: t.date(N),
    date_rehearing_denied: t.date(N),
    assigned_to: t.fk('people', N),
    ordering_judge: t.fk('people', N),
  },
  filters: {},
  orderings: [],
})
