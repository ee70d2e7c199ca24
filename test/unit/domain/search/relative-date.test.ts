/**
 * Relative dates of the search date filters: every accepted form, the unit lengths (a month is 30
 * days, a year 365), UTC day rounding, edge cases, and the values that are refused.
 */
import t from 'tap'
import { relativeDays, resolveRelativeDate, utcDay } from '../../../../domain/search/relative-date.js'

const at = (iso: string) => Date.parse(iso)
const NOW = at('2026-11-28T13:45:00Z')
const resolve = (v: string, now = NOW) => resolveRelativeDate(v, now)

t.test('past N <unit>', async (t) => {
  t.equal(resolve('past 30 days'), '2026-10-29')
  t.equal(resolve('past 1 day'), '2026-11-27')
  t.equal(resolve('past 7 d'), '2026-11-21')
  t.equal(resolve('past 7d'), '2026-11-21', 'no space between N and unit')
  t.equal(resolve('past 2 months'), '2026-09-29', 'a month is 30 days')
  t.equal(resolve('past 1 month'), '2026-10-29')
  t.equal(resolve('past 3m'), '2026-08-30')
  t.equal(resolve('past 1 year'), '2025-11-28')
  t.equal(resolve('past 2 years'), '2024-11-28', 'a year is 365 days')
  t.equal(resolve('past 3 years'), '2023-11-29', 'a year is 365 days, also across a leap day (29 February 2024)')
  t.equal(resolve('past 1y'), '2025-11-28')
})

t.test('-N <unit>', async (t) => {
  t.equal(resolve('-2y'), '2024-11-28')
  t.equal(resolve('-30 d'), '2026-10-29')
  t.equal(resolve('-30d'), '2026-10-29')
  t.equal(resolve('-1 day'), '2026-11-27')
  t.equal(resolve('-6 months'), '2026-06-01')
  t.equal(resolve('-1month'), '2026-10-29')
  t.equal(resolve('-1 years'), '2025-11-28')
  t.equal(resolve('- 1 year'), '2025-11-28', 'a space after the minus')
})

t.test('N <unit> ago', async (t) => {
  t.equal(resolve('1 year ago'), '2025-11-28')
  t.equal(resolve('30 d ago'), '2026-10-29')
  t.equal(resolve('30d ago'), '2026-10-29')
  t.equal(resolve('30 days ago'), '2026-10-29')
  t.equal(resolve('1 day ago'), '2026-11-27')
  t.equal(resolve('2 months ago'), '2026-09-29')
  t.equal(resolve('1m ago'), '2026-10-29')
  t.equal(resolve('3 years ago'), '2023-11-29')
  t.equal(resolve('1y ago'), '2025-11-28')
})

t.test('units and keywords in any case; whitespace', async (t) => {
  t.equal(resolve('PAST 30 DAYS'), '2026-10-29')
  t.equal(resolve('Past 1 Year'), '2025-11-28')
  t.equal(resolve('1 YEAR AGO'), '2025-11-28')
  t.equal(resolve('-2Y'), '2024-11-28')
  t.equal(resolve('-30 D'), '2026-10-29')
  t.equal(resolve('  past   30\tdays  '), '2026-10-29', 'surrounding and repeated whitespace')
  t.equal(resolve('1   year\n ago'), '2025-11-28')
  t.equal(resolve('007 days ago'), '2026-11-21', 'leading zeros')
})

t.test('today is the UTC day of now, whatever the time of day', async (t) => {
  t.equal(resolve('past 0 days'), '2026-11-28', '0 days: today')
  t.equal(resolve('0d ago'), '2026-11-28')
  t.equal(resolve('-0y'), '2026-11-28')
  t.equal(resolve('past 1 day', at('2026-11-28T00:00:00Z')), '2026-11-27', 'the first instant of the day')
  t.equal(resolve('past 1 day', at('2026-11-28T23:59:59.999Z')), '2026-11-27', 'the last instant of the day')
  t.equal(resolve('past 1 day', at('2026-11-29T00:00:00Z')), '2026-11-28', 'the next day')
  t.equal(utcDay(at('2026-11-28T23:59:59.999Z')), '2026-11-28')
  t.equal(utcDay(at('2026-11-28T23:30:00-05:00')), '2026-11-29', 'UTC, not the offset of the instant')
})

t.test('leap years: days are counted, not calendar fields', async (t) => {
  t.equal(resolve('1 year ago', at('2024-03-01T12:00:00Z')), '2023-03-02', '365 days before 1 March of a leap year')
  t.equal(resolve('1 year ago', at('2025-03-01T12:00:00Z')), '2024-03-01')
  t.equal(resolve('1 year ago', at('2025-02-28T12:00:00Z')), '2024-02-29', 'lands on 29 February')
  t.equal(resolve('past 1 day', at('2024-03-01T00:00:00Z')), '2024-02-29')
  t.equal(resolve('past 1 day', at('2023-03-01T00:00:00Z')), '2023-02-28')
  t.equal(resolve('4 years ago', at('2028-01-01T00:00:00Z')), '2024-01-02', 'four 365-day years span a leap day')
  t.equal(resolve('-1 m', at('2024-03-15T00:00:00Z')), '2024-02-14')
})

t.test('large N', async (t) => {
  t.equal(resolve('past 100 years'), '1926-12-23')
  t.equal(resolve('past 36500 days'), '1926-12-23', '100 years is 36500 days')
  t.equal(resolve('2000 years ago'), '0028-03-27', 'four-digit years, zero-padded')
  t.equal(resolve('past 739947 days'), '0001-01-01', 'the earliest day')
  t.equal(resolve('past 739948 days'), null, 'before the year 1: refused')
  t.equal(resolve('100000 years ago'), null)
  t.equal(resolve('past 99999999999999999999 days'), null, 'beyond a safe integer: refused')
  t.equal(relativeDays('past 12 years'), 12 * 365)
  t.equal(relativeDays('past 12 months'), 360)
})

t.test('values without a direction, and other text, are not relative dates', async (t) => {
  for (const v of [
    '5 days', '5days', '+3d', '+3 days', '2y', '1 year', '30 d', '0 days', 'd', 'days',
    'past', 'past days', 'ago', 'days ago', 'past -3 days', 'past 3 days ago', '-3 days ago', '--3d', '-+3d',
    '3 days from now', 'next 3 days', 'in 3 days', 'past 3 weeks', '-3w', '3 hours ago', '-3 h', 'past 1.5 years', '-1,000 days',
    'past 3 dayss', '-3 yr', '1 yearago', 'past3 days', 'past 3 months later', '2020-01-01', '01/02/2020', '', '   ',
  ]) {
    t.equal(relativeDays(v), null, `${JSON.stringify(v)} is not relative`)
    t.equal(resolve(v), null, `${JSON.stringify(v)} resolves to nothing`)
  }
})

t.test('a non-finite now resolves nothing', async (t) => {
  t.equal(resolveRelativeDate('past 1 day', Number.NaN), null)
})
