/**
 * What the parts of the generator share: the seeded PRNG, the id counters, the clock of the
 * sample (its last day) and how records of a day are stamped.
 */
import type { Rng } from './random.js'

export interface SampleContext {
  rng: Rng
  /** The next id of a resource (ids run from 1 per resource). */
  next: (resource: string) => number
  /** [date_created, date_modified] of a record first known on `day`. */
  stamp: (day: number) => [string, string]
  /** The last day of the sample (today, unless a run fixes it): nothing happens after it. */
  today: number
}

/** The user who owns the sample's public tags and visualizations. No user record is published for it. */
export const SAMPLE_USER_ID = 1

export const slugify = (s: string, max = 75) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, max).replace(/-$/, '')
