import { defineResource, t, f } from '../define.js'

export const reimbursements = defineResource({
  name: 'reimbursements', label: 'Reimbursement', model: 'Reimbursement', plural: 'Reimbursements', table: 'reimbursements', keyKind: 'int',
  description: 'Travel or other expenses someone else paid for a judge, as reported.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    date_created: t.created(),
    date_modified: t.modified(),
    source: t.string(),
    date_raw: t.string(),
    location: t.string(),
    purpose: t.string(),
    items_paid_or_provided: t.string(),
    redacted: t.bool(),
    financial_disclosure: t.fk('financial-disclosures', { required: true }),
  },
  filters: {
    id: f.int, date_created: f.datetime, date_modified: f.datetime, redacted: f.bool, date_raw: f.text, location: f.text, source: f.text, purpose: f.text, items_paid_or_provided: f.text,
    financial_disclosure: f.rel('financial-disclosures', 'financial_disclosure_id'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
