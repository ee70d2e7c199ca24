import { defineResource, field, filter, TIMESTAMP_FILTERS } from '../define.js'

export const parties = defineResource({
  name: 'parties', label: 'Party', model: 'Party', plural: 'Parties', table: 'parties', keyKind: 'int', access: 'authenticated',
  description: 'A person or organisation in a federal case, with its roles per docket and its attorneys.',
  search: { types: ['r', 'd', 'rd'], parent: { field: 'docket', types: ['r', 'd', 'rd'] } },
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    attorneys: field.nested('attorney-roles', 'party_id', { readOnly: false, input: 'nested object', only: ['attorney', 'attorney_id', 'date_action', 'docket', 'docket_id', 'role'] }),
    party_types: field.nested('party-types', 'party_id', { readOnly: false, input: 'nested object' }),
    date_created: field.created(),
    date_modified: field.modified(),
    name: field.string({ required: true }),
    extra_info: field.string({ required: true }),
    docket: field.m2m('dockets', { hidden: true, help: 'Every docket the party appears in (copied from its party types): what the docket filter follows.' }),
    attorney: field.m2m('attorneys', { hidden: true, help: 'Every attorney of the party (copied from its roles): what the attorney filter follows.' }),
  },
  filters: {
    ...TIMESTAMP_FILTERS, name: filter.text, docket: filter.rel('dockets'), attorney: filter.rel('attorneys'), filter_nested_results: filter.flag,
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
