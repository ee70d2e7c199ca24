import { defineResource, field, filter, N } from '../define.js'
import { GROSS_VALUE_METHOD, INCOME_CODE, VALUE_CODE } from './choices.js'
import { INT32 } from './limits.js'

export const investments = defineResource({
  name: 'investments', label: 'Investment', model: 'Investment', plural: 'Investments', table: 'investments', keyKind: 'int',
  description: 'An asset a judge reported, with income, value and transactions by range.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    page_number: field.int({ ...INT32, required: true }),
    redacted: field.bool(),
  // In the reference's bulk files but not in its API: kept so that a bulk load loses nothing and the export
  // writes it back. Nullable, so that an older deployment's schemas stay compatible (a default of null).
    description: field.string({ hidden: true, nullable: true }),
    income_during_reporting_period_code: field.string({ choices: INCOME_CODE }),
    income_during_reporting_period_type: field.string(),
    gross_value_code: field.string({ choices: VALUE_CODE }),
    gross_value_method: field.string({ choices: GROSS_VALUE_METHOD }),
    transaction_during_reporting_period: field.string(),
    transaction_date_raw: field.string({ maxLength: 40 }),
    transaction_date: field.date(N),
    transaction_value_code: field.string({ choices: VALUE_CODE }),
    transaction_gain_code: field.string({ choices: INCOME_CODE }),
    transaction_partner: field.string(),
    has_inferred_values: field.bool(),
    financial_disclosure: field.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, redacted: filter.bool, gross_value_code: filter.choice(), income_during_reporting_period_code: filter.choice(),
    transaction_during_reporting_period: filter.text, transaction_value_code: filter.choice(),
    financial_disclosure: filter.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
