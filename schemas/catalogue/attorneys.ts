import { defineResource, field, filter, TIMESTAMP_FILTERS } from '../define.js'

export const attorneys = defineResource({
  name: 'attorneys', label: 'Attorney', model: 'Attorney', plural: 'Attorneys', table: 'attorneys', keyKind: 'int', access: 'authenticated',
  description: 'A lawyer appearing in federal cases, with contact details and the parties represented.',
  search: { types: ['r', 'd', 'rd'], parent: { field: 'docket', types: ['r', 'd', 'rd'] } },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    parties_represented: field.nested('attorney-roles', 'attorney_id', { readOnly: false, input: 'nested object', only: ['role', 'docket', 'party', 'date_action'] }),
    date_created: field.created(),
    date_modified: field.modified(),
    name: field.string({ required: true }),
    contact_raw: field.string({ required: true }),
    phone: field.string({ maxLength: 20 }),
    fax: field.string({ maxLength: 20 }),
    email: field.string({ maxLength: 254, input: 'email' }),
    docket: field.m2m('dockets', { hidden: true, help: 'Every docket the attorney appears in (copied from the roles): what the docket filter follows.' }),
  },
  filters: {
    ...TIMESTAMP_FILTERS, name: filter.text, docket: filter.rel('dockets'), parties_represented: filter.back('parties', 'attorney'), filter_nested_results: filter.flag,
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
