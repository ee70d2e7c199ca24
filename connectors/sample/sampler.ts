/**
 * What the parts of a sample generation share: the seeded PRNG, counters and clock, the courts,
 * reporters and judges, what later opinions may cite, the landmarks still to decide; and the
 * decided case and its docket as they pass from one part to the next.
 */
import type { Bench, Judge } from './judges.js'
import type { Parties } from './cases.js'
import type { CitationIndex } from './citing.js'
import type { SampleContext } from './context.js'
import type { PoolCourt } from './court-pool.js'
import type { UserTag, MapCase } from './curation.js'
import { dayOf } from './dates.js'
import type { SampleOptions } from './generator.js'
import type { Landmark } from './landmarks.js'
import type { Rng } from './random.js'
import type { Allocator, ReporterIndex } from './reporters.js'
import type { Category } from './vocabulary.js'

/** Decisions are dated from FIRST_DAY to the day before the sample is taken (landmarks excepted); records are created no later than that day. */
export const FIRST_DAY = dayOf('1950-01-01')

/** Everything the parts of a generation share: the PRNG and counters, the courts and judges, what later opinions may cite. */
export interface Sampler {
  opts: SampleOptions
  rng: Rng
  /** When the archive was imported: older material is "created" then. */
  importDay: number
  ctx: SampleContext
  next: (resource: string) => number
  total: number
  today: number
  lastDecisionDay: number
  reporters: ReporterIndex
  allocator: Allocator
  pool: PoolCourt[]
  courtUrl: Map<string, string>
  bench: Bench
  searchTagIds: number[]
  sampleTags: UserTag[]
  pickCourt: (rng: Rng) => PoolCourt
  pickCategory: Record<string, (rng: Rng) => string>
  pickTrialCourt: ((rng: Rng) => PoolCourt) | null
  districtsOf: Map<string, PoolCourt[]>
  appealsFromScotus: PoolCourt[]
  citations: CitationIndex
  scdbSeq: Map<number, number>
  /** Landmarks still to decide, by date, with the pages their real citation takes. */
  landmarks: { landmark: Landmark; court: PoolCourt; day: number; pages: number }[]
  /** The last two Supreme Court decisions (and clusters of any court), for a map when none cites another. */
  lastScotus: MapCase[]
  lastClusters: MapCase[]
  redirectionQuota: number
  mapQuota: number
  /** Audio records generated so far: the first few get real originals (originals.ts). */
  audioRecords: number
  redirections: number
  maps: number
  opinions: number
}

/** A decided case: where, when, what about, between whom and before whom. */
export interface DecidedCase {
  court: PoolCourt
  day: number
  year: number
  category: Category
  parties: Parties
  panel: Judge[]
  recused: Judge[]
  /** The real decision this case is, with the pages its citation spans. */
  landmark: Landmark | null
  landmarkPages: number
}

/** The docket of a decided case, once emitted. */
export interface CaseDocket { id: number; number: string; filedDay: number; arguedDay: number | null; source: 'C' | 'R' | 'U' }

/** Judges' surnames, comma-separated. */
export const names = (js: readonly Judge[]) => js.map((j) => j.last).join(', ')
