/**
 * Filter values that must be refused (400, keyed by the parameter, in the reference's words) or
 * compiled into SQL ClickHouse accepts: choices, multiple choices on a list column, integers beyond
 * Int64, whole floats, impossible dates; and cursor positions ClickHouse could not take.
 */
import t from 'tap'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { compileFilters } from '../../../api/engine/filters.js'
import { decodeCursor } from '../../../api/engine/cursor.js'
import { isFilterDatetime } from '../../../schemas/values.js'
import { compile, join } from '../../../core/sql.js'

const run = (resource: string, params: Record<string, string | string[]>) => {
  const f = compileFilters(catalogue, catalogue.get(resource), 'db')
  const res = f(new Map(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])))
  return { ...res, sql: res.where.length ? compile(join(res.where, ' AND ')) : undefined }
}
const choiceError = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`

t.test('a value that is none of a choice filter\'s choices is refused with the reference\'s message', async (t) => {
  t.same(run('clusters', { precedential_status: 'zz_not_a_choice' }).errors, { precedential_status: [choiceError('zz_not_a_choice')] })
  t.same(run('clusters', { 'precedential_status!': 'nope' }).errors, { precedential_status: [choiceError('nope')] }, 'negated too')
  t.same(run('clusters', { precedential_status: 'Published' }).errors, {})
  for (const [resource, param, good] of [
    ['courts', 'jurisdiction', 'F'], ['opinions', 'type', '010combined'], ['people', 'gender', 'm'], ['positions', 'position_type', 'jud'],
    ['alerts', 'rate', 'dly'], ['investments', 'gross_value_code', 'J'], ['dockets', 'source', '1'], ['docket-alerts', 'alert_type', '0'],
  ] as const) {
    t.same(run(resource, { [param]: 'zz' }).errors, { [param]: [choiceError('zz')] }, `${resource} ${param} refuses zz`)
    t.same(run(resource, { [param]: good }).errors, {}, `${resource} ${param} takes ${good}`)
  }
  t.same(run('dockets', { source: '01' }).errors, { source: [choiceError('01')] }, 'an integer choice is compared as text, as Django does')
  t.same(run('dockets', { source__in: '1,999' }).errors, {}, 'only the exact lookup checks choices')
  t.same(run('people', { name_suffix__istartswith: 'zz' }).errors, {}, 'a text lookup of a choice field takes any text')
  t.same(run('positions', { position_type: 'Judge' }).errors, { position_type: [choiceError('Judge')] }, 'a group of choices (OPTIONS) is no value')
  t.same(run('opinions', { cluster__docket__court__jurisdiction: 'zz' }).errors, { cluster__docket__court__jurisdiction: [choiceError('zz')] }, 'through relations')
})

t.test('a multiple-choice filter takes every value of its parameter; the first that is no choice is the error', async (t) => {
  const r = run('courts', { jurisdiction: ['F', 'FD'] })
  t.same(r.errors, {})
  t.equal(r.sql!.query, '`jurisdiction` IN ({p1:String}, {p2:String})')
  t.same(run('courts', { jurisdiction: ['F', 'zz', 'yy'] }).errors, { jurisdiction: [choiceError('zz')] })
  t.same(run('courts', { jurisdiction: 'F,zz' }).errors, { jurisdiction: [choiceError('zz')] }, 'comma lists are checked value by value')
  t.same(run('courts', { jurisdiction: ',' }).errors, { jurisdiction: [choiceError(',')] })
  const nested = run('opinions', { cluster__docket__court__jurisdiction: ['F', 'FD'] })
  t.match(nested.sql!.query, /`jurisdiction` IN \(\{p1:String\}, \{p2:String\}\)\)\)\)$/, 'repeated values of a related multiple-choice filter are one condition')
})

t.test('a multiple-choice filter on a list column matches rows whose list holds any value (hasAny)', async (t) => {
  const r = run('people', { race: 'w' })
  t.same(r.errors, {})
  t.equal(r.sql!.query, 'hasAny(`race`, [{p1:String}])')
  t.same(Object.values(r.sql!.query_params), ['w'])
  t.equal(run('people', { race: ['w', 'b'] }).sql!.query, 'hasAny(`race`, [{p1:String}, {p2:String}])')
  t.equal(run('people', { 'race!': 'w' }).sql!.query, 'NOT (hasAny(`race`, [{p1:String}]))')
  t.same(run('people', { race: 'zz' }).errors, { race: [choiceError('zz')] })
})

t.test('integers beyond Int64 select all rows or none instead of failing in ClickHouse', async (t) => {
  const huge = '99999999999999999999999'
  const q = (resource: string, params: Record<string, string>) => { const r = run(resource, params); t.same(r.errors, {}); return r.sql!.query }
  t.equal(q('dockets', { id: huge }), '1 = 0')
  t.equal(q('dockets', { id: `-${huge}` }), '1 = 0')
  t.equal(q('dockets', { id__gt: huge }), '1 = 0')
  t.equal(q('dockets', { id__gte: `-${huge}` }), '1 = 1')
  t.equal(q('dockets', { id__lt: huge }), '1 = 1')
  t.equal(q('dockets', { id__lte: `-${huge}` }), '1 = 0')
  t.equal(q('dockets', { id__range: `5,${huge}` }), '(`id` >= {p1:Int64} AND 1 = 1)')
  t.equal(q('dockets', { id__range: `${huge},${huge}` }), '(1 = 0 AND 1 = 1)')
  t.equal(q('opinions-cited', { citing_opinion: huge }), '1 = 0')
  t.equal(q('schools', { date_created__hour: huge }), '1 = 0')
  t.equal(q('prayers', { archive_document__exact: huge }), '1 = 0')
  t.equal(q('dockets', { id: '1'.padEnd(400, '0') }), '1 = 0')
  t.equal(q('dockets', { tags: huge }), '1 = 0', 'a many-to-many link')
  t.equal(q('dockets', { source__in: `1,${huge}` }), '`source` IN ({p1:Int64})', 'an `in` list leaves it out')
  // Within Int64 but past 2^53: bound as exact text, not a rounded (or 1e+21-printed) number.
  const edge = run('dockets', { id: '9223372036854775807' }).sql!
  t.equal(edge.query, '`id` = {p1:Int64}')
  t.same(Object.values(edge.query_params), ['9223372036854775807'])
  t.same(Object.values(run('dockets', { id: '5' }).sql!.query_params), [5])
  t.same(run('dockets', { id: '1e3' }).errors, { id: ['Enter a number.'] })
})

t.test('float columns bind Float64, even for whole numbers, and refuse what is not a finite number', async (t) => {
  const r = run('courts', { position: '1e300' })
  t.same(r.errors, {})
  t.equal(r.sql!.query, '`position` = {p1:Float64}')
  t.same(Object.values(r.sql!.query_params), [1e300])
  t.equal(run('courts', { position__gt: '2' }).sql!.query, '`position` > {p1:Float64}')
  for (const bad of ['NaN', 'Infinity', '-Infinity', '0x10', '1e400', 'abc']) {
    t.same(run('courts', { position: bad }).errors, { position: ['Enter a number.'] }, bad)
  }
})

t.test('impossible calendar dates and times are refused, not rolled over', async (t) => {
  t.same(run('sources', { date_modified__gte: '2021-02-29' }).errors, { date_modified__gte: ['Enter a valid date/time.'] })
  for (const bad of ['2020-02-30T10:00:00Z', '2020-01-01T24:00:00', '2020-01-01T00:60', '2020-01-01T00:00:00+24:00', '0000-01-01', '2020-13-01']) {
    t.same(run('dockets', { date_created__lt: bad }).errors, { date_created__lt: ['Enter a valid date/time.'] }, bad)
  }
  t.same(run('dockets', { date_created__range: '2020-01-01,2021-02-29' }).errors, { date_created__range: ['Enter a valid date/time.'] })
  t.same(run('dockets', { date_created__gte: '2024-02-29T23:59:59.123456+05:30', date_modified__lt: '2020-01-01' }).errors, {})
  t.same(run('dockets', { date_filed: '2021-02-29' }).errors, { date_filed: ['Enter a valid date.'] })
  t.same(run('dockets', { date_filed__gte: '0000-01-01' }).errors, { date_filed__gte: ['Enter a valid date.'] })
  t.ok(isFilterDatetime('2024-02-29'))
  t.notOk(isFilterDatetime('2023-02-29'))
  t.notOk(isFilterDatetime('1900-02-29T00:00'), 'a century is not a leap year')
})

t.test('cursor positions ClickHouse could not take are invalid cursors', async (t) => {
  const cursor = (text: string) => Buffer.from(text, 'utf8').toString('base64')
  const invalid = { status: 404, message: 'Invalid cursor', code: 'LDS_ERR_INVALID_CURSOR' }
  t.throws(() => decodeCursor(cursor('p=99999999999999999999999'), 'int'), invalid)
  t.throws(() => decodeCursor(cursor('p=9007199254740993'), 'int'), invalid)
  t.throws(() => decodeCursor(cursor('p=2021-02-29'), 'datetime'), invalid)
  t.throws(() => decodeCursor(cursor('p=2021-01-01T24:00:00Z'), 'datetime'), invalid)
  t.same(decodeCursor(cursor('p=-9007199254740991'), 'int').position, '-9007199254740991')
  t.same(decodeCursor(cursor('p=2024-02-29T03:04:05.000000Z'), 'datetime').position, '2024-02-29T03:04:05.000000Z')
})
