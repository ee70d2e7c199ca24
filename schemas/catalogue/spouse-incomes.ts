import { defineResource, field, filter } from '../define.js'

export const spouseIncomes = defineResource({
  name: 'spouse-incomes', label: 'Spouse Income', model: 'SpouseIncome', plural: 'Spouse Incomes', table: 'spouse_incomes', keyKind: 'int',
  description: 'Income of a judge\u2019s spouse, as reported.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    source_type: field.string(),
    date_raw: field.string(),
    redacted: field.bool(),
    financial_disclosure: field.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, redacted: filter.bool, date_raw: filter.text, source_type: filter.text,
    financial_disclosure: filter.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
