import { defineResource, field, filter } from '../define.js'

export const gifts = defineResource({
  name: 'gifts', label: 'Gift', model: 'Gift', plural: 'Gifts', table: 'gifts', keyKind: 'int',
  description: 'A gift a judge reported, by source and value.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    source: field.string(),
    value: field.string(),
  // In the reference's bulk files but not in its API: kept so that a bulk load loses nothing and the export
  // writes it back. Nullable, so that an older deployment's schemas stay compatible (a default of null).
    description: field.string({ hidden: true, nullable: true }),
    redacted: field.bool(),
    financial_disclosure: field.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, source: filter.text, value: filter.text, redacted: filter.bool,
    financial_disclosure: filter.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
