/**
 * The reference's bulk files: the 33 tables its export writes, in the export's order, with their
 * columns as the files carry them, and what each becomes here. Facts from
 * shared/reference/bulk-export.md; checked against the catalogue when this module loads, so a
 * renamed storage column fails at boot instead of silently dropping a column.
 *
 * - `rows`: one row of the file is one record of a resource (columns renamed to storage names).
 * - `link`: a many-to-many link table (an id and two keys); its rows become the array column
 *   `column` of the parent resource (`panel_ids` of a cluster, `race` codes of a person), joined
 *   in when the parent is published. `codes` names the code table whose ids the child key holds.
 */
import { catalogue } from '../../schemas/catalogue/index.js'
import { columnSpecs } from '../../schemas/columns.js'

export type BulkTarget =
  | { kind: 'rows'; resource: string; renames: Readonly<Record<string, string>> }
  | { kind: 'link'; resource: string; column: string; parent: string; child: string; codes?: string }

export interface BulkTable {
  /** Place in the export's order (1-based). */
  n: number
  /** The reference's database table. */
  table: string
  /** The file name before its date: `<file>-<YYYY-MM-DD>.csv.bz2`. */
  file: string
  /** The columns in the order the file has them (the reference's database names). */
  columns: readonly string[]
  target: BulkTarget
}

const rows = (resource: string, renames: Record<string, string> = {}): BulkTarget => ({ kind: 'rows', resource, renames })
const link = (resource: string, column: string, parent: string, child: string, codes?: string): BulkTarget =>
  ({ kind: 'link', resource, column, parent, child, ...(codes ? { codes } : {}) })

export const BULK_TABLES: readonly BulkTable[] = [
  { n: 1, table: 'people_db_person', file: 'people-db-people', columns: ['id', 'date_created', 'date_modified', 'date_completed', 'fjc_id', 'slug', 'name_first', 'name_middle', 'name_last', 'name_suffix', 'date_dob', 'date_granularity_dob', 'date_dod', 'date_granularity_dod', 'dob_city', 'dob_state', 'dob_country', 'dod_city', 'dod_state', 'dod_country', 'gender', 'religion', 'ftm_total_received', 'ftm_eid', 'has_photo', 'is_alias_of_id'], target: rows('people') },
  { n: 2, table: 'people_db_race', file: 'people_db_race', columns: ['id', 'race'], target: rows('races') },
  { n: 3, table: 'people_db_school', file: 'people-db-schools', columns: ['id', 'date_created', 'date_modified', 'name', 'ein', 'is_alias_of_id'], target: rows('schools') },
  { n: 4, table: 'search_court', file: 'courts', columns: ['id', 'pacer_court_id', 'pacer_has_rss_feed', 'pacer_rss_entry_types', 'date_last_pacer_contact', 'fjc_court_id', 'date_modified', 'in_use', 'has_opinion_scraper', 'has_oral_argument_scraper', 'position', 'citation_string', 'short_name', 'full_name', 'url', 'start_date', 'end_date', 'jurisdiction', 'notes', 'parent_court_id'], target: rows('courts') },
  { n: 5, table: 'people_db_position', file: 'people-db-positions', columns: ['id', 'date_created', 'date_modified', 'position_type', 'job_title', 'sector', 'organization_name', 'location_city', 'location_state', 'date_nominated', 'date_elected', 'date_recess_appointment', 'date_referred_to_judicial_committee', 'date_judicial_committee_action', 'judicial_committee_action', 'date_hearing', 'date_confirmation', 'date_start', 'date_granularity_start', 'date_termination', 'termination_reason', 'date_granularity_termination', 'date_retirement', 'nomination_process', 'vote_type', 'voice_vote', 'votes_yes', 'votes_no', 'votes_yes_percent', 'votes_no_percent', 'how_selected', 'has_inferred_values', 'appointer_id', 'court_id', 'person_id', 'predecessor_id', 'school_id', 'supervisor_id'], target: rows('positions') },
  { n: 6, table: 'recap_fjcintegrateddatabase', file: 'fjc-integrated-database', columns: ['id', 'date_created', 'date_modified', 'dataset_source', 'office', 'docket_number', 'origin', 'date_filed', 'jurisdiction', 'nature_of_suit', 'title', 'section', 'subsection', 'diversity_of_residence', 'class_action', 'monetary_demand', 'county_of_residence', 'arbitration_at_filing', 'arbitration_at_termination', 'multidistrict_litigation_docket_number', 'plaintiff', 'defendant', 'date_transfer', 'transfer_office', 'transfer_docket_number', 'transfer_origin', 'date_terminated', 'termination_class_action_status', 'procedural_progress', 'disposition', 'nature_of_judgement', 'amount_received', 'judgment', 'pro_se', 'year_of_tape', 'nature_of_offense', 'version', 'circuit_id', 'district_id'], target: rows('fjc-integrated-database') },
  { n: 7, table: 'search_originatingcourtinformation', file: 'originating-court-information', columns: ['id', 'date_created', 'date_modified', 'docket_number', 'assigned_to_str', 'ordering_judge_str', 'court_reporter', 'date_disposed', 'date_filed', 'date_judgment', 'date_judgment_eod', 'date_filed_noa', 'date_received_coa', 'assigned_to_id', 'ordering_judge_id', 'docket_number_raw'], target: rows('originating-court-information') },
  { n: 8, table: 'search_docket', file: 'dockets', columns: ['id', 'date_created', 'date_modified', 'source', 'appeal_from_str', 'assigned_to_str', 'referred_to_str', 'panel_str', 'date_last_index', 'date_cert_granted', 'date_cert_denied', 'date_argued', 'date_reargued', 'date_reargument_denied', 'date_filed', 'date_terminated', 'date_last_filing', 'case_name_short', 'case_name', 'case_name_full', 'slug', 'docket_number', 'docket_number_core', 'pacer_case_id', 'cause', 'nature_of_suit', 'jury_demand', 'jurisdiction_type', 'appellate_fee_status', 'appellate_case_type_information', 'mdl_status', 'filepath_local', 'filepath_ia', 'filepath_ia_json', 'ia_upload_failure_count', 'ia_needs_upload', 'ia_date_first_change', 'view_count', 'date_blocked', 'blocked', 'appeal_from_id', 'assigned_to_id', 'court_id', 'idb_data_id', 'originating_court_information_id', 'referred_to_id', 'federal_dn_case_type', 'federal_dn_office_code', 'federal_dn_judge_initials_assigned', 'federal_dn_judge_initials_referred', 'federal_defendant_number', 'parent_docket_id', 'docket_number_raw', 'docket_number_source'], target: rows('dockets', { originating_court_information_id: 'original_court_info_id' }) },
  { n: 9, table: 'search_opinioncluster', file: 'opinion-clusters', columns: ['id', 'date_created', 'date_modified', 'judges', 'date_filed', 'date_filed_is_approximate', 'slug', 'case_name_short', 'case_name', 'case_name_full', 'scdb_id', 'scdb_decision_direction', 'scdb_votes_majority', 'scdb_votes_minority', 'source', 'procedural_history', 'attorneys', 'nature_of_suit', 'posture', 'syllabus', 'headnotes', 'summary', 'disposition', 'history', 'other_dates', 'cross_reference', 'correction', 'citation_count', 'precedential_status', 'date_blocked', 'blocked', 'filepath_json_harvard', 'filepath_pdf_harvard', 'docket_id', 'arguments', 'headmatter'], target: rows('clusters') },
  { n: 10, table: 'search_opinioncluster_panel', file: 'search_opinioncluster_panel', columns: ['id', 'opinioncluster_id', 'person_id'], target: link('clusters', 'panel_ids', 'opinioncluster_id', 'person_id') },
  { n: 11, table: 'search_opinioncluster_non_participating_judges', file: 'search_opinioncluster_non_participating_judges', columns: ['id', 'opinioncluster_id', 'person_id'], target: link('clusters', 'non_participating_judges_ids', 'opinioncluster_id', 'person_id') },
  { n: 12, table: 'search_opinion', file: 'opinions', columns: ['id', 'date_created', 'date_modified', 'author_str', 'per_curiam', 'joined_by_str', 'type', 'sha1', 'page_count', 'download_url', 'local_path', 'plain_text', 'html', 'html_lawbox', 'html_columbia', 'html_anon_2020', 'xml_harvard', 'xml_scan', 'html_with_citations', 'extracted_by_ocr', 'author_id', 'cluster_id'], target: rows('opinions') },
  { n: 13, table: 'search_opinion_joined_by', file: 'search_opinion_joined_by', columns: ['id', 'opinion_id', 'person_id'], target: link('opinions', 'joined_by_ids', 'opinion_id', 'person_id') },
  { n: 14, table: 'search_courthouse', file: 'courthouses', columns: ['id', 'court_seat', 'building_name', 'address1', 'address2', 'city', 'county', 'state', 'zip_code', 'country_code', 'court_id'], target: rows('courthouses') },
  { n: 15, table: 'search_court_appeals_to', file: 'court-appeals-to', columns: ['id', 'from_court_id', 'to_court_id'], target: link('courts', 'appeals_to_ids', 'from_court_id', 'to_court_id') },
  { n: 16, table: 'search_opinionscited', file: 'citation-map', columns: ['id', 'depth', 'cited_opinion_id', 'citing_opinion_id'], target: rows('opinions-cited') },
  { n: 17, table: 'search_citation', file: 'citations', columns: ['id', 'volume', 'reporter', 'page', 'type', 'cluster_id', 'date_created', 'date_modified'], target: rows('citations') },
  { n: 18, table: 'search_parenthetical', file: 'parentheticals', columns: ['id', 'text', 'score', 'described_opinion_id', 'describing_opinion_id', 'group_id'], target: rows('parentheticals') },
  { n: 19, table: 'audio_audio', file: 'oral-arguments', columns: ['id', 'date_created', 'date_modified', 'source', 'case_name_short', 'case_name', 'case_name_full', 'judges', 'sha1', 'download_url', 'local_path_mp3', 'local_path_original_file', 'filepath_ia', 'ia_upload_failure_count', 'duration', 'processing_complete', 'date_blocked', 'blocked', 'stt_status', 'stt_transcript', 'stt_source', 'docket_id'], target: rows('audio') },
  { n: 20, table: 'people_db_retentionevent', file: 'people-db-retention-events', columns: ['id', 'date_created', 'date_modified', 'retention_type', 'date_retention', 'votes_yes', 'votes_no', 'votes_yes_percent', 'votes_no_percent', 'unopposed', 'won', 'position_id'], target: rows('retention-events') },
  { n: 21, table: 'people_db_education', file: 'people-db-educations', columns: ['id', 'date_created', 'date_modified', 'degree_level', 'degree_detail', 'degree_year', 'person_id', 'school_id'], target: rows('educations') },
  { n: 22, table: 'people_db_politicalaffiliation', file: 'people-db-political-affiliations', columns: ['id', 'date_created', 'date_modified', 'political_party', 'source', 'date_start', 'date_granularity_start', 'date_end', 'date_granularity_end', 'person_id'], target: rows('political-affiliations') },
  { n: 23, table: 'people_db_person_race', file: 'people-db-races', columns: ['id', 'person_id', 'race_id'], target: link('people', 'race', 'person_id', 'race_id', 'races') },
  { n: 24, table: 'disclosures_financialdisclosure', file: 'financial-disclosures', columns: ['id', 'date_created', 'date_modified', 'year', 'download_filepath', 'filepath', 'thumbnail', 'thumbnail_status', 'page_count', 'sha1', 'report_type', 'is_amended', 'addendum_content_raw', 'addendum_redacted', 'has_been_extracted', 'person_id'], target: rows('financial-disclosures') },
  { n: 25, table: 'disclosures_investment', file: 'financial-disclosure-investments', columns: ['id', 'date_created', 'date_modified', 'page_number', 'description', 'redacted', 'income_during_reporting_period_code', 'income_during_reporting_period_type', 'gross_value_code', 'gross_value_method', 'transaction_during_reporting_period', 'transaction_date_raw', 'transaction_date', 'transaction_value_code', 'transaction_gain_code', 'transaction_partner', 'has_inferred_values', 'financial_disclosure_id'], target: rows('investments') },
  { n: 26, table: 'disclosures_position', file: 'financial-disclosures-positions', columns: ['id', 'date_created', 'date_modified', 'position', 'organization_name', 'redacted', 'financial_disclosure_id'], target: rows('disclosure-positions') },
  { n: 27, table: 'disclosures_agreement', file: 'financial-disclosures-agreements', columns: ['id', 'date_created', 'date_modified', 'date_raw', 'parties_and_terms', 'redacted', 'financial_disclosure_id'], target: rows('agreements') },
  { n: 28, table: 'disclosures_noninvestmentincome', file: 'financial-disclosures-non-investment-income', columns: ['id', 'date_created', 'date_modified', 'date_raw', 'source_type', 'income_amount', 'redacted', 'financial_disclosure_id'], target: rows('non-investment-incomes') },
  { n: 29, table: 'disclosures_spouseincome', file: 'financial-disclosures-spousal-income', columns: ['id', 'date_created', 'date_modified', 'source_type', 'date_raw', 'redacted', 'financial_disclosure_id'], target: rows('spouse-incomes') },
  { n: 30, table: 'disclosures_reimbursement', file: 'financial-disclosures-reimbursements', columns: ['id', 'date_created', 'date_modified', 'source', 'date_raw', 'location', 'purpose', 'items_paid_or_provided', 'redacted', 'financial_disclosure_id'], target: rows('reimbursements') },
  { n: 31, table: 'disclosures_gift', file: 'financial-disclosures-gifts', columns: ['id', 'date_created', 'date_modified', 'source', 'description', 'value', 'redacted', 'financial_disclosure_id'], target: rows('gifts') },
  { n: 32, table: 'disclosures_debt', file: 'financial-disclosures-debts', columns: ['id', 'date_created', 'date_modified', 'creditor_name', 'description', 'value_code', 'redacted', 'financial_disclosure_id'], target: rows('debts') },
  { n: 33, table: 'citations_unmatchedcitation', file: 'unmatched-citations', columns: ['id', 'volume', 'reporter', 'page', 'type', 'status', 'citation_string', 'court_id', 'year', 'citing_opinion_id'], target: rows('unmatched-citations') },
]

/** Names the reference's columns take here: outside providers and the court records system are named neutrally. */
const GENERAL_RENAMES: Readonly<Record<string, string>> = {
  html_lawbox: 'html_partner_a', html_columbia: 'html_partner_b', xml_harvard: 'xml_partner_c',
  filepath_json_harvard: 'filepath_json_partner_c', filepath_pdf_harvard: 'filepath_pdf_partner_c',
}

/** The storage column of a file's column, for a table (its own renames first, then the general ones). */
export function storageColumn(table: BulkTable | undefined, col: string): string {
  const c = col.trim()
  const own = table?.target.kind === 'rows' ? table.target.renames[c] : undefined
  if (own) return own
  if (GENERAL_RENAMES[c]) return GENERAL_RENAMES[c]
  return c.replace(/pacer/g, 'records').replace(/recap/g, 'archive')
}

/**
 * Files older exports wrote that are not among the 33 (the people database's sources and ABA
 * ratings): read by their header, as rows of their resource.
 */
export const EXTRA_FILES: Readonly<Record<string, string>> = {
  'people-db-sources': 'sources', people_db_source: 'sources',
  'people-db-aba-ratings': 'aba-ratings', people_db_abarating: 'aba-ratings',
  audio: 'audio',
}

const byName = new Map<string, BulkTable>()
for (const t of BULK_TABLES) { byName.set(t.file, t); byName.set(t.table, t) }

/** The table a file name's table part names (`opinion-clusters` or `search_opinioncluster`). */
export function bulkTableNamed(name: string): BulkTable | undefined {
  return byName.get(name) ?? byName.get(name.toLowerCase())
}

/** Columns a table's file has that the resource does not store (kept out of our records; written back as NULL). */
export function unstoredColumns(t: BulkTable): string[] {
  if (t.target.kind !== 'rows') return []
  const stored = new Set(columnSpecs(catalogue, catalogue.get(t.target.resource)).map((c) => c.column))
  return t.columns.filter((c) => !stored.has(storageColumn(t, c)))
}

function check() {
  for (const t of BULK_TABLES) {
    const r = catalogue.get(t.target.resource) // throws on an unknown resource
    if (t.target.kind === 'link') {
      const cols = new Set(columnSpecs(catalogue, r).map((c) => c.column))
      if (!cols.has(t.target.column)) throw new Error(`bulk table ${t.table}: ${t.target.resource} has no column ${t.target.column}`)
      if (!t.columns.includes(t.target.parent) || !t.columns.includes(t.target.child)) throw new Error(`bulk table ${t.table}: link keys not among its columns`)
      if (t.target.codes) catalogue.get(t.target.codes)
    } else {
      for (const [from, to] of Object.entries(t.target.renames)) {
        if (!t.columns.includes(from)) throw new Error(`bulk table ${t.table}: renames ${from}, which it does not have`)
        if (!columnSpecs(catalogue, r).some((c) => c.column === to)) throw new Error(`bulk table ${t.table}: ${t.target.resource} has no column ${to}`)
      }
    }
  }
}
check()
