import t from 'tap'
import { SEARCH_TYPES, isSearchType, searchType } from '../../../domain/search/fields.js'

t.test('every search type of the reference API, with its own table', async (t) => {
  t.same(Object.keys(SEARCH_TYPES).sort(), ['d', 'o', 'oa', 'p', 'r', 'rd'])
  t.equal(isSearchType('pa'), false)
  t.equal(new Set(Object.values(SEARCH_TYPES).map((s) => s.table)).size, 6)
  for (const spec of Object.values(SEARCH_TYPES)) {
    t.ok(spec.defaults.length > 0, `${spec.type}: default text fields`)
    t.ok(spec.byName.get('id')?.kind === 'int', `${spec.type}: id`)
    for (const f of spec.fields) t.match(f.column, /^[a-z_][a-z0-9_]*$/, `${spec.type}.${f.name}: snake_case column`)
  }
})

t.test('the query-syntax names users type (reference §8)', async (t) => {
  const o = searchType('o')
  for (const name of ['caseName', 'docketNumber', 'court_id', 'judge', 'citation', 'docket_id', 'suitNature', 'dateFiled', 'dateArgued', 'citeCount', 'text'])
    t.ok(o.byName.has(name), `o: ${name}`)
  for (const name of ['caseName', 'docketNumber', 'cause', 'suitNature', 'assignedTo', 'party', 'description', 'document_number', 'entry_date_filed', 'is_available'])
    t.ok(searchType('r').byName.has(name), `r: ${name}`)
  t.notOk(searchType('d').byName.has('description'), 'd: dockets only')
  for (const name of ['name', 'dob', 'dod', 'dob_city', 'dob_state', 'school', 'appointer', 'political_affiliation', 'selection_method'])
    t.ok(searchType('p').byName.has(name), `p: ${name}`)
  for (const name of ['caseName', 'judge', 'dateArgued', 'duration', 'docket_id']) t.ok(searchType('oa').byName.has(name), `oa: ${name}`)
})

t.test('kinds, boosts and multi-valued fields', async (t) => {
  const o = searchType('o')
  t.ok((o.byName.get('caseName')?.boost ?? 0) > (o.byName.get('text')?.boost ?? 0), 'case name well above body text')
  t.equal(o.byName.get('court_id')?.kind, 'keyword')
  t.equal(o.byName.get('dateFiled')?.kind, 'date')
  t.equal(o.byName.get('panel_ids')?.multi, true)
  t.equal(o.byName.get('court')?.default, false, 'the court name is searched only when asked')
  t.equal(searchType('r').byName.get('entry_number')?.multi, true, 'r: a docket holds many documents')
  t.equal(searchType('rd').byName.get('entry_number')?.multi, false, 'rd: one document')
})
