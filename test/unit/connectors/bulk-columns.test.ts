import t from 'tap'
import { readFileSync } from 'node:fs'
import { columnName, columnKinds, converterFor, normalizeDate, normalizeTimestamp, BadValue } from '../../../connectors/bulk/columns.js'
import { KINDS, type KindSpec } from '../../../schemas/kinds.js'
import { projectFile } from '../../../core/programs.js'

/** The text type a column is read as, by its kind's storage. */
const textType = (s: KindSpec | undefined) => s === undefined ? undefined
  : s.ch === 'Int64' ? 'integer' : s.ch === 'Float64' ? 'float' : s.ch === 'Bool' ? 'boolean' : s.label === 'date' ? 'date' : s.label === 'datetime' ? 'datetime' : 'string'
const columnTypes = (resource: string) => new Map([...columnKinds(resource)].map(([c, s]) => [c, textType(s)]))

const options = JSON.parse(readFileSync(projectFile('test/fixtures/reference/options-v4.json'), 'utf8')) as
  Record<string, { actions?: { POST?: Record<string, { type: string }> } }>

t.test('timestamps: Postgres text to ISO 8601', async (t) => {
  t.equal(normalizeTimestamp('2024-01-02 03:04:05.123456+00'), '2024-01-02T03:04:05.123456+00:00')
  t.equal(normalizeTimestamp('2024-01-02 03:04:05+00'), '2024-01-02T03:04:05+00:00')
  t.equal(normalizeTimestamp('1999-12-31 23:59:59-05'), '1999-12-31T23:59:59-05:00')
  t.equal(normalizeTimestamp('2024-06-30 23:59:59.5+05:30'), '2024-06-30T23:59:59.5+05:30')
  t.equal(normalizeTimestamp('2024-01-02T03:04:05+00:00'), '2024-01-02T03:04:05+00:00', 'already ISO')
  t.equal(normalizeTimestamp('2024-01-02 03:04:05'), '2024-01-02T03:04:05+00:00', 'no offset: UTC')
  t.equal(normalizeTimestamp('1883-11-18 12:03:58-07:52:58'), '1883-11-18T19:56:56+00:00', 'an offset with seconds is converted to UTC')
  t.equal(normalizeTimestamp('0050-01-01 00:00:00+00:00:30'), '0049-12-31T23:59:30+00:00', 'two-digit years stay years 0–99')
  for (const bad of ['yesterday', '2024-02-30 00:00:00+00', '2024-01-02 24:00:00+00', '2024-01-02', 'infinity', '2024-01-02 03:04:05+00 BC', ''])
    t.equal(normalizeTimestamp(bad), undefined, `refuses ${JSON.stringify(bad)}`)
})

t.test('dates', async (t) => {
  t.equal(normalizeDate('2024-02-29'), '2024-02-29')
  t.equal(normalizeDate('1789-09-24'), '1789-09-24')
  t.equal(normalizeDate('2023-02-29'), undefined)
  t.equal(normalizeDate('1900-02-29'), undefined, 'not a leap year')
  t.equal(normalizeDate('0044-03-15 BC'), undefined)
  t.equal(normalizeDate('2024-1-2'), undefined)
})

t.test('converters: NULL stays null, t/f, integers, floats', async (t) => {
  const int = converterFor('n', KINDS.int)
  t.equal(int(null), null)
  t.equal(int('-12'), -12)
  t.equal(int('9007199254740991'), 9007199254740991)
  t.throws(() => int('9007199254740993'), BadValue, 'beyond a safe integer')
  t.throws(() => int(''), BadValue, 'the empty string is not an integer')
  t.throws(() => int('1.5'), /n: not an integer: "1.5"/)
  const bool = converterFor('b', KINDS.bool)
  t.same([bool('t'), bool('f'), bool(null)], [true, false, null])
  t.throws(() => bool('true'), /not a boolean/)
  const float = converterFor('x', KINDS.float)
  t.same([float('1.5'), float('-0.25'), float('3'), float('1e+20'), float(null)], [1.5, -0.25, 3, 1e20, null])
  t.throws(() => float('NaN'), /not a finite number/)
  t.throws(() => float('Infinity'), /not a finite number/)
  const str = converterFor('s', KINDS.string)
  t.same([str(''), str(null), str('t')], ['', null, 't'], 'strings as given')
})

t.test('column names: the catalogue spells some neutrally', async (t) => {
  t.equal(columnName('pacer_court_id'), 'records_court_id')
  t.equal(columnName('date_last_pacer_contact'), 'date_last_records_contact')
  t.equal(columnName('pacer_case_id'), 'records_case_id')
  t.equal(columnName('html_lawbox'), 'html_partner_a')
  t.equal(columnName('xml_harvard'), 'xml_partner_c')
  t.equal(columnName('filepath_json_harvard'), 'filepath_json_partner_c')
  t.equal(columnName('case_name'), 'case_name')
})

t.test('column types', async (t) => {
  const dockets = columnTypes('dockets')
  t.equal(dockets.get('id'), 'integer')
  t.equal(dockets.get('court_id'), 'string', 'court ids are strings')
  t.equal(dockets.get('appeal_from_id'), 'string', 'appeal_from points at a court')
  t.equal(dockets.get('assigned_to_id'), 'integer')
  t.equal(dockets.get('source'), 'integer')
  t.equal(dockets.get('blocked'), 'boolean')
  t.equal(dockets.get('date_filed'), 'date')
  t.equal(dockets.get('date_created'), 'datetime')
  t.equal(dockets.get('view_count'), 'integer', 'stored though the API does not show it')
  t.equal(columnTypes('courts').get('id'), 'string')
  t.equal(columnTypes('courts').get('parent_court_id'), 'string')
  t.equal(columnTypes('courts').get('position'), 'float')
  t.equal(columnTypes('clusters').get('source'), 'string')
  t.equal(columnTypes('citations').get('type'), 'integer')
  t.equal(columnTypes('positions').get('sector'), 'integer')
  t.equal(columnTypes('opinions-cited').get('citing_opinion_id'), 'integer')
  t.equal(columnTypes('no-such-resource').size, 0)
})

t.test('column types agree with the reference OPTIONS for every typed field', async (t) => {
  const expected: Record<string, string> = { integer: 'integer', boolean: 'boolean', date: 'date', datetime: 'datetime', float: 'float', string: 'string' }
  const resources = ['courts', 'dockets', 'clusters', 'opinions', 'opinions-cited', 'people', 'positions', 'schools', 'educations', 'political-affiliations', 'retention-events', 'aba-ratings', 'sources']
  let checked = 0
  for (const r of resources) {
    const types = columnTypes(r)
    for (const [field, d] of Object.entries(options[r].actions?.POST ?? {})) {
      const want = expected[d.type]
      if (!want || !types.has(field)) continue
      checked++
      if (types.get(field) !== want) t.fail(`${r}.${field}: ${types.get(field)}, the reference says ${d.type}`)
    }
  }
  t.ok(checked > 150, `${checked} fields checked`)
})
