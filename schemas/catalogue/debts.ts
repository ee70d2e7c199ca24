import { defineResource, t, f } from '../define.js'
import { VALUE_CODE } from './choices.js'

export const debts = defineResource({
  name: 'debts', label: 'Debt', model: 'Debt', plural: 'Debts', table: 'debts', keyKind: 'int',
  description: 'A liability a judge reported, by creditor and value range.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    creditor_name: t.string(),
    value_code: t.string({ choices: VALUE_CODE }),
    redacted: t.bool(),
    financial_disclosure: t.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, redacted: f.bool, creditor_name: f.text, value_code: f.choice(),
    financial_disclosure: f.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
