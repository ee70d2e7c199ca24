import { defineResource, field, filter, N } from '../define.js'
import { REPORT_TYPE, THUMBNAIL_STATUS } from './choices.js'
import { INT16 } from './limits.js'

export const financialDisclosures = defineResource({
  name: 'financial-disclosures', label: 'Financial Disclosure', model: 'FinancialDisclosure', plural: 'Financial Disclosures', table: 'financial_disclosures', keyKind: 'int',
  description: 'A judge\u2019s yearly financial disclosure report, with every section it lists.',
  fields: {
    resource_uri: field.uri(),
    id: field.int({ readOnly: true, input: 'field' }),
    agreements: field.nested('agreements', 'financial_disclosure_id'),
    debts: field.nested('debts', 'financial_disclosure_id'),
    gifts: field.nested('gifts', 'financial_disclosure_id'),
    investments: field.nested('investments', 'financial_disclosure_id'),
    non_investment_incomes: field.nested('non-investment-incomes', 'financial_disclosure_id'),
    positions: field.nested('disclosure-positions', 'financial_disclosure_id'),
    reimbursements: field.nested('reimbursements', 'financial_disclosure_id'),
    spouse_incomes: field.nested('spouse-incomes', 'financial_disclosure_id'),
    person: field.fk('people', { required: true }),
    filepath: field.string({ readOnly: true, input: 'field' }),
    thumbnail: field.string({ readOnly: true, input: 'field', nullable: true }),
  // In the reference's bulk files but not in its API: kept so that a bulk load loses nothing and the export
  // writes it back. Nullable, so that an older deployment's schemas stay compatible (a default of null).
    download_filepath: field.string({ hidden: true, nullable: true }),
    date_created: field.created(),
    date_modified: field.modified(),
    year: field.int({ ...INT16, required: true }),
    thumbnail_status: field.int({ choices: THUMBNAIL_STATUS }),
    page_count: field.int({ ...INT16, required: true }),
    sha1: field.string({ maxLength: 40 }),
    report_type: field.int({ choices: REPORT_TYPE }),
    is_amended: field.bool(N),
    addendum_content_raw: field.string(),
    addendum_redacted: field.bool(),
    has_been_extracted: field.bool(),
  },
  filters: {
    id: filter.int, person: filter.rel('people', 'person_id'), date_created: filter.datetime, date_modified: filter.datetime,
    addendum_content_raw: filter.text, has_been_extracted: filter.bool,
    agreements: filter.rel('agreements'), debts: filter.rel('debts'), gifts: filter.rel('gifts'), investments: filter.rel('investments'),
    non_investment_incomes: filter.rel('non-investment-incomes'), positions: filter.rel('disclosure-positions'),
    reimbursements: filter.rel('reimbursements'), spouse_incomes: filter.rel('spouse-incomes'),
  },
  orderings: ['id', 'date_created', 'date_modified'],
})
