import { defineResource, field, filter } from '../define.js'

export const nonInvestmentIncomes = defineResource({
  name: 'non-investment-incomes', label: 'Non Investment Income', model: 'NonInvestmentIncome', plural: 'Non Investment Incomes', table: 'non_investment_incomes', keyKind: 'int',
  description: 'Income a judge reported other than from investments, such as teaching.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    date_raw: field.string(),
    source_type: field.string(),
    income_amount: field.string(),
    redacted: field.bool(),
    financial_disclosure: field.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, redacted: filter.bool, date_raw: filter.text, source_type: filter.text, income_amount: filter.text,
    financial_disclosure: filter.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
