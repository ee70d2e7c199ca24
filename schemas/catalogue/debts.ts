import { defineResource, field, filter } from '../define.js'
import { VALUE_CODE } from './choices.js'

export const debts = defineResource({
  name: 'debts', label: 'Debt', model: 'Debt', plural: 'Debts', table: 'debts', keyKind: 'int',
  description: 'A liability a judge reported, by creditor and value range.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    creditor_name: field.string(),
    value_code: field.string({ choices: VALUE_CODE }),
  // In the reference's bulk files but not in its API: kept so that a bulk load loses nothing and the export
  // writes it back. Nullable, so that an older deployment's schemas stay compatible (a default of null).
    description: field.string({ hidden: true, nullable: true }),
    redacted: field.bool(),
    financial_disclosure: field.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, redacted: filter.bool, creditor_name: filter.text, value_code: filter.choice(),
    financial_disclosure: filter.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
