/**
 * The judges of the sample: the presidents who appoint federal judges, then for every seat of
 * every pool court a succession of judges from before 1950 to today, each with a person record,
 * education, party, ABA rating (federal), source, an earlier job for some, the judicial position
 * and, for state judges, retention events. Emitted in dependency order before any case; returns
 * the `Bench` that tells who sat on a court on a day.
 */
import type { PoolCourt } from './court-pool.js'
import { dayOf, isoDay, stamps } from './dates.js'
import { picker, type Rng } from './random.js'
import type { SampleRecord } from './records.js'
import * as V from './vocabulary.js'
import { disclosureRecords } from './disclosures.js'

export interface Judge {
  person: number
  position: number
  first: string
  last: string
  startDay: number
  /** Infinity while still sitting. */
  endDay: number
}

export interface Bench {
  /** One judge per seat whose holder sat on `day` (vacant seats are skipped). */
  sitting(court: string, day: number): Judge[]
  /** Every judge who ever sat on the court (for tests). */
  all(court: string): Judge[]
}

export interface BenchContext {
  rng: Rng
  pool: readonly PoolCourt[]
  next: (resource: string) => number
  importDay: number
  snapshotDay: number
}

const YEAR = 365.25
/** Seats of courts older than this are filled from a little before it, so that 1950 has a full bench. */
const EARLIEST_CASE_DAY = dayOf('1950-01-01')
/** Judges who left before this filed no disclosure the sample holds. */
const DISCLOSURES_FROM = dayOf('2004-06-01')
/** ABA ratings of nominees began under Eisenhower. */
const ABA_RATINGS_FROM = dayOf('1953-01-01')

/** How a state chooses and keeps its judges: [how_selected, nomination_process, retention_type or ''] . */
const STATE_SELECTION: Record<string, readonly [string, string, string]> = {
  tx: ['e_part', 'election', 'elec_p'], al: ['e_part', 'election', 'elec_p'], pa: ['e_part', 'election', 'elec_u'], il: ['e_part', 'election', 'elec_u'],
  la: ['e_part', 'election', 'elec_p'], nm: ['e_part', 'election', 'elec_u'], nc: ['e_part', 'election', 'elec_p'],
  ca: ['a_gov', 'merit_comm', 'elec_u'], az: ['a_gov', 'merit_comm', 'elec_u'], co: ['a_gov', 'merit_comm', 'elec_u'], fl: ['a_gov', 'merit_comm', 'elec_u'],
  ia: ['a_gov', 'merit_comm', 'elec_u'], in: ['a_gov', 'merit_comm', 'elec_u'], ks: ['a_gov', 'merit_comm', 'elec_u'], mo: ['a_gov', 'merit_comm', 'elec_u'],
  ok: ['a_gov', 'merit_comm', 'elec_u'], ut: ['a_gov', 'merit_comm', 'elec_u'], wy: ['a_gov', 'merit_comm', 'elec_u'], ak: ['a_gov', 'merit_comm', 'elec_u'],
  ne: ['a_gov', 'merit_comm', 'elec_u'], md: ['a_gov', 'merit_comm', 'elec_u'], tn: ['a_gov', 'merit_comm', 'elec_u'], sd: ['a_gov', 'merit_comm', 'elec_u'],
  nj: ['a_gov', 'state_senate', 'reapp_gov'], ny: ['a_gov', 'state_senate', ''], ct: ['a_gov', 'state_senate', 'reapp_leg'], de: ['a_gov', 'state_senate', ''],
  me: ['a_gov', 'state_senate', 'reapp_gov'], nh: ['a_gov', 'state_senate', ''], ma: ['a_gov', 'state_senate', ''], ri: ['a_gov', 'state_senate', ''],
  hi: ['a_gov', 'merit_comm', 'reapp_gov'], vt: ['a_gov', 'state_senate', 'reapp_leg'], va: ['a_legis', '', 'reapp_leg'], sc: ['a_legis', '', 'reapp_leg'],
}
const NONPARTISAN = ['e_non_part', 'election', 'elec_n'] as const

const race = picker(V.RACES.map(([r, w]) => [r, w] as const))
const abaRating = picker([['wq', 55], ['q', 38], ['nq', 4], ['ewq', 2], ['nqa', 1]] as const)
const termination = picker([['retire_vol', 6], ['ded', 2], ['resign', 1], ['other_pos', 1]] as const)

function femaleShare(day: number): number {
  const year = 1970 + day / YEAR
  return year < 1970 ? 0.03 : year < 1990 ? 0.12 : year < 2010 ? 0.3 : 0.42
}

const slugify = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

/** Every stored field of a position, blank; records spread it and fill what they know. */
const POSITION_BLANK = {
  supervisor_id: null, predecessor_id: null, school_id: null, court_id: null, appointer_id: null, position_type: null, job_title: '', sector: null,
  organization_name: null, location_city: '', location_state: '', date_nominated: null, date_elected: null, date_recess_appointment: null,
  date_referred_to_judicial_committee: null, date_judicial_committee_action: null, date_hearing: null, date_confirmation: null, date_start: null,
  date_termination: null, date_retirement: null, date_granularity_start: '', date_granularity_termination: '', judicial_committee_action: '',
  termination_reason: '', nomination_process: '', vote_type: '', voice_vote: null, votes_yes: null, votes_no: null, votes_yes_percent: null,
  votes_no_percent: null, how_selected: '', has_inferred_values: false,
}

const PERSON_BLANK = {
  race: [] as string[], is_alias_of_id: null, date_completed: null, fjc_id: null, name_middle: '', name_suffix: '', date_dob: null, date_granularity_dob: '',
  date_dod: null, date_granularity_dod: '', dob_city: '', dob_state: '', dob_country: '', dod_city: '', dod_state: '', dod_country: '', gender: '',
  religion: '', ftm_total_received: null, ftm_eid: null, has_photo: false,
}

export function* generateBench(ctx: BenchContext): Generator<SampleRecord, Bench> {
  const { rng, next, importDay, snapshotDay } = ctx
  const stamp = (day: number) => stamps(day, importDay, snapshotDay, rng)
  const benchStamp = () => stamps(importDay, importDay, snapshotDay, rng)

  // Schools.
  const schoolIds = { law: [] as number[], college: [] as number[] }
  for (const [kind, names] of [['law', V.LAW_SCHOOLS], ['college', V.COLLEGES]] as const) {
    for (const name of names) {
      const id = next('schools')
      const [created, modified] = benchStamp()
      schoolIds[kind].push(id)
      yield { resource: 'schools', record: { id, is_alias_of_id: null, date_created: created, date_modified: modified, name, ein: 100_000_000 + ((id * 7_919_113) % 899_999_999) } }
    }
  }

  // Presidents: a person each (Trump twice in office, once as a person) and a position per term.
  const presidents: { position: number; party: string; startDay: number; endDay: number }[] = []
  const presidentPerson = new Map<string, number>()
  for (const [first, middle, last, party, start, end, ended] of V.PRESIDENTS) {
    const key = `${first} ${middle} ${last}`
    let person = presidentPerson.get(key)
    if (person === undefined) {
      person = next('people')
      presidentPerson.set(key, person)
      const [created, modified] = benchStamp()
      yield { resource: 'people', record: {
        ...PERSON_BLANK, id: person, date_created: created, date_modified: modified, slug: slugify(key), name_first: first, name_middle: middle, name_last: last,
        gender: 'm', dob_country: 'United States',
      } }
    }
    const position = next('positions')
    const [created, modified] = benchStamp()
    yield { resource: 'positions', record: {
      ...POSITION_BLANK, id: position, person_id: person, date_created: created, date_modified: modified, position_type: 'pres', sector: 2,
      organization_name: 'United States', date_elected: null, date_start: start, date_granularity_start: '%Y-%m-%d',
      date_termination: end, date_granularity_termination: end ? '%Y-%m-%d' : '', how_selected: 'e_part', nomination_process: 'election',
      termination_reason: ended,
    } }
    presidents.push({ position, party, startDay: dayOf(start), endDay: end ? dayOf(end) : Infinity })
  }
  const presidentOn = (day: number) => presidents.find((p) => p.startDay <= day && day < p.endDay) ?? presidents[0]

  const seats = new Map<string, Judge[][]>()
  for (const court of ctx.pool) {
    const federal = ['scotus', 'circuit', 'district', 'bankruptcy'].includes(court.family)
    const chains: Judge[][] = []
    for (let s = 0; s < court.seats; s++) {
      const chain: Judge[] = []
      // Courts founded since 1922 start with a full bench; older ones with judges appointed 1930–1950.
      let day = court.startDay >= EARLIEST_CASE_DAY - 28 * YEAR ? court.startDay : EARLIEST_CASE_DAY - Math.floor(rng.next() * 20 * YEAR)
      if (day < court.startDay) day = court.startDay
      while (day <= snapshotDay) {
        const judge = yield* judgeRecords(court, federal, day, s, chain.at(-1)?.person ?? null)
        chain.push(judge)
        if (judge.endDay === Infinity) break
        day = judge.endDay + rng.int(20, federal ? 500 : 120)
      }
      chains.push(chain)
    }
    seats.set(court.id, chains)
  }

  function* judgeRecords(court: PoolCourt, federal: boolean, startDay: number, seat: number, predecessor: number | null): Generator<SampleRecord, Judge> {
    // Bankruptcy judges serve 14-year terms; life tenure elsewhere in the federal courts.
    const years = court.family === 'bankruptcy' ? 14 : federal ? rng.int(6, 32) : rng.int(6, 26)
    let endDay = startDay + Math.floor(years * YEAR) + rng.int(-120, 120)
    let reason: string = endDay > snapshotDay ? '' : court.family === 'bankruptcy' ? 'termed_out' : termination(rng)
    const state = federal ? '' : court.state
    const selection = federal ? null : STATE_SELECTION[state] ?? NONPARTISAN

    // Retention: every 8 years while sitting; a lost election ends the term there.
    const retentions: { day: number; won: boolean }[] = []
    if (selection && selection[2]) {
      for (let r = startDay + Math.floor(8 * YEAR); r < Math.min(endDay, snapshotDay); r += Math.floor(8 * YEAR)) {
        const won = selection[2] === 'reapp_gov' || selection[2] === 'reapp_leg' || rng.chance(0.97)
        retentions.push({ day: r, won })
        if (!won) { endDay = r; reason = 'lost'; break }
      }
    }
    const sitting = endDay > snapshotDay
    if (sitting) { endDay = Infinity; reason = '' }

    const female = rng.chance(femaleShare(startDay))
    const first = rng.pick(female ? V.GIVEN_FEMALE : V.GIVEN_MALE)
    const middle = rng.chance(0.6) ? `${rng.pick(V.MIDDLE_INITIALS)}.` : ''
    const last = rng.pick(V.SURNAMES)
    const suffix = !female && rng.chance(0.03) ? 'jr' : ''
    const dob = startDay - Math.floor(rng.int(38, 60) * YEAR) - rng.int(0, 364)
    const diedInOffice = reason === 'ded'
    const dod = diedInOffice ? endDay : dob < dayOf('1940-01-01') && rng.chance(0.7) ? Math.min(snapshotDay - 30, Math.max(endDay === Infinity ? snapshotDay - 30 : endDay + 200, dob + Math.floor(rng.int(70, 95) * YEAR))) : null
    const birthState = rng.chance(0.7) && state ? state : rng.pick(Object.keys(STATE_SELECTION))
    const person = next('people')
    const [created, modified] = stamp(startDay)
    yield { resource: 'people', record: {
      ...PERSON_BLANK, id: person, race: [race(rng)], date_created: created, date_modified: modified,
      date_completed: rng.chance(0.3) ? modified : null, fjc_id: federal && court.family !== 'bankruptcy' ? 1000 + person : null,
      slug: slugify(`${first} ${last}`), name_first: first, name_middle: middle, name_last: last, name_suffix: suffix,
      date_dob: isoDay(dob), date_granularity_dob: '%Y-%m-%d', date_dod: dod === null ? null : isoDay(dod), date_granularity_dod: dod === null ? '' : '%Y-%m-%d',
      dob_city: rng.pick(V.CITIES), dob_state: birthState.toUpperCase(), dob_country: 'United States',
      dod_city: dod === null ? '' : rng.pick(V.CITIES), dod_state: dod === null ? '' : birthState.toUpperCase(), dod_country: dod === null ? '' : 'United States',
      gender: female ? 'f' : 'm', religion: '', has_photo: rng.chance(0.2),
      ftm_total_received: selection && selection[0].startsWith('e_') && startDay > dayOf('1990-01-01') ? Math.round(rng.next() * 200_000_000) / 100 : null,
      ftm_eid: null,
    } }

    const birthYear = Number(isoDay(dob).slice(0, 4))
    if (rng.chance(0.6)) yield education(person, rng.pick(schoolIds.college), 'ba', '', birthYear + 22, created)
    yield education(person, rng.pick(schoolIds.law), 'jd', '', birthYear + rng.int(25, 27), created)
    if (rng.chance(0.05)) yield education(person, rng.pick(schoolIds.law), 'llm', 'Taxation', birthYear + rng.int(28, 32), created)

    const nominated = startDay - rng.int(60, 240)
    const appointer = federal ? presidentOn(nominated) : null
    const partisan = selection?.[0] === 'e_part'
    if (federal || partisan || rng.chance(0.5)) {
      const party = appointer && rng.chance(0.85) ? appointer.party : rng.pick(['d', 'r', 'd', 'r', 'i'])
      yield { resource: 'political-affiliations', record: {
        id: next('political-affiliations'), person_id: person, date_created: created, date_modified: created, political_party: party,
        source: federal ? 'a' : partisan ? 'b' : 'o', date_start: null, date_granularity_start: '', date_end: null, date_granularity_end: '',
      } }
    }
    if (federal && court.family !== 'bankruptcy' && nominated >= ABA_RATINGS_FROM) {
      yield { resource: 'aba-ratings', record: { id: next('aba-ratings'), person_id: person, date_created: created, date_modified: created, year_rated: Number(isoDay(nominated).slice(0, 4)), rating: abaRating(rng) } }
    }
    yield { resource: 'sources', record: {
      id: next('sources'), person_id: person, date_created: created, date_modified: created,
      url: federal ? `https://www.fjc.gov/history/judges/${slugify(`${first} ${middle} ${last}`)}` : `https://courts.${state}.gov/judges/${slugify(`${first}-${last}`)}`,
      date_accessed: created.slice(0, 10), notes: '',
    } }
    if (rng.chance(0.35)) {
      const [type, organization] = rng.pick(V.PRIOR_JOBS)
      const from = startDay - Math.floor(rng.int(4, 15) * YEAR)
      const to = nominated - rng.int(0, 200)
      yield { resource: 'positions', record: {
        ...POSITION_BLANK, id: next('positions'), person_id: person, date_created: created, date_modified: created, position_type: type,
        sector: organization === 'Private practice' ? 1 : 2, organization_name: organization, location_state: state.toUpperCase(),
        date_start: isoDay(from), date_granularity_start: '%Y', date_termination: isoDay(to), date_granularity_termination: '%Y', termination_reason: 'other_pos',
      } }
    }

    const position = next('positions')
    const end = endDay === Infinity ? null : isoDay(endDay)
    const common = {
      ...POSITION_BLANK, id: position, person_id: person, court_id: court.id, predecessor_id: predecessor, date_created: created, date_modified: modified,
      sector: 2, date_start: isoDay(startDay), date_granularity_start: '%Y-%m-%d', date_termination: end, date_granularity_termination: end ? '%Y-%m-%d' : '',
      termination_reason: reason, has_inferred_values: false,
    }
    const chief = court.family === 'scotus' || court.family === 'supreme'
    if (federal) {
      const referred = nominated + rng.int(1, 14)
      const hearing = referred + rng.int(20, 90)
      const action = hearing + rng.int(7, 40)
      const confirmed = Math.min(startDay - 1, action + rng.int(5, 60))
      const voice = court.family !== 'scotus' && rng.chance(0.45)
      const yes = voice ? null : rng.int(court.family === 'scotus' ? 50 : 60, 99)
      yield { resource: 'positions', record: {
        ...common, appointer_id: appointer!.position, position_type: court.family === 'scotus' ? (seat === 0 ? 'c-jus' : 'ass-jus') : 'jud',
        date_nominated: isoDay(nominated), date_referred_to_judicial_committee: isoDay(referred), date_hearing: isoDay(hearing),
        date_judicial_committee_action: isoDay(action), judicial_committee_action: 'rep_w_rec', date_confirmation: isoDay(confirmed),
        date_retirement: reason === 'retire_vol' ? end : null, nomination_process: court.family === 'bankruptcy' ? '' : 'fed_senate',
        how_selected: court.family === 'bankruptcy' ? 'a_judge' : 'a_pres', vote_type: court.family === 'bankruptcy' ? '' : 's', voice_vote: court.family === 'bankruptcy' ? null : voice,
        votes_yes: yes, votes_no: yes === null ? null : Math.max(0, 100 - yes - rng.int(0, 4)),
      } }
      // Article III judges file yearly financial disclosures; the sample holds some since 2004.
      if (court.family !== 'bankruptcy' && endDay >= DISCLOSURES_FROM && rng.chance(0.5)) {
        yield* disclosureRecords({ rng, next, stamp, today: snapshotDay }, { person, first, last, startDay, endDay, nominatedDay: nominated })
      }
    } else {
      const [how, process] = selection!
      const elected = how.startsWith('e_')
      const votesYes = elected ? rng.int(150_000, 2_500_000) : null
      const votesNo = votesYes === null ? null : Math.floor(votesYes * (0.3 + rng.next() * 0.6))
      yield { resource: 'positions', record: {
        ...common, position_type: chief ? (seat === 0 ? 'c-jus' : 'jus') : 'jud', location_state: state.toUpperCase(),
        date_elected: elected ? isoDay(startDay - rng.int(30, 60)) : null, date_nominated: elected ? null : isoDay(nominated),
        nomination_process: process, how_selected: how, vote_type: elected ? (how === 'e_part' ? 'p' : 'np') : '',
        votes_yes: votesYes, votes_no: votesNo, votes_yes_percent: votesYes === null ? null : Math.round((10_000 * votesYes) / (votesYes + votesNo!)) / 100,
        votes_no_percent: votesYes === null ? null : Math.round((10_000 * votesNo!) / (votesYes + votesNo!)) / 100,
      } }
      for (const r of retentions) {
        const type = selection![2]
        const vote = type.startsWith('elec_')
        const yes = vote ? rng.int(200_000, 3_000_000) : null
        const no = yes === null ? null : Math.floor(yes * (r.won ? 0.2 + rng.next() * 0.6 : 1.05 + rng.next() * 0.3))
        const [rc, rm] = stamp(r.day)
        yield { resource: 'retention-events', record: {
          id: next('retention-events'), position_id: position, date_created: rc, date_modified: rm, retention_type: type, date_retention: isoDay(r.day),
          votes_yes: yes, votes_no: no, votes_yes_percent: yes === null ? null : Math.round((10_000 * yes) / (yes + no!)) / 100,
          votes_no_percent: yes === null ? null : Math.round((10_000 * no!) / (yes + no!)) / 100, unopposed: type === 'elec_u' ? true : vote ? false : null, won: r.won,
        } }
      }
    }
    return { person, position, first, last, startDay, endDay }
  }

  function education(person: number, school: number, level: string, detail: string, year: number, created: string): SampleRecord {
    return { resource: 'educations', record: { id: next('educations'), person_id: person, school_id: school, date_created: created, date_modified: created, degree_level: level, degree_detail: detail, degree_year: year } }
  }

  return {
    sitting(court, day) {
      const out: Judge[] = []
      for (const chain of seats.get(court) ?? []) {
        for (const j of chain) if (j.startDay <= day && day <= j.endDay) { out.push(j); break }
      }
      return out
    },
    all: (court) => (seats.get(court) ?? []).flat(),
  }
}
