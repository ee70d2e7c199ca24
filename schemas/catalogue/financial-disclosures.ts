import { defineResource, t, f, N } from '../define.js'
import { REPORT_TYPE, THUMBNAIL_STATUS } from './choices.js'
import { INT16 } from './limits.js'

export const financialDisclosures = defineResource({
  name: 'financial-disclosures', label: 'Financial Disclosure', model: 'FinancialDisclosure', plural: 'Financial Disclosures', table: 'financial_disclosures', keyKind: 'int',
  description: 'A judge\u2019s yearly financial disclosure report, with every section it lists.',
  fields: {
    resource_uri: t.uri(),
    id: t.int({ readOnly: true, input: 'field' }),
    agreements: t.nested('agreements', 'financial_disclosure_id'),
    debts: t.nested('debts', 'financial_disclosure_id'),
    gifts: t.nested('gifts', 'financial_disclosure_id'),
    investments: t.nested('investments', 'financial_disclosure_id'),
    non_investment_incomes: t.nested('non-investment-incomes', 'financial_disclosure_id'),
    positions: t.nested('disclosure-positions', 'financial_disclosure_id'),
    reimbursements: t.nested('reimbursements', 'financial_disclosure_id'),
    spouse_incomes: t.nested('spouse-incomes', 'financial_disclosure_id'),
    person: t.fk('people', { required: true }),
    filepath: t.string({ readOnly: true, input: 'field' }),
    thumbnail: t.string({ readOnly: true, input: 'field', nullable: true }),
    date_created: t.created(),
    date_modified: t.modified(),
    year: t.int({ ...INT16, required: true }),
    thumbnail_status: t.int({ choices: THUMBNAIL_STATUS }),
    page_count: t.int({ ...INT16, required: true }),
    sha1: t.string({ maxLength: 40 }),
    report_type: t.int({ choices: REPORT_TYPE }),
    is_amended: t.bool(N),
    addendum_content_raw: t.string(),
    addendum_redacted: t.bool(),
    has_been_extracted: t.bool(),
  },
  filters: {
    id: f.int, person: f.rel('people', 'person_id'), date_created: f.datetime, date_modified: f.datetime,
    addendum_content_raw: f.text, has_been_extracted: f.bool,
    agreements: f.rel('agreements'), debts: f.rel('debts'), gifts: f.rel('gifts'), investments: f.rel('investments'),
    non_investment_incomes: f.rel('non-investment-incomes'), positions: f.rel('disclosure-positions'),
    reimbursements: f.rel('reimbursements'), spouse_incomes: f.rel('spouse-incomes'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
