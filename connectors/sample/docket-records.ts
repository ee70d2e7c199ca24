/**
 * The dockets of the sample: a decided case's docket with what comes before it (the case below
 * for an appeal, the statistics row of some district cases) and after it (the sample user's
 * tags, bankruptcy details, and for an archive docket its parties and entries); dockets the
 * archive holds without a decision; and the stored columns of a docket row.
 */
import type { Judge } from './judges.js'
import { caseParties, docketNumber, type Parties } from './cases.js'
import { slugify } from './context.js'
import type { PoolCourt } from './court-pool.js'
import { docketTags } from './curation.js'
import { dayOf, isoDay } from './dates.js'
import { bankruptcyInformation, integratedDatabase, originatingCourt } from './docket-extras.js'
import { entryRecords } from './entries.js'
import { partyRecords, type CaseFile } from './parties.js'
import type { Rng } from './random.js'
import type { SampleRecord } from './records.js'
import { FIRST_DAY, names, type CaseDocket, type DecidedCase, type Sampler } from './sampler.js'
import { CATEGORIES, type Category } from './vocabulary.js'

/** The archive holds federal dockets from the electronic era: district and bankruptcy since 2001, appeals since 2005. */
const ARCHIVE_FROM_DAY = dayOf('2001-01-01')
const APPELLATE_ARCHIVE_FROM_DAY = dayOf('2005-01-01')
/** Docket source bits (see the catalogue's DOCKET_SOURCE). */
const SOURCE = { archive: 1, scraper: 2, idb: 8, partnerC: 16 } as const
const FEDERAL_FAMILIES = new Set(['scotus', 'circuit', 'district', 'bankruptcy'])

/** What a docket row is made from. */
interface DocketFacts {
  id: number; court: PoolCourt; category: Category; parties: Parties; dn: { number: string; core: string }; year: number
  filedDay: number; terminatedDay: number | null; lastFilingDay: number; arguedDay: number | null; certGrantedDay: number | null
  assigned: Judge | null; panel: readonly Judge[]; appealFrom: PoolCourt | null; source: number; recordsCaseId: string | null
  ociId: number | null; idbId: number | null
}

/** The docket of a decided case, and before it the case below (appeals) and the statistics row (some district cases); after it, its extras. */
export function* caseDocket(s: Sampler, c: DecidedCase): Generator<SampleRecord, CaseDocket> {
  const { rng, ctx } = s
  const { court, day, year, category, parties, panel } = c
  const family = court.family
  const filedDay = Math.max(court.startDay, day - rng.int(60, family === 'scotus' ? 400 : 900))
  const appellate = family === 'scotus' || family === 'circuit' || family === 'appellate' || family === 'supreme'
  const arguedDay = appellate && rng.chance(0.6) ? filedDay + Math.floor((day - filedDay) * (0.5 + rng.next() * 0.4)) : null
  const terminatedDay = Math.min(s.today, day + rng.int(0, 40))
  const dn = docketNumber(rng, court, filedDay, category.criminal)
  const appealFrom = family === 'circuit' ? rng.pick(s.districtsOf.get(court.id) ?? [null]) : family === 'scotus' ? rng.pick(s.appealsFromScotus) : null
  const assigned = family === 'district' || family === 'bankruptcy' ? panel[0] ?? null : null
  const source = year >= 2008 ? 'C' : FEDERAL_FAMILIES.has(family) ? 'R' : 'U'
  const archived = ((family === 'district' || family === 'bankruptcy') && filedDay >= ARCHIVE_FROM_DAY && rng.chance(0.35))
    || (family === 'circuit' && filedDay >= APPELLATE_ARCHIVE_FROM_DAY && rng.chance(0.25))
  let ociId: number | null = null
  if (appealFrom && filedDay >= dayOf('1990-01-01') && rng.chance(0.85)) {
    const below = originatingCourt(ctx, appealFrom, filedDay, category.criminal, appealFrom.family === 'district' ? rng.pick(s.bench.sitting(appealFrom.id, filedDay - 200)) : undefined)
    ociId = below.record.id as number
    yield below
  }
  let idbId: number | null = null
  if (family === 'district' && filedDay >= dayOf('1988-01-01') && rng.chance(0.4)) {
    const [a, b] = sidesOf(parties)
    const row = integratedDatabase(ctx, court, category, dn, filedDay, terminatedDay, a, b)
    idbId = row.record.id as number
    yield row
  }
  const id = s.next('dockets')
  const recordsCaseId = family === 'district' && year >= 2001 ? String(rng.int(10_000, 999_999)) : null
  const bits = (source === 'C' ? SOURCE.scraper : source === 'R' ? 0 : SOURCE.partnerC) | (archived ? SOURCE.archive : 0) | (idbId !== null ? SOURCE.idb : 0)
  yield { resource: 'dockets', record: docketRow(s, {
    id, court, category, parties, dn, filedDay, terminatedDay, lastFilingDay: terminatedDay, assigned, panel: appellate ? panel : [],
    appealFrom, arguedDay, certGrantedDay: family === 'scotus' ? (arguedDay ?? day) - rng.int(60, 200) : null, source: bits,
    recordsCaseId, ociId, idbId, year,
  }) }
  yield* docketExtras(s, {
    docketId: id, court, category, caption: parties, number: dn.number, recordsCaseId: recordsCaseId ?? String(id), filedDay, lastDay: terminatedDay, closed: true,
    judge: assigned ? `${assigned.first} ${assigned.last}` : names(panel), chapter: family === 'bankruptcy' ? chapterOf(rng, parties) : '',
  }, archived)
  return { id, number: dn.number, filedDay, arguedDay, source }
}

/** A docket the archive holds with no decision in the corpus: pending (many filed lately) or closed. */
export function* archiveOnlyDocket(s: Sampler, court: PoolCourt): Generator<SampleRecord> {
  const { rng, ctx, today } = s
  const filedDay = Math.max(court.startDay, ARCHIVE_FROM_DAY, today - Math.floor((today - ARCHIVE_FROM_DAY) * rng.next() ** 3))
  const bankruptcy = court.family === 'bankruptcy'
  const category = bankruptcy ? CATEGORIES.bankruptcy : CATEGORIES[s.pickCategory.district(rng)]
  const parties = caseParties(rng, court, category.name)
  const dn = docketNumber(rng, court, filedDay, category.criminal)
  const open = filedDay > today - 730 ? rng.chance(0.8) : rng.chance(0.05)
  const lastDay = open ? Math.max(filedDay, today - Math.floor(60 * rng.next() ** 2)) : Math.min(today, filedDay + rng.int(30, 1200))
  const judge = rng.pick(s.bench.sitting(court.id, filedDay)) ?? null
  let idbId: number | null = null
  if (!bankruptcy && rng.chance(0.3)) {
    const [a, b] = sidesOf(parties)
    const row = integratedDatabase(ctx, court, category, dn, filedDay, open ? null : lastDay, a, b)
    idbId = row.record.id as number
    yield row
  }
  const docketId = s.next('dockets')
  const recordsCaseId = String(rng.int(10_000, 999_999))
  yield { resource: 'dockets', record: docketRow(s, {
    id: docketId, court, category, parties, dn, filedDay, terminatedDay: open ? null : lastDay, lastFilingDay: lastDay, assigned: judge, panel: [],
    appealFrom: null, arguedDay: null, certGrantedDay: null, source: SOURCE.archive | (idbId !== null ? SOURCE.idb : 0), recordsCaseId,
    ociId: null, idbId, year: Number(isoDay(filedDay).slice(0, 4)),
  }) }
  yield* docketExtras(s, {
    docketId, court, category, caption: parties, number: dn.number, recordsCaseId, filedDay, lastDay, closed: !open,
    judge: judge ? `${judge.first} ${judge.last}` : '', chapter: bankruptcy ? chapterOf(rng, parties) : '',
  }, true)
}

/** After a docket: the sample user's tags on it, bankruptcy details, and for an archive docket its parties and entries. */
function* docketExtras(s: Sampler, f: CaseFile, archived: boolean): Generator<SampleRecord> {
  yield* docketTags(s.ctx, s.sampleTags, f.docketId, { family: f.court.family, category: f.category.name, criminal: f.category.criminal })
  if (f.court.family === 'bankruptcy') yield bankruptcyInformation(s.ctx, f.docketId, f.chapter, f.filedDay, f.closed ? f.lastDay : null)
  if (!archived) return
  const attorneys = yield* partyRecords(s.ctx, f)
  yield* entryRecords(s.ctx, f, attorneys, s.searchTagIds)
}

/** Every stored column of a docket, from what the case is. */
function docketRow(s: Sampler, d: DocketFacts): Record<string, unknown> {
  const { rng, ctx, searchTagIds } = s
  const { court, category, parties, dn, assigned } = d
  const family = court.family
  const district = family === 'district'
  // Created when first seen, modified at the last filing at the latest.
  const [created, modifiedFirst] = ctx.stamp(Math.max(d.filedDay, FIRST_DAY))
  const [lastSeen] = ctx.stamp(Math.max(d.lastFilingDay, FIRST_DAY))
  const modified = lastSeen > modifiedFirst ? lastSeen : modifiedFirst
  return {
    id: d.id, court_id: court.id, original_court_info_id: d.ociId, idb_data_id: d.idbId, assigned_to_id: assigned?.person ?? null, referred_to_id: null,
    date_created: created, date_modified: modified, source: d.source,
    appeal_from_str: d.appealFrom ? d.appealFrom.fullName : '', assigned_to_str: assigned ? `${assigned.first} ${assigned.last}` : '', referred_to_str: '',
    panel_str: d.panel.map((j) => j.last).join(', '), date_last_index: null,
    date_cert_granted: d.certGrantedDay === null ? null : isoDay(d.certGrantedDay), date_cert_denied: null,
    date_argued: d.arguedDay === null ? null : isoDay(d.arguedDay), date_reargued: null, date_reargument_denied: null,
    date_filed: isoDay(d.filedDay), date_terminated: d.terminatedDay === null ? null : isoDay(d.terminatedDay), date_last_filing: isoDay(d.lastFilingDay),
    case_name_short: parties.short, case_name: parties.caseName, case_name_full: parties.caseNameFull, slug: slugify(parties.caseName),
    docket_number: dn.number, docket_number_core: dn.core, docket_number_raw: dn.number, docket_number_source: 0,
    federal_dn_office_code: district ? dn.number[0] : '', federal_dn_case_type: district ? (category.criminal ? 'cr' : 'cv') : '',
    federal_dn_judge_initials_assigned: assigned && district ? `${assigned.first[0]}${assigned.last[0]}` : '', federal_dn_judge_initials_referred: '',
    federal_defendant_number: null, records_case_id: d.recordsCaseId,
    cause: district ? category.cause : '', nature_of_suit: district ? category.nature : '',
    jury_demand: district && !category.criminal ? rng.pick(['Plaintiff', 'Both', 'None', 'Defendant']) : '',
    jurisdiction_type: district ? (category.criminal ? 'U.S. Government Plaintiff' : category.name === 'contract' || category.name === 'tort' ? 'Diversity' : 'Federal question') : '',
    appellate_fee_status: family === 'circuit' && d.year >= 2005 ? rng.pick(['paid', 'ifp']) : '', appellate_case_type_information: '', mdl_status: '',
    filepath_ia: '', filepath_ia_json: '', ia_upload_failure_count: null, ia_needs_upload: null, ia_date_first_change: null,
    date_blocked: null, blocked: false, appeal_from_id: d.appealFrom?.id ?? null, parent_docket_id: null,
    tags_ids: searchTagIds.length && rng.chance(0.05) ? [rng.pick(searchTagIds)] : [], panel_ids: d.panel.map((j) => j.person),
    // Columns only the reference's bulk files carry (stored, not shown): nothing to say for a generated docket.
    filepath_local: null, view_count: null,
  }
}

/** The two sides of a caption as the statistics write them: "United States v. Alvarez" → ["United States", "Alvarez"]. */
function sidesOf(p: Parties): [string, string] {
  if (p.caseName.startsWith('In re ')) return [p.caseName.slice(6), '']
  const [a, b] = p.caseName.split(' v. ')
  return [a, b ?? '']
}

/** The chapter a debtor files under: businesses reorganize (11) or liquidate (7), people liquidate (7) or pay over time (13). */
function chapterOf(rng: Rng, p: Parties): string {
  const business = /(Co\.|Inc\.|LLC|Corp\.|Bank|Holdings)/.test(p.caseName)
  return business ? (rng.chance(0.6) ? '11' : '7') : rng.chance(0.35) ? '13' : '7'
}
