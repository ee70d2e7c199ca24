/**
 * The courts the generated corpus is decided in: the Supreme Court, the courts of appeals, the
 * district and bankruptcy courts, and the state supreme and intermediate appellate courts, taken
 * from the court records by jurisdiction. Each carries what the generator needs to write like
 * that court: how many judges sit and in what panels, its reporters, its docket-number style,
 * its state and circuit. Built once, before any record is generated.
 */
import { readFileSync } from 'node:fs'
import type { CourtRecord, RawCourt } from './courts.js'
import { dayOf } from './dates.js'
import { projectFile } from '../../core/programs.js'

export type Family = 'scotus' | 'circuit' | 'district' | 'bankruptcy' | 'supreme' | 'appellate'

export interface PoolCourt {
  id: string
  family: Family
  fullName: string
  /** Court abbreviation for citation parentheticals ("9th Cir.", "N.D. Cal."). */
  citeAs: string
  /** Postal code of the state, lower case; "us" for the national courts. */
  state: string
  /** Court of appeals that hears appeals from this court (district and bankruptcy courts). */
  circuit: string | null
  startDay: number
  weight: number
  seats: number
  /** Judges on a panel: 0 means the whole bench sits. */
  panel: number
  /** Reporter families (reporters.json keys) of its published decisions, first is primary. */
  reporters: readonly string[]
  /** How the court numbers its dockets, a template for `docketNumber`. */
  docketStyle: string
  /** How criminal cases of a state court are named: State, People, Commonwealth. */
  prosecutor: string
}

/** Share of generated dockets by kind of court. Seats are fewer than real benches: a sample needs a bench, not every judge. */
const FAMILY_SHARE: Record<Family, number> = { scotus: 0.04, circuit: 0.26, district: 0.22, bankruptcy: 0.03, supreme: 0.25, appellate: 0.2 }

const SEATS: Record<Family, { seats: number; panel: number }> = {
  scotus: { seats: 9, panel: 0 }, circuit: { seats: 8, panel: 3 }, district: { seats: 2, panel: 1 },
  bankruptcy: { seats: 1, panel: 1 }, supreme: { seats: 7, panel: 0 }, appellate: { seats: 4, panel: 3 },
}

/** Courts that decide more: three times the weight of the others of their kind. */
const BUSY = new Set([
  'ca9', 'ca5', 'ca2', 'ca3', 'ca11', 'nysd', 'cand', 'cacd', 'ilnd', 'txsd', 'dcd', 'nyed', 'paed', 'mad', 'flsd', 'njd', 'vaed',
  'mied', 'txnd', 'gand', 'nysb', 'deb', 'cacb', 'txsb',
])
const BUSY_STATES = new Set(['ca', 'ny', 'tx', 'fl', 'il', 'pa', 'oh', 'mi', 'nj', 'ga', 'ma', 'wa'])

/** Which circuit hears a state's federal appeals. Alabama, Florida and Georgia sat in the Fifth until 1981-10-01. */
export const CIRCUIT_OF_STATE: Record<string, string> = {
  me: 'ca1', ma: 'ca1', nh: 'ca1', ri: 'ca1', pr: 'ca1', ct: 'ca2', ny: 'ca2', vt: 'ca2', de: 'ca3', nj: 'ca3', pa: 'ca3', vi: 'ca3',
  md: 'ca4', nc: 'ca4', sc: 'ca4', va: 'ca4', wv: 'ca4', la: 'ca5', ms: 'ca5', tx: 'ca5', ky: 'ca6', mi: 'ca6', oh: 'ca6', tn: 'ca6',
  il: 'ca7', in: 'ca7', wi: 'ca7', ar: 'ca8', ia: 'ca8', mn: 'ca8', mo: 'ca8', ne: 'ca8', nd: 'ca8', sd: 'ca8', ak: 'ca9', az: 'ca9',
  ca: 'ca9', hi: 'ca9', id: 'ca9', mt: 'ca9', nv: 'ca9', or: 'ca9', wa: 'ca9', gu: 'ca9', mp: 'ca9', co: 'ca10', ks: 'ca10', nm: 'ca10',
  ok: 'ca10', ut: 'ca10', wy: 'ca10', al: 'ca11', fl: 'ca11', ga: 'ca11', dc: 'cadc',
}
export const ELEVENTH_CIRCUIT_DAY = dayOf('1981-10-01')

/** West's regional reporter of each state. */
const REGIONAL: Record<string, string> = {
  ct: 'A.', de: 'A.', dc: 'A.', me: 'A.', md: 'A.', nh: 'A.', nj: 'A.', pa: 'A.', ri: 'A.', vt: 'A.',
  il: 'N.E.', in: 'N.E.', ma: 'N.E.', ny: 'N.E.', oh: 'N.E.',
  ia: 'N.W.', mi: 'N.W.', mn: 'N.W.', ne: 'N.W.', nd: 'N.W.', sd: 'N.W.', wi: 'N.W.',
  ak: 'P.', az: 'P.', ca: 'P.', co: 'P.', hi: 'P.', id: 'P.', ks: 'P.', mt: 'P.', nv: 'P.', nm: 'P.', ok: 'P.', or: 'P.', ut: 'P.', wa: 'P.', wy: 'P.',
  ga: 'S.E.', nc: 'S.E.', sc: 'S.E.', va: 'S.E.', wv: 'S.E.',
  ar: 'S.W.', ky: 'S.W.', mo: 'S.W.', tn: 'S.W.', tx: 'S.W.',
  al: 'So.', fl: 'So.', la: 'So.', ms: 'So.',
}

/** Official reports of intermediate appellate courts that have them, cited before the regional or state reporter. */
const APPELLATE_REPORTERS: Record<string, readonly string[]> = {
  calctapp: ['Cal. App.', 'Cal. Rptr.'], nyappdiv: ['A.D.', 'N.Y.S.'], illappct: ['Ill. App.', 'N.E.'], pasuperct: ['Pa. Super.', 'A.'],
  njsuperctappdiv: ['N.J. Super.', 'A.'], ohioctapp: ['Ohio App.', 'N.E.'], michctapp: ['Mich. App.', 'N.W.'], washctapp: ['Wash. App.', 'P.'],
}
/** Where the court's citation string is not the official reporter's abbreviation. */
const OFFICIAL_REPORTER: Record<string, string> = { ny: 'N.Y.', ohio: 'Ohio St.' }
/** Where the data set's citation string is not the Bluebook abbreviation used in parentheticals. */
const CITE_AS: Record<string, string> = { ny: 'N.Y.' }

/** Docket-number templates: {yy} {yyyy} {n4}... digits, {o} office, {t} case type, {a|b|c} a choice. */
const DOCKET_STYLES: Record<string, string> = {
  scotus: '{yy}-{n}', circuit: '{yy}-{n5}', district: '{o}:{yy}-{t}-{n5}', bankruptcy: '{yy}-{n5}',
  cal: 'S{n6}', fla: 'SC{yy}-{n4}', tex: '{yy}-{n4}', ny: 'No. {n2}', ill: '{n6}', pa: '{n2} {EAP|MAP|WAP} {yyyy}', mass: 'SJC-{n5}',
  nj: 'A-{n2}-{yy}', ga: 'S{yy}A{n4}', mich: '{n6}', ohio: '{yyyy}-{n4}', supreme: '{yy}-{n4}',
  calctapp: '{A|B|C|D|E|F|G|H}{n6}', nyappdiv: '{yyyy}-{n5}', texapp: '{01|05|14|04}-{yy}-{n5}-CV', illappct: '1-{yy}-{n4}',
  fladistctapp: '{1|2|3|4|5}D{yy}-{n4}', appellate: '{A|CA|AP}-{yy}-{n4}',
}
const PROSECUTOR: Record<string, string> = { ca: 'People', ny: 'People', il: 'People', mi: 'People', co: 'People', pa: 'Commonwealth', ma: 'Commonwealth', va: 'Commonwealth', ky: 'Commonwealth' }

export const STATES_FILE = projectFile('data', 'courts', 'states.json')

/** Location name of the courts data set → postal code ("Washington D.C." → "dc"). */
export function statePostalCodes(file: URL | string = STATES_FILE): Map<string, string> {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>
  const out = new Map<string, string>()
  for (const [code, name] of Object.entries(raw)) if (/^[A-Z]{2}$/.test(code)) out.set(name.toLowerCase(), code.toLowerCase())
  for (const dc of ['washington d.c.', 'd.c.', 'dc', 'district of columbia']) out.set(dc, 'dc')
  return out
}

const isCircuit = (id: string) => /^ca(\d+|dc|fc)$/.test(id)

/**
 * The pool, from the court records (which courts exist, their jurisdiction and dates) and the
 * raw data set (where each court sits). Only courts in use with a citation string are taken; a
 * state contributes its highest court (one per state) and its appellate courts.
 */
export function buildPool(courts: readonly CourtRecord[], raw: readonly RawCourt[], hasReporter: (family: string) => boolean): PoolCourt[] {
  const postal = statePostalCodes()
  const location = new Map(raw.map((c) => [c.id, c.location ?? '']))
  const stateOf = (id: string) => postal.get((location.get(id) ?? '').toLowerCase()) ?? ''
  const picked: Omit<PoolCourt, 'weight'>[] = []
  const supremeByState = new Map<string, CourtRecord>()
  const add = (c: CourtRecord, family: Family, state: string, circuit: string | null, reporters: string[], style: string) => picked.push({
    id: c.id, family, fullName: c.full_name, citeAs: CITE_AS[c.id] ?? c.citation_string, state, circuit,
    startDay: c.start_date ? dayOf(c.start_date) : dayOf('1900-01-01'), ...SEATS[family], reporters: reporters.filter(hasReporter),
    docketStyle: DOCKET_STYLES[c.id] ?? DOCKET_STYLES[family], prosecutor: PROSECUTOR[state] ?? 'State',
  })
  for (const c of courts) {
    if (!c.in_use || !c.citation_string) continue
    const state = stateOf(c.id)
    if (c.id === 'scotus') add(c, 'scotus', 'us', null, ['U.S.', 'S. Ct.', 'L. Ed.'], DOCKET_STYLES.scotus)
    else if (c.jurisdiction === 'F' && isCircuit(c.id)) add(c, 'circuit', 'us', null, ['F.', "F. App'x", 'WL'], DOCKET_STYLES.circuit)
    else if (c.jurisdiction === 'FD' && /^[a-z]{2}[nsewmc]?d$/.test(c.id) && CIRCUIT_OF_STATE[c.id.slice(0, 2)]) {
      add(c, 'district', c.id.slice(0, 2), CIRCUIT_OF_STATE[c.id.slice(0, 2)], ['F. Supp.', 'WL', 'U.S. Dist. LEXIS'], DOCKET_STYLES.district)
    } else if (c.jurisdiction === 'FB' && /^[a-z]{2}[nsewmc]?b$/.test(c.id) && CIRCUIT_OF_STATE[c.id.slice(0, 2)]) {
      add(c, 'bankruptcy', c.id.slice(0, 2), CIRCUIT_OF_STATE[c.id.slice(0, 2)], ['B.R.', 'WL'], DOCKET_STYLES.bankruptcy)
    } else if (c.jurisdiction === 'S' && REGIONAL[state] && !/Criminal/.test(c.full_name)) {
      const prev = supremeByState.get(state)
      if (!prev || c.citation_string.length < prev.citation_string.length) supremeByState.set(state, c)
    } else if (c.jurisdiction === 'SA' && REGIONAL[state] && !c.parent_court_id) {
      add(c, 'appellate', state, null, [...new Set([...(APPELLATE_REPORTERS[c.id] ?? []), REGIONAL[state]])], DOCKET_STYLES.appellate)
    }
  }
  for (const [state, c] of supremeByState) add(c, 'supreme', state, null, [OFFICIAL_REPORTER[c.id] ?? c.citation_string, REGIONAL[state]], DOCKET_STYLES.supreme)

  const raw_weight = (p: Omit<PoolCourt, 'weight'>) => (BUSY.has(p.id) || ((p.family === 'supreme' || p.family === 'appellate') && BUSY_STATES.has(p.state)) ? 3 : 1)
  const familyTotal = new Map<Family, number>()
  for (const p of picked) familyTotal.set(p.family, (familyTotal.get(p.family) ?? 0) + raw_weight(p))
  return picked.map((p) => ({ ...p, weight: (FAMILY_SHARE[p.family] * raw_weight(p)) / familyTotal.get(p.family)! }))
}

/** The circuit that heard a district's appeals on `day`. */
export function circuitOn(court: PoolCourt, day: number): string | null {
  if (court.circuit === 'ca11' && day < ELEVENTH_CIRCUIT_DAY) return 'ca5'
  return court.circuit
}
