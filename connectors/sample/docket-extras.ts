/**
 * What a federal docket may carry besides its entries: the case in the court below (originating
 * court information, for appeals), its row of the federal judiciary's case statistics (the
 * integrated database, for district cases) and, for a bankruptcy case, its chapter, trustee and
 * deadlines. The first two are emitted before the docket that links them, the last after it.
 */
import type { PoolCourt } from './court-pool.js'
import { docketNumber } from './cases.js'
import type { SampleContext } from './context.js'
import { isoDay, yearOf } from './dates.js'
import type { SampleRecord } from './records.js'
import type { Judge } from './judges.js'
import type { Category } from './vocabulary.js'

/** The lower court's record of an appeal filed on `filedDay`. */
export function originatingCourt(ctx: SampleContext, lower: PoolCourt, filedDay: number, criminal: boolean, judge: Judge | undefined): SampleRecord {
  const { rng } = ctx
  const judgment = filedDay - rng.int(20, 90)
  const lowerFiled = Math.max(lower.startDay, judgment - rng.int(200, 1400))
  const dn = docketNumber(rng, lower, lowerFiled, criminal)
  const [created, modified] = ctx.stamp(filedDay)
  const name = judge ? `${judge.first} ${judge.last}` : ''
  const ordered = judge !== undefined && rng.chance(0.7)
  return { resource: 'originating-court-information', record: {
    id: ctx.next('originating-court-information'), date_created: created, date_modified: modified, docket_number: dn.number, docket_number_raw: dn.number,
    assigned_to_str: name, ordering_judge_str: ordered ? name : '', court_reporter: rng.chance(0.5) ? `${rng.pick(['Debra', 'Lynn', 'Carol', 'James'])} ${rng.pick(['Pas', 'Rivera', 'Chen', 'Okafor'])}, CSR` : '',
    date_disposed: isoDay(judgment), date_filed: isoDay(lowerFiled), date_judgment: isoDay(judgment), date_judgment_eod: isoDay(judgment + rng.int(0, 2)),
    date_filed_noa: isoDay(Math.min(filedDay, judgment + rng.int(3, 28))), date_received_coa: isoDay(filedDay), date_rehearing_denied: null,
    assigned_to_id: judge?.person ?? null, ordering_judge_id: ordered ? judge.person : null,
  } }
}

const OFFENSES = ['6100', '6800', '4310', '7830', '5100', '4991'] as const

/** The integrated-database row of a district case. `terminatedDay` null: still pending. */
export function integratedDatabase(ctx: SampleContext, court: PoolCourt, category: Category, dn: { number: string; core: string }, filedDay: number, terminatedDay: number | null, plaintiff: string, defendant: string): SampleRecord {
  const { rng } = ctx
  const criminal = category.criminal
  const year = yearOf(filedDay)
  const [title, section] = category.cause ? category.cause.split(' ')[0].split(':') : ['', '']
  const nature = /^\d+/.exec(category.nature)?.[0]
  const diversity = category.name === 'contract' || category.name === 'tort'
  const ended = terminatedDay !== null
  const [created, modified] = ctx.stamp(terminatedDay ?? filedDay)
  const demand = !criminal && rng.chance(0.4) ? rng.int(10, 9999) : null
  return { resource: 'fjc-integrated-database', record: {
    id: ctx.next('fjc-integrated-database'), date_created: created, date_modified: modified,
    dataset_source: criminal ? (year >= 1996 ? 4 : 3) : year >= 1988 ? 10 : 1, office: dn.number.slice(0, 1), docket_number: dn.core.slice(0, 7),
    origin: rng.chance(0.85) ? 1 : diversity ? 2 : 5, date_filed: isoDay(filedDay),
    jurisdiction: criminal ? 1 : diversity ? 4 : category.name === 'tax' ? 2 : 3, nature_of_suit: !criminal && nature ? Number(nature) : null,
    title: criminal ? '18' : title, section: criminal ? '922' : section, subsection: '', diversity_of_residence: diversity ? rng.int(1, 6) : null,
    class_action: criminal ? null : rng.chance(0.04), monetary_demand: demand, county_of_residence: rng.int(1, 56) * 1000 + rng.int(1, 199),
    arbitration_at_filing: '', arbitration_at_termination: '', multidistrict_litigation_docket_number: '',
    plaintiff: plaintiff.toUpperCase(), defendant: defendant.toUpperCase(), date_transfer: null, transfer_office: '', transfer_docket_number: '', transfer_origin: '',
    date_terminated: ended ? isoDay(terminatedDay) : null, termination_class_action_status: null,
    procedural_progress: ended && !criminal ? rng.pick([2, 4, 5, 12, 3]) : null, disposition: ended && !criminal ? rng.pick([12, 13, 13, 6, 14]) : null,
    nature_of_judgement: ended && !criminal ? rng.pick([0, 1, 0, 5]) : null, amount_received: ended && demand !== null ? rng.int(0, demand) : null,
    judgment: ended && !criminal ? rng.pick([1, 2, 4]) : null, pro_se: criminal ? null : rng.weighted([[0, 85], [1, 10], [2, 3], [3, 2]] as const),
    year_of_tape: ended ? yearOf(terminatedDay) : null, nature_of_offense: criminal ? rng.pick(OFFENSES) : '', version: rng.chance(0.5) ? 1 : null,
    circuit_id: court.circuit, district_id: court.id,
  } }
}

/** Chapter, trustee and deadlines of a bankruptcy case; deadlines after `today` are not known yet. */
export function bankruptcyInformation(ctx: SampleContext, docketId: number, chapter: string, filedDay: number, closedDay: number | null): SampleRecord {
  const { rng } = ctx
  const [created, modified] = ctx.stamp(filedDay)
  const at = (day: number) => (day <= ctx.today ? `${isoDay(day)}T00:00:00+00:00` : null)
  const dismissed = closedDay !== null && chapter === '13' && rng.chance(0.4) ? closedDay : null
  return { resource: 'bankruptcy-information', record: {
    id: ctx.next('bankruptcy-information'), date_created: created, date_modified: modified,
    date_converted: chapter === '13' && closedDay !== null && rng.chance(0.1) ? at(filedDay + rng.int(100, Math.max(101, closedDay - filedDay))) : null,
    date_last_to_file_claims: at(filedDay + 90), date_last_to_file_govt: at(filedDay + 180), date_debtor_dismissed: dismissed === null ? null : at(dismissed),
    chapter, trustee_str: `${rng.pick(['Ann', 'Mark', 'Linda', 'Paul', 'Grace'])} ${rng.pick(['Whitfield', 'Baptiste', 'Kowalski', 'Lindqvist', 'Mercer'])}`, docket_id: docketId,
  } }
}
