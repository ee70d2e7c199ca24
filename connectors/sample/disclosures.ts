/**
 * Financial disclosures of federal judges: for some judges who sat since 2004, a report or two
 * (initial, annual, final; nomination reports for nominees of that time), each filed in May of
 * the year after the one it covers and listing positions, agreements, incomes, the spouse's
 * income, reimbursements, gifts, debts and investments with value codes from the report form.
 */
import type { SampleContext } from './context.js'
import { slugify } from './context.js'
import { dayOf, isoDay, yearOf } from './dates.js'
import type { SampleRecord } from './records.js'
import * as A from './archive-vocabulary.js'

/** Reports of years before this are not in the sample. */
const FIRST_YEAR = 2004
const VALUE = [['J', 30], ['K', 25], ['L', 15], ['M', 14], ['N', 8], ['O', 5], ['P1', 3], ['P2', 0.5], ['-1', 0.5]] as const
const INCOME = [['A', 35], ['B', 20], ['C', 15], ['D', 14], ['E', 9], ['F', 4], ['G', 2], ['-1', 1]] as const
const METHOD = [['T', 70], ['U', 8], ['W', 8], ['Q', 4], ['R', 4], ['S', 2], ['V', 4]] as const

export interface Filer { person: number; first: string; last: string; startDay: number; endDay: number; nominatedDay: number }

export function* disclosureRecords(ctx: SampleContext, judge: Filer): Generator<SampleRecord> {
  const { rng, next } = ctx
  const fileDay = (year: number) => dayOf(`${year + 1}-05-15`) + rng.int(-40, 10)
  const lastYear = Math.min(judge.endDay === Infinity ? Infinity : yearOf(judge.endDay), yearOf(ctx.today) - 1)
  const firstYear = Math.max(FIRST_YEAR, yearOf(judge.startDay))
  const reports: { year: number; type: number; day: number }[] = []
  if (judge.nominatedDay >= dayOf(`${FIRST_YEAR}-01-01`) && rng.chance(0.5)) reports.push({ year: yearOf(judge.nominatedDay), type: 0, day: judge.nominatedDay + rng.int(5, 30) })
  if (lastYear >= firstYear) {
    const year = rng.int(Math.max(firstYear, lastYear - 6), lastYear)
    const final = judge.endDay !== Infinity && year === yearOf(judge.endDay)
    reports.push({ year, type: year === yearOf(judge.startDay) ? 1 : final ? 3 : 2, day: final ? judge.endDay + rng.int(20, 30) : fileDay(year) })
    if (year > firstYear && rng.chance(0.5)) reports.push({ year: year - 1, type: 2, day: fileDay(year - 1) })
  }
  for (const r of reports) {
    if (r.day > ctx.today) continue
    const [created, modified] = ctx.stamp(r.day)
    const id = next('financial-disclosures')
    const pages = rng.int(5, 14)
    const file = `${slugify(judge.last)}-${slugify(judge.first)}-${r.year}`
    const amended = rng.chance(0.04)
    yield { resource: 'financial-disclosures', record: {
      id, person_id: judge.person, filepath: `financial-disclosures/${r.year}/${file}.pdf`, thumbnail: `financial-disclosures/thumbnails/${file}.png`,
      date_created: created, date_modified: modified, year: r.year, thumbnail_status: 1, page_count: pages, sha1: rng.hex(40), report_type: r.type,
      is_amended: amended, addendum_content_raw: rng.chance(0.15) ? 'Part VII, line 3: the account was closed during the reporting period.' : '',
      addendum_redacted: false, has_been_extracted: true, download_filepath: null,
    } }
    const child = (resource: string, fields: Record<string, unknown>): SampleRecord =>
      ({ resource, record: { id: next(resource), date_created: created, date_modified: modified, redacted: rng.chance(0.02), ...fields, financial_disclosure_id: id } })
    const year = String(r.year)
    for (let k = rng.int(0, 2); k > 0; k--) { const [position, organization] = rng.pick(A.FD.positions); yield child('disclosure-positions', { position, organization_name: `${organization}` }) }
    for (let k = rng.int(0, 2); k > 0; k--) yield child('agreements', { date_raw: String(rng.int(1985, r.year)), parties_and_terms: rng.pick(A.FD.agreements)[0] })
    for (let k = rng.int(0, 2); k > 0; k--) { const [source, amount] = rng.pick(A.FD.incomes); yield child('non-investment-incomes', { date_raw: year, source_type: source, income_amount: amount }) }
    if (rng.chance(0.5)) yield child('spouse-incomes', { source_type: rng.pick(A.FD.spouse), date_raw: year })
    for (let k = rng.int(0, 3); k > 0; k--) {
      const [source, location, purpose, items] = rng.pick(A.FD.reimbursements)
      const month = rng.int(1, 12), dayOfMonth = rng.int(1, 26)
      yield child('reimbursements', { source, date_raw: `${month}/${dayOfMonth}/${year.slice(2)} - ${month}/${dayOfMonth + rng.int(1, 3)}/${year.slice(2)}`, location, purpose, items_paid_or_provided: items })
    }
    if (rng.chance(0.15)) { const [source, what, value] = rng.pick(A.FD.gifts); yield child('gifts', { source: `${source} (${what})`, value, description: null }) }
    for (let k = rng.chance(0.5) ? rng.int(1, 2) : 0; k > 0; k--) yield child('debts', { creditor_name: `${rng.pick(A.FD.creditors)} (${rng.pick(A.FD.debts).toLowerCase()})`, value_code: rng.weighted(VALUE), description: null })
    for (let k = rng.int(2, 10); k > 0; k--) {
      const traded = rng.chance(0.2)
      const sold = traded && rng.chance(0.5)
      const tradeDay = Math.min(r.day - 1, dayOf(`${year}-01-01`) + rng.int(0, 364))
      const iso = isoDay(tradeDay)
      yield child('investments', {
        page_number: rng.int(3, pages), income_during_reporting_period_code: rng.weighted(INCOME), income_during_reporting_period_type: rng.pick(A.FD.incomeTypes),
        gross_value_code: sold ? '' : rng.weighted(VALUE), gross_value_method: sold ? '' : rng.weighted(METHOD),
        transaction_during_reporting_period: traded ? (sold ? 'Sold' : rng.pick(['Buy', 'Buy (add\'l)'])) : '',
        transaction_date_raw: traded ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(2, 4)}` : '', transaction_date: traded ? iso : null,
        transaction_value_code: traded ? rng.weighted(VALUE) : '', transaction_gain_code: sold ? rng.weighted(INCOME) : '', transaction_partner: '', has_inferred_values: false, description: null,
      })
    }
  }
}
