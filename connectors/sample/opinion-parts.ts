/**
 * The parts of a decision that depend on the court rather than on the text: how long it is and
 * how many opinions it has, whether it is published and in which reporters, its outcome and
 * disposition, the caption and author lines of its opinions, its syllabus (Supreme Court) or
 * summary, and how later opinions write its court and date in a citation.
 */
import type { Judge } from './judges.js'
import type { Family, PoolCourt } from './court-pool.js'
import { bluebookDate, dayOf, isoDay, longDate } from './dates.js'
import type { Rng } from './random.js'
import type { Edition, ReporterIndex } from './reporters.js'
import type { Outcome } from './text.js'
import type { Category } from './vocabulary.js'

export const CASE_PAGES: Record<Family, [number, number]> = { scotus: [8, 45], circuit: [4, 20], district: [3, 18], bankruptcy: [3, 15], supreme: [3, 16], appellate: [3, 14] }
export const OPINIONS_PER_CLUSTER: Record<Family, readonly (readonly [number, number])[]> = {
  scotus: [[1, 40], [2, 30], [3, 30]], circuit: [[1, 78], [2, 16], [3, 6]], supreme: [[1, 70], [2, 20], [3, 10]], appellate: [[1, 85], [2, 12], [3, 3]],
  district: [[1, 1]], bankruptcy: [[1, 1]],
}
/** Who decided the case below, as the opinion names it. */
export const LOWER: Record<Family, string> = { scotus: 'the court of appeals', circuit: 'the district court', district: 'the magistrate judge', bankruptcy: 'the trustee', supreme: 'the court of appeals', appellate: 'the trial court' }

export const DISPOSITION: Record<Outcome, string> = {
  affirmed: 'Affirmed', reversed: 'Reversed and remanded', vacated: 'Vacated and remanded', mixed: 'Affirmed in part, reversed in part, and remanded',
  granted: 'Motion granted', denied: 'Motion denied',
}

/** How the case came out: trial courts rule on motions, petitions for review of immigration orders are mostly denied, appeals mostly affirmed. */
export function outcomeOf(rng: Rng, family: Family, category: Category): Outcome {
  if (family === 'district' || family === 'bankruptcy') return rng.weighted([['granted', 4], ['denied', 3], ['mixed', 2]] as const)
  if (category.name === 'immigration' && family === 'circuit') return rng.weighted([['denied', 7], ['granted', 2], ['vacated', 1]] as const)
  return rng.weighted([['affirmed', 65], ['reversed', 20], ['vacated', 10], ['mixed', 5]] as const)
}

export function precedentialStatus(rng: Rng, family: Family, day: number): string {
  if (rng.chance(0.005)) return rng.pick(['Unknown', 'Errata', 'Separate', 'Relating-to'])
  const published: Record<Family, number> = {
    scotus: 1, circuit: day < dayOf('1975-01-01') ? 0.95 : 0.72, district: 0.55, bankruptcy: 0.6, supreme: 0.97, appellate: 0.72,
  }
  if (family === 'scotus' && rng.chance(0.02)) return 'In-chambers'
  return rng.chance(published[family]) ? 'Published' : 'Unpublished'
}

/** The editions a decision is reported in: one or two, the primary first. */
export function clusterEditions(rng: Rng, reporters: ReporterIndex, today: number, court: PoolCourt, day: number, published: boolean, year: number): Edition[] {
  const on = (f: string) => reporters.editionOn(f, day)
  const out: (Edition | undefined)[] = []
  switch (court.family) {
    case 'scotus':
      // U.S. Reports lag about three years behind the decisions.
      if (day < today - 3 * 365) out.push(on('U.S.'), rng.chance(0.7) ? on('S. Ct.') : on('L. Ed.'))
      else out.push(on('S. Ct.'), on('L. Ed.'))
      break
    case 'circuit':
      if (published) out.push(on('F.'), year >= 1985 && rng.chance(0.35) ? on('WL') : undefined)
      else if (year >= 2001) out.push(on("F. App'x"), rng.chance(0.5) ? on('WL') : undefined)
      else out.push(on('WL'))
      break
    case 'district':
      if (published) out.push(on('F. Supp.'), year >= 1985 && rng.chance(0.35) ? on('WL') : undefined)
      else out.push(on('WL'), year >= 1990 && rng.chance(0.3) ? on('U.S. Dist. LEXIS') : undefined)
      break
    case 'bankruptcy':
      out.push(published ? on('B.R.') : on('WL'), published && rng.chance(0.4) ? on('WL') : undefined)
      break
    default:
      if (published) for (const f of court.reporters) out.push(on(f))
      else out.push(on('WL'))
  }
  const editions = out.filter((e): e is Edition => !!e).slice(0, 2)
  if (editions.length === 0) { const wl = on('WL'); if (wl) editions.push(wl) }
  return editions
}

/** Court and date of a citation, Bluebook style: no court for the Supreme Court or a state's official reports, the full date for WL. */
export function parenthetical(court: PoolCourt, primary: { reporter: string; byDocument: boolean }, day: number): string {
  const year = isoDay(day).slice(0, 4)
  if (court.family === 'scotus') return year
  if (primary.byDocument) return `${court.citeAs} ${bluebookDate(day)}`
  if (court.family === 'supreme' && court.reporters[0] && primary.reporter.startsWith(court.reporters[0])) return year
  return `${court.citeAs} ${year}`
}

const TITLE: Record<Family, string> = { scotus: 'Justice', circuit: 'Circuit Judge', district: 'United States District Judge', bankruptcy: 'United States Bankruptcy Judge', supreme: 'J.', appellate: 'J.' }

export function caption(court: PoolCourt, docket: string, full: string, argued: number | null, decided: number, panel: readonly Judge[]): string[] {
  const lines = [court.fullName.toUpperCase(), full, `No. ${docket.replace(/^No\. /, '')}`]
  lines.push(argued !== null ? `Argued ${longDate(argued)}. Decided ${longDate(decided)}.` : `Decided ${longDate(decided)}.`)
  if (court.panel > 1 && panel.length) {
    const names = panel.map((j) => j.last.toUpperCase())
    lines.push(`Before: ${names.length > 1 ? `${names.slice(0, -1).join(', ')}, and ${names.at(-1)}` : names[0]}, ${court.family === 'circuit' ? 'Circuit Judges' : 'Judges'}.`)
  }
  return lines
}

export function authorLine(court: PoolCourt, kind: 'lead' | 'concurrence' | 'dissent', author: Judge | null, perCuriam: boolean): string {
  if (perCuriam) return 'PER CURIAM.'
  if (!author) return court.family === 'scotus' ? 'Opinion of the Court.' : 'OPINION'
  const name = author.last.toUpperCase()
  if (court.family === 'scotus') return kind === 'lead' ? `JUSTICE ${name} delivered the opinion of the Court.` : `JUSTICE ${name}, ${kind === 'dissent' ? 'dissenting' : 'concurring'}.`
  if (court.family === 'district' || court.family === 'bankruptcy') return `MEMORANDUM OPINION AND ORDER\n\n${author.first} ${author.last}, ${TITLE[court.family]}.`
  const title = TITLE[court.family]
  if (kind === 'lead') return title === 'J.' ? `${name}, J.` : `${name}, ${title}:`
  return title === 'J.' ? `${name}, J., ${kind === 'dissent' ? 'dissenting' : 'concurring'}.` : `${name}, ${title}, ${kind === 'dissent' ? 'dissenting' : 'concurring'}:`
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/**
 * What the decision holds, in a paragraph: the Supreme Court's syllabus ("The question presented
 * is … Held: …"), or the summary that heads a lower court's decision. Names the area, the
 * question, a statute of the area and the disposition, so that all of them agree with the text.
 */
export function syllabusOf(rng: Rng, family: Family, category: Category, caseName: string, outcome: Outcome): string {
  const statute = category.statutes.length ? ` See ${rng.pick(category.statutes)}.` : ''
  const issue = rng.pick(category.issue), held = rng.pick(category.holding)
  if (family === 'scotus') {
    return `SYLLABUS. ${category.label}. The question presented in ${caseName} is ${issue}.${statute} Held: ${cap(held)}. ${DISPOSITION[outcome]}.`
  }
  const posture = family === 'district' || family === 'bankruptcy' ? 'On the motion before it, the court considered' : 'On appeal, the court considered'
  return `SUMMARY. ${category.label}. ${posture} ${issue}.${statute} Held: ${cap(held)}. ${DISPOSITION[outcome]}.`
}
