/**
 * Case captions and docket numbers in the style of the court deciding them: "United States v.
 * Alvarez" in a circuit, "People v. Nguyen" in California, "In re Estate of Moore" in probate,
 * "1:19-cv-04567" in a district court, "S123456" in the California Supreme Court.
 */
import type { Family, PoolCourt } from './court-pool.js'
import { isoDay } from './dates.js'
import type { Rng } from './random.js'
import * as V from './vocabulary.js'

export interface Parties {
  caseName: string
  /** case_name_short: the name a later opinion uses for the case ("Alvarez"). */
  short: string
  caseNameFull: string
  /** How the opinion's prose refers to each side: "Alvarez", "the government", "the City". */
  p: string
  d: string
  /** In a criminal case, how the prose refers to the accused. */
  accused?: string
}

const person = (rng: Rng) => rng.pick(V.SURNAMES)
const fullPerson = (rng: Rng) => `${rng.pick(rng.chance(0.5) ? V.GIVEN_MALE : V.GIVEN_FEMALE)} ${rng.pick(V.SURNAMES)}`
function company(rng: Rng): string {
  return `${rng.chance(0.5) ? rng.pick(V.SURNAMES) : rng.pick(V.COMPANY_PLACES)} ${rng.pick(V.COMPANY_NOUNS)}`
}
/** "Acme Manufacturing Co." → "Acme"; "City of Dayton" → "the City". */
function refOf(name: string): string {
  if (name.startsWith('City of')) return 'the City'
  if (name.startsWith('County of')) return 'the County'
  if (/Commissioner|Secretary|Commission|Board|Agency|Department/.test(name)) return name.includes('Commissioner') ? 'the Commissioner' : name.includes('Secretary') ? 'the Secretary' : 'the agency'
  return name.split(/ (?:Manufacturing|Industries|Holdings|Insurance|Mutual|Trust|Savings|Railroad|Freight|Construction|Chemical|Steel|Energy|Gas|Telephone|Pharmaceuticals|Health|Logistics|Properties|Motors|Foods|Airlines|Software|Records|Publishing|Music|Pictures|Media|Photography|Riverkeeper|Environmental|Audubon|Clean Air|Watershed|&)/)[0]
}

const STATES = new Set(['Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware', 'Florida', 'Georgia', 'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky', 'Louisiana', 'Maine', 'Maryland', 'Massachusetts', 'Michigan', 'Minnesota', 'Mississippi', 'Missouri', 'Montana', 'Nebraska', 'Nevada', 'New Hampshire', 'New Jersey', 'New Mexico', 'New York', 'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma', 'Oregon', 'Pennsylvania', 'Rhode Island', 'South Carolina', 'South Dakota', 'Tennessee', 'Texas', 'Utah', 'Vermont', 'Virginia', 'Washington', 'West Virginia', 'Wisconsin', 'Wyoming'])
const CRIMINAL_AREAS = new Set(['criminal', 'fourth_amendment', 'sentencing'])

/**
 * The caption of a real case ("Miranda v. Arizona", "In re Gault") as `caseParties` would give
 * it: the short name later opinions use, the full caption with the parties' roles, and how the
 * opinion's prose refers to each side.
 */
export function namedParties(name: string, court: PoolCourt): Parties {
  if (name.startsWith('In re ')) {
    const who = name.slice(6)
    return { caseName: name, short: who.split(/,? /)[0], caseNameFull: name, p: who.split(/,? /)[0], d: 'the respondent' }
  }
  const [a, b] = name.split(' v. ')
  const [ra, rb] = ROLES[court.family]
  const word = (x: string) => {
    const w = x.split(',')[0].split(' ')
    return /^(New|United|North|South|West|East|National|American|Central|San|St\.|City|Board|Department)$/.test(w[0]) && w[1] ? w.slice(0, w[1] === 'of' ? 3 : 2).join(' ') : w[0]
  }
  const government = a === 'United States' || a === court.prosecutor || STATES.has(a)
  const ref = (x: string) => (x === 'United States' ? 'the government' : word(x))
  return {
    caseName: name, short: government ? word(b) : word(a), caseNameFull: `${a}, ${ra}, v. ${b}, ${rb}.`,
    p: ref(a), d: ref(b), accused: government ? ref(b) : ref(a),
  }
}

const ROLES: Record<Family, [string, string]> = {
  scotus: ['Petitioner', 'Respondent'], circuit: ['Appellant', 'Appellee'], appellate: ['Appellant', 'Appellee'], supreme: ['Appellant', 'Appellee'],
  district: ['Plaintiff', 'Defendant'], bankruptcy: ['Debtor', 'Creditor'],
}

/** The caption of a new case of `category` in `court`. */
export function caseParties(rng: Rng, court: PoolCourt, category: string): Parties {
  const federal = ['scotus', 'circuit', 'district', 'bankruptcy'].includes(court.family)
  let a: string, b: string
  let inRe: string | null = null
  switch (category) {
    case 'criminal': case 'fourth_amendment': case 'sentencing': {
      const defendant = person(rng)
      if (federal) {
        if (court.family === 'scotus' && rng.chance(0.5)) { a = defendant; b = 'United States' } else { a = 'United States'; b = defendant }
      } else { a = court.prosecutor; b = defendant }
      break
    }
    case 'habeas': a = person(rng); b = rng.chance(0.8) ? person(rng) : 'Warden'; break
    case 'first_amendment':
      a = rng.chance(0.3) ? `${rng.pick(V.CITIES)} ${rng.pick(V.ADVOCACY_GROUPS)}` : person(rng)
      b = rng.chance(0.4) ? `City of ${rng.pick(V.CITIES)}` : rng.chance(0.5) ? `Board of Education of ${rng.pick(V.CITIES)} School District` : person(rng); break
    case 'copyright':
      a = rng.chance(0.6) ? `${rng.pick(V.SURNAMES)} ${rng.pick(V.MEDIA_NOUNS)}` : person(rng); b = rng.chance(0.7) ? company(rng) : `${rng.pick(V.COMPANY_PLACES)} ${rng.pick(V.MEDIA_NOUNS)}`; break
    case 'trademark': a = company(rng); b = company(rng); break
    case 'antitrust':
      if (rng.chance(0.15)) inRe = `In re ${refOf(company(rng))} Antitrust Litigation`
      a = rng.chance(0.12) ? 'United States' : rng.chance(0.1) ? 'Federal Trade Commission' : company(rng); b = company(rng); break
    case 'environmental':
      a = rng.chance(0.15) ? 'United States' : `${rng.pick(V.CITIES)} ${rng.pick(V.ENVIRONMENTAL_GROUPS)}`
      b = a === 'United States' ? company(rng) : rng.chance(0.5) ? rng.pick(V.ENVIRONMENTAL_AGENCIES) : company(rng); break
    case 'civil_rights': a = person(rng); b = rng.chance(0.4) ? `City of ${rng.pick(V.CITIES)}` : rng.chance(0.5) ? `County of ${rng.pick(V.CITIES)}` : person(rng); break
    case 'employment': case 'tort': a = person(rng); b = company(rng); break
    case 'contract': a = rng.chance(0.6) ? company(rng) : person(rng); b = company(rng); break
    case 'patent': a = company(rng); b = company(rng); break
    case 'securities':
      if (rng.chance(0.15)) inRe = `In re ${refOf(company(rng))} Securities Litigation`
      a = rng.chance(0.2) ? 'Securities and Exchange Commission' : person(rng); b = rng.chance(0.2) ? person(rng) : company(rng); break
    case 'immigration': a = `${person(rng)}-${person(rng)}`; b = person(rng); break
    case 'administrative': a = rng.chance(0.5) ? company(rng) : person(rng); b = rng.pick(V.AGENCIES_FEDERAL); break
    case 'tax': a = person(rng); b = 'Commissioner of Internal Revenue'; break
    case 'family':
      if (rng.chance(0.5)) inRe = `In re Marriage of ${person(rng)}`
      a = person(rng); b = person(rng); break
    case 'probate':
      inRe = rng.chance(0.6) ? `In re Estate of ${fullPerson(rng)}` : `In re ${person(rng)} Revocable Trust`
      a = person(rng); b = person(rng); break
    case 'property': a = person(rng); b = rng.chance(0.4) ? `Zoning Board of Appeals of ${rng.pick(V.CITIES)}` : person(rng); break
    case 'bankruptcy':
      inRe = `In re ${rng.chance(0.5) ? company(rng) : fullPerson(rng)}`
      a = 'the debtor'; b = 'the trustee'; break
    default: a = person(rng); b = person(rng)
  }
  if (inRe) {
    const [p, d] = category === 'bankruptcy' ? ['the debtor', rng.chance(0.5) ? 'the trustee' : 'the creditor'] : [refOf(a), refOf(b)]
    return { caseName: inRe, short: inRe.replace(/^In re (Estate of |Marriage of )?/, '').split(' ').slice(0, 2).join(' '), caseNameFull: inRe, p, d }
  }
  let [ra, rb] = ROLES[court.family]
  const caseName = `${a} v. ${b}`
  const prosecution = a === 'United States' || a === court.prosecutor
  const short = prosecution || a === 'Securities and Exchange Commission' ? refOf(b) : refOf(a)
  const ref = (x: string) => (x === 'United States' ? 'the government' : x === court.prosecutor ? `the ${x}` : x === 'Warden' ? 'the Warden' : refOf(x))
  let p = ref(a), d = ref(b)
  // On appeal from a conviction the defendant appeals: the caption keeps the prosecution first.
  if (CRIMINAL_AREAS.has(category) && prosecution && court.family !== 'district' && court.family !== 'scotus') {
    [ra, rb] = [rb, ra]
    ;[p, d] = [d, p]
  }
  const full = `${a === 'United States' ? 'UNITED STATES of America' : a}, ${ra}, v. ${b === 'United States' ? 'UNITED STATES' : b}, ${rb}.`
  const accused = CRIMINAL_AREAS.has(category) ? (prosecution ? ref(b) : ref(a)) : undefined
  return { caseName, short, caseNameFull: full, p, d, accused }
}

type Part = string | ((rng: Rng, day: number, criminal: boolean) => string)
const pad = (n: number, w: number) => String(n).padStart(w, '0')
const compiled = new Map<string, Part[]>()

/** Compiles a docket-number template once: {yy} {yyyy} {n} {n2}..{n6} {o} {t} and {a|b|c} choices. */
function compile(style: string): Part[] {
  const parts: Part[] = []
  for (const piece of style.split(/(\{[^}]+\})/)) {
    if (!piece.startsWith('{')) { if (piece) parts.push(piece); continue }
    const token = piece.slice(1, -1)
    const digits = /^n(\d)$/.exec(token)
    if (token === 'yy') parts.push((_r, day) => isoDay(day).slice(2, 4))
    else if (token === 'yyyy') parts.push((_r, day) => isoDay(day).slice(0, 4))
    else if (token === 'n') parts.push((r) => String(r.int(1, 9999)))
    else if (digits) parts.push((r) => pad(r.int(1, 10 ** Number(digits[1]) - 1), Number(digits[1])))
    else if (token === 'o') parts.push((r) => String(r.int(1, 4)))
    else if (token === 't') parts.push((_r, _d, criminal) => (criminal ? 'cr' : 'cv'))
    else if (token.includes('|')) { const choices = token.split('|'); parts.push((r) => r.pick(choices)) }
    else throw new Error(`unknown docket-number token {${token}} in ${style}`)
  }
  return parts
}

/** A docket number in the court's style for a case filed on `day`, and its core (federal only: yy + serial). */
export function docketNumber(rng: Rng, court: PoolCourt, day: number, criminal: boolean): { number: string; core: string } {
  let parts = compiled.get(court.docketStyle)
  if (!parts) compiled.set(court.docketStyle, (parts = compile(court.docketStyle)))
  let number = ''
  for (const p of parts) number += typeof p === 'string' ? p : p(rng, day, criminal)
  const core = court.family === 'district' || court.family === 'circuit' || court.family === 'bankruptcy'
    ? number.replace(/^\d:/, '').replace(/-(cv|cr)-/, '').replace('-', '')
    : ''
  return { number, core }
}
