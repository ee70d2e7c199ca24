import { defineResource, t, f, TIMESTAMP_FILTERS } from '../define.js'

export const parties = defineResource({
  name: 'parties', label: 'Party', model: 'Party', plural: 'Parties', table: 'parties', keyKind: 'int', access: 'authenticated',
  description: 'A person or organisation in a federal case, with its roles per docket and its attorneys.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    attorneys: t.nested('attorney-roles', 'party_id', { readOnly: false, input: 'nested object', only: ['attorney', 'attorney_id', 'date_action', 'docket', 'docket_id', 'role'] }),
    party_types: t.nested('party-types', 'party_id', { readOnly: false, input: 'nested object' }),
    date_created: t.created(),
    date_modified: t.modified(),
    name: t.string({ required: true }),
    extra_info: t.string({ required: true }),
    docket: t.m2m('dockets', { hidden: true, help: 'Every docket the party appears in (copied from its party types): what the docket filter follows.' }),
    attorney: t.m2m('attorneys', { hidden: true, help: 'Every attorney of the party (copied from its roles): what the attorney filter follows.' }),
  },
  filters: {
    ...TIMESTAMP_FILTERS, name: f.text, docket: f.rel('dockets'), attorney: f.rel('attorneys'), filter_nested_results: f.flag,
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
