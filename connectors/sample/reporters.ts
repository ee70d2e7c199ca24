/**
 * Real reporters for the generated clusters: the edition of a reporter in force on a date
 * (data/reporters/reporters.json), the volume a decision of that date plausibly sits in, and
 * volume/page pairs that are unique per reporter by construction (pages only move forward), so
 * no set of used citations has to be kept however large the corpus.
 */
import { readFileSync } from 'node:fs'
import { dayOf } from './dates.js'
import type { Rng } from './random.js'
import { projectFile } from '../../core/programs.js'

/** Citation `type` of the citation resource, by the data set's cite_type. */
export const CITE_TYPE: Record<string, number> = {
  federal: 1, state: 2, state_regional: 3, specialty: 4, scotus_early: 5, specialty_lexis: 6, specialty_west: 7, neutral: 8, journal: 9,
}

/**
 * reporters.json gives some later editions the start date of the whole series (Cal. 5th from
 * 1991, N.Y.S.3d from 1938, Ill. 2d from 1849...). These are the years the editions really
 * began; they only ever narrow the data set's range, so a chosen edition always lies inside it.
 */
const EDITION_STARTS: Record<string, string> = {
  'Cal. 5th': '2016-01-01', 'Cal. App. 5th': '2016-01-01', 'N.Y.S.3d': '2013-01-01', 'Ill. 2d': '1954-01-01',
  'Ill. App. 2d': '1954-01-01', 'Ill. App. 3d': '1972-01-01', 'Wash. 2d': '1939-01-01', 'Wis. 2d': '1957-01-01', 'Utah 2d': '1953-01-01',
  'Ohio App. 2d': '1965-01-01', 'Ohio App. 3d': '1975-01-01', 'Wash. App. 2d': '2017-01-01',
}

/** How volumes advance: first volume of the edition and volumes bound per year. Default by cite type below. */
const VOLUMES: Record<string, { first: number; perYear: number }> = {
  'U.S.': { first: 91, perYear: 3.4 }, 'S. Ct.': { first: 1, perYear: 1 }, 'L. Ed.': { first: 1, perYear: 0.6 }, 'L. Ed. 2d': { first: 1, perYear: 3.2 },
  'F.': { first: 1, perYear: 6.8 }, 'F.2d': { first: 1, perYear: 14.5 }, 'F.3d': { first: 1, perYear: 35 }, 'F.4th': { first: 1, perYear: 30 },
  'F. Supp.': { first: 1, perYear: 18 }, 'F. Supp. 2d': { first: 1, perYear: 38 }, 'F. Supp. 3d': { first: 1, perYear: 35 },
  "F. App'x": { first: 1, perYear: 43 }, 'B.R.': { first: 1, perYear: 15 },
  'Cal. Rptr.': { first: 1, perYear: 9 }, 'Cal. Rptr. 2d': { first: 1, perYear: 11 }, 'Cal. Rptr. 3d': { first: 1, perYear: 14 },
  'N.Y.S.2d': { first: 1, perYear: 13 }, 'N.Y.S.3d': { first: 1, perYear: 16 },
  'Mass.': { first: 1, perYear: 3.2 }, 'Pa.': { first: 1, perYear: 3.8 }, 'Ill. 2d': { first: 1, perYear: 3.5 }, 'N.Y.2d': { first: 1, perYear: 2.1 },
  'Cal. 4th': { first: 1, perYear: 2.5 }, 'Cal. App. 3d': { first: 1, perYear: 10.7 }, 'Cal. App. 4th': { first: 1, perYear: 10 },
  'Ill. App. 3d': { first: 1, perYear: 9 }, 'Ohio App. 3d': { first: 1, perYear: 4.5 }, 'Mich. App.': { first: 1, perYear: 5.8 },
  'N.J. Super.': { first: 1, perYear: 6.5 }, 'A.D.2d': { first: 1, perYear: 6.3 }, 'A.D.3d': { first: 1, perYear: 11 }, 'Ohio St. 3d': { first: 1, perYear: 5.3 },
}
/** Volumes a year by cite type when the edition has no entry above: federal, state official, regional, specialty. */
const DEFAULT_PER_YEAR: Record<number, number> = { 1: 30, 2: 2, 3: 14, 4: 15 }

/** Reporters cited by year and document number (2019 WL 1234567) rather than volume and page. */
const BY_DOCUMENT = new Set(['WL', 'U.S. Dist. LEXIS', 'U.S. App. LEXIS'])

export interface Edition {
  /** The edition's canonical abbreviation, as written in citations and stored in `reporter`. */
  reporter: string
  /** The reporters.json key the edition is listed under. */
  family: string
  startDay: number
  endDay: number
  type: number
  byDocument: boolean
  firstVolume: number
  perYear: number
}

export interface ReporterIndex {
  /**
   * The edition of `family` in force on `day`: the one whose range holds the day and began
   * last; on a tie the one listed first (Cal. 3d before its special supplement).
   */
  editionOn(family: string, day: number): Edition | undefined
  /** The edition of that abbreviation ("F.2d", "Cal. 2d"), whatever the date; the first listed when several. */
  edition(reporter: string): Edition | undefined
  has(family: string): boolean
}

export const REPORTERS_FILE = projectFile('data', 'reporters', 'reporters.json')

type RawReporters = Record<string, { cite_type: string; editions: Record<string, { start: string | null; end: string | null }> }[]>

export function loadReporters(file: URL | string = REPORTERS_FILE): ReporterIndex {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawReporters
  const byFamily = new Map<string, Edition[]>()
  for (const [family, entries] of Object.entries(raw)) {
    const list: Edition[] = []
    for (const entry of entries) {
      // Neutral citations (2017-Ohio-5699, 2009 Ark. 123) have a form of their own; not generated.
      if (entry.cite_type === 'neutral') continue
      const type = CITE_TYPE[entry.cite_type] ?? 4
      for (const [reporter, range] of Object.entries(entry.editions)) {
        const dataStart = range.start ? dayOf(range.start.slice(0, 10)) : dayOf('1600-01-01')
        const corrected = EDITION_STARTS[reporter] ? Math.max(dataStart, dayOf(EDITION_STARTS[reporter])) : dataStart
        const model = VOLUMES[reporter] ?? { first: 1, perYear: DEFAULT_PER_YEAR[type] ?? 10 }
        list.push({
          reporter, family, startDay: corrected, endDay: range.end ? dayOf(range.end.slice(0, 10)) : Infinity, type,
          byDocument: BY_DOCUMENT.has(reporter), firstVolume: model.first, perYear: model.perYear,
        })
      }
    }
    byFamily.set(family, list)
  }
  // Per family, the days where the answer can change, and the edition in force from each of them.
  const segments = new Map<string, { from: number[]; edition: (Edition | undefined)[] }>()
  function segmentsOf(family: string) {
    let seg = segments.get(family)
    if (seg) return seg
    const list = byFamily.get(family) ?? []
    const from = [...new Set([-Infinity, ...list.flatMap((e) => [e.startDay, e.endDay + 1])])].filter((d) => Number.isFinite(d) || d === -Infinity).sort((a, b) => a - b)
    const edition = from.map((day) => {
      let best: Edition | undefined
      for (const e of list) if (e.startDay <= day && day <= e.endDay && (!best || e.startDay > best.startDay)) best = e
      return best
    })
    segments.set(family, (seg = { from, edition }))
    return seg
  }
  const byReporter = new Map<string, Edition>()
  for (const list of byFamily.values()) for (const e of list) if (!byReporter.has(e.reporter)) byReporter.set(e.reporter, e)
  return {
    has: (family) => byFamily.has(family),
    edition: (reporter) => byReporter.get(reporter),
    editionOn(family, day) {
      const { from, edition } = segmentsOf(family)
      let lo = 0, hi = from.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1
        if (from[mid] <= day) lo = mid
        else hi = mid - 1
      }
      return edition[lo]
    },
  }
}

export interface Allocation { volume: number; page: string; firstPage: number; lastPage: number }

/** Highest first page of a case in a volume; fabricated citations use pages above it. */
const LAST_START_PAGE = 1350
const FABRICATED_PAGES = [1401, 1999] as const

/**
 * Hands out citations, unique per reporter. Paged reporters: the volume follows the decision
 * date (never going back) and cases follow each other within it; when a volume is full the
 * next one opens. Gaps between cases adapt to how many cases a volume receives, so a sample of
 * 10,000 opinions looks sparse and one of millions fills its volumes (drifting ahead of the
 * date only when a reporter gets more cases than its real volumes held). Reporters cited by document
 * number keep one increasing number per year.
 */
export function createAllocator() {
  interface Cursor { volume: number; page: number; dated: number; casesInDated: number; perVolume: number }
  const paged = new Map<string, Cursor>()
  const documents = new Map<string, number>()
  /** Pages taken by real decisions, by reporter and volume: [first, last] ranges never handed out. */
  const reserved = new Map<string, [number, number][]>()
  const clash = (reporter: string, volume: number, first: number, last: number) => {
    const ranges = reserved.get(`${reporter}|${volume}`)
    if (ranges) for (const [a, b] of ranges) if (first <= b && a <= last) return b
    return 0
  }

  function volumeOn(e: Edition, day: number): number {
    return e.firstVolume + Math.floor(Math.max(0, day - e.startDay) / 365.25 * e.perYear)
  }
  const room = (c: Cursor) => Math.floor(LAST_START_PAGE / c.perVolume)
  function open(c: Cursor, volume: number, rng: Rng) {
    c.volume = volume
    c.page = 1 + rng.int(0, Math.max(0, Math.floor(room(c) / 2)))
  }

  return {
    next(e: Edition, day: number, pages: number, rng: Rng): Allocation {
      if (e.byDocument) {
        const year = new Date(day * 86_400_000).getUTCFullYear()
        const key = `${e.reporter}|${year}`
        const n = (documents.get(key) ?? rng.int(1000, 90_000)) + rng.int(1, 60)
        documents.set(key, n)
        return { volume: year, page: String(n), firstPage: 1, lastPage: Math.max(2, pages) }
      }
      const dated = volumeOn(e, day)
      let c = paged.get(e.reporter)
      if (!c) {
        c = { volume: dated, page: 1, dated, casesInDated: 0, perVolume: 1 }
        open(c, dated, rng)
        paged.set(e.reporter, c)
      }
      if (dated > c.dated) {
        // Learn how many cases a volume receives, so that gaps between cases fit the corpus size.
        c.perVolume = Math.max(1, (c.perVolume + c.casesInDated / (dated - c.dated)) / 2)
        c.dated = dated
        c.casesInDated = 0
        if (dated > c.volume) open(c, dated, rng)
      }
      if (c.page > LAST_START_PAGE) open(c, c.volume + 1, rng)
      // Step over the pages of real decisions in this volume.
      for (let end = clash(e.reporter, c.volume, c.page, c.page + Math.max(1, pages) - 1); end; end = clash(e.reporter, c.volume, c.page, c.page + Math.max(1, pages) - 1)) {
        c.page = end + 1 + rng.int(0, 3)
        if (c.page > LAST_START_PAGE) open(c, c.volume + 1, rng)
      }
      const first = c.page
      const last = first + Math.max(1, pages) - 1
      c.page = last + 1 + rng.int(0, Math.max(0, room(c) - pages))
      c.casesInDated++
      return { volume: c.volume, page: String(first), firstPage: first, lastPage: last }
    },
    /** Keeps pages `first`..`last` of a volume (a real decision's) from being handed out. */
    reserve(reporter: string, volume: number, first: number, last: number) {
      const key = `${reporter}|${volume}`
      reserved.set(key, [...(reserved.get(key) ?? []), [first, last]])
    },
    /** A citation of `e` that is never handed out: an existing-looking volume, a page past the last case start. */
    fabricate(e: Edition, day: number, rng: Rng): { volume: number; page: string } {
      if (e.byDocument) throw new Error('fabricated citations use paged reporters')
      const top = Math.max(e.firstVolume, Math.min(volumeOn(e, day), paged.get(e.reporter)?.volume ?? Infinity))
      return { volume: rng.int(Math.max(e.firstVolume, top - 40), top), page: String(rng.int(FABRICATED_PAGES[0], FABRICATED_PAGES[1])) }
    },
  }
}

export type Allocator = ReturnType<typeof createAllocator>

/** True when a paged citation's page could not have been handed out (used by tests). */
export const isFabricatedPage = (page: string) => Number(page) > LAST_START_PAGE + 50
