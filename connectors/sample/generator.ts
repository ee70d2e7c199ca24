/**
 * The generated part of the sample data set: judges, dockets, clusters with parallel
 * citations, opinions whose text cites earlier clusters by real reporter abbreviations, and a
 * little oral-argument audio. Seeded and deterministic (no wall clock); streams its records in
 * dependency order with constant memory, so it scales from 10k opinions to millions.
 */
import { readFileSync } from 'node:fs'
import type { CourtRecord } from './courts.js'
import { createRng, type Rng } from './random.js'
import * as V from './vocabulary.js'

export interface SampleRecord { resource: string; record: Record<string, unknown> }
export interface CitedRef { volume: number; reporter: string; page: string }

export interface SampleOptions {
  seed?: number
  opinions?: number
  courts: CourtRecord[]
  /** Called with the citations each opinion's text makes (fabricated ones included). */
  onCited?: (opinionId: number, cites: CitedRef[]) => void
}

type Family = 'scotus' | 'circuit' | 'district' | 'state'
const COURT_POOL: readonly (readonly [string, Family, number])[] = [
  ['scotus', 'scotus', 6], ...['ca1', 'ca2', 'ca3', 'ca4', 'ca5', 'ca6', 'ca7', 'ca8', 'ca9', 'ca10', 'ca11', 'cadc', 'cafc'].map((c) => [c, 'circuit', 5] as const),
  ...['cand', 'cacd', 'nysd', 'nyed', 'txsd', 'ilnd', 'dcd', 'mad', 'flsd', 'paed'].map((c) => [c, 'district', 3] as const),
  ...['cal', 'ny', 'tex', 'fla', 'pa', 'ill', 'ga', 'mich', 'calctapp', 'nyappdiv'].map((c) => [c, 'state', 3] as const),
]
/** Reporter families by court kind; the edition is chosen by the decision date. */
const REPORTERS: Record<Family | string, string[][]> = {
  scotus: [['U.S.'], ['S. Ct.'], ['L. Ed. 2d']],
  circuit: [['F.', 'F.2d', 'F.3d', 'F.4th']],
  district: [['F.', 'F. Supp.', 'F. Supp. 2d', 'F. Supp. 3d']],
  cal: [['P.2d', 'P.3d']], calctapp: [['Cal. Rptr. 3d']], ny: [['N.E.2d', 'N.E.3d']], nyappdiv: [['N.Y.S.3d']], tex: [['S.W.2d', 'S.W.3d']],
  fla: [['So. 2d', 'So. 3d']], pa: [['A.2d', 'A.3d']], ill: [['N.E.2d', 'N.E.3d']], ga: [['S.E.2d']], mich: [['N.W.2d']],
}
const CITE_TYPE: Record<string, number> = { federal: 1, state: 2, state_regional: 3, specialty: 4, neutral: 8 }

interface Edition { start: string; end: string | null; citeType: number }
function loadEditions(): Map<string, Edition> {
  const raw = JSON.parse(readFileSync(new URL('../../data/reporters/reporters.json', import.meta.url), 'utf8')) as Record<string, { cite_type: string; editions: Record<string, { start: string | null; end: string | null }> }[]>
  const out = new Map<string, Edition>()
  for (const list of Object.values(raw)) for (const rep of list) for (const [ed, info] of Object.entries(rep.editions)) {
    if (!out.has(ed)) out.set(ed, { start: info.start?.slice(0, 10) ?? '1600-01-01', end: info.end?.slice(0, 10) ?? null, citeType: CITE_TYPE[rep.cite_type] ?? 2 })
  }
  return out
}

const pad = (n: number, w: number) => String(n).padStart(w, '0')
const isoDate = (days: number) => new Date(Date.UTC(1950, 0, 1) + days * 86_400_000).toISOString().slice(0, 10)
const stamp = (date: string, rng: Rng) => `${date}T${pad(rng.int(8, 19), 2)}:${pad(rng.int(0, 59), 2)}:${pad(rng.int(0, 59), 2)}+00:00`
const slugify = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 75)

export function* generateSample(opts: SampleOptions): Generator<SampleRecord> {
  const rng = createRng(opts.seed ?? 1)
  const total = opts.opinions ?? 10_000
  const editions = loadEditions()
  const known = new Set(opts.courts.map((c) => c.id))
  const pool = COURT_POOL.filter(([id]) => known.has(id))
  const ts = (d: string) => stamp(d, rng)

  // Judges: a bench per court, each with an education, party, source and position.
  const schools = V.SCHOOLS.map((name, i) => ({ id: i + 1, name, ein: 100000000 + i * 7919, is_alias_of_id: null, date_created: '2015-01-01T00:00:00+00:00', date_modified: '2015-01-01T00:00:00+00:00' }))
  for (const s of schools) yield { resource: 'schools', record: s }
  const bench = new Map<string, number[]>()
  let personId = 0, positionId = 0, educationId = 0
  for (const [courtId, family] of pool) {
    const ids: number[] = []
    for (let j = 0; j < (family === 'scotus' ? 9 : 6); j++) {
      const id = ++personId
      ids.push(id)
      const first = rng.pick(V.GIVEN), last = rng.pick(V.SURNAMES)
      const dob = isoDate(rng.int(-25 * 365, -5 * 365))
      const created = ts('2016-03-01')
      yield { resource: 'people', record: {
        id, name_first: first, name_middle: '', name_last: last, name_suffix: '', slug: slugify(`${first} ${last}`), race: [rng.pick(['w', 'b', 'h', 'a'])],
        gender: rng.pick(['m', 'f']), religion: '', date_dob: dob, date_granularity_dob: '%Y-%m-%d', date_dod: null, date_granularity_dod: '',
        dob_city: 'Springfield', dob_state: 'IL', dob_country: 'United States', dod_city: '', dod_state: '', dod_country: '',
        fjc_id: family === 'state' ? null : 1000 + id, has_photo: false, date_completed: null, ftm_total_received: null, ftm_eid: null, is_alias_of_id: null,
        date_created: created, date_modified: created,
      } }
      yield { resource: 'educations', record: { id: ++educationId, person_id: id, school_id: rng.int(1, schools.length), degree_level: 'jd', degree_detail: '', degree_year: Number(dob.slice(0, 4)) + 25, date_created: created, date_modified: created } }
      yield { resource: 'political-affiliations', record: { id, person_id: id, political_party: rng.pick(V.PARTIES), source: 'b', date_start: null, date_granularity_start: '', date_end: null, date_granularity_end: '', date_created: created, date_modified: created } }
      yield { resource: 'sources', record: { id, person_id: id, url: `https://www.fjc.gov/history/judges/${id}`, date_accessed: '2016-03-01', notes: '', date_created: created, date_modified: created } }
      if (family !== 'state') yield { resource: 'aba-ratings', record: { id, person_id: id, year_rated: Number(dob.slice(0, 4)) + 45, rating: rng.weighted([['wq', 6], ['q', 3], ['nq', 1]]), date_created: created, date_modified: created } }
      const pos = ++positionId
      const start = isoDate(rng.int(0, 60 * 365))
      yield { resource: 'positions', record: {
        id: pos, person_id: id, court_id: courtId, position_type: family === 'scotus' ? 'ass-jus' : 'jud', job_title: '', sector: 2, organization_name: null,
        location_city: '', location_state: '', date_nominated: start, date_confirmation: start, date_start: start, date_termination: null, date_retirement: null,
        date_elected: null, date_recess_appointment: null, date_referred_to_judicial_committee: null, date_judicial_committee_action: null, date_hearing: null,
        date_granularity_start: '%Y-%m-%d', date_granularity_termination: '', judicial_committee_action: '', termination_reason: '', nomination_process: family === 'state' ? '' : 'fed_senate',
        vote_type: '', voice_vote: null, votes_yes: null, votes_no: null, votes_yes_percent: null, votes_no_percent: null,
        how_selected: family === 'state' ? 'e_part' : 'a_pres', has_inferred_values: false, date_created: created, date_modified: created,
      } }
      if (family === 'state' && rng.chance(0.5)) yield { resource: 'retention-events', record: { id: pos, position_id: pos, retention_type: 'reapp_gov', date_retention: isoDate(rng.int(20 * 365, 74 * 365)), votes_yes: null, votes_no: null, votes_yes_percent: null, votes_no_percent: null, unopposed: null, won: true, date_created: created, date_modified: created } }
    }
    bench.set(courtId, ids)
  }

  // Case law. Earlier clusters' citations are kept in a bounded ring so memory stays flat.
  const RING = 20_000
  const ring: { cite: CitedRef; caseName: string; year: string }[] = []
  const used = new Set<string>()
  let docketId = 0, clusterId = 0, opinionId = 0, citationId = 0, audioId = 0
  const days = 75 * 365
  while (opinionId < total) {
    const [courtId, family] = rng.weighted(pool.map((p) => [[p[0], p[1]] as const, p[2]] as const))
    // Dates advance with the corpus so that citations point backwards in time.
    const dateFiled = isoDate(Math.min(days, Math.floor((opinionId / total) * days) + rng.int(0, 200)))
    const year = dateFiled.slice(0, 4)
    const caseName = caseNameFor(rng, family)
    const created = ts(dateFiled)
    const id = ++docketId
    const judges = bench.get(courtId)!
    yield { resource: 'dockets', record: {
      id, court_id: courtId, case_name: caseName, case_name_short: caseName.split(' v. ')[0], case_name_full: caseName, slug: slugify(caseName),
      docket_number: docketNumber(rng, family, year), docket_number_core: '', source: family === 'district' ? 1 : 2, date_filed: dateFiled,
      date_argued: family === 'scotus' || family === 'circuit' ? dateFiled : null, date_terminated: rng.chance(0.7) ? dateFiled : null,
      assigned_to_id: family === 'district' ? rng.pick(judges) : null, nature_of_suit: rng.pick(['Civil Rights', 'Contract', 'Prisoner Petitions', 'Securities', '']),
      blocked: false, date_created: created, date_modified: created,
    } }
    const cid = ++clusterId
    const panel = family === 'scotus' ? judges : [rng.pick(judges), rng.pick(judges), rng.pick(judges)].filter((v, i, a) => a.indexOf(v) === i)
    yield { resource: 'clusters', record: {
      id: cid, docket_id: id, case_name: caseName, case_name_short: caseName.split(' v. ')[0], case_name_full: caseName, slug: slugify(caseName),
      date_filed: dateFiled, date_filed_is_approximate: false, judges: panel.map((p) => `Judge ${p}`).join(', '), panel_ids: panel,
      precedential_status: rng.weighted([['Published', 9], ['Unpublished', 1]]), source: 'C', citation_count: 0, blocked: false,
      date_created: created, date_modified: created,
    } }
    const families = REPORTERS[family === 'state' ? courtId : family] ?? REPORTERS.state
    const parallel: CitedRef[] = []
    for (const fam of families.slice(0, family === 'scotus' ? 2 : 1)) {
      const edition = fam.filter((e) => { const ed = editions.get(e); return ed && ed.start <= dateFiled && (!ed.end || ed.end >= dateFiled) }).at(-1) ?? fam[fam.length - 1]
      let cite: CitedRef
      do cite = { volume: rng.int(1, 999), reporter: edition, page: String(rng.int(1, 1500)) }
      while (used.has(`${cite.volume}|${cite.reporter}|${cite.page}`))
      used.add(`${cite.volume}|${cite.reporter}|${cite.page}`)
      parallel.push(cite)
      yield { resource: 'citations', record: { id: ++citationId, cluster_id: cid, ...cite, type: editions.get(edition)?.citeType ?? 2, date_created: created, date_modified: created } }
    }
    const nOpinions = Math.min(total - opinionId, rng.weighted([[1, 7], [2, 2], [3, 1]]))
    for (let k = 0; k < nOpinions; k++) {
      const oid = ++opinionId
      const cites: CitedRef[] = []
      const text = opinionText(rng, ring, cites)
      opts.onCited?.(oid, cites)
      const author = rng.pick(panel)
      const type = nOpinions === 1 ? '010combined' : k === 0 ? '020lead' : rng.pick(['030concurrence', '040dissent'])
      yield { resource: 'opinions', record: {
        id: oid, cluster_id: cid, author_id: author, author_str: '', joined_by_ids: [], per_curiam: false, joined_by_str: '', type,
        sha1: sha1ish(rng), page_count: Math.ceil(text.length / 3000), download_url: null, local_path: '',
        plain_text: rng.chance(0.8) ? text : '', html: '', html_with_citations: '', extracted_by_ocr: false, ordering_key: nOpinions > 1 ? k + 1 : null,
        ...(rng.chance(0.8) ? {} : { html: text.split('\n\n').map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`).join('\n') }),
        date_created: created, date_modified: created,
      } }
    }
    if ((family === 'scotus' || family === 'circuit') && rng.chance(0.05)) {
      yield { resource: 'audio', record: {
        id: ++audioId, docket_id: id, case_name: caseName, case_name_short: '', case_name_full: caseName, judges: '', panel_ids: panel, sha1: sha1ish(rng),
        source: 'C', download_url: `https://www.example-court.gov/audio/${id}.mp3`, local_path_mp3: `mp3/${year}/${id}.mp3`, local_path_original_file: '',
        filepath_ia: '', duration: rng.int(900, 4200), processing_complete: true, blocked: false, date_blocked: null, stt_status: 0, stt_source: null, stt_transcript: '',
        date_created: created, date_modified: created,
      } }
    }
    ring.push({ cite: rng.pick(parallel), caseName, year })
    if (ring.length > RING) ring.splice(0, ring.length - RING)
  }
}

function caseNameFor(rng: Rng, family: Family): string {
  const person = () => rng.pick(V.SURNAMES)
  const party = () => (rng.chance(0.4) ? rng.pick(V.COMPANIES) : person())
  if (family === 'state') return rng.weighted([[`State v. ${person()}`, 3], [`People v. ${person()}`, 2], [`${party()} v. ${party()}`, 4], [`In re Estate of ${person()}`, 1]])
  return rng.weighted([[`United States v. ${person()}`, 3], [`${party()} v. ${party()}`, 6], [`In re ${party()}`, 1]])
}

function docketNumber(rng: Rng, family: Family, year: string): string {
  const yy = year.slice(2)
  if (family === 'scotus') return `${yy}-${rng.int(1, 9999)}`
  if (family === 'circuit') return `${yy}-${pad(rng.int(1, 99999), 5)}`
  if (family === 'district') return `${rng.int(1, 4)}:${yy}-${rng.pick(['cv', 'cr'])}-${pad(rng.int(1, 99999), 5)}`
  return `${rng.pick(['S', 'A', 'B'])}${pad(rng.int(1, 999999), 6)}`
}

const sha1ish = (rng: Rng) => Array.from({ length: 40 }, () => '0123456789abcdef'[rng.int(0, 15)]).join('')

/** Legal-sounding prose citing 3–15 earlier clusters, with pin cites, Id., statutes and ~2% fabricated citations. */
function opinionText(rng: Rng, ring: { cite: CitedRef; caseName: string; year: string }[], cites: CitedRef[]): string {
  const paras: string[] = [rng.pick(V.OPENINGS)]
  const n = ring.length ? rng.int(3, 15) : 0
  for (let i = 0; i < rng.int(3, 10) || cites.length < n; i++) {
    const sentences: string[] = []
    for (let s = 0; s < rng.int(2, 5); s++) sentences.push(rng.pick(V.SENTENCES))
    if (cites.length < n) {
      if (rng.chance(0.02)) {
        const fake = { volume: rng.int(600, 999), reporter: rng.pick(['U.S.', 'F.3d', 'F. Supp. 2d']), page: String(rng.int(1, 1500)) }
        cites.push(fake)
        sentences.push(`See ${rng.pick(V.SURNAMES)} v. ${rng.pick(V.SURNAMES)}, ${fake.volume} ${fake.reporter} ${fake.page} (2001).`)
      } else {
        const target = rng.pick(ring)
        cites.push(target.cite)
        const pin = rng.chance(0.5) ? `, ${Number(target.cite.page) + rng.int(1, 20)}` : ''
        sentences.push(`See ${target.caseName}, ${target.cite.volume} ${target.cite.reporter} ${target.cite.page}${pin} (${target.year}).`)
        if (rng.chance(0.3)) sentences.push(`Id. at ${Number(target.cite.page) + rng.int(1, 30)}.`)
      }
    }
    if (rng.chance(0.2)) sentences.push(`The claim arises under ${rng.pick(V.STATUTES)}.`)
    paras.push(sentences.join(' '))
  }
  paras.push(rng.pick(V.CLOSINGS))
  return paras.join('\n\n')
}
