/**
 * The generated sample corpus: deterministic, linear in its size, referentially whole in
 * emission order, valid for the publisher's codec, and realistic where it matters to the rest
 * of the service (docket numbers, reporters that existed on the decision date, citations in the
 * text that resolve to earlier clusters, except the deliberately fabricated ones).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import t from 'tap'
import { loadCourts } from '../../../connectors/sample/courts.js'
import { DEFAULT_OPINIONS, generateSample, type CitedRef, type SampleRecord } from '../../../connectors/sample/generator.js'
import { isFabricatedPage } from '../../../connectors/sample/reporters.js'
import { createEntityCodec } from '../../../connectors/entity-codec.js'
import { catalogue } from '../../../schemas/catalogue/index.js'
import { extractCitations } from '../../../domain/citations/index.js'

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

interface Run { records: SampleRecord[]; cited: Map<number, CitedRef[]>; fabricated: Map<number, CitedRef[]> }
function run(opinions: number, seed = 1): Run {
  const records: SampleRecord[] = []
  const cited = new Map<number, CitedRef[]>()
  const fabricated = new Map<number, CitedRef[]>()
  for (const r of generateSample({ courts, opinions, seed, onCited: (id, c, f) => { cited.set(id, c); fabricated.set(id, f) } })) records.push(r)
  return { records, cited, fabricated }
}
function counts(opinions: number, seed = 1): Record<string, number> {
  const out: Record<string, number> = {}
  for (const { resource } of generateSample({ courts, opinions, seed })) out[resource] = (out[resource] ?? 0) + 1
  return out
}
const of = (r: Run, resource: string) => r.records.filter((x) => x.resource === resource).map((x) => x.record)
const CASE_LAW = ['dockets', 'clusters', 'citations', 'opinions', 'audio']

const corpus = run(1500)

t.test('the same seed gives the same corpus, another seed another', async (t) => {
  const digest = (opinions: number, seed: number) => {
    const h = createHash('sha1')
    for (const r of generateSample({ courts, opinions, seed, onCited: (id, c) => h.update(`${id}:${c.map(key).join(',')}`) })) h.update(JSON.stringify(r))
    return h.digest('hex')
  }
  t.equal(digest(300, 7), digest(300, 7))
  t.not(digest(300, 7), digest(300, 8))
  t.same(run(200, 3).records.slice(-50), run(200, 3).records.slice(-50), 'record by record')
})

t.test('the corpus scales with the number of opinions; the bench does not', async (t) => {
  const small = counts(500), large = counts(5000)
  t.equal(small.opinions, 500)
  t.equal(large.opinions, 5000)
  const caseLaw = (c: Record<string, number>) => CASE_LAW.reduce((s, r) => s + (c[r] ?? 0), 0)
  const ratio = caseLaw(large) / caseLaw(small)
  t.ok(ratio > 9 && ratio < 11, `case-law records grow ${ratio.toFixed(2)}×`)
  for (const r of ['schools', 'people', 'positions', 'educations', 'sources']) t.equal(large[r], small[r], `${r}: the same judges whatever the size`)
  t.equal(DEFAULT_OPINIONS, 10_000)
  const whole = counts(DEFAULT_OPINIONS)
  t.equal(whole.opinions, 10_000)
  t.comment(`default size: ${JSON.stringify(whole)}`)
})

t.test('ids run from 1 per resource; references point at records emitted before them', async (t) => {
  const refs: Record<string, [column: string, target: string][]> = {
    schools: [['is_alias_of_id', 'schools']], people: [['is_alias_of_id', 'people']],
    educations: [['person_id', 'people'], ['school_id', 'schools']], 'political-affiliations': [['person_id', 'people']],
    'aba-ratings': [['person_id', 'people']], sources: [['person_id', 'people']],
    positions: [['person_id', 'people'], ['predecessor_id', 'people'], ['supervisor_id', 'people'], ['school_id', 'schools'], ['court_id', 'courts'], ['appointer_id', 'positions']],
    'retention-events': [['position_id', 'positions']],
    dockets: [['court_id', 'courts'], ['appeal_from_id', 'courts'], ['assigned_to_id', 'people'], ['referred_to_id', 'people'], ['panel_ids', 'people'], ['parent_docket_id', 'dockets']],
    clusters: [['docket_id', 'dockets'], ['panel_ids', 'people'], ['non_participating_judges_ids', 'people']],
    citations: [['cluster_id', 'clusters']],
    opinions: [['cluster_id', 'clusters'], ['author_id', 'people'], ['joined_by_ids', 'people'], ['main_version_id', 'opinions']],
    audio: [['docket_id', 'dockets'], ['panel_ids', 'people']],
  }
  const seen = new Map<string, Set<unknown>>([['courts', courtIds]])
  const last = new Map<string, number>()
  let bad = 0, checked = 0
  for (const { resource, record } of corpus.records) {
    if (!refs[resource]) { bad++; t.fail(`unknown resource ${resource}`) }
    const id = record.id as number
    if (id !== (last.get(resource) ?? 0) + 1) { bad++; t.fail(`${resource} ${id} follows ${last.get(resource)}`) }
    last.set(resource, id)
    for (const [column, target] of refs[resource] ?? []) {
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
  for (const r of ['schools', 'people', 'educations', 'political-affiliations', 'aba-ratings', 'sources', 'positions', 'retention-events', 'dockets', 'clusters', 'citations', 'opinions', 'audio']) t.ok(last.get(r), `some ${r}`)
  const firstDocket = corpus.records.findIndex((r) => r.resource === 'dockets')
  t.notOk(corpus.records.slice(firstDocket).some((r) => ['people', 'schools', 'positions'].includes(r.resource)), 'the judges come first, then the cases')
})

t.test('every record is what the publisher expects: stored columns only, valid values', async (t) => {
  const codecs = new Map(catalogue.resources.map((r) => [r.name, createEntityCodec(catalogue, r)]))
  const columns = new Map(catalogue.resources.map((r) => [r.name, new Set(catalogue.columns(r).map(([c]) => c))]))
  const SNAPSHOT = '2025-10-01'
  let bad = 0
  for (const { resource, record } of corpus.records) {
    const extra = Object.keys(record).filter((k) => !columns.get(resource)!.has(k))
    if (extra.length) { bad++; if (bad < 5) t.fail(`${resource}: not stored: ${extra.join(', ')}`) }
    const missing = [...columns.get(resource)!].filter((c) => !(c in record) && !DERIVED[resource]?.includes(c))
    if (missing.length) { bad++; if (bad < 5) t.fail(`${resource}: missing ${missing.join(', ')}`) }
    try { codecs.get(resource)!.toEntity(record) } catch (err) { bad++; if (bad < 5) t.fail(`${resource} ${record.id}: ${(err as Error).message}`) }
    const created = String(record.date_created), modified = String(record.date_modified)
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/.test(created) || modified < created || modified > SNAPSHOT) { bad++; if (bad < 5) t.fail(`${resource} ${record.id}: ${created} / ${modified}`) }
  }
  t.equal(bad, 0)
  const opinion = of(corpus, 'opinions')[0]
  t.equal(opinion.html_with_citations, '', 'html_with_citations is left to the stream processor')
  for (const derived of ['resource_uri', 'absolute_url', 'sub_opinions', 'citation_count', 'opinions_cited']) t.notOk(derived in opinion || derived in of(corpus, 'clusters')[0], `${derived} is not generated`)
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
  const raw = JSON.parse(readFileSync(new URL('../../../data/reporters/reporters.json', import.meta.url), 'utf8')) as Record<string, { cite_type: string; editions: Record<string, { start: string | null; end: string | null }> }[]>
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
    if (!ranges.some((r) => r.start <= date && date <= r.end && TYPES[r.type] === c.type)) t.fail(`${reporter} (type ${c.type}) on ${date}`)
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

t.test('the corpus looks like case law', async (t) => {
  const opinions = of(corpus, 'opinions'), clusters = of(corpus, 'clusters'), dockets = of(corpus, 'dockets')
  const byType = (ty: string) => opinions.filter((o) => o.type === ty).length
  t.ok(byType('010combined') / opinions.length > 0.5, `${byType('010combined')} combined opinions of ${opinions.length}`)
  t.ok(byType('020lead') > 0 && byType('040dissent') > 0 && byType('030concurrence') > 0, 'lead, dissent and concurrence')
  const perCluster = new Map<unknown, number>()
  for (const o of opinions) perCluster.set(o.cluster_id, (perCluster.get(o.cluster_id) ?? 0) + 1)
  t.ok([...perCluster.values()].every((n) => n >= 1 && n <= 3), 'one to three opinions per cluster')
  t.ok(clusters.filter((c) => c.precedential_status === 'Published').length / clusters.length > 0.7, 'mostly published')
  const decades = new Set(clusters.map((c) => String(c.date_filed).slice(0, 3)))
  t.same([...decades].sort(), ['195', '196', '197', '198', '199', '200', '201', '202'], 'decided from the 1950s to the 2020s')
  t.ok(clusters.every((c) => String(c.date_filed) >= '1950-01-01' && String(c.date_filed) <= '2025-06-30'))
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

t.test('memory stays flat while streaming 200,000 opinions', async (t) => {
  const gc = collector()
  let opinions = 0, early = 0, peak = 0
  for (const { resource } of generateSample({ courts, opinions: 200_000, seed: 5 })) {
    if (resource !== 'opinions' || ++opinions % 10_000) continue
    gc()
    const heap = process.memoryUsage().heapUsed
    if (opinions === 20_000) early = heap
    peak = Math.max(peak, heap)
  }
  t.equal(opinions, 200_000)
  t.ok(peak - early < 200 * 1024 * 1024, `heap grew ${Math.round((peak - early) / 1e6)} MB after the first 20,000 opinions`)
})
