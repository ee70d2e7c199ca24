/**
 * The searchable fields of each search type, as data. Everything else (parser field names, the
 * matcher, the SQL compiler, the index rows, BM25 boosts) is derived from this one table.
 *
 * - `name`: what users type before the colon (`caseName:smith`), the camelCase or snake_case
 *   names of the reference search API; case-sensitive, as in Elasticsearch.
 * - `column`: the storage column (snake_case) in the search table of the type.
 * - `kind`: `text` analyzed (analyzer.ts), `keyword` exact after normalizeKeyword, `date`
 *   (YYYY-MM-DD), `int`, `bool`; how each is indexed and queried is field-kinds.ts. Any field may
 *   hold several values (citation[], party[]).
 * - `boost`: BM25 weight of a text field (case name well above the body).
 * - `default`: searched by a term without a field.
 *
 * Type `r` is a docket with its archive documents folded in: the documents' fields are the
 * docket's multi-valued fields, so `r` finds a docket when the docket or one of its documents
 * matches. `d` is the docket alone, `rd` one archive document with its docket's fields.
 */

import { FIELD_KINDS } from './field-kinds.js'
import type { SearchTypeName } from '../../schemas/define.js'

/** The catalogue names them too (resources declare the types whose documents show their rows). */
export type SearchType = SearchTypeName
export type FieldKind = 'text' | 'keyword' | 'date' | 'int' | 'bool'

export interface SearchField {
  readonly name: string
  readonly column: string
  readonly kind: FieldKind
  readonly boost: number
  readonly default: boolean
  /** a non-text field that may hold several values (stored as an array) */
  readonly multi: boolean
}

export interface SearchTypeSpec {
  readonly type: SearchType
  /** The search table of this type (one row per result). */
  readonly table: string
  readonly fields: readonly SearchField[]
  /** name → field */
  readonly byName: ReadonlyMap<string, SearchField>
  /** the text fields searched by a term without a field, in declaration order */
  readonly defaults: readonly SearchField[]
  readonly textFields: readonly SearchField[]
}

type Decl = [name: string, column: string, kind: FieldKind, boost?: number, dflt?: boolean, multi?: boolean]

const text = (name: string, column: string, boost = 1, dflt = true): Decl => [name, column, 'text', boost, dflt]
const kw = (name: string, column: string): Decl => [name, column, 'keyword']
const date = (name: string, column: string): Decl => [name, column, 'date']
const int = (name: string, column: string): Decl => [name, column, 'int']
const bool = (name: string, column: string): Decl => [name, column, 'bool']
/** the same declarations, several values each (a docket's documents) */
const many = (decls: Decl[]): Decl[] => decls.map(([n, c, k, b, d]) => [n, c, k, b, d, true])

const DOCKET: Decl[] = [
  text('caseName', 'case_name', 4),
  text('case_name_full', 'case_name_full', 2),
  text('docketNumber', 'docket_number', 3),
  text('court', 'court', 1, false),
  kw('court_id', 'court_id'),
  text('court_citation_string', 'court_citation_string', 1, false),
  text('suitNature', 'suit_nature', 1.5),
  text('cause', 'cause', 1.5),
  text('juryDemand', 'jury_demand', 1, false),
  text('jurisdictionType', 'jurisdiction_type', 1, false),
  text('assignedTo', 'assigned_to', 2),
  text('referredTo', 'referred_to', 2),
  text('party', 'party', 1.5),
  text('attorney', 'attorney', 1),
  text('firm', 'firm', 1),
  kw('records_case_id', 'records_case_id'),
  int('chapter', 'chapter'),
  int('docket_id', 'docket_id'),
  int('assigned_to_id', 'assigned_to_id'),
  int('referred_to_id', 'referred_to_id'),
  date('dateFiled', 'date_filed'),
  date('dateArgued', 'date_argued'),
  date('dateTerminated', 'date_terminated'),
]

const ARCHIVE_DOCUMENT: Decl[] = [
  text('description', 'description', 2),
  text('short_description', 'short_description', 2),
  text('text', 'text', 1),
  kw('document_number', 'document_number'),
  int('attachment_number', 'attachment_number'),
  int('entry_number', 'entry_number'),
  int('document_type', 'document_type'),
  int('page_count', 'page_count'),
  bool('is_available', 'is_available'),
  date('entry_date_filed', 'entry_date_filed'),
]

const DECLS: Record<SearchType, { table: string; fields: Decl[] }> = {
  o: {
    table: 'search_o',
    fields: [
      text('caseName', 'case_name', 4),
      text('caseNameFull', 'case_name_full', 2),
      text('docketNumber', 'docket_number', 3),
      text('citation', 'citation', 3),
      text('neutralCite', 'neutral_cite', 3),
      text('lexisCite', 'lexis_cite', 3),
      text('judge', 'judge', 2),
      text('suitNature', 'suit_nature', 1.5),
      text('attorney', 'attorney', 1),
      text('posture', 'posture', 1),
      text('procedural_history', 'procedural_history', 1),
      text('syllabus', 'syllabus', 1),
      text('text', 'text', 1),
      text('court', 'court', 1, false),
      text('court_citation_string', 'court_citation_string', 1, false),
      kw('court_id', 'court_id'),
      kw('court_jurisdiction', 'court_jurisdiction'),
      kw('status', 'status'),
      kw('source', 'source'),
      kw('scdb_id', 'scdb_id'),
      int('id', 'id'),
      int('cluster_id', 'cluster_id'),
      int('docket_id', 'docket_id'),
      int('citeCount', 'cite_count'),
      ...many([int('panel_ids', 'panel_ids')]),
      date('dateFiled', 'date_filed'),
      date('dateArgued', 'date_argued'),
      date('dateReargued', 'date_reargued'),
      date('dateReargumentDenied', 'date_reargument_denied'),
    ],
  },
  r: { table: 'search_r', fields: [int('id', 'id'), ...DOCKET, ...many(ARCHIVE_DOCUMENT)] },
  d: { table: 'search_d', fields: [int('id', 'id'), ...DOCKET] },
  rd: { table: 'search_rd', fields: [int('id', 'id'), ...ARCHIVE_DOCUMENT, ...DOCKET] },
  p: {
    table: 'search_p',
    fields: [
      text('name', 'name', 4),
      kw('name_reverse', 'name_reverse'),
      text('alias', 'alias', 3),
      text('dob_city', 'dob_city', 1),
      kw('dob_state', 'dob_state'),
      kw('dob_state_id', 'dob_state_id'),
      text('school', 'school', 1),
      text('appointer', 'appointer', 1),
      text('court', 'court', 1),
      ...many([kw('court_exact', 'court_exact')]),
      ...many([kw('court_id', 'court_id')]),
      ...many([kw('political_affiliation', 'political_affiliation')]),
      ...many([kw('selection_method', 'selection_method')]),
      kw('gender', 'gender'),
      kw('religion', 'religion'),
      ...many([kw('races', 'races')]),
      ...many([kw('aba_rating', 'aba_rating')]),
      text('job_title', 'job_title', 1, false),
      int('id', 'id'),
      int('fjc_id', 'fjc_id'),
      date('dob', 'dob'),
      date('dod', 'dod'),
    ],
  },
  oa: {
    table: 'search_oa',
    fields: [
      text('caseName', 'case_name', 4),
      text('case_name_full', 'case_name_full', 2),
      text('docketNumber', 'docket_number', 3),
      text('judge', 'judge', 2),
      text('court', 'court', 1, false),
      text('court_citation_string', 'court_citation_string', 1, false),
      text('text', 'text', 1),
      kw('court_id', 'court_id'),
      kw('source', 'source'),
      int('id', 'id'),
      int('docket_id', 'docket_id'),
      int('duration', 'duration'),
      date('dateArgued', 'date_argued'),
      date('dateReargued', 'date_reargued'),
      date('dateReargumentDenied', 'date_reargument_denied'),
    ],
  },
}

function build(type: SearchType): SearchTypeSpec {
  const { table, fields: decls } = DECLS[type]
  const byName = new Map<string, SearchField>()
  const columns = new Set<string>()
  for (const [name, column, kind, boost = 1, dflt = false, multi = false] of decls) {
    if (byName.has(name)) throw new Error(`search type ${type}: field ${name} declared twice`)
    if (columns.has(column)) throw new Error(`search type ${type}: column ${column} declared twice`)
    if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`search type ${type}: bad column ${column}`)
    const analyzed = FIELD_KINDS[kind].analyzed
    byName.set(name, Object.freeze({ name, column, kind, boost, default: analyzed && dflt, multi: !analyzed && multi }))
    columns.add(column)
  }
  const fields = [...byName.values()]
  return Object.freeze({
    type, table, fields, byName,
    defaults: fields.filter((f) => f.default),
    textFields: fields.filter((f) => FIELD_KINDS[f.kind].analyzed),
  })
}

export const SEARCH_TYPES: Readonly<Record<SearchType, SearchTypeSpec>> = Object.freeze({
  o: build('o'), r: build('r'), d: build('d'), rd: build('rd'), p: build('p'), oa: build('oa'),
})

export const isSearchType = (t: string): t is SearchType => Object.prototype.hasOwnProperty.call(SEARCH_TYPES, t)

export function searchType(type: SearchType): SearchTypeSpec {
  const spec = SEARCH_TYPES[type]
  if (!spec) throw new Error(`unknown search type ${String(type)}`)
  return spec
}
