/**
 * Maps the courts data set (data/courts/courts.json) to the court resource. The data set
 * classifies courts by system (federal, state, tribal...), type (appellate, trial, bankruptcy,
 * special, ag) and level (colr = court of last resort, iac = intermediate appellate); the
 * reference's jurisdiction codes are derived from those in `jurisdictionOf`.
 */
import { readFileSync } from 'node:fs'

export interface RawCourt {
  id: string; name: string; citation_string?: string; name_abbreviation?: string | null
  system?: string | null; type?: string | null; level?: string | null; location?: string | null
  court_url?: string; url?: string; active?: boolean | null; parent?: string | null
  appeal_to?: string | string[] | null; dates?: { start: string | null; end: string | null }[]
}

export type CourtRecord = Record<string, unknown> & { id: string }

const TERRITORIES = new Set(['Puerto Rico', 'Guam', 'Virgin Islands', 'U.S. Virgin Islands', 'American Samoa', 'Northern Mariana Islands'])
const MILITARY = /Armed Forces|Criminal Appeals|Military|Court-Martial|Courts? of Military/i

/** The reference's jurisdiction code for a court of the data set; one rule per line. */
export function jurisdictionOf(c: RawCourt): string {
  const type = c.type ?? ''
  const level = c.level ?? ''
  switch (c.system) {
    case 'federal':
      if (MILITARY.test(c.name)) return type === 'trial' || level === 'trial' ? 'MT' : 'MA'
      if (type === 'bankruptcy') return level === 'iac' ? 'FBP' : 'FB' // bankruptcy appellate panels vs courts
      if (type === 'trial') return 'FD'
      if (type === 'appellate') return /Tax Court|Claims|International Trade/i.test(c.name) ? 'FS' : 'F'
      return 'FS'
    case 'state': {
      const territory = TERRITORIES.has(c.location ?? '')
      if (type === 'ag') return 'SAG'
      if (type === 'appellate') return level === 'colr' ? (territory ? 'TS' : 'S') : (territory ? 'TA' : 'SA')
      if (type === 'trial' || ['gjc', 'ljc', 'trial'].includes(level)) return territory ? 'TT' : 'ST'
      if (level === 'colr') return territory ? 'TS' : 'S'
      return territory ? 'TSP' : 'SS'
    }
    case 'tribal':
      if (level === 'colr') return 'TRS'
      if (level === 'iac' || type === 'appellate') return 'TRA'
      if (type === 'trial' || ['gjc', 'ljc', 'trial'].includes(level)) return 'TRT'
      return 'TRX'
    case 'international': return 'I'
    default: return 'C'
  }
}

/** "Court of Appeals for the Ninth Circuit" → "Ninth Circuit"; "Supreme Court of the United States" → "Supreme Court". */
export function shortNameOf(c: RawCourt): string {
  if (c.name_abbreviation) return c.name_abbreviation
  const n = c.name
  const m = /Court of Appeals for the (.+)$/.exec(n) ?? /District Court for the (.+)$/.exec(n) ?? /Bankruptcy Court,? (?:for the )?(.+)$/.exec(n)
  if (m) return m[1]
  return n.replace(/ of the United States$/, '').replace(/^United States /, '')
}

function dateRange(dates: RawCourt['dates']): { start: string | null; end: string | null } {
  const starts = (dates ?? []).map((d) => d.start).filter((d): d is string => !!d).sort()
  const ends = (dates ?? []).map((d) => d.end)
  // A court still sitting in any period has no end date.
  const end = ends.length && ends.every((e) => !!e) ? (ends as string[]).sort().at(-1)! : null
  return { start: starts[0] ?? null, end }
}

const MODIFIED = '2024-01-01T00:00:00+00:00'

export function mapCourt(raw: RawCourt, index: number, known: Set<string>): CourtRecord {
  const { start, end } = dateRange(raw.dates)
  const appeals = raw.appeal_to ? (Array.isArray(raw.appeal_to) ? raw.appeal_to : [raw.appeal_to]) : []
  return {
    id: raw.id,
    records_court_id: null,
    records_has_rss_feed: null,
    records_rss_entry_types: '',
    date_last_records_contact: null,
    fjc_court_id: '',
    date_modified: MODIFIED,
    // The data set marks defunct courts active=false; unknown means still in use.
    in_use: raw.active !== false && end === null,
    has_opinion_scraper: false,
    has_oral_argument_scraper: false,
    position: index + 1,
    citation_string: raw.citation_string ?? '',
    short_name: shortNameOf(raw),
    full_name: raw.name,
    url: raw.court_url ?? raw.url ?? '',
    start_date: start,
    end_date: end,
    jurisdiction: jurisdictionOf(raw),
    parent_court_id: raw.parent && known.has(raw.parent) && raw.parent !== raw.id ? raw.parent : null,
    appeals_to_ids: appeals.filter((a) => known.has(a) && a !== raw.id),
  }
}

export function loadCourts(file: URL | string = new URL('../../data/courts/courts.json', import.meta.url)): CourtRecord[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawCourt[]
  const known = new Set(raw.map((c) => c.id))
  return raw.map((c, i) => mapCourt(c, i, known))
}
