import { defineResource, field, filter, N } from '../define.js'

export const bankruptcyInformation = defineResource({
  name: 'bankruptcy-information', label: 'Bankruptcy Information', model: 'BankruptcyInformation', plural: 'Bankruptcy Information', table: 'bankruptcy_information', keyKind: 'int', access: 'authenticated',
  description: 'Bankruptcy details of a docket: chapter, trustee and the key deadlines.',
  search: { types: ['r', 'd', 'rd'], parent: { field: 'docket', types: ['r', 'd', 'rd'] } },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    date_converted: field.datetime(N),
    date_last_to_file_claims: field.datetime(N),
    date_last_to_file_govt: field.datetime(N),
    date_debtor_dismissed: field.datetime(N),
    chapter: field.string({ maxLength: 10 }),
    trustee_str: field.string(),
    docket: field.fk('dockets', { required: true }),
  },
  filters: {},
  orderings: [],
})
