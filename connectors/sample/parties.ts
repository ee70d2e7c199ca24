/**
 * The parties of a federal archive docket and their lawyers: the attorneys (each knowing the
 * dockets they appear in), the parties (each knowing its dockets and attorneys), the roles that
 * link them in this docket, each party's type, and the counts and complaints a criminal
 * defendant faces. Every hidden copy the catalogue declares is filled from the same choices.
 */
import type { Family, PoolCourt } from './court-pool.js'
import type { Parties } from './cases.js'
import type { SampleContext } from './context.js'
import { isoDay } from './dates.js'
import type { SampleRecord } from './records.js'
import type { Category } from './vocabulary.js'
import * as V from './vocabulary.js'
import * as A from './archive-vocabulary.js'

/** A federal docket whose record the archive holds. */
export interface CaseFile {
  docketId: number
  court: PoolCourt
  category: Category
  caption: Parties
  /** Docket number as the court writes it, and the case id of the court's records system. */
  number: string
  recordsCaseId: string
  filedDay: number
  /** Day of the last entry. */
  lastDay: number
  closed: boolean
  /** Judge (name) the case is before, or the panel's presiding judge. */
  judge: string
  /** Bankruptcy chapter, for bankruptcy dockets. */
  chapter: string
}

interface Side { parties: { name: string; type: string; extra: string; terminated: number | null; defendant: boolean }[]; lawyers: 'firm' | 'government' | 'defender' | 'none' }

/** Lawyers on a side: a firm sends one to three, an office one or two. */
const FIRM_SIZE = [[1, 60], [2, 30], [3, 10]] as const
const OFFICE_SIZE = [[1, 75], [2, 25]] as const
const AREA = ['212', '213', '312', '415', '202', '305', '404', '617', '713', '214', '206', '215'] as const

/** "Alvarez" → "Maria Alvarez"; names with more than one word (companies, agencies) stay as they are. */
function fullName(ctx: SampleContext, name: string): string {
  if (/\s/.test(name) || name === 'Warden') return name === 'Warden' ? `${ctx.rng.pick(V.GIVEN_MALE)} ${ctx.rng.pick(V.SURNAMES)}, Warden` : name
  return `${ctx.rng.pick(ctx.rng.chance(0.5) ? V.GIVEN_MALE : V.GIVEN_FEMALE)} ${name}`
}

function sides(ctx: SampleContext, f: CaseFile): [Side, Side] {
  const { rng } = ctx
  const family: Family = f.court.family
  const name = f.caption.caseName
  const endDay = f.closed ? f.lastDay : null
  if (name.startsWith('In re ')) {
    const debtor = name.slice(6)
    const creditors: Side['parties'] = []
    for (let k = rng.int(1, 2); k > 0; k--) creditors.push({ name: rng.pick(A.CREDITORS), type: 'Creditor', extra: '', terminated: null, defendant: false })
    creditors.push({ name: `${rng.pick(V.GIVEN_FEMALE)} ${rng.pick(V.SURNAMES)}`, type: 'Trustee', extra: `Chapter ${f.chapter || '7'} Trustee`, terminated: null, defendant: false })
    return [{ parties: [{ name: debtor, type: family === 'bankruptcy' ? 'Debtor' : 'Petitioner', extra: '', terminated: null, defendant: false }], lawyers: 'firm' }, { parties: creditors, lawyers: 'firm' }]
  }
  const [a, b] = name.split(' v. ')
  const government = a === 'United States'
  const criminal = f.category.criminal && government
  const [ta, tb] = family === 'circuit' ? (criminal ? ['Appellee', 'Appellant'] : ['Appellant', 'Appellee'])
    : family === 'scotus' ? ['Petitioner', 'Respondent'] : ['Plaintiff', 'Defendant']
  const first: Side = { parties: [{ name: government ? 'USA' : fullName(ctx, a), type: ta, extra: '', terminated: null, defendant: false }], lawyers: government ? 'government' : 'firm' }
  const second: Side = { parties: [{ name: b === 'United States' ? 'USA' : fullName(ctx, b ?? 'Doe'), type: tb, extra: '', terminated: null, defendant: criminal && family === 'district' }], lawyers: criminal ? 'defender' : b === 'United States' ? 'government' : 'firm' }
  if (!criminal && family === 'district' && rng.chance(0.3)) second.parties.push({ name: rng.chance(0.5) ? 'Does 1-10' : fullName(ctx, rng.pick(V.SURNAMES)), type: tb, extra: '', terminated: endDay !== null && rng.chance(0.5) ? endDay - rng.int(0, 60) : null, defendant: false })
  if (criminal && family === 'district' && rng.chance(0.25)) second.parties.push({ name: fullName(ctx, rng.pick(V.SURNAMES)), type: tb, extra: '', terminated: null, defendant: true })
  if (!government && ['civil_rights', 'habeas'].includes(f.category.name) && rng.chance(0.3)) { first.lawyers = 'none'; first.parties[0].extra = 'PRO SE' }
  return [first, second]
}

/** Emits attorneys, parties, roles, party types and criminal counts and complaints; returns the attorneys' names. */
export function* partyRecords(ctx: SampleContext, f: CaseFile): Generator<SampleRecord, string[]> {
  const { rng, next } = ctx
  const [created, modified] = ctx.stamp(f.filedDay)
  const state = f.court.state === 'us' ? 'DC' : f.court.state.toUpperCase()
  const names: string[] = []
  const plan: { side: Side; attorneys: number[] }[] = []
  for (const side of sides(ctx, f)) {
    const attorneys: number[] = []
    const count = side.lawyers === 'none' ? 0 : rng.weighted(side.lawyers === 'firm' ? FIRM_SIZE : OFFICE_SIZE)
    const firm = side.lawyers === 'government' ? A.US_ATTORNEY : side.lawyers === 'defender' ? (rng.chance(0.6) ? A.LEGAL_AID[0] : rng.pick(A.FIRM_NAMES)) : rng.pick(A.FIRM_NAMES)
    const domain = side.lawyers === 'government' ? 'usdoj.gov' : side.lawyers === 'defender' && firm === A.LEGAL_AID[0] ? 'fd.org' : `${firm.split(/[ ,&]/)[0].toLowerCase()}law.com`
    const area = rng.pick(AREA)
    const street = `${rng.int(100, 2999)} ${rng.pick(A.STREETS)}`
    for (let k = 0; k < count; k++) {
      const first = rng.pick(rng.chance(0.45) ? V.GIVEN_FEMALE : V.GIVEN_MALE), last = rng.pick(V.SURNAMES)
      const name = `${first} ${rng.chance(0.4) ? `${rng.pick(V.MIDDLE_INITIALS)}. ` : ''}${last}`
      const phone = `(${area}) ${rng.int(200, 999)}-${rng.int(1000, 9999)}`
      const fax = rng.chance(0.5) ? `(${area}) ${rng.int(200, 999)}-${rng.int(1000, 9999)}` : ''
      const email = `${first[0]}${last}@${domain}`.toLowerCase()
      const id = next('attorneys')
      attorneys.push(id)
      names.push(name)
      const title = side.lawyers === 'government' ? 'Assistant U.S. Attorney\n' : ''
      yield { resource: 'attorneys', record: {
        id, date_created: created, date_modified: modified, name,
        contact_raw: `${title}${firm}\n${street}\nSuite ${rng.int(2, 40)}00\n${rng.pick(V.CITIES)}, ${state} ${rng.int(10_000, 99_999)}\n${phone}\n${fax ? `Fax: ${fax}\n` : ''}Email: ${email}\n${k === 0 ? 'LEAD ATTORNEY\n' : ''}ATTORNEY TO BE NOTICED`,
        phone, fax, email, docket_ids: [f.docketId],
      } }
    }
    plan.push({ side, attorneys })
  }
  const roles: SampleRecord[] = [], types: SampleRecord[] = [], crimes: SampleRecord[] = []
  for (const { side, attorneys } of plan) {
    for (const p of side.parties) {
      const party = next('parties')
      yield { resource: 'parties', record: { id: party, date_created: created, date_modified: modified, name: p.name, extra_info: p.extra, docket_ids: [f.docketId], attorney_ids: attorneys } }
      attorneys.forEach((attorney, k) => {
        const withdrawn = k > 0 && rng.chance(0.1)
        const kinds = withdrawn ? [6] : k === 0 ? (rng.chance(0.5) ? [2, 1] : [2]) : rng.chance(0.08) ? [4] : [1]
        for (const role of kinds) roles.push({ resource: 'attorney-roles', record: { id: next('attorney-roles'), role, docket_id: f.docketId, party_id: party, attorney_id: attorney, date_action: role === 6 ? isoDay(Math.min(f.lastDay, f.filedDay + rng.int(30, 400))) : null } })
      })
      const partyType = next('party-types')
      types.push({ resource: 'party-types', record: {
        id: partyType, party_id: party, docket_id: f.docketId, name: p.type, date_terminated: p.terminated === null ? null : isoDay(Math.max(f.filedDay, p.terminated)),
        extra_info: p.extra, highest_offense_level_opening: p.defendant ? 'Felony' : '', highest_offense_level_terminated: p.defendant && f.closed ? rng.pick(['Felony', 'Felony', 'Misdemeanor']) : '',
      } })
      if (!p.defendant) continue
      for (let c = rng.int(1, 4), n = 1; n <= c; n++) {
        crimes.push({ resource: 'criminal-counts', record: {
          id: next('criminal-counts'), name: `${rng.pick(A.COUNTS)} (${n})`, disposition: f.closed ? rng.pick(A.COUNT_DISPOSITIONS) : '', status: f.closed ? 2 : 1, party_type_id: partyType,
        } })
      }
      if (rng.chance(0.4)) crimes.push({ resource: 'criminal-complaints', record: { id: next('criminal-complaints'), name: rng.pick(A.COUNTS), disposition: f.closed ? 'Dismissed upon indictment' : '', party_type_id: partyType } })
    }
  }
  yield* roles
  yield* types
  yield* crimes
  return names
}
