import { defineResource, field, filter, N } from '../define.js'

export const originatingCourtInformation = defineResource({
  name: 'originating-court-information', label: 'Originating Court Information', model: 'OriginatingCourtInformation', plural: 'Originating Court Information', table: 'originating_court_information', keyKind: 'int', access: 'authenticated',
  description: 'What happened to an appeal in the court below: its docket number, judges and dates.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    docket_number: field.string(),
    docket_number_raw: field.string(),
    assigned_to_str: field.string(),
    ordering_judge_str: field.string(),
    court_reporter: field.string(),
    date_disposed: field.date(N),
    date_filed: field.date(N),
    date_judgment: field.date(N),
    date_judgment_eod: field.date(N),
    date_filed_noa: field.date(N),
    date_received_coa: field.date(N),
    date_rehearing_denied: field.date(N),
    assigned_to: field.fk('people', N),
    ordering_judge: field.fk('people', N),
  },
  filters: {},
  orderings: [],
})
