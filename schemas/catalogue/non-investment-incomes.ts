import { defineResource, t, f } from '../define.js'

export const nonInvestmentIncomes = defineResource({
  name: 'non-investment-incomes', label: 'Non Investment Income', model: 'NonInvestmentIncome', plural: 'Non Investment Incomes', table: 'non_investment_incomes', keyKind: 'int',
  description: 'Income a judge reported other than from investments, such as teaching.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    date_raw: t.string(),
    source_type: t.string(),
    income_amount: t.string(),
    redacted: t.bool(),
    financial_disclosure: t.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, redacted: f.bool, date_raw: f.text, source_type: f.text, income_amount: f.text,
    financial_disclosure: f.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
