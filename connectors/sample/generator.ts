/**
 * The generated part of the sample data set. From a seed, a size and the day it is taken (today
 * unless fixed) it streams, in dependency order, the judges (schools, people and everything
 * about them, federal judges' financial disclosures), the service's search tags and a sample
 * user's published tags, and then, docket by docket: for an appeal the case below, for some
 * district cases their integrated-database row, a docket, for a bankruptcy its chapter and
 * deadlines, for a docket the archive holds its parties, attorneys and entries with their
 * documents, sometimes its oral-argument audio, its cluster, the cluster's parallel citations in
 * real reporters and its one to three opinions, whose text cites earlier clusters. Between the
 * decided cases come dockets the archive holds without a decision, many of them recent (filed
 * this month, with entries this week); a few cluster ids are merged away or sealed (cluster
 * redirections), and some Supreme Court decisions get a published citation map.
 *
 * Deterministic (one seeded PRNG; the clock is read only when no `today` is given) and constant
 * in memory: earlier clusters are kept only in bounded rings and a reservoir sample for later
 * opinions to cite, citations are unique by construction, and a docket's parties and entries are
 * made and emitted with it, so the size can go from a few hundred opinions to millions.
 */
import { buildPool, circuitOn, type Family, type PoolCourt } from './court-pool.js'
import { generateBench, type Judge } from './bench.js'
import { caseParties, docketNumber } from './cases.js'
import { readRawCourts, type CourtRecord } from './courts.js'
import { dayOf, isoDay, longDate, bluebookDate, stamps, todayOf } from './dates.js'
import type { SampleContext } from './context.js'
import { slugify } from './context.js'
import { docketTags, searchTags, userTags, visualization, type MapCase } from './curation.js'
import { bankruptcyInformation, integratedDatabase, originatingCourt } from './docket-extras.js'
import { entryRecords } from './entries.js'
import { partyRecords, type CaseFile } from './parties.js'
import { createRng, picker, type Rng } from './random.js'
import type { CitedRef, SampleRecord } from './records.js'
import { createAllocator, loadReporters, type Edition } from './reporters.js'
import { toHtml, toPlainText, writeOpinion, type CiteTarget, type OpinionPlan, type Outcome } from './text.js'
import { CATEGORIES, CATEGORY_MIX, type Category } from './vocabulary.js'
import type { Parties } from './cases.js'

export type { CitedRef, SampleRecord }

export interface SampleOptions {
  seed?: number
  /** Opinions to generate (default 10,000); everything else scales with it, judges excepted. */
  opinions?: number
  /** The court records (all of them, or a subset to draw cases from). */
  courts: readonly CourtRecord[]
  /** Called with the citations each opinion's text makes, fabricated ones included, and those fabricated. */
  onCited?: (opinionId: number, cites: CitedRef[], fabricated: CitedRef[]) => void
  /**
   * The day the sample is taken (YYYY-MM-DD, UTC; default: the clock's today). Nothing happens
   * after it; records of that day are stamped in its first hour (before 01:00 UTC).
   */
  today?: string
}

export const DEFAULT_OPINIONS = 10_000
/** Decisions are dated from FIRST_DAY to the day before the sample is taken; records are created no later than that day. */
const FIRST_DAY = dayOf('1950-01-01')
const AUDIO_FROM_DAY = dayOf('2000-01-01')
/** Share of citations written that cite nothing real. */
const FABRICATED_SHARE = 0.02
/** The archive holds federal dockets from the electronic era: district and bankruptcy since 2001, appeals since 2005. */
const ARCHIVE_FROM_DAY = dayOf('2001-01-01')
const APPELLATE_ARCHIVE_FROM_DAY = dayOf('2005-01-01')
/** Dockets the archive holds without a decision in the corpus, per decided case. */
const ARCHIVE_ONLY_SHARE = 0.06
/** Cluster redirections and citation maps: about one per this many opinions (at least a few). */
const OPINIONS_PER_REDIRECTION = 1500
const OPINIONS_PER_MAP = 2000
/** Redirection reasons in turn: replaced, sealed, duplicate, consolidated. */
const REDIRECTION_REASONS = [1, 4, 2, 3] as const
/** Docket source bits (see the catalogue's DOCKET_SOURCE). */
const SOURCE = { archive: 1, scraper: 2, idb: 8, partnerC: 16 } as const

/** A fixed-size ring of the most recent items. */
class Ring<T> {
  private items: T[] = []
  private at = 0
  constructor(private readonly size: number) {}
  push(x: T) {
    if (this.items.length < this.size) this.items.push(x)
    else { this.items[this.at] = x; this.at = (this.at + 1) % this.size }
  }
  pick(rng: Rng): T | undefined { return this.items.length ? this.items[rng.int(0, this.items.length - 1)] : undefined }
}

/** A uniform sample of everything pushed so far (reservoir sampling). */
class Reservoir<T> {
  private items: T[] = []
  private seen = 0
  constructor(private readonly size: number) {}
  push(x: T, rng: Rng) {
    this.seen++
    if (this.items.length < this.size) this.items.push(x)
    else { const j = rng.int(0, this.seen - 1); if (j < this.size) this.items[j] = x }
  }
  pick(rng: Rng): T | undefined { return this.items.length ? this.items[rng.int(0, this.items.length - 1)] : undefined }
}

interface Citable { cluster: number; day: number; scotus: boolean; target: CiteTarget }

const CASE_PAGES: Record<Family, [number, number]> = { scotus: [8, 45], circuit: [4, 20], district: [3, 18], bankruptcy: [3, 15], supreme: [3, 16], appellate: [3, 14] }
const OPINIONS_PER_CLUSTER: Record<Family, readonly (readonly [number, number])[]> = {
  scotus: [[1, 40], [2, 30], [3, 30]], circuit: [[1, 78], [2, 16], [3, 6]], supreme: [[1, 70], [2, 20], [3, 10]], appellate: [[1, 85], [2, 12], [3, 3]],
  district: [[1, 1]], bankruptcy: [[1, 1]],
}
const LOWER: Record<Family, string> = { scotus: 'the court of appeals', circuit: 'the district court', district: 'the magistrate judge', bankruptcy: 'the trustee', supreme: 'the court of appeals', appellate: 'the trial court' }
const FEDERAL_FAMILIES = new Set<Family>(['scotus', 'circuit', 'district', 'bankruptcy'])

/** What a docket row is made from. */
interface DocketFacts {
  id: number; court: PoolCourt; category: Category; parties: Parties; dn: { number: string; core: string }; year: number
  filedDay: number; terminatedDay: number | null; lastFilingDay: number; arguedDay: number | null; certGrantedDay: number | null
  assigned: Judge | null; panel: readonly Judge[]; appealFrom: PoolCourt | null; source: number; recordsCaseId: string | null
  ociId: number | null; idbId: number | null
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

export function* generateSample(opts: SampleOptions): Generator<SampleRecord> {
  const rng = createRng(opts.seed ?? 1)
  const total = Math.max(0, Math.floor(opts.opinions ?? DEFAULT_OPINIONS))
  const today = todayOf(opts.today)
  const lastDecisionDay = today - 1
  const reporters = loadReporters()
  const pool = buildPool(opts.courts, readRawCourts(), (f) => reporters.has(f))
  if (pool.length === 0) throw new Error('generateSample: none of the given courts decides cases (need scotus, circuits, district or state appellate courts)')
  const courtUrl = new Map(opts.courts.map((c) => [c.id, c.url]))
  const counters = new Map<string, number>()
  const next = (resource: string) => { const n = (counters.get(resource) ?? 0) + 1; counters.set(resource, n); return n }
  // When the archive was imported: older material is "created" then. Derived from the seed.
  const importDay = dayOf('2010-06-01') + rng.int(0, 900)
  const ctx: SampleContext = { rng, next, today, stamp: (day) => stamps(day, importDay, today, rng) }

  const bench = yield* generateBench({ rng, pool, next, importDay, snapshotDay: today })
  const searchTagIds = yield* searchTags(ctx, importDay)
  const sampleTags = yield* userTags(ctx, Math.max(importDay, today - 900))

  const pickCourt = picker(pool.map((c) => [c, c.weight] as const))
  const pickCategory = Object.fromEntries(Object.entries(CATEGORY_MIX).map(([k, mix]) => [k, picker(mix)]))
  const districtsOf = new Map<string, PoolCourt[]>()
  for (const c of pool) if (c.family === 'district') for (const circuit of new Set([c.circuit, circuitOn(c, 0)])) {
    if (circuit) districtsOf.set(circuit, [...(districtsOf.get(circuit) ?? []), c])
  }
  const appealsFromScotus = pool.filter((c) => c.family === 'circuit' || c.family === 'supreme')
  const trialCourts = pool.filter((c) => c.family === 'district' || c.family === 'bankruptcy')
  const pickTrialCourt = trialCourts.length ? picker(trialCourts.map((c) => [c, c.weight] as const)) : null
  const allocator = createAllocator()
  const groups = new Map<string, Ring<Citable>>()
  const recent = new Ring<Citable>(3000)
  const history = new Reservoir<Citable>(3000)
  const scdbSeq = new Map<number, number>()
  // The last two Supreme Court decisions (and clusters of any court), for a map when none cites another.
  const lastScotus: MapCase[] = []
  const lastClusters: MapCase[] = []
  const redirectionQuota = Math.max(4, Math.ceil(total / OPINIONS_PER_REDIRECTION))
  const mapQuota = Math.max(2, Math.ceil(total / OPINIONS_PER_MAP))
  let redirections = 0, maps = 0

  let opinions = 0
  while (opinions < total) {
    // Decisions get denser towards the present, and move forward with the corpus so that
    // opinions cite backwards in time.
    const u = opinions / total
    if (pickTrialCourt && rng.chance(ARCHIVE_ONLY_SHARE)) yield* archiveOnlyDocket(pickTrialCourt(rng))
    const day = Math.min(lastDecisionDay, Math.max(FIRST_DAY, FIRST_DAY + Math.floor((lastDecisionDay - FIRST_DAY) * u ** 0.6) + rng.int(-20, 20)))
    let court = pickCourt(rng)
    for (let tries = 0; court.startDay > day && tries < 20; tries++) court = pickCourt(rng)
    if (court.startDay > day) court = pool.find((c) => c.family === 'scotus') ?? pool[0]
    const family = court.family
    const year = Number(isoDay(day).slice(0, 4))
    const mixKey = court.id === 'cafc' ? 'cafc' : family === 'supreme' || family === 'appellate' ? 'state' : family
    const category = CATEGORIES[pickCategory[mixKey](rng)]
    const parties = caseParties(rng, court, category.name)

    // Who decided it.
    let sitting = bench.sitting(court.id, day)
    if (sitting.length === 0) sitting = bench.all(court.id).slice(-1)
    const recused = family === 'scotus' && sitting.length > 5 && rng.chance(0.05) ? [rng.pick(sitting)] : []
    let panel = sitting.filter((j) => !recused.includes(j))
    if (court.panel > 0 && panel.length > court.panel) panel = rng.sample(panel, court.panel)

    // The docket, and what comes with it: the case below for an appeal, the statistics row of a district case.
    const filedDay = Math.max(court.startDay, day - rng.int(60, family === 'scotus' ? 400 : 900))
    const appellate = family === 'scotus' || family === 'circuit' || family === 'appellate' || family === 'supreme'
    const arguedDay = appellate && rng.chance(0.6) ? filedDay + Math.floor((day - filedDay) * (0.5 + rng.next() * 0.4)) : null
    const terminatedDay = Math.min(today, day + rng.int(0, 40))
    const dn = docketNumber(rng, court, filedDay, category.criminal)
    const appealFrom = family === 'circuit' ? rng.pick(districtsOf.get(court.id) ?? [null]) : family === 'scotus' ? rng.pick(appealsFromScotus) : null
    const assigned = family === 'district' || family === 'bankruptcy' ? panel[0] : null
    const names = (js: Judge[]) => js.map((j) => j.last).join(', ')
    const source = year >= 2008 ? 'C' : FEDERAL_FAMILIES.has(family) ? 'R' : 'U'
    const archived = ((family === 'district' || family === 'bankruptcy') && filedDay >= ARCHIVE_FROM_DAY && rng.chance(0.35))
      || (family === 'circuit' && filedDay >= APPELLATE_ARCHIVE_FROM_DAY && rng.chance(0.25))
    let ociId: number | null = null
    if (appealFrom && filedDay >= dayOf('1990-01-01') && rng.chance(0.85)) {
      const below = originatingCourt(ctx, appealFrom, filedDay, category.criminal, appealFrom.family === 'district' ? rng.pick(bench.sitting(appealFrom.id, filedDay - 200)) : undefined)
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
    const docketId = next('dockets')
    const recordsCaseId = family === 'district' && year >= 2001 ? String(rng.int(10_000, 999_999)) : null
    const bits = (source === 'C' ? SOURCE.scraper : source === 'R' ? 0 : SOURCE.partnerC) | (archived ? SOURCE.archive : 0) | (idbId !== null ? SOURCE.idb : 0)
    yield { resource: 'dockets', record: docketRow({
      id: docketId, court, category, parties, dn, filedDay, terminatedDay, lastFilingDay: terminatedDay, assigned, panel: appellate ? panel : [],
      appealFrom, arguedDay, certGrantedDay: family === 'scotus' ? (arguedDay ?? day) - rng.int(60, 200) : null, source: bits,
      recordsCaseId, ociId, idbId, year,
    }) }
    yield* docketExtras({
      docketId, court, category, caption: parties, number: dn.number, recordsCaseId: recordsCaseId ?? String(docketId), filedDay, lastDay: terminatedDay, closed: true,
      judge: assigned ? `${assigned.first} ${assigned.last}` : names(panel), chapter: family === 'bankruptcy' ? chapterOf(rng, parties) : '',
    }, archived)

    // Oral argument audio (recorded by the federal appellate courts since about 2000) for a few % of appellate dockets.
    if ((family === 'circuit' || family === 'scotus') && arguedDay !== null && arguedDay >= AUDIO_FROM_DAY && rng.chance(0.15)) {
      const iso = isoDay(arguedDay)
      const [aCreated, aModified] = ctx.stamp(arguedDay)
      const transcribed = rng.chance(0.3)
      yield { resource: 'audio', record: {
        id: next('audio'), panel_ids: panel.map((j) => j.person), docket_id: docketId, date_created: aCreated, date_modified: aModified, source: 'C',
        case_name_short: parties.short, case_name: parties.caseName, case_name_full: parties.caseNameFull, judges: names(panel), sha1: rng.hex(40),
        download_url: `${(courtUrl.get(court.id) || 'https://www.uscourts.gov').replace(/\/$/, '')}/audio/${dn.number}.mp3`,
        local_path_mp3: `mp3/${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}/${slugify(parties.caseName).replace(/-/g, '_')}.mp3`,
        local_path_original_file: `mp3/${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}/${slugify(parties.caseName).replace(/-/g, '_')}_cl.mp3`,
        filepath_ia: '', ia_upload_failure_count: null, duration: rng.int(900, 4200), processing_complete: true, date_blocked: null, blocked: false,
        stt_status: transcribed ? 1 : 0, stt_source: transcribed ? 1 : null,
        stt_transcript: transcribed ? `Good morning, Your Honors, and may it please the Court. This case presents ${rng.pick(category.issue)}. Counsel, you may proceed.` : '',
      } }
    }

    // The cluster and its parallel citations. Now and then an earlier id of the same case was
    // merged into it, or a case was sealed: its id is skipped and redirected.
    const status = precedentialStatus(rng, family, day)
    const published = status === 'Published' || status === 'In-chambers'
    const nOpinions = Math.min(total - opinions, rng.weighted(OPINIONS_PER_CLUSTER[family]))
    const kinds: ('lead' | 'concurrence' | 'dissent')[] = ['lead']
    for (let k = 1; k < nOpinions; k++) kinds.push(rng.chance(0.6) ? 'dissent' : 'concurrence')
    const outcome: Outcome = family === 'district' || family === 'bankruptcy' ? rng.weighted([['granted', 4], ['denied', 3], ['mixed', 2]] as const)
      : category.name === 'immigration' && family === 'circuit' ? rng.weighted([['denied', 7], ['granted', 2], ['vacated', 1]] as const)
      : rng.weighted([['affirmed', 65], ['reversed', 20], ['vacated', 10], ['mixed', 5]] as const)
    let redirect: { from: number; reason: number } | null = null
    if (redirections < redirectionQuota * (u + 0.05) && rng.chance(0.5)) {
      redirect = { from: next('clusters'), reason: REDIRECTION_REASONS[redirections++ % REDIRECTION_REASONS.length] }
    }
    const clusterId = next('clusters')
    const [cCreated, cModified] = ctx.stamp(day)
    const dissenters = kinds.filter((k) => k === 'dissent').length
    let scdb = ''
    if (family === 'scotus') { const n = (scdbSeq.get(year) ?? 0) + 1; scdbSeq.set(year, n); scdb = `${year}-${String(n).padStart(3, '0')}` }
    yield { resource: 'clusters', record: {
      id: clusterId, panel_ids: panel.map((j) => j.person), non_participating_judges_ids: recused.map((j) => j.person), docket_id: docketId,
      date_created: cCreated, date_modified: cModified, judges: names(panel), date_filed: isoDay(day), date_filed_is_approximate: false,
      slug: slugify(parties.caseName), case_name_short: parties.short, case_name: parties.caseName, case_name_full: parties.caseNameFull,
      scdb_id: scdb, scdb_decision_direction: scdb ? rng.int(1, 3) : null, scdb_votes_majority: scdb ? panel.length - dissenters : null,
      scdb_votes_minority: scdb ? dissenters : null, source, procedural_history: '',
      attorneys: rng.chance(0.6) ? `${rng.pick(['John', 'Maria', 'David', 'Susan'])} ${rng.pick(['Keller', 'Ortiz', 'Brennan', 'Yoon'])}, argued the cause for ${parties.p}. ${rng.pick(['Robert', 'Ellen', 'Victor', 'Anne'])} ${rng.pick(['Hale', 'Marsh', 'Quinn', 'Sato'])}, argued the cause for ${parties.d}.` : '',
      nature_of_suit: family === 'district' ? category.nature : '', posture: '', headnotes: '', summary: '',
      syllabus: family === 'scotus' && rng.chance(0.7) ? `The question presented is ${rng.pick(category.issue)}. Held: ${rng.pick(category.holding)}.` : '',
      disposition: DISPOSITION[outcome], history: '', other_dates: arguedDay !== null ? `Argued ${longDate(arguedDay)}.` : '', cross_reference: '', correction: '',
      precedential_status: status, date_blocked: null, blocked: false, filepath_json_partner_c: '', filepath_pdf_partner_c: '', filepath_xml_scan: '', filepath_pdf_scan: '',
      arguments: '', headmatter: '',
    } }
    if (redirect) {
      yield { resource: 'cluster-redirections', record: {
        id: next('cluster-redirections'), cluster_id: redirect.reason === 4 ? null : clusterId, date_created: cModified, deleted_cluster_id: redirect.from, reason: redirect.reason,
      } }
    }

    const pages = rng.int(CASE_PAGES[family][0], CASE_PAGES[family][1])
    const targetCites: CiteTarget['cites'] = []
    for (const e of clusterEditions(rng, court, day, published, year)) {
      const a = allocator.next(e, day, pages, rng)
      targetCites.push({ volume: a.volume, reporter: e.reporter, page: a.page, first: a.firstPage, last: a.lastPage, byDocument: e.byDocument })
      yield { resource: 'citations', record: { id: next('citations'), cluster_id: clusterId, volume: a.volume, reporter: e.reporter, page: a.page, type: e.type, date_created: cCreated, date_modified: cCreated } }
    }

    // The opinions.
    const lead = rng.pick(panel)
    const perCuriam = nOpinions === 1 && family !== 'district' && family !== 'bankruptcy' && rng.chance(0.05)
    const separateAuthors = rng.sample(panel.filter((j) => j !== lead), nOpinions - 1)
    const dissentAuthors = separateAuthors.filter((_, k) => kinds[k + 1] === 'dissent')
    const majority = panel.filter((j) => j !== lead && !dissentAuthors.includes(j))
    const citedScotus = new Map<number, MapCase>()
    for (let k = 0; k < nOpinions; k++) {
      const kind = kinds[k]
      const author = k === 0 ? (perCuriam ? null : lead) : separateAuthors[k - 1] ?? null
      const joined = k === 0 ? (perCuriam ? [] : majority) : kind === 'dissent' ? dissentAuthors.filter((j) => j !== author).slice(0, 1) : []
      const type = nOpinions === 1 ? (rng.chance(0.9) ? '010combined' : family === 'scotus' ? '015unamimous' : '020lead') : k === 0 ? '020lead' : kind === 'dissent' ? '040dissent' : rng.chance(0.85) ? '030concurrence' : '035concurrenceinpart'
      const opinionId = next('opinions')
      const plan: OpinionPlan = {
        kind, voice: family === 'scotus' ? 'scotus' : family === 'district' || family === 'bankruptcy' ? 'trial' : 'appellate', category,
        p: parties.p, d: parties.d, lower: family === 'circuit' && category.name === 'immigration' ? 'the Board' : LOWER[family], outcome,
        targetBytes: kind === 'lead' ? 2000 + Math.floor(26_000 * rng.next() ** 2.5) : 2000 + Math.floor(9000 * rng.next() ** 2),
        targets: [], fabricated: [], header: k === 0 ? caption(court, dn.number, parties.caseNameFull, arguedDay, day, panel) : [],
        authorLine: authorLine(court, kind, author, perCuriam),
      }
      const wanted = kind === 'lead' ? rng.int(3, 15) : rng.int(3, 6)
      const chosen = new Set<number>()
      for (let c = 0; c < wanted; c++) {
        if (rng.chance(FABRICATED_SHARE)) { const f = fabricate(rng, court, day); if (f) plan.fabricated.push(f); continue }
        const t = chooseTarget(rng, court, day, clusterId, chosen)
        if (t) {
          chosen.add(t.cluster); plan.targets.push(t.target)
          if (t.scotus && k === 0) citedScotus.set(t.cluster, { cluster: t.cluster, name: t.target.name, day: t.day })
        }
      }
      // A fifth of the opinions also come as HTML (as from a court site), the rest as plain text only.
      const withHtml = rng.chance(0.2)
      const written = writeOpinion(plan, rng, year, withHtml)
      const plain = toPlainText(written.paragraphs, withHtml)
      const html = withHtml ? toHtml(written.paragraphs, plan.header.length + 1) : ''
      opts.onCited?.(opinionId, written.cited, written.fabricated)
      const url = source === 'C' ? courtUrl.get(court.id) : ''
      const iso = isoDay(day)
      yield { resource: 'opinions', record: {
        id: opinionId, cluster_id: clusterId, author_id: author?.person ?? null, joined_by_ids: joined.map((j) => j.person),
        date_created: cCreated, date_modified: cModified, author_str: author ? author.last : '', per_curiam: perCuriam, joined_by_str: names(joined), type,
        sha1: rng.hex(40), page_count: Math.max(1, Math.ceil(plain.length / 3200)),
        download_url: url ? `${url.replace(/\/$/, '')}/opinions/${dn.number.replace(/[^\w-]/g, '')}${k ? `-${k}` : ''}.pdf` : null,
        local_path: url ? `pdf/${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}/${slugify(parties.caseName)}${k ? `-${k}` : ''}.pdf` : '',
        plain_text: plain, html, html_partner_a: '', html_partner_b: '', html_anon_2020: '', xml_partner_c: '', xml_scan: '', html_with_citations: '',
        extracted_by_ocr: source === 'U' && year < 1995 && rng.chance(0.4), ordering_key: nOpinions > 1 ? k + 1 : null, main_version_id: null,
      } }
      opinions++
    }

    // A map of how this Supreme Court decision got from the earlier ones it cites.
    const self: MapCase = { cluster: clusterId, name: parties.caseName, day }
    if (family === 'scotus') {
      if (citedScotus.size && maps < mapQuota * u + 1) {
        maps++
        yield* visualization(ctx, [...[...citedScotus.values()].sort((a, b) => a.day - b.day || a.cluster - b.cluster).slice(0, 12), self], day)
      }
      lastScotus.push(self); if (lastScotus.length > 2) lastScotus.shift()
    }
    lastClusters.push(self); if (lastClusters.length > 2) lastClusters.shift()

    // Make the cluster citable by later opinions.
    if (targetCites.length && (published || rng.chance(0.3))) {
      const entry: Citable = { cluster: clusterId, day, scotus: family === 'scotus', target: { name: parties.caseName, short: parties.short, cites: targetCites, paren: parenthetical(court, targetCites[0], day) } }
      for (const key of groupKeys(court, day)) {
        let ring = groups.get(key)
        if (!ring) groups.set(key, (ring = new Ring(300)))
        ring.push(entry)
      }
      recent.push(entry)
      history.push(entry, rng)
    }
  }
  // A corpus too small for one decision to cite another still gets a map.
  const fallback = lastScotus.length === 2 ? lastScotus : lastClusters
  if (maps === 0 && fallback.length === 2) yield* visualization(ctx, fallback, fallback[1].day)

  /** A docket the archive holds with no decision in the corpus: pending (many filed lately) or closed. */
  function* archiveOnlyDocket(court: PoolCourt): Generator<SampleRecord> {
    const filedDay = Math.max(court.startDay, ARCHIVE_FROM_DAY, today - Math.floor((today - ARCHIVE_FROM_DAY) * rng.next() ** 3))
    const bankruptcy = court.family === 'bankruptcy'
    const category = bankruptcy ? CATEGORIES.bankruptcy : CATEGORIES[pickCategory.district(rng)]
    const parties = caseParties(rng, court, category.name)
    const dn = docketNumber(rng, court, filedDay, category.criminal)
    const open = filedDay > today - 730 ? rng.chance(0.8) : rng.chance(0.05)
    const lastDay = open ? Math.max(filedDay, today - Math.floor(60 * rng.next() ** 2)) : Math.min(today, filedDay + rng.int(30, 1200))
    const judge = rng.pick(bench.sitting(court.id, filedDay)) ?? null
    let idbId: number | null = null
    if (!bankruptcy && rng.chance(0.3)) {
      const [a, b] = sidesOf(parties)
      const row = integratedDatabase(ctx, court, category, dn, filedDay, open ? null : lastDay, a, b)
      idbId = row.record.id as number
      yield row
    }
    const docketId = next('dockets')
    const recordsCaseId = String(rng.int(10_000, 999_999))
    yield { resource: 'dockets', record: docketRow({
      id: docketId, court, category, parties, dn, filedDay, terminatedDay: open ? null : lastDay, lastFilingDay: lastDay, assigned: judge, panel: [],
      appealFrom: null, arguedDay: null, certGrantedDay: null, source: SOURCE.archive | (idbId !== null ? SOURCE.idb : 0), recordsCaseId,
      ociId: null, idbId, year: Number(isoDay(filedDay).slice(0, 4)),
    }) }
    yield* docketExtras({
      docketId, court, category, caption: parties, number: dn.number, recordsCaseId, filedDay, lastDay, closed: !open,
      judge: judge ? `${judge.first} ${judge.last}` : '', chapter: bankruptcy ? chapterOf(rng, parties) : '',
    }, true)
  }

  /** After a docket: the sample user's tags on it, bankruptcy details, and for an archive docket its parties and entries. */
  function* docketExtras(f: CaseFile, archived: boolean): Generator<SampleRecord> {
    yield* docketTags(ctx, sampleTags, f.docketId, { family: f.court.family, category: f.category.name, criminal: f.category.criminal })
    if (f.court.family === 'bankruptcy') yield bankruptcyInformation(ctx, f.docketId, f.chapter, f.filedDay, f.closed ? f.lastDay : null)
    if (!archived) return
    const attorneys = yield* partyRecords(ctx, f)
    yield* entryRecords(ctx, f, attorneys, searchTagIds)
  }

  /** Every stored column of a docket, from what the case is. */
  function docketRow(d: DocketFacts): Record<string, unknown> {
    const { court, category, parties, dn, assigned } = d
    const family = court.family
    const district = family === 'district'
    // Created when first seen, modified at the last filing at the latest.
    const [created, modifiedFirst] = ctx.stamp(d.filedDay)
    const [lastSeen] = ctx.stamp(d.lastFilingDay)
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
    }
  }

  function groupKeys(court: PoolCourt, day: number): string[] {
    const keys = [`court:${court.id}`]
    if (court.family === 'circuit') keys.push(`circ:${court.id}`)
    if (court.family === 'district' || court.family === 'bankruptcy') keys.push(`circ:${circuitOn(court, day)}`)
    if (court.family === 'supreme' || court.family === 'appellate') keys.push(`state:${court.state}`)
    return keys
  }

  /** An earlier cluster to cite, drawn from the courts this court usually cites. */
  function chooseTarget(rng: Rng, court: PoolCourt, day: number, self: number, chosen: Set<number>): Citable | undefined {
    const sources: Record<Family, [string, number][]> = {
      scotus: [['court:scotus', 0.7], ['global', 0.3]],
      circuit: [['court:scotus', 0.35], [`circ:${court.id}`, 0.45], ['global', 0.2]],
      district: [['court:scotus', 0.3], [`circ:${circuitOn(court, day)}`, 0.35], [`court:${court.id}`, 0.15], ['global', 0.2]],
      bankruptcy: [['court:scotus', 0.15], [`circ:${circuitOn(court, day)}`, 0.45], ['global', 0.4]],
      supreme: [['court:scotus', 0.2], [`state:${court.state}`, 0.6], ['global', 0.2]],
      appellate: [['court:scotus', 0.15], [`state:${court.state}`, 0.65], ['global', 0.2]],
    }
    const from = sources[court.family]
    for (let tries = 0; tries < 6; tries++) {
      const key = tries < 4 ? rng.weighted(from) : 'global'
      const c = key === 'global' ? (rng.chance(0.5) ? recent.pick(rng) : history.pick(rng)) : groups.get(key)?.pick(rng)
      if (c && c.day <= day && c.cluster !== self && !chosen.has(c.cluster)) return c
    }
    return undefined
  }

  /** A citation to a case that was never decided, in a reporter the court would cite. */
  function fabricate(rng: Rng, court: PoolCourt, day: number): CiteTarget | undefined {
    const fakeDay = Math.max(FIRST_DAY - 3650, day - rng.int(200, 20 * 365))
    const family = [...court.reporters, 'F.'].map((f) => reporters.editionOn(f, fakeDay)).find((e): e is Edition => !!e && !e.byDocument)
    if (!family) return undefined
    const { volume, page } = allocator.fabricate(family, fakeDay, rng)
    const first = Number(page)
    const a = caseParties(rng, court, 'contract')
    const cite = { volume, reporter: family.reporter, page, first, last: first + rng.int(3, 12), byDocument: false }
    return { name: a.caseName, short: a.short, cites: [cite], paren: parenthetical(court, cite, fakeDay) }
  }

  /** The editions a decision is reported in: one or two, the primary first. */
  function clusterEditions(rng: Rng, court: PoolCourt, day: number, published: boolean, year: number): Edition[] {
    const on = (f: string) => reporters.editionOn(f, day)
    const out: (Edition | undefined)[] = []
    switch (court.family) {
      case 'scotus':
        // U.S. Reports lag about three years behind the decisions.
        if (day < today - 3 * 365) out.push(on('U.S.'), rng.chance(0.7) ? on('S. Ct.') : on('L. Ed.'))
        else out.push(on('S. Ct.'), on('L. Ed.'))
        break
      case 'circuit':
        if (published) out.push(on('F.'), year >= 1985 && rng.chance(0.35) ? on('WL') : undefined)
        else if (year >= 2001) out.push(on("F. App'x"), rng.chance(0.5) ? on('WL') : undefined)
        else out.push(on('WL'))
        break
      case 'district':
        if (published) out.push(on('F. Supp.'), year >= 1985 && rng.chance(0.35) ? on('WL') : undefined)
        else out.push(on('WL'), year >= 1990 && rng.chance(0.3) ? on('U.S. Dist. LEXIS') : undefined)
        break
      case 'bankruptcy':
        out.push(published ? on('B.R.') : on('WL'), published && rng.chance(0.4) ? on('WL') : undefined)
        break
      default:
        if (published) for (const f of court.reporters) out.push(on(f))
        else out.push(on('WL'))
    }
    const editions = out.filter((e): e is Edition => !!e).slice(0, 2)
    if (editions.length === 0) { const wl = on('WL'); if (wl) editions.push(wl) }
    return editions
  }
}

/** Court and date of a citation, Bluebook style: no court for the Supreme Court or a state's official reports, the full date for WL. */
function parenthetical(court: PoolCourt, primary: { reporter: string; byDocument: boolean }, day: number): string {
  const year = isoDay(day).slice(0, 4)
  if (court.family === 'scotus') return year
  if (primary.byDocument) return `${court.citeAs} ${bluebookDate(day)}`
  if (court.family === 'supreme' && court.reporters[0] && primary.reporter.startsWith(court.reporters[0])) return year
  return `${court.citeAs} ${year}`
}

const DISPOSITION: Record<Outcome, string> = {
  affirmed: 'Affirmed', reversed: 'Reversed and remanded', vacated: 'Vacated and remanded', mixed: 'Affirmed in part, reversed in part, and remanded',
  granted: 'Motion granted', denied: 'Motion denied',
}

function precedentialStatus(rng: Rng, family: Family, day: number): string {
  if (rng.chance(0.005)) return rng.pick(['Unknown', 'Errata', 'Separate', 'Relating-to'])
  const published: Record<Family, number> = {
    scotus: 1, circuit: day < dayOf('1975-01-01') ? 0.95 : 0.72, district: 0.55, bankruptcy: 0.6, supreme: 0.97, appellate: 0.72,
  }
  if (family === 'scotus' && rng.chance(0.02)) return 'In-chambers'
  return rng.chance(published[family]) ? 'Published' : 'Unpublished'
}

const TITLE: Record<Family, string> = { scotus: 'Justice', circuit: 'Circuit Judge', district: 'United States District Judge', bankruptcy: 'United States Bankruptcy Judge', supreme: 'J.', appellate: 'J.' }

function caption(court: PoolCourt, docket: string, full: string, argued: number | null, decided: number, panel: Judge[]): string[] {
  const lines = [court.fullName.toUpperCase(), full, `No. ${docket.replace(/^No\. /, '')}`]
  lines.push(argued !== null ? `Argued ${longDate(argued)}. Decided ${longDate(decided)}.` : `Decided ${longDate(decided)}.`)
  if (court.panel > 1 && panel.length) {
    const names = panel.map((j) => j.last.toUpperCase())
    lines.push(`Before: ${names.length > 1 ? `${names.slice(0, -1).join(', ')}, and ${names.at(-1)}` : names[0]}, ${court.family === 'circuit' ? 'Circuit Judges' : 'Judges'}.`)
  }
  return lines
}

function authorLine(court: PoolCourt, kind: 'lead' | 'concurrence' | 'dissent', author: Judge | null, perCuriam: boolean): string {
  if (perCuriam || !author) return 'PER CURIAM.'
  const name = author.last.toUpperCase()
  if (court.family === 'scotus') return kind === 'lead' ? `JUSTICE ${name} delivered the opinion of the Court.` : `JUSTICE ${name}, ${kind === 'dissent' ? 'dissenting' : 'concurring'}.`
  if (court.family === 'district' || court.family === 'bankruptcy') return `MEMORANDUM OPINION AND ORDER\n\n${author.first} ${author.last}, ${TITLE[court.family]}.`
  const title = TITLE[court.family]
  if (kind === 'lead') return title === 'J.' ? `${name}, J.` : `${name}, ${title}:`
  return title === 'J.' ? `${name}, J., ${kind === 'dissent' ? 'dissenting' : 'concurring'}.` : `${name}, ${title}, ${kind === 'dissent' ? 'dissenting' : 'concurring'}:`
}
