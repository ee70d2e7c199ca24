/**
 * Maps the courts data set (data/courts/courts.json, 2,809 courts) to the court resource.
 *
 * The data set classifies a court by `system` (federal, state, tribal, international...),
 * `type` (appellate, trial, bankruptcy, special, ag) and `level` (colr = court of last resort,
 * iac = intermediate appellate, gjc/ljc = general/limited jurisdiction trial). Those fields are
 * often blank or wrong (most state supreme courts have no level, Ohio's courts of appeals are
 * typed "trial", the Supreme Court of the Virgin Islands is typed "trial"), so the reference's
 * jurisdiction codes are derived by the rule tables below, which read the name as well. Each
 * rule is one line with the reason it exists; the first rule that matches wins.
 */
import { readFileSync } from 'node:fs'
import { projectFile } from '../../core/programs.js'

export interface RawCourt {
  id: string
  name: string
  citation_string?: string
  name_abbreviation?: string | null
  system?: string | null
  type?: string | null
  level?: string | null
  location?: string | null
  court_url?: string | null
  url?: string | null
  active?: boolean | null
  parent?: string | null
  appeal_to?: string | string[] | null
  dates?: { start?: string | null; end?: string | null }[]
}

export interface CourtRecord extends Record<string, unknown> {
  id: string
  records_court_id: null
  records_has_rss_feed: null
  records_rss_entry_types: string
  date_last_records_contact: null
  fjc_court_id: string
  date_modified: string
  in_use: boolean
  has_opinion_scraper: boolean
  has_oral_argument_scraper: boolean
  position: number
  citation_string: string
  short_name: string
  full_name: string
  url: string
  start_date: string | null
  end_date: string | null
  jurisdiction: string
  parent_court_id: string | null
  appeals_to_ids: string[]
  /** Notes the reference's bulk files carry (stored, not shown): none for the data set's courts. */
  notes: null
}

export const COURTS_FILE = projectFile('data', 'courts', 'courts.json')

/** Every code the reference lists (the test code `T` is never used for real courts). */
export const JURISDICTIONS = ['F', 'FD', 'FB', 'FBP', 'FS', 'S', 'SA', 'ST', 'SS', 'SAG', 'TRS', 'TRA', 'TRT', 'TRX', 'TS', 'TA', 'TT', 'TSP', 'MA', 'MT', 'C', 'I'] as const

/** Where the data set is simply wrong about a court, by id. Kept short; each says why. */
const OVERRIDES: Record<string, { code: string; why: string }> = {
  md: { code: 'S', why: 'the Court of Appeals of Maryland was the state\'s highest court (renamed Supreme Court in 2022)' },
  dc: { code: 'S', why: 'the D.C. Court of Appeals is the District\'s highest court; the data set says iac' },
  texcrimapp: { code: 'S', why: 'Texas Court of Criminal Appeals is the court of last resort in criminal cases' },
  cosuperct: { code: 'ST', why: 'a superior (trial) court; the data set says colr' },
  cosuperctdenver: { code: 'ST', why: 'a superior (trial) court; the data set says colr' },
  prapp: { code: 'TA', why: 'Puerto Rico\'s own court of appeals; the data set files it under the federal system' },
  ctappindterr: { code: 'TS', why: 'highest court of the Indian Territory (1889–1907); the data set files it as federal' },
}

/** Locations whose own (non-federal) courts are territorial rather than state courts. */
const TERRITORIES = new Set(['Puerto Rico', 'Guam', 'Virgin Islands', 'American Samoa', 'Northern Mariana Islands', 'Dakota Territory'])

type Rule = readonly [test: (c: RawCourt, name: string) => boolean, code: string, why: string]
const has = (re: RegExp) => (_c: RawCourt, name: string) => re.test(name)
const levelIs = (...levels: string[]) => (c: RawCourt) => levels.includes(c.level ?? '')
const typeIs = (...types: string[]) => (c: RawCourt) => types.includes(c.type ?? '')

const MILITARY = /Armed Forces|Military|Court of Criminal Appeals|Board of Review|\b(Army|Navy|Air Force|Coast Guard)\b/

/** Federal courts. */
const FEDERAL: readonly Rule[] = [
  [has(/Bankruptcy Appellate Panel/), 'FBP', 'bankruptcy appellate panels of the circuits'],
  [(c) => c.type === 'bankruptcy' && c.level === 'iac', 'FBP', 'any other bankruptcy court at the intermediate level'],
  [typeIs('bankruptcy'), 'FB', 'bankruptcy courts (one data-set row is misnamed "District Court" but typed bankruptcy)'],
  [(c, n) => MILITARY.test(n) && (c.type === 'trial' || c.level === 'trial'), 'MT', 'military trial bodies'],
  [has(MILITARY), 'MA', 'courts of criminal appeals of the services, C.A.A.F., the old boards of review'],
  [has(/Judicial Council|Judicial Conference|Committee/), 'C', 'judicial councils and conference committees'],
  [(c) => c.id === 'scotus', 'F', 'the Supreme Court of the United States'],
  [has(/^(United States )?Court of Appeals for the .+ Circuit$/), 'F', 'the numbered, D.C. and Federal circuits'],
  [has(/^(U\.S\.|United States) Circuit Court/), 'FD', 'the old circuit courts (1789–1911) were mainly trial courts, merged into the district courts'],
  [typeIs('trial'), 'FD', 'district courts, including territorial district courts'],
  [() => true, 'FS', 'everything else: Tax Court, Federal Claims, International Trade, CCPA, JPML, FISC, agencies'],
]

const AGENCY = /Board|Commission(?! of Appeals)|\bDepartment of\b|Panel|office|Assembly|House of Representatives|Executive|Register(?! of Wills)|Tax|Compensation|Industrial|Judicial (Discipline|Conduct|Performance)|Court (on|of) the Judiciary|Ethics|Pardons|Racing/
const HIGHEST = /^Supreme (Judicial )?Court of|\bSupreme (Judicial )?Court$|^High Court of American Samoa$/
const INTERMEDIATE = /\bCourts? of (Civil |Criminal |Special )?Appeals?\b|Appellate (Court|Division|Term)|Appeals Court|Commonwealth Court|District Courts? of Appeal|Commission of Appeals|^Superior Court of Pennsylvania$/
const TRIAL_NAME = /Circuit Court|Superior Court|District Court|Common Pleas|Chancery|Family Court|Orphans|Probate|Surrogate|Municipal|Justice|County Court|City Court|Recorder|Oyer and Terminer|Sessions|Nisi Prius|Mayor|Police|Juvenile|Magistrate|Trial Court|Claims/

/** State courts (territories are mapped to their T* codes afterwards). */
const STATE: readonly Rule[] = [
  [(c, n) => c.type === 'ag' || /Attorney General/.test(n), 'SAG', 'attorney general opinions'],
  [has(AGENCY), 'SS', 'agencies, boards, tax courts, compensation and discipline bodies, legislatures'],
  [(c, n) => HIGHEST.test(n) && !(c.type === 'trial' && !/^Supreme Court of/.test(n)), 'S', 'supreme courts, whatever level the data set gives (New York\'s trial-level "Supreme Court" excluded)'],
  [(c) => c.level === 'colr' && c.type === 'appellate', 'S', 'other courts of last resort (New York Court of Appeals, historical high courts)'],
  [has(INTERMEDIATE), 'SA', 'intermediate appellate courts by name (Ohio\'s are typed "trial" in the data set)'],
  [(c) => (c.type ?? '').includes('trial') || ['gjc', 'ljc', 'trial', 'gjc & iac'].includes(c.level ?? ''), 'ST', 'trial courts of general and limited jurisdiction'],
  [has(TRIAL_NAME), 'ST', 'trial courts the data set leaves untyped or calls appellate (New Jersey circuit courts, chancery)'],
  [(c) => c.level === 'iac', 'SA', 'anything else the data set calls intermediate appellate'],
  [() => true, 'SS', 'everything else: special state courts'],
]
const TERRITORIAL: Record<string, string> = { S: 'TS', SA: 'TA', ST: 'TT', SS: 'TSP', SAG: 'SAG' }

/** Tribal courts: the name is more reliable than the level here. */
const TRIBAL: readonly Rule[] = [
  [has(/Supreme Court/), 'TRS', 'tribal supreme courts'],
  [has(/Appeal|Appellate/), 'TRA', 'tribal courts of appeals'],
  [has(/Trial|District|Children|Family|Tribal Court|Peacemaker/), 'TRT', 'tribal trial courts'],
  [levelIs('colr'), 'TRS', 'courts of last resort by level'],
  [levelIs('iac'), 'TRA', 'intermediate courts by level'],
  [(c) => c.type === 'trial' || ['gjc', 'ljc', 'trial'].includes(c.level ?? ''), 'TRT', 'trial courts by level'],
  [() => true, 'TRX', 'other tribal bodies (council of elders)'],
]

/** Systems other than federal, state and tribal. */
const OTHER: Record<string, string> = {
  international: 'I', // English courts, the House of Lords, the Philippines
  colonial: 'I', // committees of the Privy Council
  extraterritorial: 'FS', // the United States Court for Berlin
  '': 'FS', // the two rows without a system are federal bodies (a provisional court, a land office)
}

function firstMatch(rules: readonly Rule[], c: RawCourt, name: string): string {
  for (const [test, code] of rules) if (test(c, name)) return code
  return rules[rules.length - 1][1]
}

/** The reference's jurisdiction code for a court of the data set. */
export function jurisdictionOf(c: RawCourt): string {
  const name = c.name.trim()
  const override = OVERRIDES[c.id]
  if (override) return override.code
  switch (c.system ?? '') {
    case 'federal': return firstMatch(FEDERAL, c, name)
    case 'tribal': return firstMatch(TRIBAL, c, name)
    case 'state': case 'special': {
      // "special" holds two state commissions (California judicial performance, Ohio racing).
      const code = firstMatch(STATE, c, name)
      return TERRITORIES.has(c.location ?? '') ? TERRITORIAL[code] : code
    }
    default: return OTHER[c.system ?? ''] ?? 'C'
  }
}

const DISTRICT_ABBR: Record<string, string> = { Northern: 'N.D.', Southern: 'S.D.', Eastern: 'E.D.', Western: 'W.D.', Middle: 'M.D.', Central: 'C.D.' }
const districtPart = (s: string) => s
  .replace(/^(?:the )?(Northern|Southern|Eastern|Western|Middle|Central) District (?:of )?(.+)$/i, (_m, d: string, st: string) => `${DISTRICT_ABBR[d[0].toUpperCase() + d.slice(1).toLowerCase()]} ${st}`)
  .replace(/^(?:the )?District of (?!Columbia)(.+)$/i, 'D. $1')

/** Short names in the reference's style: "Supreme Court", "Ninth Circuit", "N.D. California". First match wins. */
const SHORT_NAMES: readonly (readonly [RegExp, (m: RegExpExecArray) => string])[] = [
  [/^Supreme Court of the United States$/, () => 'Supreme Court'],
  [/^(?:United States )?Court of Appeals for the (.+ Circuit)$/, (m) => m[1]],
  [/^United States District Court for (?:the )?(.+)$/, (m) => districtPart(m[1])],
  [/^District Court, (.+)$/, (m) => districtPart(m[1])],
  [/^United States Bankruptcy Appellate Panel of the (.+ Circuit)$/i, (m) => `Bankr. App. Panel, ${m[1].replace(/^the /i, '')}`],
  [/^United States Bankruptcy Court,? (?:for )?(?:the )?(.+)$/, (m) => `Bankr. ${districtPart(m[1])}`],
  [/^U\.S\. Circuit Court for the (.+)$/, (m) => `Circuit Court, ${m[1]}`],
  [/^(?:United States|U\.? ?S\.?) (.+)$/, (m) => m[1]],
]

export function shortNameOf(c: RawCourt): string {
  const name = c.name.trim()
  let short = name
  for (const [re, f] of SHORT_NAMES) {
    const m = re.exec(name)
    if (m) { short = f(m); break }
  }
  // Very long names (committees, agencies) read better as the data set's abbreviation.
  return short.length > 60 && c.name_abbreviation ? c.name_abbreviation : short
}

/** Earliest start and latest end over the court's periods; no end while any period is open. */
export function dateRange(dates: RawCourt['dates']): { start: string | null; end: string | null } {
  const periods = (dates ?? []).map((d) => {
    // One row (flaindcommn) has its start after its end; read it as swapped.
    const [s, e] = d.start && d.end && d.end < d.start ? [d.end, d.start] : [d.start ?? null, d.end ?? null]
    return { start: s, end: e }
  })
  const starts = periods.map((p) => p.start).filter((d): d is string => !!d).sort()
  const ends = periods.map((p) => p.end)
  const end = ends.length > 0 && ends.every((e) => !!e) ? (ends as string[]).sort().at(-1)! : null
  return { start: starts[0] ?? null, end }
}

/** When the data set was taken; courts carry no timestamps of their own. */
export const COURTS_MODIFIED = '2024-01-01T00:00:00.000000+00:00'

/**
 * One court of the data set as a court record. `known` holds the ids of the data set, so that
 * `parent` and `appeal_to` keep only references to courts that exist (two rows name "colr" and
 * "Court of Common Pleas"); without it the references are kept as given.
 */
export function mapCourt(raw: RawCourt, index: number, known?: ReadonlySet<string>): CourtRecord {
  const { start, end } = dateRange(raw.dates)
  const exists = (id: string) => id !== raw.id && (!known || known.has(id))
  const appeals = raw.appeal_to ? (Array.isArray(raw.appeal_to) ? raw.appeal_to : [raw.appeal_to]) : []
  return {
    id: raw.id,
    records_court_id: null,
    records_has_rss_feed: null,
    records_rss_entry_types: '',
    date_last_records_contact: null,
    fjc_court_id: '',
    date_modified: COURTS_MODIFIED,
    // In use unless the data set marks the court inactive or gives it an end date.
    in_use: raw.active !== false && end === null,
    has_opinion_scraper: false,
    has_oral_argument_scraper: false,
    // File order, as a float like the reference's; unique by construction.
    position: index + 1,
    citation_string: raw.citation_string ?? '',
    short_name: shortNameOf(raw),
    full_name: raw.name.trim(),
    url: raw.court_url ?? raw.url ?? '',
    start_date: start,
    end_date: end,
    jurisdiction: jurisdictionOf(raw),
    parent_court_id: raw.parent && exists(raw.parent) ? raw.parent : null,
    appeals_to_ids: [...new Set(appeals.filter(exists))],
    notes: null,
  }
}

export function readRawCourts(file: URL | string = COURTS_FILE): RawCourt[] {
  return JSON.parse(readFileSync(file, 'utf8')) as RawCourt[]
}

export function loadCourts(file: URL | string = COURTS_FILE): CourtRecord[] {
  const raw = readRawCourts(file)
  const known = new Set(raw.map((c) => c.id))
  return raw.map((c, i) => mapCourt(c, i, known))
}
