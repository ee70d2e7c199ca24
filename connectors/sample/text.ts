/**
 * Opinion text assembled from sentence templates: a caption, an opening, the facts, the
 * standard of review, a discussion that cites earlier cases (with pin cites, Id., short forms
 * and statutes) and a disposition. Templates are compiled once; writing an opinion is string
 * concatenation, so text of 2–30 KB costs microseconds. Case names are wrapped in marker
 * characters so the same text renders as plain text or as HTML with italics.
 */
import type { Rng } from './random.js'
import type { CitedRef } from './records.js'
import type { Category } from './vocabulary.js'

/** A case an opinion may cite, as the citing court writes it. */
export interface CiteTarget {
  /** "Smith v. Jones" */
  name: string
  /** Short-form name ("Smith"). */
  short: string
  cites: { volume: number; reporter: string; page: string; first: number; last: number; byDocument: boolean }[]
  /** Parenthetical: "9th Cir. 1999", "1994", "N.D. Cal. Mar. 3, 2019". */
  paren: string
}

export interface OpinionPlan {
  kind: 'lead' | 'concurrence' | 'dissent'
  voice: 'appellate' | 'scotus' | 'trial'
  category: Category
  p: string
  d: string
  lower: string
  /** "the judgment of the district court is AFFIRMED." and friends. */
  outcome: Outcome
  targetBytes: number
  /** Full citations to make (one citation sentence each). */
  targets: CiteTarget[]
  /** Citations that do not exist, written like the others. */
  fabricated: CiteTarget[]
  header: string[]
  authorLine: string
  /** In a criminal case, how the prose names the accused (whichever side of the caption it is on). */
  accused?: string
}

export type Outcome = 'affirmed' | 'reversed' | 'vacated' | 'mixed' | 'granted' | 'denied'

const I0 = '\u0001', I1 = '\u0002'
/** Upper-cases the first letter; leaves the string alone (no copy) when it already is. */
const cap = (s: string) => { const c = s.charCodeAt(0); return c >= 97 && c <= 122 ? s[0].toUpperCase() + s.slice(1) : s }

type Ctx = Record<string, string | (() => string)>
type Compiled = (ctx: Ctx) => string

/** Splits a template into literal text and slots; a slot that starts a sentence is capitalized. */
function compile(template: string): Compiled {
  const parts = template.split(/\{(\w+)\}/)
  const starts = parts.map((_, i) => i % 2 === 1 && (parts[i - 1] === '' ? i === 1 : /[.!?] $/.test(parts[i - 1])))
  return (ctx) => {
    let out = parts[0]
    for (let i = 1; i < parts.length; i += 2) {
      const v = ctx[parts[i]]
      const value = typeof v === 'function' ? v() : v ?? `{${parts[i]}}`
      out += (starts[i] ? cap(value) : value) + parts[i + 1]
    }
    return out
  }
}
const compileAll = (xs: readonly string[]) => xs.map(compile)

const OPENING = {
  appellate: compileAll([
    '{P} appeals from the judgment of {lower} rejecting {Pp} {claim}. We have jurisdiction, and we {disp}.',
    'This appeal requires us to decide {issue}. {lower} answered that question against {P}. We {disp}.',
    '{P} challenges {lowerp} order granting summary judgment to {D} on {Pp} {claim}. Because {lower} {reasoned}, we {disp}.',
    'The question presented is {issue}. {lower} held that it is not. For the reasons that follow, we {disp}.',
    'After a trial, {lower} entered judgment for {D}. {P} raises several arguments on appeal, chief among them a {claim}. We {disp}.',
  ]),
  scotus: compileAll([
    'We granted certiorari to decide {issue}. The Court of Appeals held that it was not. We {disp}.',
    'This case concerns {issue}. The courts of appeals have divided on the question, and we granted certiorari to resolve the conflict.',
    'The question in this case is {issue}. We hold that {holding}, and we therefore {disp} the judgment of the Court of Appeals.',
  ]),
  trial: compileAll([
    'Before the Court is {Dp} motion to dismiss {Pp} {claim}. For the reasons stated below, the motion is {motion}.',
    '{P} brings this action against {D}, asserting a {claim}. Pending before the Court are the parties\' cross-motions for summary judgment.',
    'This matter comes before the Court on {Dp} motion for summary judgment. Having considered the parties\' submissions and the record, the Court rules as follows.',
    '{P} seeks relief on a {claim}. {D} opposes. The Court held a hearing on the motion and took the matter under submission.',
  ]),
}

const FACTS = compileAll([
  'The facts, viewed in the light most favorable to {P}, are as follows.',
  'In {year0}, {P} and {D} entered into the arrangement that gave rise to this dispute.',
  'The relationship between the parties deteriorated over the following {n} months.',
  '{P} filed suit in {year1}, asserting a {claim} and seeking damages and declaratory relief.',
  '{D} moved to dismiss, arguing that the complaint failed to state a claim.',
  '{lower} denied the motion in part, and the case proceeded to discovery.',
  'After the close of discovery, {D} moved for summary judgment.',
  'The record includes deposition testimony from {n} witnesses and several hundred pages of documents.',
  'At the hearing, counsel for {D} conceded that the relevant facts were not in dispute.',
  'The parties agree on most of the relevant events but disagree sharply about their significance.',
  '{lower} granted the motion in a written order, concluding that {holding}.',
  'A timely notice of appeal followed.',
  'The case was tried to a jury over {n} days.',
  'During trial, {lower} admitted, over objection, testimony concerning the events of the prior year.',
  'The jury returned a verdict for {D} on every claim.',
  '{P} moved for a new trial, which {lower} denied.',
])
const FACTS_CRIMINAL = compileAll([
  'Officers stopped the vehicle {X} was driving in {city} for a traffic violation.',
  'During the stop, an officer observed what appeared to be the handle of a firearm beneath the driver\'s seat.',
  'A search of the vehicle revealed a loaded handgun and a quantity of narcotics packaged for sale.',
  '{X} was indicted and moved to suppress the evidence obtained in the search.',
  'After an evidentiary hearing, the court denied the motion to suppress.',
  'The jury found {X} guilty on all counts, and the court imposed a sentence of {months} months\' imprisonment.',
  'At sentencing, the court applied a two-level enhancement over {Xp} objection.',
  'The prosecution\'s case rested principally on the testimony of a cooperating witness.',
])

const STANDARD = {
  appellate: compileAll([
    'We review {lowerp} grant of summary judgment de novo, viewing the evidence in the light most favorable to the nonmoving party.',
    'We review the legal conclusions of {lower} de novo and its findings of fact for clear error.',
    '{issue} is a question of law that we review de novo.',
    'We review evidentiary rulings for abuse of discretion and will reverse only if an erroneous ruling affected a party\'s substantial rights.',
  ]),
  criminal: compileAll([
    'In reviewing the denial of a motion to suppress, we review findings of fact for clear error and legal conclusions de novo.',
    'We review the sufficiency of the evidence de novo, asking whether any rational trier of fact could have found the essential elements of the crime beyond a reasonable doubt.',
    'We review the sentencing court\'s interpretation of the guidelines de novo and its factual findings for clear error.',
    'Because no objection was raised at trial, our review is for plain error.',
  ]),
  trial: compileAll([
    'Summary judgment is appropriate when there is no genuine dispute as to any material fact and the movant is entitled to judgment as a matter of law.',
    'To survive a motion to dismiss, a complaint must contain sufficient factual matter, accepted as true, to state a claim to relief that is plausible on its face.',
    'A fact is material if it might affect the outcome of the suit under the governing law, and a dispute is genuine if the evidence would permit a reasonable jury to return a verdict for the nonmoving party.',
  ]),
}

const ANALYSIS = compileAll([
  '{P} argues that the question of {issue} must be resolved in {Pp} favor. The argument is unpersuasive.',
  'The text of the governing provision is the starting point of the analysis.',
  'Where the language is plain, the inquiry ends there.',
  'That reading finds no support in the structure of the statute.',
  '{D} responds that {P} waived the argument by failing to raise it below.',
  'The record does not bear out that characterization.',
  'Nothing in the record suggests that {D} acted with the requisite intent.',
  'The question is closer than the parties suggest, but the better reading favors {D}.',
  'Even assuming the error was preserved, it does not warrant relief.',
  'The burden rests on the party asserting the claim to establish each of its elements.',
  'The distinction {P} draws is one without a difference.',
  'Courts have long recognized that {principle}.',
  'It is well settled that {principle}.',
  'That principle applies with full force here.',
  'The parties dispute {issue}.',
  '{P} offers no authority for the proposition that the rule should be otherwise.',
  'To hold otherwise would render the provision superfluous.',
  'The evidence on this point is thin, but it is not nothing.',
  'A reasonable factfinder could have reached the same conclusion on this record.',
  'The {claim} therefore fails as a matter of law.',
  'We decline {Pp} invitation to adopt a broader rule.',
  'The argument proves too much.',
  'This conclusion is reinforced by the history of the provision.',
  'That is not the law, and it has never been.',
  'The remaining arguments do not require extended discussion.',
  '{D} also contends that {holding}.',
  'Because the inquiry is fact-intensive, it is ordinarily one for the jury.',
  'The same analysis disposes of {Pp} remaining {claim}.',
  'The parties devote most of their briefing to {term}.',
  'Nothing in the law of {term} requires a different result.',
  '{P} reads the cases on {term} too broadly.',
])

/** An area's own sentences, compiled once per area: background, discussion (with the general sentences) and standard of review. */
interface AreaText { facts: Compiled[]; analysis: Compiled[]; standard: Compiled[] }
const AREA_TEXT = new Map<string, AreaText>()
function areaText(category: Category): AreaText {
  let t = AREA_TEXT.get(category.name)
  if (!t) {
    t = { facts: compileAll(category.facts), analysis: [...compileAll(category.analysis), ...ANALYSIS], standard: compileAll(category.standard) }
    AREA_TEXT.set(category.name, t)
  }
  return t
}

const PRINCIPLES = [
  'a court may not rewrite a statute under the guise of interpreting it', 'the party seeking relief bears the burden of proof',
  'a contract must be read as a whole, giving effect to every provision', 'an argument raised for the first time in a reply brief is forfeited',
  'federal courts are courts of limited jurisdiction', 'a court does not decide questions the parties have not presented',
  'qualified immunity protects all but the plainly incompetent or those who knowingly violate the law',
  'a statute should be construed so that effect is given to all its provisions', 'the specific governs the general',
  'a jury is presumed to follow its instructions', 'credibility determinations are for the factfinder',
  'an agency must examine the relevant data and articulate a satisfactory explanation for its action',
  'a plaintiff must plead facts that allow the court to draw the reasonable inference that the defendant is liable',
  'the exclusionary rule is a last resort, not a first impulse', 'a defendant is entitled to a fair trial but not a perfect one',
]

const CITATION_FORMS = compileAll([
  'See {CITE}.',
  'As the court put it, "{principle}." {CITE}.',
  '"{principle_cap}." {CITE}.',
  'We have said before that "{principle}," {CITE}, and we say it again here.',
  'See {CITE}.',
  'See also {CITE}.',
  'Cf. {CITE}.',
  'See generally {CITE}.',
  'As the court explained in {CITE}, {principle}.',
  '{principle_cap}. {CITE}.',
  '{P} relies on {CITE}, but that decision addressed a different question.',
  'The rule is settled. See {CITE} (holding that {holding}).',
  'We have applied that principle in closely analogous circumstances. See {CITE}.',
])
const FABRICATED_FORMS = compileAll(['See {CITE}.', 'See also {CITE}.', '{P} relies on {CITE}, but that decision is distinguishable.'])
const STATUTE_FORMS = compileAll([
  'The claim arises under {statute}.',
  'See {statute}.',
  'The relevant provision, {statute}, admits of no exception for these circumstances.',
  '{P} invokes {statute}, which by its terms applies here.',
])

const CONCLUSION: Record<Outcome, readonly string[]> = {
  affirmed: ['For the foregoing reasons, the judgment of {lower} is AFFIRMED.', 'AFFIRMED.'],
  reversed: ['For the foregoing reasons, the judgment of {lower} is REVERSED, and the case is REMANDED for further proceedings consistent with this opinion.', 'REVERSED and REMANDED.'],
  vacated: ['We VACATE the judgment and REMAND for further proceedings consistent with this opinion.', 'VACATED and REMANDED.'],
  mixed: ['The judgment of {lower} is AFFIRMED in part and REVERSED in part, and the case is REMANDED.', 'AFFIRMED in part, REVERSED in part, and REMANDED.'],
  granted: ['For the foregoing reasons, the motion is GRANTED.', 'IT IS SO ORDERED.'],
  denied: ['For the foregoing reasons, the motion is DENIED.', 'IT IS SO ORDERED.'],
}
const DISP: Record<Outcome, string> = { affirmed: 'affirm', reversed: 'reverse', vacated: 'vacate and remand', mixed: 'affirm in part and reverse in part', granted: 'grant the motion', denied: 'deny the motion' }

const SEPARATE = {
  concurrence: compileAll([
    'I join the opinion of the court in full and write separately to emphasize a point that the majority leaves implicit.',
    'I concur in the judgment. I would reach the same result by a narrower route.',
    'I agree that {holding}, but I do not join the court\'s broader discussion of {issue}.',
  ]),
  dissent: compileAll([
    'I respectfully dissent.',
    'The majority holds that {holding}. Because that holding cannot be squared with our precedent, I respectfully dissent.',
    'Today\'s decision departs from settled law on {issue}. I would {disp_other}.',
  ]),
}

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII']
const poss = (s: string) => `${s}'s`

const ref = (c: CiteTarget['cites'][number]): CitedRef => ({ volume: c.volume, reporter: c.reporter, page: c.page })

function cite(t: CiteTarget, rng: Rng, withPin: boolean, parallel: boolean, italic: (s: string) => string): { text: string; pin: string; refs: CitedRef[] } {
  const [c, second] = t.cites
  let pin = ''
  let text = `${italic(t.name)}, ${c.volume} ${c.reporter} ${c.page}`
  const refs = [ref(c)]
  if (withPin) {
    pin = c.byDocument ? `*${rng.int(2, 9)}` : String(rng.int(Math.min(c.first + 1, c.last), c.last))
    text += c.byDocument ? `, at ${pin}` : `, ${pin}`
  }
  if (parallel && second) { text += `, ${second.volume} ${second.reporter} ${second.page}`; refs.push(ref(second)) }
  return { text: `${text} (${t.paren})`, pin, refs }
}

export interface WrittenOpinion {
  /** Paragraphs with italic markers; render with `toPlainText` or `toHtml`. */
  paragraphs: string[]
  /** Every citation written as a full citation, fabricated ones included, each once, in order. */
  cited: CitedRef[]
  fabricated: CitedRef[]
}

/**
 * Writes an opinion to plan: the caption lines, then the body. With `markup`, case names carry
 * italic markers (for `toHtml`; `toPlainText` drops them); without, the paragraphs are plain.
 */
export function writeOpinion(plan: OpinionPlan, rng: Rng, year: number, markup = true): WrittenOpinion {
  const italic = markup ? (s: string) => `${I0}${s}${I1}` : (s: string) => s
  const category = plan.category
  const ctx: Ctx = {
    P: plan.p, D: plan.d, Pp: poss(plan.p), Dp: poss(plan.d), lower: plan.lower, lowerp: poss(plan.lower),
    claim: () => rng.pick(category.claim), issue: () => rng.pick(category.issue), holding: () => rng.pick(category.holding),
    principle: () => rng.pick(PRINCIPLES), principle_cap: () => cap(rng.pick(PRINCIPLES)), statute: () => rng.pick(category.statutes),
    disp: DISP[plan.outcome], disp_other: plan.outcome === 'affirmed' ? 'reverse' : 'affirm', reasoned: 'applied the wrong legal standard',
    motion: plan.outcome === 'granted' ? 'GRANTED' : plan.outcome === 'denied' ? 'DENIED' : 'GRANTED in part and DENIED in part',
    year0: String(year - rng.int(3, 6)), year1: String(year - rng.int(1, 3)), n: () => String(rng.int(2, 14)), months: () => String(rng.int(24, 240)),
    city: () => rng.pick(['Springfield', 'Dayton', 'Fresno', 'Tulsa', 'Omaha', 'Macon', 'Toledo', 'Provo']),
    term: () => rng.pick(category.terms), label: category.label.toLowerCase(),
    X: plan.accused ?? plan.d, Xp: poss(plan.accused ?? plan.d),
  }
  const own = areaText(category)
  const say = (t: Compiled) => cap(t(ctx))
  const out: string[] = [...plan.header, plan.authorLine]
  let bytes = 0
  const push = (p: string) => { out.push(p); bytes += p.length + 2 }

  // Citations are spread over the discussion; each is one sentence, sometimes followed by Id.
  const queue: { t: CiteTarget; fake: boolean }[] = [...plan.targets.map((t) => ({ t, fake: false })), ...plan.fabricated.map((t) => ({ t, fake: true }))]
  for (let i = queue.length - 1; i > 0; i--) { const j = rng.int(0, i); const x = queue[i]; queue[i] = queue[j]; queue[j] = x }
  const cited: CiteTarget[] = []
  const refs = new Map<string, CitedRef>()
  const fabricated: CitedRef[] = []
  const citeSentence = (): string => {
    const { t, fake } = queue.shift()!
    const withPin = rng.chance(0.55)
    const written = cite(t, rng, withPin, rng.chance(0.3), italic)
    const pin = written.pin
    for (const r of written.refs) refs.set(`${r.volume}|${r.reporter}|${r.page}`, r)
    if (fake) fabricated.push(...written.refs)
    ctx.CITE = written.text
    let s = say(rng.pick(fake ? FABRICATED_FORMS : CITATION_FORMS))
    if (!fake) {
      cited.push(t)
      if (pin && rng.chance(0.3)) s += ` Id. at ${t.cites[0].byDocument ? `*${rng.int(2, 9)}` : rng.int(t.cites[0].first, t.cites[0].last)}.`
      else if (rng.chance(0.1)) s += ' Id.'
    }
    return s
  }
  const shortForm = (): string => {
    const t = rng.pick(cited)
    const c = t.cites[0]
    return c.byDocument ? '' : `${italic(t.short)}, ${c.volume} ${c.reporter} at ${rng.int(c.first, c.last)}.`
  }
  const paragraph = (pool: readonly Compiled[], min: number, max: number, citations: number) => {
    const n = rng.int(min, max)
    const sentences: string[] = []
    for (const t of rng.sample(pool, n)) sentences.push(say(t))
    for (let c = 0; c < citations && queue.length; c++) sentences.splice(rng.int(1, sentences.length), 0, citeSentence())
    if (cited.length && rng.chance(0.12)) { const s = shortForm(); if (s) sentences.push(s) }
    if (category.statutes.length && rng.chance(0.18)) sentences.splice(rng.int(0, sentences.length), 0, say(rng.pick(STATUTE_FORMS)))
    push(sentences.join(' '))
  }

  if (plan.kind !== 'lead') {
    push(say(rng.pick(SEPARATE[plan.kind])))
  } else {
    push(say(rng.pick(OPENING[plan.voice])))
    out.push(`${ROMAN[0]}.`)
    const criminal = category.criminal
    // Background: the area's own facts first, then the procedural history.
    if (own.facts.length) paragraph(own.facts, Math.min(3, own.facts.length), Math.min(5, own.facts.length), 0)
    else paragraph(criminal ? FACTS_CRIMINAL : FACTS, 3, 6, 0)
    if (rng.chance(0.6)) paragraph(criminal ? FACTS_CRIMINAL : FACTS, 2, 5, 0)
    out.push(`${ROMAN[1]}.`)
    const general = plan.voice === 'trial' ? STANDARD.trial : criminal ? STANDARD.criminal : STANDARD.appellate
    paragraph(plan.voice !== 'trial' && own.standard.length && rng.chance(0.7) ? own.standard : general, 1, 3, Math.min(1, queue.length))
  }
  // Discussion until the citations are placed and the opinion has its length.
  let section = plan.kind === 'lead' ? 2 : 0
  let sinceHeading = 0
  while (queue.length || bytes < plan.targetBytes) {
    if (plan.kind === 'lead' && sinceHeading >= 4 && section < ROMAN.length - 1 && rng.chance(0.3)) { out.push(`${ROMAN[section++]}.`); sinceHeading = 0 }
    const citations = queue.length ? Math.max(1, Math.ceil(queue.length / Math.max(1, Math.ceil((plan.targetBytes - bytes) / 900)))) : 0
    paragraph(own.analysis, 3, 7, Math.min(citations, 3))
    sinceHeading++
    if (out.length > 400) break
  }
  const [long, short] = CONCLUSION[plan.outcome].map(compile)
  if (plan.kind === 'lead') { push(say(long)); push(say(short)) }
  else push(plan.kind === 'dissent' ? 'For these reasons, I respectfully dissent.' : 'I therefore concur.')
  return { paragraphs: out, cited: [...refs.values()], fabricated }
}

/** Plain text: paragraphs separated by blank lines, italic markers (if any) dropped. */
export function toPlainText(paragraphs: readonly string[], markup = true): string {
  const text = paragraphs.join('\n\n')
  return markup ? text.replace(/[\u0001\u0002]/g, '') : text
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** HTML: one <p> per paragraph, section numerals centred, case names in <i>. */
export function toHtml(paragraphs: readonly string[], headerLines: number): string {
  let html = '<div class="opinion">\n'
  paragraphs.forEach((p, i) => {
    const body = escapeHtml(p).replace(/\u0001/g, '<i>').replace(/\u0002/g, '</i>')
    if (i < headerLines) html += `<p class="caption">${body}</p>\n`
    else if (/^[IVX]+\.$/.test(p)) html += `<p style="text-align: center;">${body}</p>\n`
    else html += `<p>${body}</p>\n`
  })
  return html + '</div>'
}
