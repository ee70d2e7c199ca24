import { defineResource, t, f, N } from '../define.js'
import { GROSS_VALUE_METHOD, INCOME_CODE, VALUE_CODE } from './choices.js'
import { INT32 } from './limits.js'

export const investments = defineResource({
  name: 'investments', label: 'Investment', model: 'Investment', plural: 'Investments', table: 'investments', keyKind: 'int',
  description: 'An asset a judge reported, with income, value and transactions by range.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    page_number: t.int({ ...INT32, required: true }),
    redacted: t.bool(),
    income_during_reporting_period_code: t.string({ choices: INCOME_CODE }),
    income_during_reporting_period_type: t.string(),
    gross_value_code: t.string({ choices: VALUE_CODE }),
    gross_value_method: t.string({ choices: GROSS_VALUE_METHOD }),
    transaction_during_reporting_period: t.string(),
    transaction_date_raw: t.string({ maxLength: 40 }),
    transaction_date: t.date(N),
    transaction_value_code: t.string({ choices: VALUE_CODE }),
    transaction_gain_code: t.string({ choices: INCOME_CODE }),
    transaction_partner: t.string(),
    has_inferred_values: t.bool(),
    financial_disclosure: t.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, redacted: f.bool, gross_value_code: f.choice(), income_during_reporting_period_code: f.choice(),
    transaction_during_reporting_period: f.text, transaction_value_code: f.choice(),
    financial_disclosure: f.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
