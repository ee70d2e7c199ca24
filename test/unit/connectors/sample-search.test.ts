/**
 * A new user's first searches find something in the default sample: areas of law and landmark
 * decisions by name occur in a reasonable number of opinions, dockets and entries; a case's
 * area shows alike in its docket fields, caption and opinion; landmark clusters carry their real
 * year and citation and are cited by later opinions, in citations the extractor finds.
 */
import { createHash } from 'node:crypto'
import t from 'tap'
import { loadCourts } from '../../../connectors/sample/courts.js'
import { DEFAULT_OPINIONS, generateSample, type CitedRef } from '../../../connectors/sample/generator.js'
import { LANDMARKS, landmarksFor } from '../../../connectors/sample/landmarks.js'
import { CATEGORIES } from '../../../connectors/sample/vocabulary.js'
import { extractCitations } from '../../../domain/citations/index.js'

const courts = loadCourts()
const TODAY = '2026-11-18'
const key = (c: { volume?: unknown; reporter?: unknown; page?: unknown }) => `${c.volume}|${c.reporter}|${c.page}`

/** The default sample, kept as the search index would see it: texts and the fields searched. */
interface Doc { id: number; cluster: number; text: string }
const opinions: Doc[] = []
const clusters = new Map<number, { name: string; date: string; docket: number; syllabus: string; summary: string; nature: string; landmark: boolean }>()
const dockets = new Map<number, { name: string; nature: string; cause: string; court: string }>()
const entries: string[] = []
const citations = new Map<string, number>()
const cited = new Map<number, CitedRef[]>()
for (const { resource, record: r } of generateSample({ courts, opinions: DEFAULT_OPINIONS, seed: 1, today: TODAY, onCited: (id, c) => cited.set(id, c) })) {
  if (resource === 'opinions') opinions.push({ id: r.id as number, cluster: r.cluster_id as number, text: String(r.plain_text) })
  else if (resource === 'clusters') clusters.set(r.id as number, { name: String(r.case_name), date: String(r.date_filed), docket: r.docket_id as number, syllabus: String(r.syllabus), summary: String(r.summary), nature: String(r.nature_of_suit), landmark: r.date_filed_is_approximate === true })
  else if (resource === 'dockets') dockets.set(r.id as number, { name: String(r.case_name), nature: String(r.nature_of_suit), cause: String(r.cause), court: String(r.court_id) })
  else if (resource === 'docket-entries') entries.push(String(r.description))
  else if (resource === 'citations') citations.set(key(r), r.cluster_id as number)
}

t.test('a user\'s first searches for an area of law find opinions and dockets', async (t) => {
  const queries: [string, RegExp, number][] = [
    ['copyright', /\bcopyright/i, 60], ['patent', /\bpatent/i, 100], ['trademark', /\btrademark/i, 50], ['tax', /\btax(es|payer)?\b/i, 60],
    ['bankruptcy', /\bbankruptcy\b/i, 100], ['immigration', /\b(immigration|asylum)\b/i, 150], ['securities', /\bsecurities\b/i, 100],
    ['antitrust', /\b(antitrust|Sherman Act)\b/i, 40], ['employment discrimination', /\b(employment discrimination|Title VII)\b/i, 150],
    ['first amendment', /\bFirst Amendment\b/i, 80], ['fourth amendment search and seizure', /\b(Fourth Amendment|search and seizure)\b/i, 200],
    ['habeas corpus', /\bhabeas corpus\b/i, 200], ['environmental', /\b(Clean Water Act|Clean Air Act|environmental)\b/i, 40],
    ['contracts', /\bbreach of contract\b/i, 150], ['negligence', /\bnegligence\b/i, 100], ['criminal sentencing', /\bsentencing\b/i, 200],
  ]
  for (const [query, re, least] of queries) {
    const inOpinions = opinions.filter((o) => re.test(o.text)).length
    const inDockets = [...dockets.values()].filter((d) => re.test(`${d.name} ${d.nature} ${d.cause}`)).length + entries.filter((e) => re.test(e)).length
    t.ok(inOpinions >= least, `"${query}": ${inOpinions} opinions (at least ${least}), ${inDockets} dockets and entries`)
  }
  // Statutes with their real citations.
  for (const statute of ['17 U.S.C. § 107', '35 U.S.C. § 101', '11 U.S.C. § 362', '42 U.S.C. § 1983', '28 U.S.C. § 2254']) {
    const n = opinions.filter((o) => o.text.includes(statute)).length
    t.ok(n >= 10, `${statute} in ${n} opinions`)
  }
})

t.test('landmark decisions by name: their cluster, real year and citation, and later opinions citing them', async (t) => {
  // Landmark clusters are dated approximately (a day of their real year); generated cases may share their names (United States v. Jones).
  const byName = new Map([...clusters.entries()].filter(([, c]) => c.landmark).map(([id, c]) => [c.name, { id, ...c }]))
  const names = ['Miranda v. Arizona', 'Brown v. Board of Education', 'Marbury v. Madison', 'Roe v. Wade', 'Gideon v. Wainwright',
    'Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc.', 'Feist Publications, Inc. v. Rural Telephone Service Co.', 'eBay Inc. v. MercExchange, L.L.C.']
  for (const name of names) {
    const landmark = LANDMARKS.find((l) => l.name === name)!
    const cluster = byName.get(name)
    if (!t.ok(cluster, `${name} is a cluster`)) continue
    t.equal(Number(cluster!.date.slice(0, 4)), landmark.year, `${name} decided in ${landmark.year}`)
    t.equal(citations.get(`${landmark.cite!.volume}|${landmark.cite!.reporter}|${landmark.cite!.page}`), cluster!.id, `${name}, ${landmark.cite!.volume} ${landmark.cite!.reporter} ${landmark.cite!.page}`)
    const mentions = opinions.filter((o) => o.text.includes(name)).length
    t.ok(mentions >= 3, `"${name}" in ${mentions} opinions`)
  }
  const present = LANDMARKS.filter((l) => byName.has(l.name))
  t.ok(present.length >= 300, `${present.length} of ${LANDMARKS.length} landmarks in the default sample`)
  t.ok(LANDMARKS.length >= 300 && new Set(LANDMARKS.map((l) => l.name)).size === LANDMARKS.length, `${LANDMARKS.length} distinct landmarks`)
  t.ok(LANDMARKS.every((l) => CATEGORIES[l.area]), 'each of a known area')
  t.same(landmarksFor(5).map((l) => l.name).sort(), ['Brown v. Board of Education', 'Gideon v. Wainwright', 'Marbury v. Madison', 'Miranda v. Arizona', 'Roe v. Wade'], 'a small sample holds the most searched first')
  // Landmarks are cited, and the extractor finds those citations.
  const landmarkCites = new Set(present.filter((l) => l.cite).map((l) => key(l.cite!)))
  let citing = 0, missed = 0
  for (const o of opinions.filter((_, i) => i % 10 === 0)) {
    const found = new Set(extractCitations(o.text).filter((c) => c.kind === 'full_case').map(key))
    const refs = cited.get(o.id)!
    for (const r of refs) if (!found.has(key(r))) missed++
    if (refs.some((r) => landmarkCites.has(key(r)))) citing++
  }
  t.equal(missed, 0, 'every citation written is extracted')
  t.ok(citing >= 100, `${citing} of ${Math.ceil(opinions.length / 10)} opinions checked cite a landmark`)
})

t.test('a case\'s area agrees across its docket, caption and opinion', async (t) => {
  const checks: [string, RegExp][] = [['820 Copyright', /copyright/i], ['830 Patent', /patent/i], ['840 Trademark', /trademark|Lanham Act/i], ['410 Anti-Trust', /Sherman Act|antitrust/i],
    ['530 Habeas Corpus (General)', /habeas/i], ['893 Environmental Matters', /Clean Water Act|Clean Air Act|environmental/i], ['442 Civil Rights: Employment', /Title VII|employ/i]]
  for (const [nature, re] of checks) {
    const of = opinions.filter((o) => dockets.get(clusters.get(o.cluster)!.docket)!.nature === nature)
    t.ok(of.length >= 5 && of.every((o) => re.test(o.text)), `${of.length} opinions of "${nature}" dockets, all about it`)
  }
  const natures = new Set([...dockets.values()].map((d) => d.nature).filter(Boolean))
  t.ok(natures.size >= 12, `${natures.size} natures of suit`)
  t.ok([...dockets.values()].some((d) => d.cause === '17:501 Copyright Infringement') && [...dockets.values()].some((d) => d.cause === '35:271 Patent Infringement'), 'causes of action by area')
  const summaries = [...clusters.values()].filter((c) => c.syllabus || c.summary)
  t.ok(summaries.length / clusters.size > 0.6, `${summaries.length} clusters with a syllabus or summary`)
})

t.test('opinions and entries read like real ones', async (t) => {
  const share = (re: RegExp) => opinions.filter((o) => re.test(o.text)).length / opinions.length
  t.ok(share(/^(SYLLABUS|SUMMARY)\. /m) > 0.6, 'a syllabus or summary at the top of lead opinions')
  t.ok(share(/^I\.$/m) > 0.6 && share(/^II\.$/m) > 0.6, 'sections')
  t.ok(share(/"[^"]{20,}\." /) > 0.2, 'quotations')
  t.ok(share(/\b(AFFIRMED|REVERSED and REMANDED|VACATED and REMANDED|IT IS SO ORDERED)\.$/m) > 0.6, 'a disposition')
  for (const re of [/^COMPLAINT .*against .*filed by /, /^MOTION to Dismiss for Failure to State a Claim/, /^ORDER granting in part and denying in part/, /^NOTICE OF APPEAL/, /^Minute Entry for proceedings held before Judge /, /^PETITION for Writ of Habeas Corpus pursuant to 28 U\.S\.C\. § 2254/]) {
    const n = entries.filter((e) => re.test(e)).length
    t.ok(n >= 3, `${n} entries like ${re}`)
  }
})

t.test('the same seed gives the same sample', async (t) => {
  const digest = (seed: number) => {
    const h = createHash('sha1')
    for (const r of generateSample({ courts, opinions: 600, seed, today: TODAY })) h.update(JSON.stringify(r))
    return h.digest('hex')
  }
  t.equal(digest(4), digest(4))
  t.not(digest(4), digest(5))
})
