/**
 * Relative dates in the search request: every date filter takes them, each means the absolute
 * date it counts back to from the caller's now (and gives exactly that date's filter), values
 * without a direction are the same field-keyed 400 as any bad date, and a stored search alert
 * compiled on a later day counts back from that later day.
 */
import t from 'tap'
import { searchRequest, requestAst, show, analyzeDocument, SearchRequestError } from '../../../../domain/search/index.js'
import { compileAlert } from '../../../../streams/search/percolator.js'

const NOW = Date.parse('2026-11-28T13:45:00Z')
const req = (q: string, now = NOW) => searchRequest(new URLSearchParams(q), now)
const refusal = (q: string, now = NOW) => { try { req(q, now); return null } catch (e) { return e instanceof SearchRequestError ? e.fields ?? null : { other: [String(e)] } } }

/** Every date filter, with a search type that has its field. */
const DATE_PARAMS: [string, string][] = [
  ['filed_after', 'o'], ['filed_before', 'o'], ['argued_after', 'oa'], ['argued_before', 'oa'],
  ['entry_date_filed_after', 'rd'], ['entry_date_filed_before', 'rd'], ['born_after', 'p'], ['born_before', 'p'],
]

t.test('every date filter takes each relative form as the absolute date it names', async (t) => {
  const forms: [string, string][] = [
    ['past 30 days', '2026-10-29'], ['-30d', '2026-10-29'], ['-30 d', '2026-10-29'], ['30 days ago', '2026-10-29'], ['30d ago', '2026-10-29'],
    ['past 2 months', '2026-09-29'], ['-2m', '2026-09-29'], ['2 months ago', '2026-09-29'],
    ['past 1 year', '2025-11-28'], ['-1y', '2025-11-28'], ['1 year ago', '2025-11-28'], ['PAST 1 YEAR', '2025-11-28'],
    ['past 0 days', '2026-11-28'],
  ]
  for (const [param, type] of DATE_PARAMS) {
    for (const [value, iso] of forms) {
      const relative = req(`type=${type}&${param}=${encodeURIComponent(value)}`)
      const absolute = req(`type=${type}&${param}=${iso}`)
      t.same(relative.filters, absolute.filters, `${param}=${value} is ${param}=${iso}`)
      t.equal(relative.relativeTo, '2026-11-28', 'the day it was counted from')
      t.equal(absolute.relativeTo, undefined, 'an absolute date is not relative')
    }
  }
  t.match(show(requestAst(req('filed_after=past%207%20days&filed_before=-1d'))), /2026-11-21.*2026-11-27|2026-11-27.*2026-11-21/, 'both ends of a range')
  t.same(req('filed_after=past+7+days').filters, req('filed_after=2026-11-21').filters, '+ as a space in the query string')
})

t.test('today is the caller\'s now, in UTC', async (t) => {
  t.same(req('filed_after=past%201%20day', Date.parse('2026-11-28T23:59:59Z')).filters, req('filed_after=2026-11-27').filters)
  t.same(req('filed_after=past%201%20day', Date.parse('2026-11-29T00:00:00Z')).filters, req('filed_after=2026-11-28').filters)
  t.same(req('filed_after=1%20year%20ago', Date.parse('2024-03-01T08:00:00Z')).filters, req('filed_after=2023-03-02').filters, 'a year is 365 days, even over a leap day')
})

t.test('relative values without a direction are refused like any bad date', async (t) => {
  for (const [param, type] of DATE_PARAMS) {
    for (const value of ['5 days', '+3d', '2y', '5days', '1 year', 'past -3 days', '3 days ago ago', '-3 weeks', 'past 1.5 years']) {
      t.same(refusal(`type=${type}&${param}=${encodeURIComponent(value)}`), { [param]: ['Enter a valid date.'] }, `${param}=${value}`)
    }
  }
  t.same(refusal('filed_after=5%20days&filed_before=past%201%20year'), { filed_after: ['Enter a valid date.'] }, 'only the bad one is named')
  t.same(refusal('filed_after=100000%20years%20ago'), { filed_after: ['Enter a valid date.'] }, 'before the year 1')
  t.equal(refusal('type=p&filed_after=5%20days'), null, 'a filter the type lacks is ignored, relative or not')
})

t.test('absolute dates are unchanged', async (t) => {
  t.same(req('filed_after=2020').filters, req('filed_after=2020-01-01').filters)
  t.same(req('filed_before=2020-02').filters, req('filed_before=2020-02-29').filters)
  t.same(req('filed_after=03/04/2020').filters, req('filed_after=2020-03-04').filters)
  t.same(refusal('filed_after=13/45/2020'), { filed_after: ['Enter a valid date.'] })
})

t.test('a stored alert counts back from the day it is compiled, not the day it was saved', async (t) => {
  const row = { id: 1, user_id: 2, name: 'recent', rate: 'rt', alert_type: 'o', query: 'q=miranda&filed_after=past%207%20days' }
  const monday = compileAlert(row, Date.parse('2026-11-23T10:00:00Z'))!
  const later = compileAlert(row, Date.parse('2026-11-30T10:00:00Z'))!
  t.equal(monday.query.relativeTo, '2026-11-23')
  t.equal(later.query.relativeTo, '2026-11-30')
  t.same(monday.query.filters, req('filed_after=2026-11-16').filters)
  t.same(later.query.filters, req('filed_after=2026-11-23').filters)
  const doc = (id: number, filed: string) => analyzeDocument('o', { id, case_name: 'Miranda v. Arizona', text: 'warnings', date_filed: filed })
  t.ok(monday.matches(doc(1, '2026-11-20')), 'filed within the 7 days before the 23rd')
  t.notOk(later.matches(doc(1, '2026-11-20')), 'no longer within the 7 days before the 30th')
  t.ok(later.matches(doc(2, '2026-11-29')))
  t.notOk(monday.matches(doc(3, '2026-11-15')))
  t.equal(compileAlert({ ...row, query: 'q=miranda&filed_after=5%20days' }), null, 'a refused date: not compiled')
  t.equal(compileAlert({ ...row, query: 'q=miranda&filed_after=2026-11-16' }, NOW)!.query.relativeTo, undefined, 'absolute dates: compiled once')
})
