import { defineResource, field, filter } from '../define.js'

export const reimbursements = defineResource({
  name: 'reimbursements', label: 'Reimbursement', model: 'Reimbursement', plural: 'Reimbursements', table: 'reimbursements', keyKind: 'int',
  description: 'Travel or other expenses someone else paid for a judge, as reported.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    date_created: field.created(),
    date_modified: field.modified(),
    source: field.string(),
    date_raw: field.string(),
    location: field.string(),
    purpose: field.string(),
    items_paid_or_provided: field.string(),
    redacted: field.bool(),
    financial_disclosure: field.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: filter.int, date_created: filter.datetime, date_modified: filter.datetime, redacted: filter.bool, date_raw: filter.text, location: filter.text, source: filter.text, purpose: filter.text, items_paid_or_provided: filter.text,
    financial_disclosure: filter.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
