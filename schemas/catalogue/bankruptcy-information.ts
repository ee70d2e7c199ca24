import { defineResource, t, f, N } from '../define.js'

export const bankruptcyInformation = defineResource({
  name: 'bankruptcy-information', label: 'Bankruptcy Information', model: 'BankruptcyInformation', plural: 'Bankruptcy Information', table: 'bankruptcy_information', keyKind: 'int', access: 'authenticated',
  description: 'Bankruptcy details of a docket: chapter, trustee and the key deadlines.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    date_converted: t.datetime(N),
    date_last_to_file_claims: t.datetime(N),
    date_last_to_file_govt: t.datetime(N),
    date_debtor_dismissed: t.datetime(N),
    chapter: t.string({ maxLength: 10 }),
    trustee_str: t.string(),
    docket: t.fk('dockets', { required: true }),
  },
  filters: {},
  orderings: [],
})
