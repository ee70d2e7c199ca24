/**
 * The generated sample corpus: deterministic for a seed and a day, linear in its size, covering
 * every stored resource but those users make through the API and those the processors derive,
 * referentially whole in emission order, valid for the publisher's codec, dated up to the day it
 * is taken, and realistic where it matters to the rest of the service (docket numbers, reporters
 * that existed on the decision date, citations in the text that resolve to earlier clusters,
 * except the deliberately fabricated ones; archive dockets whose entries, documents, parties and
 * attorneys hang together).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import t from 'tap'
import { loadCourts } from '../../../connectors/sample/courts.js'
import { DEFAULT_OPINIONS, generateSample, type CitedRef, type SampleRecord } from '../../../connectors/sample/generator.js'
import { SAMPLE_USER_ID } from '../../../connectors/sample/context.js'
import { dayOf, isoDay } from '../../../connectors/sample/dates.js'
import { isFabricatedPage } from '../../../connectors/sample/reporters.js'
import { createEntityCodec } from '../../../schemas/events/entity-codec.js'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { columnOf } from '../../../schemas/define.js'
import { extractCitations } from '../../../domain/citations/index.js'
import { LANDMARKS } from '../../../connectors/sample/landmarks.js'
import { projectFile } from '../../../core/programs.js'

const courts = loadCourts()
const courtIds = new Set(courts.map((c) => c.id))
const jurisdiction = new Map(courts.map((c) => [c.id, c.jurisdiction]))
/** Kind of court, from its jurisdiction code. */
const kindOf = (id: unknown) => {
  const j = jurisdiction.get(String(id))
  return id === 'scotus' ? 'scotus' : j === 'F' ? 'circuit' : j === 'FD' ? 'district' : j === 'FB' ? 'bankruptcy' : j === 'S' || j === 'SA' ? 'state' : 'other'
}
const key = (c: { volume?: unknown; reporter?: unknown; page?: unknown }) => `${c.volume}|${c.reporter}|${c.page}`
/** Stored columns the generator leaves to the stream processors. */
const DERIVED: Record<string, string[]> = { clusters: ['citation_count'] }
/** Resources users make (the users, and everything only its owner reads), none in the sample; and those the citation network derives. */
const USER_MADE = ['users', ...catalogue.stored.filter((r) => r.access === 'owner').map((r) => r.name)]
const PROCESSOR_MADE = ['opinions-cited', 'citation-texts', 'citation-counts']
/** Internal resources only the bulk data carries (the reference's courthouses, parentheticals, unmatched citations): no sample records. (Its race code table the sample does emit.) */
const BULK_ONLY = ['courthouses', 'parentheticals', 'unmatched-citations']
/** The day the tested corpora are taken: a Wednesday, so "this week" and "this month" are both under way. */
const TODAY = '2026-11-18'

interface Run { records: SampleRecord[]; cited: Map<number, CitedRef[]>; fabricated: Map<number, CitedRef[]> }
function run(opinions: number, seed = 1): Run {
  const records: SampleRecord[] = []
  const cited = new Map<number, CitedRef[]>()
  const fabricated = new Map<number, CitedRef[]>()
  for (const r of generateSample({ courts, opinions, seed, today: TODAY, onCited: (id, c, f) => { cited.set(id, c); fabricated.set(id, f) } })) records.push(r)
  return { records, cited, fabricated }
}
function counts(opinions: number, seed = 1): Record<string, number> {
  const out: Record<string, number> = {}
  for (const { resource } of generateSample({ courts, opinions, seed, today: TODAY })) out[resource] = (out[resource] ?? 0) + 1
  return out
}
const of = (r: Run, resource: string) => r.records.filter((x) => x.resource === resource).map((x) => x.record)
const CASE_LAW = ['dockets', 'clusters', 'citations', 'opinions', 'audio']
/** Real landmark decisions, by name: the sample decides them on their real dates, some before the generated ones begin (1950). */
const LANDMARK = new Map(LANDMARKS.map((l) => [l.name, l]))

const corpus = run(1500)

t.test('the same seed and day give the same corpus, another seed or day another', async (t) => {
  const digest = (r: Run) => {
    const h = createHash('sha1')
    for (const x of r.records) h.update(JSON.stringify(x))
    for (const [id, c] of r.cited) h.update(`${id}:${c.map(key).join(',')}`)
    return h.digest('hex')
  }
  /** Whether two corpora differ, read side by side up to the first record that differs. */
  const differ = (a: Iterable<SampleRecord>, b: Iterable<SampleRecord>) => {
    const x = a[Symbol.iterator](), y = b[Symbol.iterator]()
    for (;;) {
      const p = x.next(), q = y.next()
      if (p.done || q.done) return !(p.done && q.done)
      if (JSON.stringify(p.value) !== JSON.stringify(q.value)) return true
    }
  }
  const first = run(300, 7), again = run(300, 7)
  t.equal(digest(again), digest(first))
  t.same(again.records.slice(-50), first.records.slice(-50), 'record by record')
  const generated = (seed: number, today = TODAY) => generateSample({ courts, opinions: 300, seed, today })
  t.ok(differ(generated(8), first.records), 'another seed')
  t.ok(differ(generated(7, '2026-12-02'), first.records), 'another day')
  t.throws(() => generateSample({ courts, opinions: 1, today: '18/11/2026' }).next(), /today must be a date/)
})

t.test('the corpus scales with the number of opinions; the bench does not', async (t) => {
  const small = counts(1000), large = counts(5000)
  t.equal(small.opinions, 1000)
  t.equal(large.opinions, 5000)
  const sum = (c: Record<string, number>, names: string[]) => names.reduce((s, r) => s + (c[r] ?? 0), 0)
  const ratio = sum(large, CASE_LAW) / sum(small, CASE_LAW)
  t.ok(ratio > 4.5 && ratio < 5.5, `case-law records grow ${ratio.toFixed(2)}×`)
  const ARCHIVE = ['docket-entries', 'archive-documents', 'parties', 'attorneys']
  const archive = sum(large, ARCHIVE) / sum(small, ARCHIVE)
  t.ok(archive > 3.5 && archive < 7, `archive records grow ${archive.toFixed(2)}×`)
  for (const r of ['schools', 'people', 'positions', 'educations', 'sources', 'financial-disclosures', 'investments', 'tag', 'tags']) t.equal(large[r], small[r], `${r}: the same judges and tags whatever the size`)
  t.equal(DEFAULT_OPINIONS, 10_000)
  t.comment(`5,000 opinions: ${JSON.stringify(large)}`)
})

t.test('ids run from 1 per resource; references point at records emitted before them', async (t) => {
  // Every stored relation the catalogue declares, but the owners of user content (a fixed sample user, no user record).
  const refs = new Map<string, [column: string, target: string][]>()
  for (const r of catalogue.stored) {
    refs.set(r.name, Object.entries(r.fields).filter(([, d]) => (d.kind === 'fk' || d.kind === 'm2m') && d.target !== 'users').map(([n, d]) => [columnOf(n, d), catalogue.storageOf(catalogue.get(d.target!)).name]))
  }
  const seen = new Map<string, Set<unknown>>([['courts', courtIds]])
  const last = new Map<string, number>()
  const redirected = new Set<number>(), skipped: number[] = []
  let bad = 0, checked = 0
  for (const { resource, record } of corpus.records) {
    if (!refs.has(resource)) { bad++; t.fail(`unknown resource ${resource}`) }
    const id = record.id as number
    if (resource === 'cluster-redirections') redirected.add(record.deleted_cluster_id as number)
    let expected = (last.get(resource) ?? 0) + 1
    // A cluster id merged away or sealed is skipped; its redirection comes with the next cluster.
    if (resource === 'clusters') for (; expected < id; expected++) skipped.push(expected)
    if (id !== expected) { bad++; t.fail(`${resource} ${id} follows ${last.get(resource)}`) }
    last.set(resource, id)
    for (const [column, target] of refs.get(resource) ?? []) {
      const v = record[column]
      for (const x of Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]) {
        checked++
        if (!seen.get(target)?.has(x)) { bad++; if (bad < 10) t.fail(`${resource} ${id}: ${column}=${x} not emitted before`) }
      }
    }
    if (!seen.has(resource)) seen.set(resource, new Set())
    seen.get(resource)!.add(id)
  }
  t.equal(bad, 0, `${checked} references checked`)
  t.ok(skipped.length > 0, `cluster ids ${skipped.join(', ')} skipped`)
  t.same([...redirected].sort((a, b) => a - b), skipped, 'exactly the skipped cluster ids are redirected')
  for (const r of catalogue.stored.map((x) => x.name).filter((x) => x !== 'courts' && !USER_MADE.includes(x) && !PROCESSOR_MADE.includes(x) && !BULK_ONLY.includes(x))) t.ok(last.get(r), `some ${r}`)
  const firstDocket = corpus.records.findIndex((r) => r.resource === 'dockets')
  t.notOk(corpus.records.slice(firstDocket).some((r) => ['people', 'schools', 'positions', 'financial-disclosures'].includes(r.resource)), 'the judges come first, then the cases')
})

t.test('every stored resource has records, but those users make and those the processors derive', async (t) => {
  const present = new Set(corpus.records.map((r) => r.resource))
  present.add('courts') // published by the driver from the court data set
  const expected = catalogue.stored.map((r) => r.name).filter((r) => !USER_MADE.includes(r) && !PROCESSOR_MADE.includes(r) && !BULK_ONLY.includes(r))
  t.same([...present].sort(), expected.sort())
  for (const r of ['alerts', 'docket-alerts', 'prayers', 'archive-fetch', 'memberships', 'archive']) t.ok(USER_MADE.includes(r), `${r} is made by users`)
})

t.test('every record is what the publisher expects: stored columns only, valid values, dated up to the day it is taken', async (t) => {
  const codecs = new Map(catalogue.resources.map((r) => [r.name, createEntityCodec(catalogue, r)]))
  const columns = new Map(catalogue.resources.map((r) => [r.name, new Set(catalogue.columns(r).map(([c]) => c))]))
  // Dated columns and columns with choices, per resource.
  const dated = new Map(catalogue.resources.map((r) => [r.name, catalogue.columns(r).filter(([, f]) => ['date', 'datetime'].includes(r.fields[f].kind)).map(([c]) => c)]))
  const choices = new Map(catalogue.resources.map((r) => [r.name, catalogue.columns(r).filter(([, f]) => r.fields[f].choices).map(([c, f]) => [c, new Set(r.fields[f].choices!.map((x) => x.value))] as const)]))
  // Records of the day itself are stamped before 01:00 UTC.
  const LATEST = `${TODAY}T01:00:00`
  let bad = 0
  const fail = (m: string) => { bad++; if (bad < 8) t.fail(m) }
  for (const { resource, record } of corpus.records) {
    const extra = Object.keys(record).filter((k) => !columns.get(resource)!.has(k))
    if (extra.length) fail(`${resource}: not stored: ${extra.join(', ')}`)
    const missing = [...columns.get(resource)!].filter((c) => !(c in record) && !DERIVED[resource]?.includes(c))
    if (missing.length) fail(`${resource}: missing ${missing.join(', ')}`)
    try { codecs.get(resource)!.toEntity(record) } catch (err) { fail(`${resource} ${record.id}: ${(err as Error).message}`) }
    for (const c of dated.get(resource)!) {
      const v = record[c]
      if (v !== null && !(String(v) <= (String(v).length > 10 ? LATEST : TODAY))) fail(`${resource} ${record.id}: ${c} ${v} is after ${TODAY}`)
    }
    for (const [c, allowed] of choices.get(resource)!) {
      const v = record[c]
      if (v !== null && v !== '' && !allowed.has(v as string | number)) fail(`${resource} ${record.id}: ${c} ${JSON.stringify(v)} is not a choice`)
    }
    if (!('date_created' in record)) continue
    const created = String(record.date_created), modified = String(record.date_modified ?? created)
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/.test(created) || modified < created) fail(`${resource} ${record.id}: ${created} / ${modified}`)
  }
  t.equal(bad, 0)
  const opinion = of(corpus, 'opinions')[0]
  t.equal(opinion.html_with_citations, '', 'html_with_citations is left to the stream processor')
  for (const derived of ['resource_uri', 'absolute_url', 'sub_opinions', 'citation_count', 'opinions_cited']) t.notOk(derived in opinion || derived in of(corpus, 'clusters')[0], `${derived} is not generated`)
})

t.test('the corpus runs up to the day it is taken', async (t) => {
  const month = TODAY.slice(0, 7)
  const week = isoDay(dayOf(TODAY) - 6)
  const dockets = of(corpus, 'dockets'), entries = of(corpus, 'docket-entries')
  const thisMonth = dockets.filter((d) => String(d.date_filed).startsWith(month))
  t.ok(thisMonth.length >= 3, `${thisMonth.length} dockets filed this month`)
  t.ok(thisMonth.some((d) => d.date_terminated === null), 'some of them pending')
  const thisWeek = entries.filter((e) => String(e.date_filed) >= week)
  t.ok(thisWeek.length >= 3, `${thisWeek.length} docket entries filed this week`)
  t.ok(corpus.records.some((r) => String(r.record.date_modified ?? '').startsWith(TODAY)), 'records modified today')
  const decided = of(corpus, 'clusters').map((c) => String(c.date_filed)).sort()
  t.ok(decided.at(-1)! < TODAY && decided.at(-1)! >= isoDay(dayOf(TODAY) - 120), `the latest decision on ${decided.at(-1)}`)
})

t.test('authors and panels sit on the court that decided the case', async (t) => {
  const positions = of(corpus, 'positions')
  const seats = new Map<number, { court: unknown; start: string; end: string | null }[]>()
  for (const p of positions) if (p.court_id) seats.set(p.person_id as number, [...(seats.get(p.person_id as number) ?? []), { court: p.court_id, start: String(p.date_start), end: p.date_termination as string | null }])
  const dockets = new Map(of(corpus, 'dockets').map((d) => [d.id, d]))
  const clusters = new Map(of(corpus, 'clusters').map((c) => [c.id, c]))
  let judged = 0, onCourt = 0, onDate = 0
  for (const o of of(corpus, 'opinions')) {
    const cluster = clusters.get(o.cluster_id)!
    const court = dockets.get(cluster.docket_id)!.court_id
    const date = String(cluster.date_filed)
    for (const person of [o.author_id, ...(o.joined_by_ids as number[])].filter((x) => x !== null) as number[]) {
      judged++
      const held = (seats.get(person) ?? []).filter((s) => s.court === court)
      if (held.length) onCourt++
      if (held.some((s) => s.start <= date && (s.end === null || s.end >= date))) onDate++
    }
    if (!(cluster.panel_ids as number[]).includes(o.author_id as number) && o.author_id !== null) t.fail(`opinion ${o.id}: author not on the panel`)
  }
  t.equal(onCourt, judged, `${judged} authors and joiners hold a position on the court`)
  t.ok(onDate / judged > 0.99, `${((100 * onDate) / judged).toFixed(2)}% sat on the decision date`)
  const presidents = positions.filter((p) => p.position_type === 'pres')
  t.ok(presidents.length >= 15, 'presidents appoint the federal judges')
  const federal = positions.filter((p) => p.how_selected === 'a_pres')
  t.ok(federal.length > 0 && federal.every((p) => presidents.some((pr) => pr.id === p.appointer_id && String(pr.date_start) <= String(p.date_nominated) && (pr.date_termination === null || String(pr.date_termination) >= String(p.date_nominated)))), 'each by the president in office at the nomination')
})

t.test('citations in the text resolve to earlier clusters, except the fabricated ones', async (t) => {
  const clusterOf = new Map<string, number>()
  const clusterDate = new Map<number, string>()
  let made = 0, fabricated = 0, resolved = 0, spurious = 0, notFound = 0, backwards = 0
  for (const { resource, record } of corpus.records) {
    if (resource === 'clusters') clusterDate.set(record.id as number, String(record.date_filed))
    if (resource === 'citations') clusterOf.set(key(record), record.cluster_id as number)
    if (resource !== 'opinions') continue
    const id = record.id as number
    const fakes = new Set(corpus.fabricated.get(id)!.map(key))
    const cites = corpus.cited.get(id)!
    const date = clusterDate.get(record.cluster_id as number)!
    for (const text of [String(record.plain_text), String(record.html)].filter(Boolean)) {
      const found = new Set(extractCitations(text).filter((c) => c.kind === 'full_case').map((c) => key(c)))
      for (const k of found) if (!clusterOf.has(k) && !fakes.has(k)) { spurious++; if (spurious < 5) t.fail(`opinion ${id}: ${k} found in the text but never emitted`) }
      for (const c of cites) if (!found.has(key(c))) { notFound++; if (notFound < 5) t.fail(`opinion ${id}: ${key(c)} not found by the extractor`) }
    }
    for (const c of cites) {
      made++
      const k = key(c)
      if (fakes.has(k)) {
        fabricated++
        if (clusterOf.has(k) || !isFabricatedPage(c.page)) t.fail(`fabricated ${k} exists or could`)
        continue
      }
      if (!clusterOf.has(k)) { t.fail(`opinion ${id} cites ${k}, which was not emitted before it`); continue }
      resolved++
      if (clusterDate.get(clusterOf.get(k)!)! > date) backwards++
    }
  }
  t.equal(spurious, 0, 'the extractor finds no citation that was not written on purpose')
  t.equal(notFound, 0, 'the extractor finds every citation written, in plain text and HTML')
  t.equal(backwards, 0, 'opinions cite only clusters decided on or before their own date')
  t.ok(made > 5000, `${made} citations made, ${resolved} resolve`)
  const share = fabricated / made
  t.ok(share > 0.005 && share < 0.04, `${fabricated} fabricated (${(100 * share).toFixed(2)}%)`)
  const perOpinion = [...corpus.cited.values()].map((c) => c.length)
  t.ok(perOpinion.filter((n) => n >= 3).length / perOpinion.length > 0.9, 'most opinions cite at least three cases')
  const texts = of(corpus, 'opinions').map((o) => String(o.plain_text))
  t.ok(texts.some((x) => /\bId\. at \d+/.test(x)), 'Id. with a pin cite')
  t.ok(texts.some((x) => /, \d+ [A-Z][\w.' ]+ \d+, \d+ \(/.test(x)), 'pin cites')
  t.ok(texts.some((x) => /\d+ U\.S\.C\. § \d+/.test(x)), 'statutes')
  t.ok(texts.some((x) => / at \d+\./.test(x)), 'short forms')
})

t.test('docket numbers in the style of the court', async (t) => {
  const styles: Record<string, RegExp> = {
    scotus: /^\d{2}-\d{1,4}$/, circuit: /^\d{2}-\d{5}$/, district: /^\d:\d{2}-(cv|cr)-\d{5}$/, bankruptcy: /^\d{2}-\d{5}$/,
    cal: /^S\d{6}$/, fla: /^SC\d{2}-\d{4}$/, calctapp: /^[A-H]\d{6}$/, nyappdiv: /^\d{4}-\d{5}$/,
  }
  const seen = new Set<string>()
  for (const d of of(corpus, 'dockets')) {
    const court = String(d.court_id), number = String(d.docket_number), kind = kindOf(court)
    const style = styles[court] ?? styles[kind]
    if (style) { seen.add(styles[court] ? court : kind); if (!style.test(number)) t.fail(`${court}: ${number}`) }
    const yy = String(d.date_filed).slice(2, 4)
    if (['scotus', 'circuit', 'district', 'bankruptcy'].includes(kind) && !number.replace(/^\d:/, '').startsWith(yy)) t.fail(`${court} ${number} filed ${d.date_filed}`)
    if (kind === 'district' && d.docket_number_core !== number.slice(2).replace(/-(cv|cr)-/, '')) t.fail(`${number} core ${d.docket_number_core}`)
  }
  t.ok(seen.size >= 6, `court styles checked: ${[...seen].join(', ')}`)
})

t.test('parallel citations: real reporters in force on the decision date, fitting the court', async (t) => {
  const raw = JSON.parse(readFileSync(projectFile('data/reporters/reporters.json'), 'utf8')) as Record<string, { cite_type: string; editions: Record<string, { start: string | null; end: string | null }> }[]>
  const editions = new Map<string, { start: string; end: string; type: string }[]>()
  for (const list of Object.values(raw)) for (const r of list) for (const [e, d] of Object.entries(r.editions)) {
    editions.set(e, [...(editions.get(e) ?? []), { start: (d.start ?? '0000').slice(0, 10), end: (d.end ?? '9999').slice(0, 10), type: r.cite_type }])
  }
  const TYPES: Record<string, number> = { federal: 1, state: 2, state_regional: 3, specialty: 4, specialty_lexis: 6, specialty_west: 7 }
  const dockets = new Map(of(corpus, 'dockets').map((d) => [d.id, d]))
  const clusters = new Map(of(corpus, 'clusters').map((c) => [c.id, c]))
  const fits: Record<string, RegExp> = {
    scotus: /^(U\.S\.|S\. Ct\.|L\. Ed\. 2d)$/, circuit: /^(F\.(2d|3d|4th)?|F\. App'x|WL)$/,
    district: /^(F\. Supp\.( 2d| 3d)?|WL|U\.S\. Dist\. LEXIS)$/, bankruptcy: /^(B\.R\.|WL)$/,
  }
  let shapes = 0
  const used = new Set<string>()
  const perCluster = new Map<unknown, number>()
  for (const c of of(corpus, 'citations')) {
    const cluster = clusters.get(c.cluster_id)!
    const date = String(cluster.date_filed)
    const court = String(dockets.get(cluster.docket_id)!.court_id)
    const kind = kindOf(court)
    const reporter = String(c.reporter)
    const ranges = editions.get(reporter)
    if (!ranges) { t.fail(`${reporter} is not in reporters.json`); continue }
    const landmark = cluster.date_filed_is_approximate ? LANDMARK.get(String(cluster.case_name)) : undefined
    if (landmark?.cite) {
      // A landmark carries its real citation, in the reporter's numbering even before the reporters data has the reporter begin (5 U.S. 137, 1803).
      if (`${c.volume} ${reporter} ${c.page}` !== `${landmark.cite.volume} ${landmark.cite.reporter} ${landmark.cite.page}`) t.fail(`${cluster.case_name}: ${c.volume} ${reporter} ${c.page}`)
      if (!ranges.some((r) => (r.start <= date || date < '1875') && date <= r.end && TYPES[r.type] === c.type)) t.fail(`${reporter} (type ${c.type}) on ${date}`)
    } else if (!ranges.some((r) => r.start <= date && date <= r.end && TYPES[r.type] === c.type)) t.fail(`${reporter} (type ${c.type}) on ${date}`)
    if (fits[kind] && !fits[kind].test(reporter)) t.fail(`${court} reported in ${reporter}`)
    if (kind === 'state' && ![2, 3, 7].includes(c.type as number)) t.fail(`state court ${court} reported in ${reporter}`)
    if (reporter === 'F.3d' && date < '1993-01-01') t.fail(`F.3d on ${date}`)
    if (reporter === 'F.2d' && date > '1993-12-31') t.fail(`F.2d on ${date}`)
    if (used.has(key(c))) t.fail(`${key(c)} handed out twice`)
    used.add(key(c))
    perCluster.set(c.cluster_id, (perCluster.get(c.cluster_id) ?? 0) + 1)
    if (!Number.isInteger(c.volume) || typeof c.page !== 'string') shapes++
  }
  t.equal(shapes, 0, 'integer volumes, string pages')
  t.equal(perCluster.size, clusters.size, 'every cluster has a citation')
  t.ok([...perCluster.values()].every((n) => n >= 1 && n <= 2), 'one or two per cluster')
  const reporters = new Set(of(corpus, 'citations').map((c) => c.reporter))
  for (const r of ['U.S.', 'S. Ct.', 'F.2d', 'F.3d', 'F. Supp. 2d', 'WL']) t.ok(reporters.has(r), `${r} is used`)
  t.ok([...reporters].some((r) => /^(A|N\.E|N\.W|P|S\.E|S\.W)\.(2d|3d)$|^So\. [23]d$/.test(String(r))), 'regional reporters are used')
})

t.test('archive dockets hang together: entries, documents, parties, attorneys and what the catalogue copies', async (t) => {
  const dockets = new Map(of(corpus, 'dockets').map((d) => [d.id as number, d]))
  const kind = (docket: unknown) => kindOf(dockets.get(docket as number)!.court_id)
  const entries = new Map<number, Record<string, unknown>>()
  const perDocket = new Map<number, { n: number; lastNumber: number; lastDate: string }>()
  let bad = 0
  const fail = (m: string) => { bad++; if (bad < 8) t.fail(m) }
  for (const e of of(corpus, 'docket-entries')) {
    entries.set(e.id as number, e)
    const d = dockets.get(e.docket_id as number)!
    const p = perDocket.get(d.id as number) ?? { n: 0, lastNumber: 0, lastDate: '' }
    if ((e.entry_number as number) <= p.lastNumber) fail(`docket ${d.id}: entry ${e.entry_number} after ${p.lastNumber}`)
    if (String(e.date_filed) < String(d.date_filed) || String(e.date_filed) < p.lastDate) fail(`docket ${d.id}: entry of ${e.date_filed} (filed ${d.date_filed}, last ${p.lastDate})`)
    perDocket.set(d.id as number, { n: p.n + 1, lastNumber: e.entry_number as number, lastDate: String(e.date_filed) })
  }
  for (const [id, p] of perDocket) {
    const d = dockets.get(id)!
    if (p.n < 1 || p.n > 30) fail(`docket ${id}: ${p.n} entries`)
    if (!((d.source as number) & 1)) fail(`docket ${id} has entries but not the archive as a source`)
    if (p.lastDate !== d.date_last_filing) fail(`docket ${id}: last entry ${p.lastDate}, last filing ${d.date_last_filing}`)
    if (!['district', 'bankruptcy', 'circuit'].includes(kind(id))) fail(`docket ${id} in ${d.court_id} has entries`)
  }
  t.ok(perDocket.size > 50, `${perDocket.size} dockets with entries`)
  const mains = new Map<number, number>()
  for (const doc of of(corpus, 'archive-documents')) {
    const e = entries.get(doc.docket_entry_id as number)!
    if (doc.docket_id !== e.docket_id) fail(`document ${doc.id}: docket ${doc.docket_id}, entry's ${e.docket_id}`)
    if (doc.document_number !== String(e.entry_number)) fail(`document ${doc.id}: number ${doc.document_number} under entry ${e.entry_number}`)
    if ((doc.document_type === 1) !== (doc.attachment_number === null)) fail(`document ${doc.id}: type ${doc.document_type}, attachment ${doc.attachment_number}`)
    if (doc.document_type === 1) mains.set(e.id as number, (mains.get(e.id as number) ?? 0) + 1)
    if (doc.is_available && !(/^[0-9a-f]{40}$/.test(String(doc.sha1)) && (doc.page_count as number) > 0 && doc.filepath_local)) fail(`document ${doc.id}: available without file`)
  }
  t.ok([...entries.keys()].every((id) => mains.get(id) === 1), 'one main document per entry')
  t.ok(of(corpus, 'archive-documents').some((d) => d.document_type === 2), 'and some attachments')
  t.ok(of(corpus, 'archive-documents').some((d) => String(d.plain_text).length > 200), 'with text')

  // Parties, attorneys and the roles between them, and every copy of those links.
  const roles = of(corpus, 'attorney-roles'), types = of(corpus, 'party-types')
  const attorneysOf = new Map<unknown, Set<unknown>>(), docketsOfAttorney = new Map<unknown, Set<unknown>>(), docketsOfParty = new Map<unknown, Set<unknown>>()
  const add = (m: Map<unknown, Set<unknown>>, k: unknown, v: unknown) => (m.get(k) ?? m.set(k, new Set()).get(k)!).add(v)
  for (const r of roles) { add(attorneysOf, r.party_id, r.attorney_id); add(docketsOfAttorney, r.attorney_id, r.docket_id); add(docketsOfParty, r.party_id, r.docket_id) }
  for (const p of types) add(docketsOfParty, p.party_id, p.docket_id)
  const sameSet = (a: unknown, b: Set<unknown> | undefined) => JSON.stringify([...(a as unknown[])].sort()) === JSON.stringify([...(b ?? [])].sort())
  for (const p of of(corpus, 'parties')) {
    if (!sameSet(p.docket_ids, docketsOfParty.get(p.id))) fail(`party ${p.id}: dockets ${JSON.stringify(p.docket_ids)}`)
    if (!sameSet(p.attorney_ids, attorneysOf.get(p.id))) fail(`party ${p.id}: attorneys ${JSON.stringify(p.attorney_ids)}`)
  }
  for (const a of of(corpus, 'attorneys')) if (!sameSet(a.docket_ids, docketsOfAttorney.get(a.id))) fail(`attorney ${a.id}: dockets ${JSON.stringify(a.docket_ids)}`)
  t.ok(of(corpus, 'parties').length === types.length, 'one party type per party')
  const typeOf = new Map(types.map((p) => [p.id, p]))
  const criminalDocket = (docket: unknown) => /^United States v\. /.test(String(dockets.get(docket as number)!.case_name)) && kind(docket) === 'district'
  for (const c of [...of(corpus, 'criminal-counts'), ...of(corpus, 'criminal-complaints')]) {
    const p = typeOf.get(c.party_type_id)!
    if (p.name !== 'Defendant' || !criminalDocket(p.docket_id)) fail(`criminal count ${c.id} on ${p.name} in docket ${p.docket_id}`)
  }
  t.ok(of(corpus, 'criminal-counts').length > 0 && of(corpus, 'criminal-complaints').length > 0, 'criminal counts and complaints')

  // Bankruptcy details for bankruptcy dockets, the case below for appeals, statistics for district cases.
  const bankruptcies = of(corpus, 'bankruptcy-information')
  t.ok(bankruptcies.length > 0 && bankruptcies.every((b) => kind(b.docket_id) === 'bankruptcy'), `${bankruptcies.length} bankruptcy records, all of bankruptcy dockets`)
  t.equal(new Set(bankruptcies.map((b) => b.docket_id)).size, [...dockets.values()].filter((d) => kind(d.id) === 'bankruptcy').length, 'one per bankruptcy docket')
  const withBelow = [...dockets.values()].filter((d) => d.original_court_info_id !== null)
  t.ok(withBelow.length > 0 && withBelow.every((d) => ['circuit', 'scotus'].includes(kind(d.id)) && d.appeal_from_id), `${withBelow.length} appeals with the case below`)
  const withIdb = [...dockets.values()].filter((d) => d.idb_data_id !== null)
  t.ok(withIdb.length > 0 && withIdb.every((d) => kind(d.id) === 'district' && (d.source as number) & 8), `${withIdb.length} district dockets with their statistics`)
  const idb = new Map(of(corpus, 'fjc-integrated-database').map((r) => [r.id, r]))
  t.ok(withIdb.every((d) => idb.get(d.idb_data_id)!.district_id === d.court_id && idb.get(d.idb_data_id)!.date_filed === d.date_filed), 'the statistics row is of that case')
  t.equal(bad, 0)
})

t.test('disclosures of federal judges, maps of Supreme Court decisions, redirections and public tags', async (t) => {
  const federal = new Set(of(corpus, 'positions').filter((p) => ['F', 'FD'].includes(String(jurisdiction.get(String(p.court_id))))).map((p) => p.person_id))
  const disclosures = of(corpus, 'financial-disclosures')
  t.ok(disclosures.length > 50 && disclosures.every((d) => federal.has(d.person_id)), `${disclosures.length} disclosures, all of federal judges`)
  t.ok(disclosures.every((d) => (d.year as number) >= 2004 && (d.year as number) <= Number(TODAY.slice(0, 4))), 'filed for 2004 on')
  const byDisclosure = new Map<unknown, Set<string>>()
  for (const r of ['agreements', 'debts', 'gifts', 'investments', 'non-investment-incomes', 'disclosure-positions', 'reimbursements', 'spouse-incomes']) {
    for (const x of of(corpus, r)) (byDisclosure.get(x.financial_disclosure_id) ?? byDisclosure.set(x.financial_disclosure_id, new Set()).get(x.financial_disclosure_id)!).add(r)
  }
  t.ok([...byDisclosure.values()].every((s) => s.has('investments')), 'every report lists investments')

  const clusters = new Map(of(corpus, 'clusters').map((c) => [c.id, c]))
  const dockets = new Map(of(corpus, 'dockets').map((d) => [d.id, d]))
  const scotus = (cluster: unknown) => dockets.get(clusters.get(cluster)!.docket_id)!.court_id === 'scotus'
  const maps = of(corpus, 'visualizations')
  t.ok(maps.length >= 1, `${maps.length} maps`)
  for (const m of maps) {
    const ids = m.clusters_ids as number[]
    t.ok(ids.includes(m.cluster_start_id as number) && ids.includes(m.cluster_end_id as number) && ids.every(scotus), `map ${m.id}: Supreme Court decisions from start to end`)
    t.ok(String(clusters.get(m.cluster_start_id)!.date_filed) <= String(clusters.get(m.cluster_end_id)!.date_filed), `map ${m.id} runs forward in time`)
    t.ok(m.published && m.user_id === SAMPLE_USER_ID, `map ${m.id} is the sample user's and published`)
  }
  const versions = of(corpus, 'visualization-json')
  t.ok(versions.length >= maps.length && versions.every((v) => { const data = JSON.parse(String(v.json_data)); return data.opinion_clusters.length >= 2 && v.published === true }), 'each map has its data')

  const redirections = of(corpus, 'cluster-redirections')
  const merged = redirections.filter((r) => (r.reason as number) <= 3), sealed = redirections.filter((r) => r.reason === 4)
  t.ok(merged.length > 0 && merged.every((r) => clusters.has(r.cluster_id)), `${merged.length} merged into a surviving cluster`)
  t.ok(sealed.length > 0 && sealed.every((r) => r.cluster_id === null), `${sealed.length} sealed`)

  const tags = of(corpus, 'tags'), onDockets = of(corpus, 'docket-tags')
  t.ok(tags.every((x) => x.user_id === SAMPLE_USER_ID) && tags.filter((x) => x.published).length >= 3, 'the sample user\'s tags, most published')
  const tagById = new Map(tags.map((x) => [x.id, x]))
  t.ok(onDockets.every((x) => tagById.get(x.tag_id)!.published === x.published && x.user_id === SAMPLE_USER_ID), 'docket tags copy their tag\'s owner and publication')
  t.ok(tags.filter((x) => x.published).every((x) => onDockets.some((d) => d.tag_id === x.id)), 'every published tag is on a docket')
  t.equal(new Set(onDockets.map((x) => `${x.docket_id}|${x.tag_id}`)).size, onDockets.length, 'a tag is on a docket once')
})

t.test('the corpus looks like case law', async (t) => {
  const opinions = of(corpus, 'opinions'), clusters = of(corpus, 'clusters'), dockets = of(corpus, 'dockets')
  const byType = (ty: string) => opinions.filter((o) => o.type === ty).length
  t.ok(byType('010combined') / opinions.length > 0.5, `${byType('010combined')} combined opinions of ${opinions.length}`)
  t.ok(byType('020lead') > 0 && byType('040dissent') > 0 && byType('030concurrence') > 0, 'lead, dissent and concurrence')
  const perCluster = new Map<unknown, number>()
  for (const o of opinions) perCluster.set(o.cluster_id, (perCluster.get(o.cluster_id) ?? 0) + 1)
  t.ok([...perCluster.values()].every((n) => n >= 1 && n <= 3), 'one to three opinions per cluster')
  t.ok(clusters.filter((c) => c.precedential_status === 'Published').length / clusters.length > 0.7, 'mostly published')
  // Landmarks are the clusters dated approximately (their real year, a day of it); a generated case may share a landmark's name (United States v. Jones).
  const generated = clusters.filter((c) => !c.date_filed_is_approximate), landmarks = clusters.filter((c) => c.date_filed_is_approximate)
  const decades = new Set(generated.map((c) => String(c.date_filed).slice(0, 3)))
  t.same([...decades].sort(), ['195', '196', '197', '198', '199', '200', '201', '202'], 'generated decisions from the 1950s to the 2020s')
  t.ok(generated.every((c) => String(c.date_filed) >= '1950-01-01' && String(c.date_filed) < TODAY))
  t.ok(landmarks.length >= 40, `${landmarks.length} landmark decisions`)
  t.ok(landmarks.every((c) => Number(String(c.date_filed).slice(0, 4)) === LANDMARK.get(String(c.case_name))?.year), 'each a real decision, in its real year')
  t.ok(landmarks.some((c) => String(c.date_filed) < '1950'), 'some decided before 1950')
  const names = dockets.map((d) => String(d.case_name))
  for (const re of [/^United States v\. /, /^State v\. /, /^People v\. /, /^Commonwealth v\. /, /^In re /, /^\w+ v\. [\w ]+ (Co\.|Inc\.|LLC|Corp\.)/]) t.ok(names.some((n) => re.test(n)), `a case named like ${re}`)
  const sizes = opinions.map((o) => String(o.plain_text).length)
  t.ok(Math.min(...sizes) >= 1800 && Math.max(...sizes) <= 40_000, `texts from ${Math.min(...sizes)} to ${Math.max(...sizes)} characters`)
  t.ok(opinions.filter((o) => o.html).every((o) => String(o.html).startsWith('<div') && String(o.html).includes('<p>')), 'some HTML, as paragraphs')
  t.ok(opinions.every((o) => o.plain_text), 'every opinion has plain text')
  t.ok(of(corpus, 'audio').every((a) => (a.duration as number) > 0 && a.blocked === false && a.date_blocked === null))
})

/** A full collection where the runtime allows one, so that the heap measured is what is kept. */
function collector(): () => void {
  try {
    v8.setFlagsFromString('--expose-gc')
    return runInNewContext('gc') as () => void
  } catch { return () => {} }
}

t.test('memory stays flat while streaming 40,000 opinions', async (t) => {
  const gc = collector()
  let opinions = 0, early = 0, peak = 0
  for (const { resource } of generateSample({ courts, opinions: 40_000, seed: 5, today: TODAY })) {
    if (resource !== 'opinions' || ++opinions % 5_000) continue
    gc()
    const heap = process.memoryUsage().heapUsed
    if (opinions === 10_000) early = heap
    peak = Math.max(peak, heap)
  }
  t.equal(opinions, 40_000)
  t.ok(peak - early < 100 * 1024 * 1024, `heap grew ${Math.round((peak - early) / 1e6)} MB after the first 10,000 opinions`)
})
