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
 *
 * Every case belongs to an area of law (areas.ts) that its caption, docket fields, entries,
 * syllabus or summary and opinion text agree with; real landmark decisions (landmarks.ts) are
 * decided among the generated ones on their real dates, and later opinions of their area cite them.
 */
import type { Judge } from './judges.js'
import { generateBench, type Bench } from './judges.js'
import { caseParties, namedParties } from './cases.js'
import { createCitationIndex, type Citable } from './citing.js'
import type { SampleContext } from './context.js'
import { slugify } from './context.js'
import { buildPool, circuitOn, type PoolCourt } from './court-pool.js'
import { readRawCourts, type CourtRecord } from './courts.js'
import { searchTags, userTags, visualization, type MapCase } from './curation.js'
import { dayOf, isoDay, longDate, stamps, todayOf } from './dates.js'
import { archiveOnlyDocket, caseDocket } from './docket-records.js'
import { landmarksFor } from './landmarks.js'
import {
  authorLine, caption, CASE_PAGES, clusterEditions, DISPOSITION, LOWER, OPINIONS_PER_CLUSTER, outcomeOf, parenthetical, precedentialStatus, syllabusOf,
} from './opinion-parts.js'
import { createRng, picker } from './random.js'
import type { CitedRef, SampleRecord } from './records.js'
import { createAllocator, loadReporters, type Edition } from './reporters.js'
import { FIRST_DAY, names, type CaseDocket, type DecidedCase, type Sampler } from './sampler.js'
import { toHtml, toPlainText, writeOpinion, type CiteTarget, type OpinionPlan, type Outcome } from './text.js'
import { CATEGORIES, CATEGORY_MIX } from './vocabulary.js'
import { SAMPLE_ORIGINALS, SAMPLE_ORIGINALS_DIR } from './originals.js'
import { RACE } from '../../schemas/catalogue/choices.js'

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
const AUDIO_FROM_DAY = dayOf('2000-01-01')
/** Share of citations written that cite nothing real. */
const FABRICATED_SHARE = 0.02
/** Share of the opinions that are real landmark decisions (as many as the list holds). */
const LANDMARK_SHARE = 0.04
/** Dockets the archive holds without a decision in the corpus, per decided case. */
const ARCHIVE_ONLY_SHARE = 0.06
/** Cluster redirections and citation maps: about one per this many opinions (at least a few). */
const OPINIONS_PER_REDIRECTION = 1500
const OPINIONS_PER_MAP = 2000
/** Redirection reasons in turn: replaced, sealed, duplicate, consolidated. */
const REDIRECTION_REASONS = [1, 4, 2, 3] as const

/** The cluster of a decided case, once emitted: what its opinions need. */
interface CaseCluster { id: number; outcome: Outcome; kinds: ('lead' | 'concurrence' | 'dissent')[]; cites: CiteTarget['cites']; published: boolean; created: string; modified: string; syllabus: string }

/**
 * The race code table people's race codes go through in the reference's bulk files (people_db_race:
 * an id per code, in the order the reference lists them), so that the sample exports and loads back
 * whole.
 */
function* raceCodes(): Generator<SampleRecord> {
  for (const [i, c] of RACE.entries()) yield { resource: 'races', record: { id: i + 1, race: String(c.value) } }
}

export function* generateSample(opts: SampleOptions): Generator<SampleRecord> {
  const s = setup(opts)
  yield* raceCodes()
  s.bench = yield* generateBench({ rng: s.rng, pool: s.pool, next: s.next, importDay: s.importDay, snapshotDay: s.today })
  s.searchTagIds = yield* searchTags(s.ctx, s.importDay)
  s.sampleTags = yield* userTags(s.ctx, Math.max(s.importDay, s.today - 900))
  s.landmarks = landmarkSchedule(s)
  while (s.opinions < s.total) {
    // Decisions get denser towards the present, and move forward with the corpus so that
    // opinions cite backwards in time.
    const u = s.opinions / s.total
    if (s.pickTrialCourt && s.rng.chance(ARCHIVE_ONLY_SHARE)) yield* archiveOnlyDocket(s, s.pickTrialCourt(s.rng))
    const day = Math.min(s.lastDecisionDay, Math.max(FIRST_DAY, FIRST_DAY + Math.floor((s.lastDecisionDay - FIRST_DAY) * u ** 0.6) + s.rng.int(-20, 20)))
    while (s.landmarks.length && s.landmarks[0].day <= day && s.opinions < s.total) yield* decided(s, landmarkCase(s, s.landmarks.shift()!))
    if (s.opinions < s.total) yield* decided(s, generatedCase(s, day))
  }
  // A corpus too small for one decision to cite another still gets a map.
  const fallback = s.lastScotus.length === 2 ? s.lastScotus : s.lastClusters
  if (s.maps === 0 && fallback.length === 2) yield* visualization(s.ctx, fallback, fallback[1].day)
}

/** The state of a generation: seeded PRNG, courts, reporters, pickers; the bench and tags come after. */
function setup(opts: SampleOptions): Sampler {
  const rng = createRng(opts.seed ?? 1)
  const total = Math.max(0, Math.floor(opts.opinions ?? DEFAULT_OPINIONS))
  const today = todayOf(opts.today)
  const reporters = loadReporters()
  const pool = buildPool(opts.courts, readRawCourts(), (f) => reporters.has(f))
  if (pool.length === 0) throw new Error('generateSample: none of the given courts decides cases (need scotus, circuits, district or state appellate courts)')
  const counters = new Map<string, number>()
  const next = (resource: string) => { const n = (counters.get(resource) ?? 0) + 1; counters.set(resource, n); return n }
  // When the archive was imported: older material is "created" then. Derived from the seed.
  const importDay = dayOf('2010-06-01') + rng.int(0, 900)
  const ctx: SampleContext = { rng, next, today, stamp: (day) => stamps(day, importDay, today, rng) }
  const districtsOf = new Map<string, PoolCourt[]>()
  for (const c of pool) if (c.family === 'district') for (const circuit of new Set([c.circuit, circuitOn(c, 0)])) {
    if (circuit) districtsOf.set(circuit, [...(districtsOf.get(circuit) ?? []), c])
  }
  const trialCourts = pool.filter((c) => c.family === 'district' || c.family === 'bankruptcy')
  const allocator = createAllocator()
  const s: Sampler = {
    opts, rng, importDay, ctx, next, total, today, lastDecisionDay: today - 1, reporters, allocator, pool, audioRecords: 0,
    courtUrl: new Map(opts.courts.map((c) => [c.id, c.url])), bench: undefined as unknown as Bench, searchTagIds: [], sampleTags: [],
    pickCourt: picker(pool.map((c) => [c, c.weight] as const)),
    pickCategory: Object.fromEntries(Object.entries(CATEGORY_MIX).map(([k, mix]) => [k, picker(mix)])),
    pickTrialCourt: trialCourts.length ? picker(trialCourts.map((c) => [c, c.weight] as const)) : null,
    districtsOf, appealsFromScotus: pool.filter((c) => c.family === 'circuit' || c.family === 'supreme'),
    citations: createCitationIndex(), scdbSeq: new Map(), landmarks: [], lastScotus: [], lastClusters: [],
    redirectionQuota: Math.max(4, Math.ceil(total / OPINIONS_PER_REDIRECTION)), mapQuota: Math.max(2, Math.ceil(total / OPINIONS_PER_MAP)),
    redirections: 0, maps: 0, opinions: 0,
  }
  return s
}

/**
 * The landmarks this sample decides, by date: those whose court is among the given courts,
 * each on a day of its real year, their real citations kept from the allocator.
 */
function landmarkSchedule(s: Sampler): Sampler['landmarks'] {
  const byId = new Map(s.pool.map((c) => [c.id, c]))
  const out: Sampler['landmarks'] = []
  for (const landmark of landmarksFor(Math.round(s.total * LANDMARK_SHARE))) {
    const court = byId.get(landmark.court)
    const day = Math.min(s.lastDecisionDay, dayOf(`${landmark.year}-01-01`) + s.rng.int(9, 355))
    if (!court || court.startDay > day) continue
    const pages = s.rng.int(CASE_PAGES[court.family][0], CASE_PAGES[court.family][1])
    if (landmark.cite) s.allocator.reserve(landmark.cite.reporter, landmark.cite.volume, landmark.cite.page, landmark.cite.page + pages - 1)
    out.push({ landmark, court, day, pages })
  }
  return out.sort((a, b) => a.day - b.day)
}

/** Who sits: the judges of the court on that day, one recused now and then, a panel drawn where the court sits in panels. */
function seat(s: Sampler, court: PoolCourt, day: number, fallback: boolean): { panel: Judge[]; recused: Judge[] } {
  const { rng } = s
  let sitting = s.bench.sitting(court.id, day)
  if (sitting.length === 0 && fallback) sitting = s.bench.all(court.id).slice(-1)
  const recused = court.family === 'scotus' && sitting.length > 5 && rng.chance(0.05) ? [rng.pick(sitting)] : []
  let panel = sitting.filter((j) => !recused.includes(j))
  if (court.panel > 0 && panel.length > court.panel) panel = rng.sample(panel, court.panel)
  return { panel, recused }
}

/** A generated case decided on about `day`: a court sitting then, an area of law its kind of court hears, a caption of that area. */
function generatedCase(s: Sampler, day: number): DecidedCase {
  const { rng } = s
  let court = s.pickCourt(rng)
  for (let tries = 0; court.startDay > day && tries < 20; tries++) court = s.pickCourt(rng)
  if (court.startDay > day) court = s.pool.find((c) => c.family === 'scotus') ?? s.pool[0]
  const family = court.family
  const mixKey = court.id === 'cafc' ? 'cafc' : family === 'supreme' || family === 'appellate' ? 'state' : family
  const category = CATEGORIES[s.pickCategory[mixKey](rng)]
  const parties = caseParties(rng, court, category.name)
  return { court, day, year: Number(isoDay(day).slice(0, 4)), category, parties, ...seat(s, court, day, true), landmark: null, landmarkPages: 0 }
}

/** A real landmark decision, in its court on a day of its real year; before the bench's time nobody is named. */
function landmarkCase(s: Sampler, l: Sampler['landmarks'][number]): DecidedCase {
  const category = CATEGORIES[l.landmark.area] ?? CATEGORIES.administrative
  return { court: l.court, day: l.day, year: l.landmark.year, category, parties: namedParties(l.landmark.name, l.court), ...seat(s, l.court, l.day, false), landmark: l.landmark, landmarkPages: l.pages }
}

/** Everything a decided case brings: its docket (and what comes with it), argument audio, the cluster, its opinions; then it becomes citable. */
function* decided(s: Sampler, c: DecidedCase): Generator<SampleRecord> {
  const docket = yield* caseDocket(s, c)
  yield* oralArgument(s, c, docket)
  const cluster = yield* clusterRecords(s, c, docket)
  const citedScotus = yield* opinionRecords(s, c, docket, cluster)
  yield* citationMap(s, c, cluster.id, citedScotus)
  // Make the cluster citable by later opinions.
  if (cluster.cites.length && (cluster.published || c.landmark || s.rng.chance(0.3))) {
    const entry: Citable = { cluster: cluster.id, day: c.day, scotus: c.court.family === 'scotus', target: { name: c.parties.caseName, short: c.parties.short, cites: cluster.cites, paren: parenthetical(c.court, cluster.cites[0], c.day) } }
    s.citations.add(entry, c.court, s.rng, c.landmark ? c.category.name : undefined)
  }
}


/** Oral argument audio (recorded by the federal appellate courts since about 2000) for a few % of appellate dockets. */
function* oralArgument(s: Sampler, c: DecidedCase, docket: CaseDocket): Generator<SampleRecord> {
  const { rng, ctx } = s
  const { court, parties, panel, category } = c
  const arguedDay = docket.arguedDay
  if (!((court.family === 'circuit' || court.family === 'scotus') && arguedDay !== null && arguedDay >= AUDIO_FROM_DAY && rng.chance(0.15))) return
  const iso = isoDay(arguedDay)
  const [aCreated, aModified] = ctx.stamp(arguedDay)
  const transcribed = rng.chance(0.3)
  const path = `mp3/${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}/${slugify(parties.caseName).replace(/-/g, '_')}`
  // The first few have a real original for the audio role (written by originals.ts); the rest are
  // metadata only: no file to fetch, nothing processed yet.
  const original = SAMPLE_ORIGINALS[s.audioRecords++]
  yield { resource: 'audio', record: {
    id: s.next('audio'), panel_ids: panel.map((j) => j.person), docket_id: docket.id, date_created: aCreated, date_modified: aModified, source: 'C',
    case_name_short: parties.short, case_name: parties.caseName, case_name_full: parties.caseNameFull, judges: names(panel), sha1: rng.hex(40),
    download_url: null, local_path_mp3: `${path}.mp3`, local_path_original_file: original ? `${SAMPLE_ORIGINALS_DIR}/${original.name}` : `${path}_cl.mp3`,
    filepath_ia: '', ia_upload_failure_count: null, duration: rng.int(900, 4200), processing_complete: false, date_blocked: null, blocked: false,
    stt_status: transcribed ? 1 : 0, stt_source: transcribed ? 1 : null,
    stt_transcript: transcribed ? `Good morning, Your Honors, and may it please the Court. This ${category.label.toLowerCase()} case presents ${rng.pick(category.issue)}. Counsel, you may proceed.` : '',
  } }
}

/**
 * The cluster and its citations: a landmark's real citation where the reporters know its
 * reporter, else parallel citations in the reporters of the court. Now and then an earlier id of
 * the same case was merged into it, or a case was sealed: its id is skipped and redirected.
 */
function* clusterRecords(s: Sampler, c: DecidedCase, docket: CaseDocket): Generator<SampleRecord, CaseCluster> {
  const { rng, ctx } = s
  const { court, day, year, category, parties, panel, recused, landmark } = c
  const family = court.family
  const status = landmark ? 'Published' : precedentialStatus(rng, family, day)
  const published = status === 'Published' || status === 'In-chambers'
  const nOpinions = landmark ? 1 : Math.min(s.total - s.opinions, rng.weighted(OPINIONS_PER_CLUSTER[family]))
  const kinds: CaseCluster['kinds'] = ['lead']
  for (let k = 1; k < nOpinions; k++) kinds.push(rng.chance(0.6) ? 'dissent' : 'concurrence')
  const outcome = outcomeOf(rng, family, category)
  let redirect: { from: number; reason: number } | null = null
  if (!landmark && s.redirections < s.redirectionQuota * (s.opinions / s.total + 0.05) && rng.chance(0.5)) {
    redirect = { from: s.next('clusters'), reason: REDIRECTION_REASONS[s.redirections++ % REDIRECTION_REASONS.length] }
  }
  const id = s.next('clusters')
  const [created, modified] = ctx.stamp(Math.max(day, FIRST_DAY))
  const dissenters = kinds.filter((k) => k === 'dissent').length
  let scdb = ''
  if (family === 'scotus') { const n = (s.scdbSeq.get(year) ?? 0) + 1; s.scdbSeq.set(year, n); scdb = `${year}-${String(n).padStart(3, '0')}` }
  const syllabus = syllabusOf(rng, family, category, parties.caseName, outcome)
  yield { resource: 'clusters', record: {
    id, panel_ids: panel.map((j) => j.person), non_participating_judges_ids: recused.map((j) => j.person), docket_id: docket.id,
    date_created: created, date_modified: modified, judges: names(panel), date_filed: isoDay(day), date_filed_is_approximate: !!landmark,
    slug: slugify(parties.caseName), case_name_short: parties.short, case_name: parties.caseName, case_name_full: parties.caseNameFull,
    scdb_id: scdb, scdb_decision_direction: scdb ? rng.int(1, 3) : null, scdb_votes_majority: scdb ? panel.length - dissenters : null,
    scdb_votes_minority: scdb ? dissenters : null, source: docket.source, procedural_history: '',
    attorneys: rng.chance(0.6) ? `${rng.pick(['John', 'Maria', 'David', 'Susan'])} ${rng.pick(['Keller', 'Ortiz', 'Brennan', 'Yoon'])}, argued the cause for ${parties.p}. ${rng.pick(['Robert', 'Ellen', 'Victor', 'Anne'])} ${rng.pick(['Hale', 'Marsh', 'Quinn', 'Sato'])}, argued the cause for ${parties.d}.` : '',
    nature_of_suit: family === 'district' ? category.nature : '', posture: '', headnotes: '',
    summary: family !== 'scotus' && published ? syllabus : '', syllabus: family === 'scotus' ? syllabus : '',
    disposition: DISPOSITION[outcome], history: '', other_dates: docket.arguedDay !== null ? `Argued ${longDate(docket.arguedDay)}.` : '', cross_reference: '', correction: '',
    precedential_status: status, date_blocked: null, blocked: false, filepath_json_partner_c: '', filepath_pdf_partner_c: '', filepath_xml_scan: '', filepath_pdf_scan: '',
    arguments: '', headmatter: '',
  } }
  if (redirect) {
    yield { resource: 'cluster-redirections', record: {
      id: s.next('cluster-redirections'), cluster_id: redirect.reason === 4 ? null : id, date_created: modified, deleted_cluster_id: redirect.from, reason: redirect.reason,
    } }
  }
  const cites: CaseCluster['cites'] = []
  const citation = (e: Edition, volume: number, page: string, first: number, last: number) => {
    cites.push({ volume, reporter: e.reporter, page, first, last, byDocument: e.byDocument })
    return { resource: 'citations', record: { id: s.next('citations'), cluster_id: id, volume, reporter: e.reporter, page, type: e.type, date_created: created, date_modified: created } }
  }
  const real = landmark?.cite ? s.reporters.edition(landmark.cite.reporter) : undefined
  if (landmark?.cite && real) {
    yield citation(real, landmark.cite.volume, String(landmark.cite.page), landmark.cite.page, landmark.cite.page + c.landmarkPages - 1)
  } else {
    const pages = rng.int(CASE_PAGES[family][0], CASE_PAGES[family][1])
    for (const e of clusterEditions(rng, s.reporters, s.today, court, day, published, year)) {
      const a = s.allocator.next(e, day, pages, rng)
      yield citation(e, a.volume, a.page, a.firstPage, a.lastPage)
    }
  }
  return { id, outcome, kinds, cites, published, created, modified, syllabus }
}

/** The opinions of a cluster: the lead, then concurrences and dissents, each citing earlier clusters. Returns the Supreme Court decisions the lead cites. */
function* opinionRecords(s: Sampler, c: DecidedCase, docket: CaseDocket, cluster: CaseCluster): Generator<SampleRecord, Map<number, MapCase>> {
  const { rng } = s
  const { court, day, year, category, parties, panel } = c
  const family = court.family
  const nOpinions = cluster.kinds.length
  const lead = panel.length ? rng.pick(panel) : null
  const perCuriam = !c.landmark && nOpinions === 1 && family !== 'district' && family !== 'bankruptcy' && rng.chance(0.05)
  const separateAuthors = rng.sample(panel.filter((j) => j !== lead), nOpinions - 1)
  const dissentAuthors = separateAuthors.filter((_, k) => cluster.kinds[k + 1] === 'dissent')
  const majority = panel.filter((j) => j !== lead && !dissentAuthors.includes(j))
  const citedScotus = new Map<number, MapCase>()
  for (let k = 0; k < nOpinions; k++) {
    const kind = cluster.kinds[k]
    const author = k === 0 ? (perCuriam ? null : lead) : separateAuthors[k - 1] ?? null
    const joined = k === 0 ? (perCuriam ? [] : majority) : kind === 'dissent' ? dissentAuthors.filter((j) => j !== author).slice(0, 1) : []
    const type = nOpinions === 1 ? (rng.chance(0.9) ? '010combined' : family === 'scotus' ? '015unamimous' : '020lead') : k === 0 ? '020lead' : kind === 'dissent' ? '040dissent' : rng.chance(0.85) ? '030concurrence' : '035concurrenceinpart'
    const opinionId = s.next('opinions')
    const plan: OpinionPlan = {
      kind, voice: family === 'scotus' ? 'scotus' : family === 'district' || family === 'bankruptcy' ? 'trial' : 'appellate', category,
      p: parties.p, d: parties.d, lower: family === 'circuit' && category.name === 'immigration' ? 'the Board' : LOWER[family], outcome: cluster.outcome,
      targetBytes: kind === 'lead' ? 2000 + Math.floor(26_000 * rng.next() ** 2.5) : 2000 + Math.floor(9000 * rng.next() ** 2),
      targets: [], fabricated: [], header: k === 0 ? [...caption(court, docket.number, parties.caseNameFull, docket.arguedDay, day, panel), cluster.syllabus] : [],
      authorLine: authorLine(court, kind, author, perCuriam), accused: category.criminal ? parties.accused : undefined,
    }
    const wanted = kind === 'lead' ? rng.int(3, 15) : rng.int(3, 6)
    const chosen = new Set<number>()
    for (let n = 0; n < wanted; n++) {
      if (rng.chance(FABRICATED_SHARE)) { const f = fabricate(s, court, day); if (f) plan.fabricated.push(f); continue }
      const t = s.citations.choose(rng, court, category.name, day, cluster.id, chosen)
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
    s.opts.onCited?.(opinionId, written.cited, written.fabricated)
    const url = docket.source === 'C' ? s.courtUrl.get(court.id) : ''
    const iso = isoDay(day)
    yield { resource: 'opinions', record: {
      id: opinionId, cluster_id: cluster.id, author_id: author?.person ?? null, joined_by_ids: joined.map((j) => j.person),
      date_created: cluster.created, date_modified: cluster.modified, author_str: author ? author.last : '', per_curiam: perCuriam, joined_by_str: names(joined), type,
      sha1: rng.hex(40), page_count: Math.max(1, Math.ceil(plain.length / 3200)),
      download_url: url ? `${url.replace(/\/$/, '')}/opinions/${docket.number.replace(/[^\w-]/g, '')}${k ? `-${k}` : ''}.pdf` : null,
      local_path: url ? `pdf/${iso.slice(0, 4)}/${iso.slice(5, 7)}/${iso.slice(8, 10)}/${slugify(parties.caseName)}${k ? `-${k}` : ''}.pdf` : '',
      plain_text: plain, html, html_partner_a: '', html_partner_b: '', html_anon_2020: '', xml_partner_c: '', xml_scan: '', html_with_citations: '',
      extracted_by_ocr: docket.source === 'U' && year < 1995 && rng.chance(0.4), ordering_key: nOpinions > 1 ? k + 1 : null, main_version_id: null,
    } }
    s.opinions++
  }
  return citedScotus
}

/** A map of how a Supreme Court decision got from the earlier ones it cites. */
function* citationMap(s: Sampler, c: DecidedCase, clusterId: number, citedScotus: Map<number, MapCase>): Generator<SampleRecord> {
  const self: MapCase = { cluster: clusterId, name: c.parties.caseName, day: c.day }
  if (c.court.family === 'scotus') {
    if (citedScotus.size && s.maps < s.mapQuota * (s.opinions / s.total) + 1) {
      s.maps++
      yield* visualization(s.ctx, [...[...citedScotus.values()].sort((a, b) => a.day - b.day || a.cluster - b.cluster).slice(0, 12), self], Math.max(c.day, FIRST_DAY))
    }
    s.lastScotus.push(self); if (s.lastScotus.length > 2) s.lastScotus.shift()
  }
  s.lastClusters.push(self); if (s.lastClusters.length > 2) s.lastClusters.shift()
}

/** A citation to a case that was never decided, in a reporter the court would cite. */
function fabricate(s: Sampler, court: PoolCourt, day: number): CiteTarget | undefined {
  const { rng } = s
  const fakeDay = Math.max(FIRST_DAY - 3650, day - rng.int(200, 20 * 365))
  const family = [...court.reporters, 'F.'].map((f) => s.reporters.editionOn(f, fakeDay)).find((e): e is Edition => !!e && !e.byDocument)
  if (!family) return undefined
  const { volume, page } = s.allocator.fabricate(family, fakeDay, rng)
  const first = Number(page)
  const a = caseParties(rng, court, 'contract')
  const cite = { volume, reporter: family.reporter, page, first, last: first + rng.int(3, 12), byDocument: false }
  return { name: a.caseName, short: a.short, cites: [cite], paren: parenthetical(court, cite, fakeDay) }
}


