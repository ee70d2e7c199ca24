import { defineResource, t, f, TIMESTAMP_FILTERS } from '../define.js'

export const attorneys = defineResource({
  name: 'attorneys', label: 'Attorney', model: 'Attorney', plural: 'Attorneys', table: 'attorneys', keyKind: 'int', access: 'authenticated',
  description: 'A lawyer appearing in federal cases, with contact details and the parties represented.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    parties_represented: t.nested('attorney-roles', 'attorney_id', { readOnly: false, input: 'nested object', only: ['role', 'docket', 'party', 'date_action'] }),
    date_created: t.created(),
    date_modified: t.modified(),
    name: t.string({ required: true }),
    contact_raw: t.string({ required: true }),
    phone: t.string({ maxLength: 20 }),
    fax: t.string({ maxLength: 20 }),
    email: t.string({ maxLength: 254, input: 'email' }),
    docket: t.m2m('dockets', { hidden: true, help: 'Every docket the attorney appears in (copied from the roles): what the docket filter follows.' }),
  },
  filters: {
    ...TIMESTAMP_FILTERS, name: f.text, docket: f.rel('dockets'), parties_represented: f.back('parties', 'attorney'), filter_nested_results: f.flag,
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
