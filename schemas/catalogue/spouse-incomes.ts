import { defineResource, t, f } from '../define.js'

export const spouseIncomes = defineResource({
  name: 'spouse-incomes', label: 'Spouse Income', model: 'SpouseIncome', plural: 'Spouse Incomes', table: 'spouse_incomes', keyKind: 'int',
  description: 'Income of a judge\u2019s spouse, as reported.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    source_type: t.string(),
    date_raw: t.string(),
    redacted: t.bool(),
    financial_disclosure: t.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, redacted: f.bool, date_raw: f.text, source_type: f.text,
    financial_disclosure: f.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
